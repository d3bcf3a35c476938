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

import bridge
import friend_store
from friend_seat import LIVE_STATE, parts, refuse, send
from table.state import S

SEAL_MARK = '"t":"seal'  # a sealed game's message (the engine checks what it really is)
HELLO_MARK = '"t":"hello"'  # an ordinary greeting: from a friend page that has no game yet
LIVE_ONLY = ("This game's deck is sealed: it goes on over the live connection only. "
             "Press Connect live and send the code.")
STATE = {"working": False, "table_calls": 0, "begun_on": None, "preview": False}
"""table_calls: the call that gave the newest table; preview: the table shows the first deal face
down (the engine's table while the deck is sealed), so the deal's table need not show it again."""


def is_sealed():
    """True when the friend game at the table is (or is about to be) a sealed one."""
    return S["friend"] is not None and bool(S["friend"].get("seal"))


def is_sealed_message(text):
    """True for a message the sealed calls take (a sealed game's, or a greeting to answer)."""
    return SEAL_MARK in text or (is_sealed() and HELLO_MARK in text)


def _keep(answer):
    """Keep the game's new text (in the entry) and send its messages; the table reply, if any,
    with the finished game's record as its game once both sides have checked it."""
    S["friend"]["sealed"] = answer["game"]
    entry = friend_store.get(S["friend"]["id"])
    if entry is not None:
        entry["seal"] = True
        entry["sealed"] = answer["game"]
        friend_store.put(entry)
    send(answer["send"])
    table = answer["table"]
    if table is not None:
        if table["view"].get("sealing"):
            STATE["preview"] = True
        elif STATE["preview"]:  # the cut and the deal are on the table already: only the cards come
            STATE["preview"] = False
            table["events"] = [e for e in table["events"] if e["type"] not in ("cut", "deal")]
        table["calls"] = STATE["table_calls"] = answer["calls"]
        if answer["final"] is not None:
            table["game"] = answer["final"]
    return table


def is_stale(table):
    """True for a table reply that a newer one has come after (the newer one is shown instead)."""
    return table.get("calls", 0) < STATE["table_calls"]


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
            answer = await bridge.call("sealed_work", {"game": S["friend"]["sealed"]})
            _keep(answer)
            if not answer["work"]:
                break
    except bridge.EngineError as error:
        refuse(error.message)
    finally:
        STATE["working"] = False


async def prepare(entry):
    """While the invitation waits for its reply: the inviter's seal secret, kept in its entry,
    and the first hand's shuffle worked out ahead in the worker."""
    try:
        entry["seal_secret"] = (await bridge.call("sealed_prepare", {}))["seal_secret"]
    except bridge.EngineError:
        return  # begin draws the secret and works the shuffle out then
    if friend_store.get(entry["id"]) is not None:
        friend_store.put(entry)


async def begin_ahead():
    """The inviter's sealed game begun while the connection opens: the engine's answer, kept
    and sent by ``begin`` once it is open (nothing is kept if it never opens)."""
    return await bridge.call("sealed_begin", dict(parts(), seal_secret=S["friend"].get("seal_secret")))


def begin(answer):
    """The inviter's sealed game, now that the connection is open: the table at the first deal,
    face down until both shuffles are done."""
    S["friend"]["seal"] = True
    STATE["table_calls"] = 0
    STATE["preview"] = False
    STATE["begun_on"] = LIVE_STATE["link"]  # the connection the first messages go over
    return keep(answer)


async def move(action):
    """The page's own move: the table reply (its game the sealed text)."""
    return keep(await bridge.call("sealed_move", {"game": S["friend"]["sealed"], "action": action}))


async def receive(texts):
    """Messages for the sealed calls, in the order they came: the table reply they lead to, or
    None. The friend's page joins the game from the inviter's first message."""
    if not is_sealed():
        STATE["table_calls"] = 0
        STATE["preview"] = False
        answer = await bridge.call("sealed_join", dict(parts(), messages=texts))
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
    STATE["table_calls"] = 0
    STATE["preview"] = False
    return keep(await bridge.call("sealed_resume", {"game": entry["sealed"]}))
