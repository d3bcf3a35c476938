"""Shared fixtures: one fresh build of the site per test session, in a private folder.

Build and browser tests check this build rather than dist/, so they always see the current
sources and never race another run of `make build`. The pages come from pages/, or from
tests/build/fixtures/pages while pages/ holds no home page ($TEST_PAGES_DIR overrides both).
"""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402

FIXTURE_PAGES = ROOT / "tests" / "build" / "fixtures" / "pages"


def site_pages_dir() -> Path:
    """The pages the test build uses: $TEST_PAGES_DIR if set, pages/ once it has a home page,
    else the fixtures."""
    if os.environ.get("TEST_PAGES_DIR"):
        return Path(os.environ["TEST_PAGES_DIR"]).resolve()
    pages = ROOT / "pages"
    return pages if (pages / "index.md").is_file() else FIXTURE_PAGES


@pytest.fixture(scope="session")
def pages_dir() -> Path:
    """Folder of the Markdown pages built for this session."""
    return site_pages_dir()


@pytest.fixture(scope="session")
def site_pages(pages_dir) -> list:
    """The build's Page objects for those pages."""
    return build.load_pages(pages_dir)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, pages_dir) -> Path:
    """A fresh build of the whole site (the dist/ of this session)."""
    return build.build(tmp_path_factory.mktemp("site") / "dist", pages_dir=pages_dir, quiet=True)


def pytest_generate_tests(metafunc):
    """A test taking ``site_page`` runs once per built page (ids are the slugs)."""
    if "site_page" in metafunc.fixturenames:
        pages = build.load_pages(site_pages_dir())
        metafunc.parametrize("site_page", pages, ids=[p.slug for p in pages])
