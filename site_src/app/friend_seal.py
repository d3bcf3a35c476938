"""A sealed friend game on the page: the engine's sealed calls, the shuffles run between them, the game's text kept.

Part of the game page's friend games (friend_play.py is their entry point). A friend game that
starts over the live connection is sealed (engine/friend_sealed.py): each hand's deck is
shuffled and locked by both pages, so neither holds a card of the other hand before the rules
show it. The engine answers each call with the game's new text, kept in the friend entry
(``sealed``) and handed to the next call, and with the messages to send; the shuffles it leaves
(``work``) run in the engine's worker in the background, while the table shows the deal, and
their messages go as soon as they are made. A sealed game goes on over the live connection
only: after a reload or a dropped connection, connecting again sends whatever the other side
missed.
"""

import asyncio

import bridge
import friend_store
from friend_seat import LIVE_STATE, parts, refuse, send
from table.state import S

SEAL_MARK = '"t":"seal'  # a sealed game's message (the engine checks what it really is)
HELLO_MARK = '"t":"hello"'  # an ordinary greeting: from a friend page that has no game yet
STATE = {"working": False, "table_calls": 0, "shown_calls": 0, "begun_on": None, "preview": False, "drawing": False}
"""table_calls: the call that gave the newest table; shown_calls: the call whose table the page
shows (or is about to), waiting ones older than it are let go; preview: the table shows the first deal face
down (the engine's table while the deck is sealed), so the deal's table need not show it again;
drawing: the game's first table is being drawn (the shuffles wait: the first cards come first)."""
WAITING_TABLES = []
"""Table replies come from the friend's messages, waiting to be shown in order (friend_live.py's
show_sealed_tables), each with the events of its call only."""
PREVIEW_WAIT = 0.15
"""Seconds after the game begins before the first deal is shown face down (``preview_later``):
cards read sooner come straight onto the table, with no sealed table drawn before them."""


def is_sealed():
    """True when the friend game at the table is (or is about to be) a sealed one."""
    return S["friend"] is not None and bool(S["friend"].get("seal"))


def is_sealed_message(text):
    """True for a message the sealed calls take (a sealed game's, or a greeting to answer)."""
    return SEAL_MARK in text or (is_sealed() and HELLO_MARK in text)


def _keep(answer):
    """Send the answer's messages, then keep the game's new text (in the entry); the table reply,
    if any, with the finished game's record as its game once both sides have checked it. The
    messages go first: the other page works on them while this one writes the device's copy
    (in the same task, so nothing can come between the two)."""
    S["friend"]["sealed"] = answer["game"]
    send(answer["send"])
    entry = friend_store.get(S["friend"]["id"])
    if entry is not None:
        entry["seal"] = True
        entry["sealed"] = answer["game"]
        friend_store.put(entry)
    table = answer["table"]
    if table is not None:
        table["calls"] = STATE["table_calls"] = answer["calls"]
        if answer["final"] is not None:
            table["game"] = answer["final"]
    return table


def is_stale(table):
    """True for a table reply older than the one the page shows (which told its events)."""
    return table.get("calls", 0) < STATE["shown_calls"]


def is_preview(table):
    """True for the table of the first deal face down, shown while the deck is sealed."""
    return bool(table["view"].get("sealing"))


async def preview_later(show):
    """The first deal face down, given to ``show`` if no table has come ``PREVIEW_WAIT`` after the
    game began (its cards are a while coming: a slow link or a slow device)."""
    calls = STATE["table_calls"]
    await asyncio.sleep(PREVIEW_WAIT)
    if STATE["table_calls"] != calls or not is_sealed() or not S["friend"].get("sealed"):
        return
    try:
        table = (await bridge.call("sealed_preview", {"game": S["friend"]["sealed"]}))["table"]
    except bridge.EngineError:
        return  # the cards come as they come
    if table is not None and STATE["table_calls"] == calls:
        table["calls"] = calls
        show(table)


def to_show(table):
    """A table about to be shown: after the first deal face down, the deal's table brings only
    the cards (the cut and the deal are on the table already)."""
    STATE["shown_calls"] = max(STATE["shown_calls"], table.get("calls", 0))
    if is_preview(table):
        STATE["preview"] = True
    elif STATE["preview"]:
        STATE["preview"] = False
        table["events"] = [e for e in table["events"] if e["type"] not in ("cut", "deal")]
    return table


def keep(answer):
    """``_keep``, then the shuffles the answer leaves, in the background."""
    table = _keep(answer)
    if answer["work"]:
        bridge.launch(work())
    return table


