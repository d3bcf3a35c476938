"""Working offline: the web app manifest and its icons, and the service worker with its precache list;
and the logo as each page's header draws it."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from markupsafe import Markup

from site_src.builder.compress import COMPRESSED_SUFFIXES
from site_src.builder.output import OUT_MARKER, replace_file
from site_src.builder.pages import Page
from site_src.builder.settings import LANGUAGE, SITE_NAME, SITE_SRC, SITE_TAGLINE, BuildError

SERVICE_WORKER_TEMPLATE = SITE_SRC / "sw.js"
SERVICE_WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
THEME_COLOUR = "#1d5c3a"
BACKGROUND_COLOUR = "#f7f6f1"
PNG_ICONS = {"favicon-32.png": (32, False), "icon-180.png": (180, True), "icon-192.png": (192, False),
             "icon-512.png": (512, False), "icon-maskable-512.png": (512, True)}
"""PNG icons drawn at build time into static/: file name -> (size in pixels, full-bleed). The
32-pixel one is every page's favicon: a browser decodes an SVG favicon on the page's main thread,
as a document of its own (about 15 ms with the CPU 4x slower), while the page is starting. The
180-pixel one is the apple-touch-icon (iOS rounds its corners itself, so it has none).
"""
PRECACHE_FOLDERS = ("static", "app", "engine", "runtime", "downloads")
PRECACHE_SKIP = ("runtime/pyodide/",)
"""Files under PRECACHE_FOLDERS that are not precached: Pyodide (13 MB) serves the bot lab alone,
and is kept in the cache once that page has loaded it (the runtime is cached as it is used)."""


LOGO = SITE_SRC / "static" / "logo.svg"
LOGO_OPENING = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'


def header_logo() -> Markup:
    """static/logo.svg as the markup of the header's brand mark, written into each page: an
    ``<img>`` of an SVG file is decoded on the page's main thread as a document of its own (about
    12 ms with the CPU 4x slower), while the page is starting; markup in the page is not."""
    text = LOGO.read_text(encoding="utf-8").strip()
    if not text.startswith(LOGO_OPENING):
        raise BuildError(f"{LOGO}: expected it to open with {LOGO_OPENING}")
    opening = ('<svg class="brand-mark" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="32" '
               'height="32" aria-hidden="true" focusable="false">')
    return Markup(opening + re.sub(r">\s+<", "><", text[len(LOGO_OPENING):].strip()))


def draw_icon(size: int, maskable: bool = False) -> bytes:
    """static/logo.svg's design as a PNG (Pillow, which fpdf2 already needs, draws it)."""
    from io import BytesIO

    from PIL import Image, ImageDraw

    if maskable:  # a full-bleed background, the logo inside the central safe zone (80 %)
        inner = Image.open(BytesIO(draw_icon(round(size * 0.8)))).convert("RGBA")
        image = Image.new("RGBA", (size, size), THEME_COLOUR)
        image.alpha_composite(inner, ((size - inner.width) // 2, (size - inner.height) // 2))
        out = BytesIO()
        image.convert("RGB").quantize(colors=256).save(out, "PNG", optimize=True)  # a palette: a third the size
        return out.getvalue()
    big = size * 4  # drawn four times over, then scaled down: smooth edges
    u = big / 64  # one unit of the logo's 64 x 64 viewBox
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([0, 0, big - 1, big - 1], radius=14 * u, fill=THEME_COLOUR)
    draw.rounded_rectangle([6 * u, 6 * u, 58 * u, 58 * u], radius=10 * u, outline="#b07d1e",
                           width=round(2.5 * u))
    turn = math.radians(-10)  # the card is drawn turned as in the logo: rotate(-10 32 32)

    def turned(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [((32 + (x - 32) * math.cos(turn) - (y - 32) * math.sin(turn)) * u,
                 (32 + (x - 32) * math.sin(turn) + (y - 32) * math.cos(turn)) * u) for x, y in points]

    draw.polygon(turned(rounded_rectangle_outline(18, 12, 46, 52, 4.5)), fill="#fffdf8", outline="#c9c6ba",
                 width=round(u))
    draw.polygon(turned(heart_outline()), fill="#c0262d")
    for cx, cy in ((13, 51), (51, 13)):
        draw.ellipse([(cx - 2.4) * u, (cy - 2.4) * u, (cx + 2.4) * u, (cy + 2.4) * u], fill="#f6e7c4")
    out = BytesIO()
    small = image.resize((size, size), Image.LANCZOS)
    small.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(out, "PNG", optimize=True)
    return out.getvalue()


def rounded_rectangle_outline(left: float, top: float, right: float, bottom: float, radius: float,
                              steps: int = 12) -> list[tuple[float, float]]:
    """Points around a rectangle with rounded corners, clockwise from the top left corner."""
    corners = ((right - radius, top + radius, -90), (right - radius, bottom - radius, 0),
               (left + radius, bottom - radius, 90), (left + radius, top + radius, 180))
    return [(cx + radius * math.cos(math.radians(start + 90 * i / steps)),
             cy + radius * math.sin(math.radians(start + 90 * i / steps)))
            for cx, cy, start in corners for i in range(steps + 1)]


def heart_outline(steps: int = 24) -> list[tuple[float, float]]:
    """Points along the heart of static/logo.svg (a start point and relative cubic curves)."""
    numbers = [float(n) for n in re.findall(r"-?\d*\.?\d+", "32 42 -7 -5.2 -10.5 -8.6 -10.5 -12.6 0 -3 2.3 "
               "-5.1 5 -5.1 2.3 0 4.3 1.4 5.5 3.4 1.2 -2 3.2 -3.4 5.5 -3.4 2.7 0 5 2.1 5 5.1 0 4 -3.5 7.4 -10.5 12.6")]
    x, y = numbers[0], numbers[1]
    points = [(x, y)]
    for i in range(2, len(numbers), 6):
        c = numbers[i:i + 6]
        p1, p2, p3 = (x + c[0], y + c[1]), (x + c[2], y + c[3]), (x + c[4], y + c[5])
        for step in range(1, steps + 1):
            t = step / steps
            a, b, d, e = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t ** 2, t ** 3
            points.append((a * x + b * p1[0] + d * p2[0] + e * p3[0], a * y + b * p1[1] + d * p2[1] + e * p3[1]))
        x, y = p3
    return points


def write_manifest(out: Path) -> None:
    """manifest.webmanifest (so phones can install the site) and the PNG icons it lists."""
    for name, (size, maskable) in PNG_ICONS.items():
        (out / "static" / name).write_bytes(draw_icon(size, maskable))
    icons = [{"src": "static/logo.svg", "sizes": "any", "type": "image/svg+xml"}]
    icons += [
        {"src": f"static/{name}", "sizes": f"{size}x{size}", "type": "image/png",
         **({"purpose": "maskable"} if maskable else {})}
        for name, (size, maskable) in PNG_ICONS.items() if size >= 192
    ]
    manifest = {
        "id": "./",
        "name": f"{SITE_NAME}: {SITE_TAGLINE.lower()}",
        "short_name": SITE_NAME,
        "description": f"{SITE_TAGLINE}: play against the computer, count hands and learn the rules, "
                       "even offline.",
        "lang": LANGUAGE,
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games", "entertainment"],
        "icons": icons,
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def precache_list(out: Path, pages: list[Page]) -> list[str]:
    """What the service worker stores on install: every page, the manifest and every file under
    PRECACHE_FOLDERS (the runtime included, PRECACHE_SKIP aside), as URLs relative to the site's root."""
    urls = [page.path or "./" for page in sorted(pages, key=lambda p: (p.slug != "index", p.slug))]
    urls += ["404.html", MANIFEST]
    for folder in PRECACHE_FOLDERS:
        urls += sorted(
            path.relative_to(out).as_posix() for path in (out / folder).rglob("*")
            if path.is_file() and path.suffix not in COMPRESSED_SUFFIXES
            and not path.relative_to(out).as_posix().startswith(PRECACHE_SKIP)
        )
    return urls


def build_path(url: str) -> str:
    """The file behind a precached address, as the service worker names it: "rules/" -> "rules/index.html"."""
    if url == "./":
        return "index.html"
    return url + "index.html" if url.endswith("/") else url


def file_hashes(out: Path, urls: list[str]) -> dict[str, str]:
    """The SHA-256 (hex) of every file the service worker may keep: the precached ones and those
    PRECACHE_SKIP leaves to be cached as they are used, by build_path."""
    import hashlib

    paths = [build_path(url) for url in urls]
    paths += sorted(path.relative_to(out).as_posix() for skipped in PRECACHE_SKIP for path in (out / skipped).rglob("*")
                    if path.is_file() and path.suffix not in COMPRESSED_SUFFIXES)
    return {path: hashlib.sha256((out / path).read_bytes()).hexdigest() for path in paths}


def site_digest(out: Path, extra: bytes = b"") -> str:
    """A hash of every built file (names and bytes), service worker and compressed twins aside."""
    import hashlib

    digest = hashlib.sha256(extra)
    for path in sorted(out.rglob("*")):
        name = path.relative_to(out).as_posix()
        if path.is_file() and name not in (SERVICE_WORKER, OUT_MARKER) and path.suffix not in COMPRESSED_SUFFIXES:
            digest.update(name.encode() + b"\0")
            with path.open("rb") as stream:
                while chunk := stream.read(1 << 20):
                    digest.update(chunk)
            digest.update(b"\0")
    return digest.hexdigest()


def write_service_worker(out: Path, pages: list[Page]) -> str:
    """dist/sw.js from site_src/sw.js, its cache named after the build's content, with the hash of
    every file it may keep (``file_hashes``); returns the name."""
    template = SERVICE_WORKER_TEMPLATE.read_text(encoding="utf-8")
    for marker in ("__CACHE_VERSION__", "__PRECACHE__", "__HASHES__"):
        if marker not in template:
            raise BuildError(f"{SERVICE_WORKER_TEMPLATE}: {marker} is missing")
    urls = precache_list(out, pages)
    missing = [url for url in urls if not (out / (url if not url.endswith("/") else url + "index.html")).is_file()
               and url != "./"]
    if missing:
        raise BuildError(f"the service worker would precache missing files: {', '.join(missing)}")
    version = site_digest(out, template.encode())[:16]
    hashes = json.dumps(file_hashes(out, urls), indent=1, sort_keys=True)
    text = (template.replace("__CACHE_VERSION__", version).replace("__PRECACHE__", json.dumps(urls, indent=1))
            .replace("__HASHES__", hashes))
    for suffix in COMPRESSED_SUFFIXES:  # a twin of the last worker would now be stale
        (out / (SERVICE_WORKER + suffix)).unlink(missing_ok=True)
    replace_file(out / SERVICE_WORKER, text.encode("utf-8"))
    return "cribbage-" + version
