"""The built site's offline parts: web app manifest, icons and the service worker's precache."""

from __future__ import annotations

import json
import re
import shutil
from io import BytesIO

import pytest

from site_src.builder import offline
from tests.build.test_built_security import html_files


@pytest.fixture(scope="module")
def manifest(built_site) -> dict:
    return json.loads((built_site / offline.MANIFEST).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def service_worker(built_site) -> str:
    return (built_site / offline.SERVICE_WORKER).read_text(encoding="utf-8")


def precache_of(text: str) -> list[str]:
    return json.loads(re.search(r"const PRECACHE = (\[.*?\]);", text, re.S).group(1))


def test_manifest_makes_the_site_installable(built_site, manifest):
    for key in ("name", "short_name", "start_url", "scope", "display", "theme_color", "background_color", "icons"):
        assert manifest.get(key), key
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"  # works under a subfolder too
    assert len(manifest["short_name"]) <= 12
    assert any(icon["type"] == "image/svg+xml" and icon["sizes"] == "any" for icon in manifest["icons"])
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])


def test_icons_are_real_images_of_their_sizes(built_site, manifest):
    from PIL import Image

    for icon in manifest["icons"]:
        path = built_site / icon["src"]
        assert path.is_file(), icon["src"]
        if icon["type"] == "image/png":
            with Image.open(BytesIO(path.read_bytes())) as image:
                assert image.format == "PNG"
                assert f"{image.width}x{image.height}" == icon["sizes"]


def test_every_page_has_a_png_favicon_and_the_logo_in_its_header(built_site):
    """No SVG for the page to decode as a document of its own as it starts: the favicon is a PNG
    of the logo's design and the header's logo is markup in the page."""
    from PIL import Image

    with Image.open(built_site / "static" / "favicon-32.png") as image:
        assert (image.format, image.width, image.height) == ("PNG", 32, 32)
    logo = offline.LOGO.read_text(encoding="utf-8").strip()
    drawing = re.sub(r">\s+<", "><", logo.split(">", 1)[1].rsplit("</svg>", 1)[0].strip())  # its shapes
    for path in html_files(built_site):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(built_site)
        icons = re.findall(r'<link rel="icon"[^>]*>', text)
        assert len(icons) == 1 and re.fullmatch(
            r'<link rel="icon" href="[./]*static/favicon-32\.png" type="image/png" sizes="32x32">', icons[0]), (name, icons)
        if '<header class="site-header">' in text:
            header = text.split('<header class="site-header">')[1].split("</header>")[0]
            assert header.count('<svg class="brand-mark"') == 1, name
            assert drawing in header, name
            assert "<img" not in header, name


def test_every_page_links_manifest_and_registration_script(built_site):
    for path in html_files(built_site):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(built_site)
        assert re.search(r'<link rel="manifest" href="[./]*manifest\.webmanifest">', text), name
        assert re.search(r'<script src="[./]*static/offline\.js" async></script>', text), name
        assert "serviceWorker" not in text, f"{name}: registration belongs in static/offline.js"


def test_service_worker_precaches_every_page_and_the_runtime(built_site, site_pages, service_worker):
    urls = precache_of(service_worker)
    assert len(urls) == len(set(urls))
    for page in site_pages:
        assert (page.path or "./") in urls, page.slug
    for needed in ("404.html", "manifest.webmanifest", "static/site.css", "app/game.json",
                   "app/engine_worker.mjs", "app/engine.pack", "static/engine.js", "app/pack.mpy", "app/game.pack",
                   "engine/data/show_table.bin", "runtime/pyscript/core.js",
                   "runtime/micropython/micropython.wasm"):
        assert needed in urls, needed
    for url in urls:
        target = built_site / (url + "index.html" if url.endswith("/") else url)
        assert url == "./" or target.is_file(), url
        assert not url.endswith((".gz", ".br")) and not url.startswith("/"), url
    for rel in ("sitemap.xml", "robots.txt", offline.SERVICE_WORKER):
        assert rel not in urls
    pyodide = [url for url in urls if url.startswith("runtime/pyodide/")]
    assert not pyodide, "Pyodide (the bot lab's alone) is not precached for every visitor"


def test_cache_name_follows_the_content(built_site, site_pages, tmp_path, service_worker):
    name = re.search(r'const CACHE = CACHE_PREFIX \+ "([0-9a-f]{16})";', service_worker)
    assert name, "the cache is named after the build"
    copy = tmp_path / "site"
    shutil.copytree(built_site, copy)
    assert offline.write_service_worker(copy, site_pages) == "cribbage-" + name.group(1)  # same files, same name
    (copy / "engine" / "api.py").write_text("# changed\n", encoding="utf-8")
    assert offline.write_service_worker(copy, site_pages) != "cribbage-" + name.group(1)


def test_service_worker_keeps_to_its_strategies(service_worker):
    """Old caches go on activate; the runtime comes from the cache first, pages from the network."""
    assert "caches.delete" in service_worker and "clients.claim" in service_worker
    assert "cacheFirst" in service_worker and "networkFirst" in service_worker
    assert "__CACHE_VERSION__" not in service_worker and "__PRECACHE__" not in service_worker
    assert "__HASHES__" not in service_worker
    assert "http://" not in service_worker.split("*/", 1)[1] and "https://" not in service_worker.split("*/", 1)[1]


def hashes_of(text: str) -> dict[str, str]:
    return json.loads(re.search(r"const HASHES = (\{.*?\});", text, re.S).group(1))


def test_service_worker_knows_the_hash_of_every_file_it_may_keep(built_site, service_worker):
    """Every precached file and every Pyodide file (cached as it is used) has its SHA-256 in the
    service worker, which serves nothing from its cache whose bytes hash otherwise."""
    import hashlib

    hashes = hashes_of(service_worker)
    urls = precache_of(service_worker)
    wanted = {offline.build_path(url) for url in urls}
    wanted |= {path.relative_to(built_site).as_posix() for path in (built_site / "runtime" / "pyodide").iterdir()
               if path.suffix not in (".br", ".gz")}
    assert set(hashes) == wanted
    for path, digest in hashes.items():
        assert hashlib.sha256((built_site / path).read_bytes()).hexdigest() == digest, path
    assert offline.build_path("./") == "index.html" and offline.build_path("rules/") == "rules/index.html"
    for word in ("isBuilt", "fromCache", "crypto.subtle.digest"):
        assert word in service_worker, word
