"""The game page's log after a reload: rebuilt from the saved game, never stored beside it.

Part of the game page (site_src/app/game.py is its entry point). Resuming a game asks the engine
for the lines said so far (the resume_game endpoint with ``log``: engine/host.py's ``said``
replays the game and narrates what this seat saw), less the last moves, which the page is about
to show again and which say themselves.
"""

from table.state import LOG_KEEP, make, q


def fill(lines):
    """Put these lines (oldest first) in the game log, newest at the top."""
    log = q("log")
    log.replaceChildren()
    for text in (lines or [])[-LOG_KEEP:]:
        log.prepend(make("li", None, str(text)))