async def work():
    """Run the waiting shuffles one at a time, each one's messages sent as it ends."""
    if STATE["working"]:
        return
    STATE["working"] = True
    try:
        while is_sealed() and S["friend"].get("sealed"):
            while STATE["drawing"]:
                await asyncio.sleep(0.01)
            answer = await bridge.call("sealed_work", {"game": S["friend"]["sealed"]})
            _keep(answer)
            if not answer["work"]:
                break
    except bridge.EngineError as error:
        refuse(error.message)
    finally:
        STATE["working"] = False


async def prepare(entry):
    """Before a live game begins: the heavy part of its first hand worked out ahead in the worker
    (the inviter's shuffle while the invitation waits for its reply, the friend's masks while the
    reply does), from this side's seal secret (the one its invitation commits to or its reply's
    openings follow from, or else one drawn now), kept in its entry."""
    try:
        secret = (await bridge.call("sealed_prepare", {"seat": entry["seat"],
                                                       "seal_secret": entry.get("seal_secret")}))["seal_secret"]
    except bridge.EngineError:
        return  # begin or join draws the secret and works it out then
    friend = S["friend"]
    if friend is not None and friend["id"] == entry["id"]:
        if friend.get("sealed"):
            return  # begun meanwhile, with a secret of its own
        friend["seal_secret"] = secret
    entry["seal_secret"] = secret
    if friend_store.get(entry["id"]) is not None:
        friend_store.put(entry)


async def begin_ahead():
    """The inviter's sealed game begun while the connection opens: the engine's answer, kept
    and sent by ``begin`` once it is open (nothing is kept if it never opens). Its table comes
    with the cards (or by ``preview_later``)."""
    return await bridge.call("sealed_begin", dict(parts(), seal_secret=S["friend"].get("seal_secret")))


def begin(answer):
    """The inviter's sealed game, now that the connection is open: its first messages sent (the
    table comes with the cards, or face down by ``preview_later``)."""
    S["friend"]["seal"] = True
    STATE["table_calls"] = STATE["shown_calls"] = 0
    STATE["preview"] = False
    STATE["begun_on"] = LIVE_STATE["link"]  # the connection the first messages go over
    return keep(answer)


async def move(action):
    """The page's own move: the table reply (its game the sealed text). It is shown at once, so it
    tells first the events of the tables still waiting (older: the friend's moves the player had
    not seen yet when moving), which are then let go: every event is told once, in order."""
    table = keep(await bridge.call("sealed_move", {"game": S["friend"]["sealed"], "action": action}))
    if table is not None:
        older = [waiting for waiting in WAITING_TABLES if waiting.get("calls", 0) < table["calls"]]
        if older:
            table["events"] = [event for waiting in older for event in waiting["events"]] + table["events"]
            WAITING_TABLES[:] = [waiting for waiting in WAITING_TABLES if waiting not in older]
        STATE["shown_calls"] = max(STATE["shown_calls"], table["calls"])
    return table


async def receive(texts):
    """Messages for the sealed calls, in the order they came: the table reply they lead to, or
    None. The friend's page joins the game from the inviter's first message."""
    if not is_sealed():
        STATE["table_calls"] = STATE["shown_calls"] = 0
        STATE["preview"] = False
        answer = await bridge.call("sealed_join", dict(parts(), messages=texts, seal_secret=S["friend"].get("seal_secret")))
        S["friend"]["seal"] = True
        return keep(answer)
    if not S["friend"].get("sealed"):  # still beginning: its first message answers any greeting
        return None
    again = '{"t":"seal-hello","id":"' + S["friend"]["id"] + '","got":0}'
    # A greeting from a page with no game yet: everything again from the first message, unless
    # it was all sent on this very connection (ordered and reliable: it is on its way).
    fresh = LIVE_STATE["link"] is not None and STATE.get("begun_on") is LIVE_STATE["link"]
    texts = [again if HELLO_MARK in text else text for text in texts if not (fresh and HELLO_MARK in text)]
    if not texts:
        return None
    return keep(await bridge.call("sealed_receive", {"game": S["friend"]["sealed"], "messages": texts}))


async def hello():
    """The greeting on a newly opened connection: how many of the friend's messages this side has."""
    if not S["friend"].get("sealed"):
        return []
    return (await bridge.call("sealed_hello", {"game": S["friend"]["sealed"]}))["send"]


async def resume(entry):
    """A sealed game kept on this device: the table as it is."""
    S["friend"]["seal"] = True
    S["friend"]["sealed"] = entry["sealed"]
    STATE["table_calls"] = STATE["shown_calls"] = 0
    STATE["preview"] = False
    WAITING_TABLES.clear()  # another game's, or this one's from before: the table comes whole now
    table = keep(await bridge.call("sealed_resume", {"game": entry["sealed"]}))
    if table is not None:
        STATE["shown_calls"] = table["calls"]
    return table
