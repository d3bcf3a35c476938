"""One friend game in one tab at a time: which tab plays it, the notice in the others, taking it over.

Part of the game page's friend games (friend_play.py is their entry point). Runs in MicroPython
on the main thread. Two tabs playing one friend game would each send moves and write the game,
and the two copies would part ways for good. So a tab that is about to open a friend game asks
the other tabs first (on the BroadcastChannel ``CHANNEL_NAME``): if one of them plays it, this
tab says so and offers to take it over instead of opening it. A tab that takes a game (opens it,
or takes it over) tells the others, and a tab that was playing it stops at once: it closes its
connection, writes nothing more of that game (``friend_store.LOST``) and offers to take it back.
"""

import asyncio
import json

from dom import create_proxy, document

import bridge
import friend_store
import local_storage
from table.store import TAB_ID

CHANNEL_NAME = "cribbage.friendtabs.v1"
NOTICE_ID = "friend-tab-notice"
ASK_WAIT = 0.25  # seconds an open tab has to say it plays the game
OPEN_ELSEWHERE = "This friend game is open in another tab or window. Play it in one place."
TAKEN = ("This friend game is now being played in another tab or window, so this tab has stopped "
         "playing it.")
TAKE_HERE = "Play it here"
TAKE_BACK = "Take the game back here"

STATE = {"held": None, "channel": None, "heard": [], "on_lost": None, "on_take": None}
"""held: the id of the friend game this tab plays; heard: ids another tab said it plays, in
answer to this tab's question; on_lost(id) and on_take(id): the page's reactions."""
_proxies = []


def start(on_lost, on_take):
    """Listen to the other tabs: ``on_lost(game_id)`` when another tab takes this tab's game,
    ``on_take(game_id)`` when the player takes a game here (over or back)."""
    STATE["on_lost"], STATE["on_take"] = on_lost, on_take
    if STATE["channel"] is not None:
        return
    channel = local_storage.JS.channel(CHANNEL_NAME)
    if channel is None:
        return
    listener = create_proxy(_on_message)
    _proxies.append(listener)
    channel.addEventListener("message", listener)
    STATE["channel"] = channel


def _post(kind, game_id):
    channel = STATE["channel"]
    if channel is not None:
        local_storage.JS.post(channel, json.dumps({"type": kind, "id": game_id, "tab": TAB_ID}))


def _on_message(event):
    """Another tab asks who plays a game, says it does, or takes one."""
    try:
        data = json.loads(str(event.data)[:300])
        if not isinstance(data, dict) or data.get("tab") == TAB_ID or not isinstance(data.get("id"), str):
            return
        game_id = data["id"]
        if data.get("type") == "who" and game_id == STATE["held"]:
            _post("here", game_id)
        elif data.get("type") == "here":
            STATE["heard"].append(game_id)
        elif data.get("type") == "take" and game_id == STATE["held"]:
            _lose(game_id)
    except Exception as error:
        local_storage.log("friend tab message not understood:", error)


def is_held(game_id):
    """True when this tab plays the game."""
    return STATE["held"] == game_id


async def may_open(game_id):
    """True when no other open tab plays the game: this tab now does. Otherwise the notice, with
    a button that takes it over here, and False."""
    if STATE["held"] == game_id:
        return True
    if STATE["channel"] is not None:
        STATE["heard"] = []
        _post("who", game_id)
        await asyncio.sleep(ASK_WAIT)
        if game_id in STATE["heard"]:
            _notice(OPEN_ELSEWHERE, TAKE_HERE, game_id)
            return False
    claim(game_id)
    return True


def claim(game_id):
    """This tab plays the game from now on; a tab that played it stops."""
    STATE["held"] = game_id
    if game_id in friend_store.LOST:
        friend_store.LOST.remove(game_id)
    _notice(None)
    _post("take", game_id)


def _lose(game_id):
    STATE["held"] = None
    if game_id not in friend_store.LOST:
        friend_store.LOST.append(game_id)
    _notice(TAKEN, TAKE_BACK, game_id)
    callback = STATE["on_lost"]
    if callback is not None:
        callback(game_id)


def _notice(text, label=None, game_id=None):
    """The sentence above the table, with its button (``label``) that takes the game here;
    ``text`` None: none."""
    if text is None:
        box = document.getElementById(NOTICE_ID)
        if box is not None:
            box.hidden = True
        return
    box = local_storage.notice_box(NOTICE_ID)
    para = document.createElement("p")
    para.textContent = text
    button = document.createElement("button")
    button.type = "button"
    button.className = "button store-take-back"
    button.textContent = label
    box.replaceChildren(para, button)
    box.setAttribute("data-kind", "other-tab")
    box.hidden = False

    def take(event):
        claim(game_id)
        callback = STATE["on_take"]
        if callback is not None:
            callback(game_id)
    bridge.on(button, "click", take)
