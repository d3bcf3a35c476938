"""Mistakes in the sources fail the build with a message that says where and why."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import build
from site_src.builder import settings

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pages"


def page(tmp_path: Path, name: str, front: str, body: str = "## Section\n\nText.\n") -> Path:
    """A pages folder holding the fixture home page and one extra page."""
    pages = tmp_path / "pages"
    pages.mkdir(exist_ok=True)
    shutil.copy(FIXTURES / "index.md", pages / "index.md")
    shutil.copy(FIXTURES / "rules.md", pages / "rules.md")
    shutil.copy(FIXTURES / "calculator.md", pages / "calculator.md")
    shutil.copy(FIXTURES / "scoring.md", pages / "scoring.md")
    shutil.copy(FIXTURES / "glossary.md", pages / "glossary.md")
    (pages / f"{name}.md").write_text(f"---\n{front.strip()}\n---\n{body}", encoding="utf-8")
    return pages


def fails(tmp_path, pages, *needles, templates=None):
    out = tmp_path / "out"
    with pytest.raises(build.BuildError) as info:
        build.build(out, pages_dir=pages, templates_dir=templates, quiet=True)
    message = str(info.value)
    for needle in needles:
        assert needle in message, message
    return message


def test_unknown_placeholder_fails(tmp_path):
    pages = page(tmp_path, "extra", "title: Extra\ndescription: d",
                 "## Data\n\n<!-- data:no_such_table -->\n")
    fails(tmp_path, pages, "extra.md", "no_such_table", "score_distribution")


def test_placeholder_not_alone_on_its_line_fails(tmp_path):
    pages = page(tmp_path, "extra", "title: Extra\ndescription: d",
                 "## Data\n\nSee <!-- data:scoring_chart --> here.\n")
    fails(tmp_path, pages, "extra.md", "alone on its line")


def test_template_typo_fails(tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(settings.TEMPLATES_DIR, templates)
    base = templates / "page.html"
    base.write_text(base.read_text().replace("{{ page.h1 }}", "{{ page.hl }}"), encoding="utf-8")
    fails(tmp_path, FIXTURES, "page.html", "hl", templates=templates)


def test_undefined_template_variable_fails(tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(settings.TEMPLATES_DIR, templates)
    base = templates / "base.html"
    base.write_text(base.read_text().replace("{{ site.name }}", "{{ sitename }}", 1), encoding="utf-8")
    fails(tmp_path, FIXTURES, "sitename", templates=templates)


def test_link_to_missing_page_fails(tmp_path):
    pages = page(tmp_path, "extra", "title: Extra\ndescription: d",
                 "## Links\n\nSee [nothing](/no-such-page/) and [rules](/rules/).\n")
    fails(tmp_path, pages, "no-such-page", "extra/index.html")


def test_link_to_missing_file_fails(tmp_path):
    pages = page(tmp_path, "extra", "title: Extra\ndescription: d",
                 "## Links\n\n![board](/static/no-such-image.png)\n")
    fails(tmp_path, pages, "static/no-such-image.png")


@pytest.mark.parametrize("front, needle", [
    ("description: no title", "'title'"),
    ("title: No description", "'description'"),
    ("title: T\ndescription: d\ntemplate: poster", "poster"),
    ("title: T\ndescription: d\nslug: Bad Slug", "Bad Slug"),
    ("title: T\ndescription: d\ndesciption: typo", "desciption"),
    ("title: T\ndescription: d\nfaq:\n  - question: wrong key", "faq"),
    ("title: T\ndescription: d\nslug: rules", "already used"),
])
def test_bad_front_matter_fails(tmp_path, front, needle):
    pages = page(tmp_path, "extra", front)
    fails(tmp_path, pages, "extra.md", needle)


def test_missing_front_matter_fails(tmp_path):
    pages = page(tmp_path, "extra", "title: T\ndescription: d")
    (pages / "bare.md").write_text("## Just Markdown\n", encoding="utf-8")
    fails(tmp_path, pages, "bare.md", "front matter")


def test_missing_node_modules_fails_clearly(tmp_path, monkeypatch):
    monkeypatch.setattr(settings, "NODE_MODULES", tmp_path / "node_modules")
    fails(tmp_path, FIXTURES, "node_modules", "npm ci")


def test_bad_site_url_fails(tmp_path, monkeypatch):
    monkeypatch.setenv("SITE_URL", "cribbage.example")
    fails(tmp_path, FIXTURES, "SITE_URL")


def test_build_refuses_to_empty_a_foreign_folder(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "precious.txt").write_text("keep me")
    with pytest.raises(build.BuildError, match="refusing"):
        build.build(out, pages_dir=FIXTURES, quiet=True)
    assert (out / "precious.txt").read_text() == "keep me"


def test_a_failed_build_leaves_the_previous_output(tmp_path):
    out = build.build(tmp_path / "out", pages_dir=FIXTURES, quiet=True)
    pages = page(tmp_path, "extra", "title: Extra\ndescription: d", "<!-- data:nope -->\n")
    with pytest.raises(build.BuildError):
        build.build(out, pages_dir=pages, quiet=True)
    assert (out / "index.html").is_file()


def test_link_to_missing_anchor_fails(tmp_path):
    pages = page(tmp_path, "extra", "title: Extra\ndescription: d",
                 "## Links\n\nSee [muggins](/glossary/#muggins) and [nothing](/glossary/#no-such-term).\n")
    message = fails(tmp_path, pages, "extra/index.html", "#no-such-term")
    assert "#muggins" not in message
