"""meet.html: the document of the frame that talks to a meeting point (a Nostr relay) for friend games.

The game page's own policy lets it connect to nothing but the site. A friend game through a
meeting point the player allowed goes through this frame instead (site_src/app/meet_link.py): the
page opens it as ``<iframe sandbox="allow-scripts">``, so it runs with an opaque origin and can
reach none of the site's storage, and its policy lets it open WebSockets and load only its two
scripts (the vendored nostr-tools bundle and static/meet.js). The page hands it only notes it has
encrypted already (engine/meeting.py).
"""

from __future__ import annotations

from pathlib import Path

MEET_PAGE = "meet.html"
MEET_POLICY = "default-src 'none'; script-src 'self'; connect-src ws: wss:; base-uri 'none'; form-action 'none'"
"""The frame's Content-Security-Policy: its scripts from the site, WebSockets to any relay (the
player names which; the game page hands over only that address), nothing else."""
SCRIPTS = ("runtime/nostr/nostr.bundle.js", "static/meet.js")


def meeting_frame() -> str:
    """The frame's document: its policy, and its two scripts by relative address."""
    scripts = "".join(f'<script src="{src}"></script>' for src in SCRIPTS)
    return ('<!doctype html>\n<html lang="en">\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{MEET_POLICY}">\n'
            '<meta name="robots" content="noindex">\n<title>Meeting point</title>\n' + scripts + "\n</html>\n")


def write_meeting_frame(out: Path) -> None:
    """dist/meet.html."""
    (out / MEET_PAGE).write_text(meeting_frame(), encoding="utf-8")
