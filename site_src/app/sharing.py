"""Sharing a game: the replay link of a game code, copying text, and saving a code as a file.

Runs in MicroPython on the main thread (keep to the subset). Used by the replay page and the
game page's end-of-game banner. The clipboard and the file download go through two small
JavaScript functions, because a browser refusing them (no permission, no clipboard) throws or
rejects in JavaScript, and such an exception cannot be caught from MicroPython: they answer
true or false instead.

    link = sharing.replay_link(code)                # an absolute https://.../replay/?code=c1...
    copied = await sharing.copy_text(link)          # False: the page shows the text to copy
    sharing.download("cribbage-game.txt", text)
"""

import js

import bridge

CODE_PREFIX = "c1."
CODE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."
FILE_NAME = "cribbage-game.txt"

JS = js.Function.new("""
  return {
    copy(text) {
      try {
        if (!navigator.clipboard || !navigator.clipboard.writeText) return Promise.resolve(false);
        return navigator.clipboard.writeText(text).then(() => true, () => false);
      } catch (error) { return Promise.resolve(false); }
    },
    download(name, text) {
      try {
        const url = URL.createObjectURL(new Blob([text], {type: "text/plain;charset=utf-8"}));
        const link = document.createElement("a");
        link.href = url;
        link.download = name;
        link.hidden = true;
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10000);
        return true;
      } catch (error) { console.warn("download failed:", error && error.name); return false; }
    },
    absolute(path) {
      try { return new URL(path, window.location.href).href; } catch (error) { return path; }
    }
  };
""")()


def replay_path(code, source=None, seat=None, here=False, at=None):
    """The replay page's address for a code, relative to this page (``here``: on the replay page
    itself). ``source`` (as ``bot-lab``) tells the replay page where the game comes from;
    ``seat`` is the seat to see it from, if not the first person's; ``at`` (hand number, card)
    opens it at the moment that card was about to be laid in that hand (see at_text)."""
    query = ("from=" + source + "&" if source else "") + ("seat=" + str(seat) + "&" if seat is not None else "")
    if at is not None:
        query += "at=" + at_text(*at) + "&"
    return ("" if here else bridge.root() + "replay/") + "?" + query + "code=" + str(code)


def at_text(hand_number, card):
    """A moment of a game in a replay address: "3.17" is hand 3, just before card 17 is laid."""
    return str(int(hand_number)) + "." + str(int(card))


def parse_at(text):
    """The (hand number, card) of an ``at`` text (at_text), or None if it is not one."""
    parts = str(text or "").split(".")
    if len(parts) != 2 or not all(p.isdigit() and 0 < len(p) <= 3 for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def replay_link(code, source=None, seat=None):
    """The replay page's full address for a code (to share); see replay_path."""
    return str(JS.absolute(replay_path(code, source, seat)))


def find_code(text):
    """The game code in a pasted text (a code, a link holding one, or a saved file), or None."""
    text = str(text or "")
    at = text.find(CODE_PREFIX)
    if at < 0:
        return None
    end = at + len(CODE_PREFIX)
    while end < len(text) and text[end] in CODE_CHARS:
        end += 1
    return text[at:end]


def file_text(code, title=None, source=None, seat=None):
    """The text of a saved game file: what it is, the code and the link that replays it."""
    lines = ["A game of cribbage" + (": " + title if title else ""), "",
             "Game code:", code, "", "Replay it at:", replay_link(code, source, seat), ""]
    return "\n".join(lines)


async def copy_text(text):
    """Put text on the clipboard; True if the browser allowed it."""
    try:
        return bool(await JS.copy(text))
    except Exception as error:
        js.console.warn("copy failed:", str(error))
        return False


def download(name, text):
    """Offer text as a file download; True if the browser took it."""
    return bool(JS.download(name, text))
