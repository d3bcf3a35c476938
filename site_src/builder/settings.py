"""Where things are and what the site is called: paths, SITE_URL and REPORT_URL, the build's error."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
PAGES_DIR = ROOT / "pages"
SITE_SRC = ROOT / "site_src"
TEMPLATES_DIR = SITE_SRC / "templates"
STATIC_DIR = SITE_SRC / "static"
APP_DIR = SITE_SRC / "app"  # the pages' Python (MicroPython, main thread): each page's modules
WORKERS_DIR = SITE_SRC / "workers"  # what runs off the main thread: the engine's, the expert's, the bot lab's
ENGINE_DIR = ROOT / "engine"
NODE_MODULES = ROOT / "node_modules"

DEFAULT_SITE_URL = "https://cribbage.example"
SITE_NAME = "Cribbage"
SITE_TAGLINE = "Free cribbage in your browser"
LANGUAGE = "en"


class BuildError(Exception):
    """The sources cannot be built; the message says which file and why."""


def in_project(path: str | os.PathLike) -> Path:
    """``path`` as a Path, a relative one taken from the project folder."""
    path = Path(path)
    return path if path.is_absolute() else ROOT / path


def site_url() -> str:
    """The SITE_URL setting without a trailing slash; must be an absolute http(s) address."""
    url = os.environ.get("SITE_URL", "").strip() or DEFAULT_SITE_URL
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BuildError(f"SITE_URL must be an absolute http(s) address, got {url!r}")
    return url.rstrip("/")


EMAIL_RE = re.compile(r"[^@\s/:?#]+@[^@\s/:?#]+\.[^@\s/:?#]+")


def report_url() -> str | None:
    """The REPORT_URL setting as a link (an http(s) address or mailto:), or None when it is not set."""
    value = os.environ.get("REPORT_URL", "").strip()
    if not value:
        return None
    if EMAIL_RE.fullmatch(value):
        return f"mailto:{value}"
    parts = urlsplit(value)
    if parts.scheme == "mailto" and EMAIL_RE.fullmatch(parts.path):
        return value
    if parts.scheme in ("http", "https") and parts.netloc:
        return value
    raise BuildError(f"REPORT_URL must be an http(s) address, a mailto: link or an email address, got {value!r}")
