"""Build the static site: pages/*.md + site_src/ + engine/ + the vendored browser runtime -> dist/.

``python build.py`` (or ``build()``) writes dist/. Settings come from the environment:
SITE_URL (absolute address the site is served from, for canonical URLs and the sitemap;
default https://cribbage.example) and REPORT_URL (where readers report a mistake: an http(s)
address, a mailto: link or an email address; unset, the site offers no such link).

Pages are Markdown with YAML front matter (see README.md). A line holding only
``<!-- data:NAME -->`` is replaced by the HTML of the data provider NAME; a provider is one
function decorated with ``@provider`` in site_src/builder/providers.py, returning an HTML string
computed from the engine.

Every page gets a Content-Security-Policy <meta> (site_src/builder/security.py). The build also
writes the web app manifest and its icons, the offline service worker sw.js (its cache named
after a hash of the build), and .gz and .br twins of every text or wasm file.

This file is the pipeline; each stage lives in site_src/builder/, one module per concern.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import jinja2

from site_src.builder import botlab, providers, settings
from site_src.builder.browser_python import app_modules, plugins, write_python_files
from site_src.builder.compress import write_compressed
from site_src.builder.links import Links, relative_prefix, under_base_path, write_robots, write_sitemap
from site_src.builder.offline import header_logo, write_manifest, write_service_worker
from site_src.builder.output import copy_tree, prepare_out_dir
from site_src.builder.pages import Page, load_pages, nav_links
from site_src.builder.render import Renderer, first_paint_board, make_environment, page_context
from site_src.builder.runtime import EDITOR_SCRIPT, editor_preloads, runtime_preloads, vendor_runtime, with_preloads
from site_src.builder.meeting import write_meeting_frame
from site_src.builder.security import with_csp
from site_src.builder.styles import with_style_bundle, write_style_bundles
from site_src.builder.serve import serve
from site_src.builder.settings import BuildError, in_project, report_url, site_url
from site_src.scoresheet import write_score_sheets


def build(out_dir: str | os.PathLike = "dist", pages_dir: str | os.PathLike | None = None,
          templates_dir: str | os.PathLike | None = None, quiet: bool = False) -> Path:
    """Build the whole site into ``out_dir`` (relative paths are taken from the project folder)."""
    started = time.perf_counter()
    out = in_project(out_dir)
    base_url = site_url()
    if not settings.NODE_MODULES.is_dir():
        raise BuildError(f"{settings.NODE_MODULES} is missing: run `npm ci` (or `make deps`) first")
    pages = load_pages(Path(pages_dir) if pages_dir else settings.PAGES_DIR)
    env = make_environment(Path(templates_dir) if templates_dir else settings.TEMPLATES_DIR)
    env.globals["bot_examples"] = botlab.examples  # the bot lab's example bots (site_src/bots/)
    env.globals["bot_sandbox"] = botlab.sandbox_srcdoc  # the document of the frame the bot runs in
    env.globals["app_modules"] = app_modules()  # each page module -> the UI modules its page loads
    env.globals["pyscript_plugins"] = plugins  # page module -> its configs' plugins setting
    env.globals["first_paint_board"] = first_paint_board  # the game page's board before its Python runs
    env.globals["header_logo"] = header_logo()  # static/logo.svg as the header's markup
    links = Links({p.slug for p in pages})
    header_nav, footer_nav = nav_links(pages)
    frame = {
        "site": {"name": settings.SITE_NAME, "tagline": settings.SITE_TAGLINE, "url": base_url,
                 "lang": settings.LANGUAGE, "report_url": report_url()},
        "header_nav": header_nav,
        "footer_nav": footer_nav,
    }

    # Render everything before touching out_dir, so a failing build leaves the last good one.
    bundles: dict[str, list[str]] = {}  # joined stylesheets: file name -> the sheets in it
    rendered = render_pages(pages, env, links, frame, bundles)
    not_found = render_not_found(env, links, frame, has_home="index" in links.slugs)
    links.check_anchors({page.slug: rendered[page.output] for page in pages})

    prepare_out_dir(out)
    copy_tree(settings.STATIC_DIR, out / "static")
    with (out / "static" / "site.css").open("a", encoding="utf-8") as css:
        css.write("\n" + providers.heat_css())
    write_style_bundles(out / "static", bundles)
    write_score_sheets(out / "downloads")
    vendor_runtime(out)
    write_python_files(out)
    botlab.write_sandbox(out)
    write_meeting_frame(out)
    for name, text in rendered.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (out / "404.html").write_text(not_found, encoding="utf-8")
    write_sitemap(out, pages, base_url)
    write_robots(out, base_url)
    write_manifest(out)

    links.check_files(out)
    write_service_worker(out, pages)
    write_compressed(out)
    if not quiet:
        print(f"Built {len(pages)} pages into {out} in {time.perf_counter() - started:.2f} s ({base_url})")
    return out


def render_pages(pages: list[Page], env: jinja2.Environment, links: Links, frame: dict,
                 bundles: dict[str, list[str]]) -> dict[str, str]:
    """Each page's finished HTML by its file in dist/: its template filled, links made relative,
    its stylesheets joined into one (recorded in ``bundles``), the runtime preloaded where
    PyScript starts, its Content-Security-Policy in place."""
    renderer = Renderer(providers.PROVIDERS)
    preloads = runtime_preloads()
    editor = preloads + editor_preloads()
    rendered: dict[str, str] = {}
    for page in pages:
        try:
            template = env.get_template(f"{page.template}.html")
            text = template.render(
                **frame, current=page.slug, root=relative_prefix(page.depth),
                **page_context(page, renderer, frame["site"]["url"]),
            )
        except jinja2.TemplateError as error:
            raise BuildError(f"{page.source}: template {page.template}.html: {type(error).__name__}: {error}") from None
        text = with_style_bundle(links.rewrite(text, page.depth, page.output), bundles)
        text = with_preloads(text, editor if EDITOR_SCRIPT in text else preloads)
        rendered[page.output] = with_csp(text, page.output)
    return rendered


def render_not_found(env: jinja2.Environment, links: Links, frame: dict, has_home: bool) -> str:
    """404.html. It is served at any missing address, so its links stay root-relative (from
    SITE_URL's path); they are checked like every page's."""
    base_path = urlsplit(frame["site"]["url"]).path.rstrip("/")
    try:
        text = env.get_template("404.html").render(**frame, current="404", root=base_path + "/", has_home=has_home)
    except jinja2.TemplateError as error:
        raise BuildError(f"template 404.html: {type(error).__name__}: {error}") from None
    links.rewrite(text, 0, "404.html")  # only to check its links: the text keeps them root-relative
    return with_csp(under_base_path(text, base_path), "404.html")


def main(argv: list[str]) -> int:
    """Command line: ``python build.py [OUT_DIR]`` builds; ``--serve [--port N]`` then serves."""
    import argparse

    parser = argparse.ArgumentParser(description="Build the cribbage site into a folder.")
    parser.add_argument("out_dir", nargs="?", default="dist", help="output folder (default: dist)")
    parser.add_argument("--serve", action="store_true", help="serve the folder after building")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default: 8000)")
    args = parser.parse_args(argv[1:])
    try:
        out = build(args.out_dir)
    except BuildError as error:
        print(f"build failed: {error}", file=sys.stderr)
        return 1
    if args.serve:
        serve(out, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
