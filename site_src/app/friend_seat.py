"""The friend game at the table: its seat and texts, the connection it is played over, and the
line that says how it goes.

Part of the game page's friend games (friend_play.py is their entry point; friend_panels.py
makes and answers invitations, friend_live.py carries moves and chat). Runs in MicroPython on
the main thread.
"""

import js
from dom import window

import board
import friend_store
from table import score_strip
from table.setup import close_setup, meta_from, open_setup, reset_table
from table.state import S, blank_model, cap, q, shown
from table.flow import take
from table.prompt import bring_into_view, set_waiting

INVITE_MARK = "#invite="
REPLY_MARK = "#reply="
PLAY_MARK = "#play="
CONNECT_MARK = "#connect="
PANEL_MARK = "#friend-panel"  # the site menu's "Play a friend": the page opens the invitation form
REPLY_PREFIX = "fr1."  # a reply's text (engine/friend.py)
MEET_SIGNAL = "meet"  # the signal of an invitation whose pages find each other through a meeting point
SAME_SIGNAL = "same"  # the signal of an invitation to another game, over the connection it came by
INVITE_PREFIX = "fi1."  # an invitation's text (engine/friend.py)
SAME_NETWORK = ("Live play needs both devices on the same network; "
                "links work from anywhere.")
LIVE = "Connected live to {}: moves arrive as they are made."
BY_LINK = "Playing {} by link: after each of your moves, send the link below."
THROUGH_MEETING = ("Playing {} through the meeting point: moves arrive as they are made, and wait there "
                   "while one of you is away.")
SEALED_APART = ("Not connected to {}. This game's deck is sealed, so it goes on over a live connection "
                "only: press Connect live and send the code.")

LIVE_STATE = {"link": None, "inbox": [], "draining": False, "muted": False, "hello": None}
"""The page's direct connection (a peer_link.PeerLink, or None), the messages waiting to be taken,
whether the friend's chat is muted, and the friend's greeting while it has no game (its game id
and text, made with its reply)."""


def parts():
    """The friend game's texts, as every friend endpoint needs them."""
    f = S["friend"]
    return {"invite": f["invite"], "reply": f["reply"], "seat": f["seat"], "secret": f["secret"]}


def other_name():
    """The friend's name."""
    f = S["friend"]
    return (f.get("names") or ["", ""])[1 - f["seat"]] or "your friend"


def page_address():
    """This page's address, without its query or fragment."""
    return str(window.location.origin) + str(window.location.pathname)


def show_panel(step):
    """Show one step of the friend panel (or none: the panel hidden)."""
    shown("friend-panel", bool(step))
    for name in ("friend-make", "friend-sent", "friend-invited", "friend-replied"):
        shown(name, name == step)
    if step:
        if step == "friend-make" and S["friend"] is None:  # not "You / Computer" while a friend game is set up
            names = ["You", "Your friend"]
            board.render("#board", names, 121)
            score_strip.render(names, [0, 0], 121)
        q("setup").hidden = True
        q("game").classList.add("is-setup")
        q("status-hand").textContent = "A game of cribbage with a friend"
        set_waiting("setup")
        bring_into_view(q("friend-panel"))


def is_live():
    """True while the direct connection is open."""
    return LIVE_STATE["link"] is not None and LIVE_STATE["link"].is_open()


def is_meet():
    """True when the game's messages go through a meeting point."""
    link = LIVE_STATE["link"]
    return link is not None and getattr(link, "role", "") == "meet" and link.state != "ended"


def send(messages):
    """Messages to the other page, over the connection if it is open."""
    link = LIVE_STATE["link"]
    if messages and link is not None and (link.is_open() or is_meet()):  # a meeting point's wait in its frame
        link.send_all(messages)  # together: the other page takes them in one go


def seat_table(entry, reply):
    """Seat a friend game at the table (the engine's reply for this page's seat)."""
    before = S["friend"] if S["friend"] is not None and S["friend"]["id"] == entry["id"] else {}
    S["friend"] = {"id": entry["id"], "seat": entry["seat"], "invite": entry["invite"], "reply": entry["reply"],
                   "secret": entry["secret"], "names": list(reply.get("names") or entry["names"]),
                   "seal": bool(entry.get("seal") or before.get("seal")),  # a sealed game (friend_seal.py)
                   "sealed": before.get("sealed") or entry.get("sealed")}
    S["players"] = 2
    S["passing"] = False
    S["names"] = list(S["friend"]["names"])
    S["me"] = entry["seat"]
    S["hidden"] = False
    S["meta"] = meta_from(reply)
    S["meta"].update({"friend": entry["id"], "practice": False, "practice_seed": None})
    S["slot"] = "friend"
    S["readonly"] = False
    friend_store.set_current(entry["id"])
    S["game"] = None
    show_panel("")
    close_setup()
    reset_table(reply["view"]["target"])
    S["model"] = blank_model(reply["view"])
    shown("friend-bar", True)
    shown("practice-badge", False)
    q("status-hand").textContent = "A game of cribbage with " + other_name()
    q("friend-chat-log").replaceChildren()
    say_connection()


async def took(reply):
    """A reply taken as the step of a flow."""
    take(reply)
    return True


def settle():
    """Nothing new for the table: offer again the decision the flow put aside (True), or, before
    the game has started here, nothing (False)."""
    return S["game"] is not None


def adopt(table):
    """A reply that moves the game on: seat it first if this page had no table yet."""
    if S["game"] is None or S.get("slot") != "friend":
        entry = friend_store.get(S["friend"]["id"]) or S["friend"]
        seat_table(entry, table)
    take(table)
    q("friend-refused").hidden = True
    return True


def refuse(message):
    """Say why something from the other side was refused."""
    box = q("friend-refused")
    said = cap(message.strip())
    box.textContent = "Refused: " + said + ("" if said.endswith((".", "!", "?")) else ".") + \
        " Nothing has changed in the game."
    box.hidden = False
    if S["game"] is None:  # not at the table yet: say it where the player is looking
        q("friend-replied-status").textContent = box.textContent
        q("friend-sent-status").textContent = box.textContent
    js.console.warn("Friend message refused:", message)


def say_connection(reason=""):
    """The line that says how this game is being played."""
    if S["friend"] is None:
        return
    name = other_name()
    meet = is_meet()
    if meet and is_live():
        text = THROUGH_MEETING.replace("{}", name)
    elif meet:
        text = reason or LIVE_STATE["link"].reason or THROUGH_MEETING.replace("{}", name)
    elif is_live():
        text = LIVE.replace("{}", name)
    elif S["friend"].get("seal"):
        text = (reason + " " if reason else "") + SEALED_APART.replace("{}", name)
    elif reason:
        text = reason + " " + BY_LINK.replace("{}", name)
    else:
        text = BY_LINK.replace("{}", name) + " " + SAME_NETWORK
    q("friend-connection").textContent = text
    live = is_live() or meet  # through a meeting point, chat lines wait there as moves do
    shown("friend-reconnect", not live)  # connecting again is for a game going by link
    shown("friend-chat-form", live)
    shown("friend-phrases", live)
    shown("friend-chat-off", not live)


def show_setup_note(text):
    """A sentence where the player is looking when no friend game is at the table."""
    if S["game"] is None:
        open_setup(False)
        q("setup-message").textContent = text

