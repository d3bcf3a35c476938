"""Moves and chat between the two pages: the direct connection and its messages, a fresh
connection made again, and the move link when there is no connection.

Part of the game page's friend games (friend_play.py is their entry point). Runs in MicroPython
on the main thread. Whatever arrives goes to the engine (``friend_receive``), which refuses
anything that is not the next legal move of the other seat; the sentence is shown in
#friend-refused and the game stays as it was.
"""

import asyncio

import js
from dom import document

import bridge
import friend_seal
import friend_store
from friend_seat import (CONNECT_MARK, INVITE_PREFIX, LIVE_STATE, PLAY_MARK, REPLY_PREFIX, adopt, is_live, is_meet, other_name, page_address,
                         parts, refuse, say_connection, send, settle, show_setup_note)
import peer_sdp
from meet_link import MeetLink
from peer_link import LinkError, PeerLink
from table.flow import flow
from table.state import S, make, q, shown

CHAT_KEEP = 50
HOLD_AT = ("next", "go")  # stops the player clicks past: the friend's next move waits for the click
CHAT_MARK = '"t":"chat"'  # how a chat line looks on its way (the engine checks what it really is)
SEND_FIRST = "Send the link below."  # before "Waiting for Bob to discard…" when the game goes by link
NO_OFFER = ("That code answers a connection code this page has not made, or has already used: "
            "press Connect live for a new one.")


def connection_setting():
    """The ICE servers the player allowed (none by default)."""
    return friend_store.ice_servers(friend_store.load_network())


def new_link():
    """A fresh PeerLink for this page's friend game (the old one closed)."""
    old = LIVE_STATE["link"]
    if old is not None:
        old.close()
    link = PeerLink(connection_setting(), on_message=on_message, on_state=on_link_state, on_error=on_link_error)
    LIVE_STATE["link"] = link
    return link


def open_meet(entry):
    """The link through the meeting point of a friend game kept on this device (the page's old
    link closed), or None for a game that has no meeting point. What the link keeps goes into the
    game's entry as it changes."""
    meet = entry.get("meet")
    if not isinstance(meet, dict):
        return None
    old = LIVE_STATE["link"]
    if old is not None:
        old.close()
    def kept(state):  # into the entry of the game the link carries now (another game may follow on it)
        stored = friend_store.get(link.game_id)
        if stored is not None and isinstance(stored.get("meet"), dict):
            stored["meet"]["link"] = state
            friend_store.put(stored)

    held = meet.get("link") if isinstance(meet.get("link"), dict) else {}
    tie = held.get("tie") if isinstance(held.get("tie"), str) else entry.get("reply")
    link = MeetLink(meet["url"], meet["key"], meet["topic"], meet_seat(entry, held), tie, held,
                    on_message=on_message, on_state=on_link_state, on_error=on_link_error, on_kept=kept)
    link.game_id = entry["id"]
    link.on_gap = lambda: bridge.launch(greet())  # the friend's page sends again what this one lacks
    LIVE_STATE["link"] = link
    return link


def meet_seat(entry, held):
    """The seat a meeting point's notes are written for: the one of the game that opened it (a
    game asked for over it keeps its notes, whichever seat each page has in that game)."""
    seat = held.get("seat")
    return seat if seat in (0, 1) else entry["seat"]


async def connect(link, signal):
    """Apply the friend's connection answer; a failure is said, and the game goes on by link."""
    try:
        await link.accept(signal)
    except (LinkError, ValueError) as error:
        say_connection(error.message if isinstance(error, LinkError) else str(error))


SEALED_TABLES = friend_seal.WAITING_TABLES  # a sealed game's table replies waiting to be shown (show_sealed_tables)


CHAT_BURST = 8  # chat lines taken from the friend in any FLOOD_WINDOW seconds; more are dropped
MESSAGE_BURST = 40  # other messages of a game by link (a sealed game's are counted apart)
FLOOD_WINDOW = 4.0
TOO_FAST = "{}'s chat lines are coming faster than anyone types: some were not shown."
FLOOD = {"chat": [], "other": []}  # when the friend's latest messages came (seconds, the page's clock)


def is_flood(text):
    """True for a message past what the friend's page may send in FLOOD_WINDOW seconds: chat
    lines past CHAT_BURST (said once a burst), other unsealed messages past MESSAGE_BURST. A flood
    then costs the page nothing, and a sealed game's messages are never held up by it."""
    if friend_seal.is_sealed_message(text):
        return False
    chat = '"chat"' in text  # every chat line says so, however it is written
    times = FLOOD["chat" if chat else "other"]
    limit = CHAT_BURST if chat else MESSAGE_BURST
    now = js.Date.now() / 1000
    while times and now - times[0] > FLOOD_WINDOW:
        times.pop(0)
    if len(times) < limit:
        times.append(now)
        return False
    if len(times) == limit:
        times.append(now)  # one more: said once a burst
        if chat:
            add_chat("", TOO_FAST.replace("{}", other_name()))
    return True


def on_message(text):
    """A message from the other page: taken in turn, once the table is not busy (a chat line
    past the rate anyone types is dropped at once). The friend's reply (through a meeting point,
    or to another game asked for) and an invitation to another game are taken in turn too, each
    after the messages that came before it."""
    if not text.startswith((REPLY_PREFIX, INVITE_PREFIX)) and is_flood(text):
        return
    LIVE_STATE["inbox"].append(text)
    if not LIVE_STATE["draining"]:
        LIVE_STATE["draining"] = True  # now: a message that comes before drain starts waits for it
        bridge.launch(drain())


async def drain():
    """Take the messages that arrived, one at a time, each through the engine."""
    LIVE_STATE["draining"] = True
    try:
        while LIVE_STATE["inbox"]:
            text = LIVE_STATE["inbox"][0]
            sealed = friend_seal.is_sealed_message(text)  # the engine's part now, its table when free
            chat = not sealed and CHAT_MARK in text
            hook = LIVE_STATE.get("on_reply" if text.startswith(REPLY_PREFIX) else "on_invite"
                                  if text.startswith(INVITE_PREFIX) else "")
            if not sealed and not chat and hook is None and (S["busy"] or S["waiting"] in HOLD_AT):
                await asyncio.sleep(0.05)  # a move waits until the player leaves the show or the go
                continue
            LIVE_STATE["inbox"].pop(0)
            if hook is not None:  # a reply, or another game asked for: after what came before it
                await hook(text)
            elif chat:
                await take_chat(text)
            elif sealed:
                texts = [text]  # with those sent together (one message: peer_link.send_all): one engine call
                while LIVE_STATE["inbox"] and friend_seal.is_sealed_message(LIVE_STATE["inbox"][0]):
                    texts.append(LIVE_STATE["inbox"].pop(0))
                await take_sealed(texts)
            else:
                await flow(lambda: receive(text))
    finally:
        LIVE_STATE["draining"] = False


async def take_sealed(texts):
    """A sealed game's messages (in order), taken without holding the table: most only seal a
    later hand, and a card the player taps meanwhile is played. Those that move the game on are
    shown once the table is free."""
    joining = not friend_seal.is_sealed()
    try:
        table = await friend_seal.receive(texts)
    except bridge.EngineError as error:
        if error.kind == "bad_input":
            refuse(error.message)
        else:
            bridge.show_error(error)
        return
    show_sealed(table)
    if joining:
        bridge.launch(friend_seal.preview_later(show_sealed))  # the deal face down, if the cards are slow


def show_sealed(table):
    """A sealed game's table reply (or None), shown once the table is free, in the order they came."""
    if table is None:
        return
    SEALED_TABLES.append(table)
    if S["game"] is None or S.get("slot") != "friend":  # the game's first table: the shuffles wait for it
        friend_seal.STATE["drawing"] = True
    if len(SEALED_TABLES) == 1:  # shown in order, while the next messages go on to the engine
        bridge.launch(show_sealed_tables())


async def show_sealed_tables():
    """Show the sealed game's tables in the order they came, each once the table is free."""
    try:
        while SEALED_TABLES:
            while S["busy"] or S["waiting"] in HOLD_AT:  # as any move: not while the player is at the show or the go
                await asyncio.sleep(0.05)
            if not SEALED_TABLES:  # the player's own move told them meanwhile (friend_seal.move)
                break
            waiting = SEALED_TABLES[0]
            if friend_seal.is_stale(waiting):  # a newer table is shown already
                SEALED_TABLES.pop(0)
                continue
            table = friend_seal.to_show(waiting)

            async def step():
                return adopt(table)

            try:
                await flow(step)
            finally:
                if SEALED_TABLES and SEALED_TABLES[0] is waiting:
                    SEALED_TABLES.pop(0)
                friend_seal.STATE["drawing"] = False
    finally:
        friend_seal.STATE["drawing"] = False


async def take_chat(text):
    """A chat line, taken beside the game: it never goes through the table's flow, so the show or
    the go the player is looking at stays until the player moves on. Anything else that looked
    like one goes through the flow as any message does."""
    if S["friend"] is None:
        return
    out = await engine_receive(text, None)
    if out is None:
        return
    if out["kind"] != "chat":
        await flow(lambda: receive(text))
    elif out["chat"]:
        add_chat(other_name(), out["chat"])


async def engine_receive(text, game):
    """The engine's answer to one message for ``game`` (``friend_receive``), or None when it was
    refused (the sentence said)."""
    try:
        return await bridge.call("friend_receive", dict(parts(), message=text, game=game))
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        refuse(error.message)
        return None


async def receive(text):
    """One message through the engine; refused ones are said, and the game stays as it was."""
    if S["friend"] is None:
        return False
    out = await engine_receive(text, None if friend_seal.is_sealed() else S["game"])
    if out is None:
        return settle()
    send(out["send"])
    if out["chat"]:
        add_chat(other_name(), out["chat"])
    if out["table"] is None:
        return settle()
    return adopt(out["table"])


async def greet():
    """Say hello on a newly opened connection: the moves this side holds (and the inviter's secret);
    in a sealed game, how many of the friend's messages it has (none before the game begins)."""
    if friend_seal.is_sealed():
        try:
            send(await friend_seal.hello())
        except bridge.EngineError as error:
            refuse(error.message)
        return
    made = LIVE_STATE["hello"]
    if S["game"] is None and made is not None and made[0] == S["friend"]["id"]:
        send([made[1]])  # made with the reply: the worker stays free for the inviter's first messages
        return
    try:
        out = await bridge.call("friend_hello", dict(parts(), game=S["game"]))
    except bridge.EngineError as error:
        refuse(error.message)
        return
    send(out["send"])


def on_link_state(state, reason):
    """The connection opened or closed (a meeting point's: could be reached, or not)."""
    link = LIVE_STATE["link"]
    if state == "open":
        hide_code()
        if S["friend"] is not None and getattr(link, "game_id", S["friend"]["id"]) == S["friend"]["id"]:
            bridge.launch(greet())
        if getattr(link, "role", "") != "meet":  # a meeting point's is not the friend's page
            q("friend-replied-status").textContent = "Connected: waiting for the first deal\u2026"
            q("friend-sent-status").textContent = "Connected."
    say_connection(reason if state in ("failed", "closed") else "")
    if state == "open" and S["waiting"] == "friend":
        shown("friend-send", False)
    elif state in ("failed", "closed") and S["waiting"] == "friend":
        bridge.launch(on_friend_turn())


def on_link_error(reason):
    """A message too large or not text was dropped before it reached the page's Python."""
    refuse(reason)


async def on_friend_turn():
    """The other seat is to move: say so, and without a live connection offer the move link."""
    say_connection()
    if is_live() or is_meet():
        shown("friend-send", False)
        return
    if friend_seal.is_sealed():  # say_connection has said how it goes on: live only
        shown("friend-send", False)
        return
    try:
        code = await bridge.call("friend_code_of", {"game": S["game"]})
    except bridge.EngineError as error:
        refuse(error.message)
        return
    q("friend-move-link").value = page_address() + PLAY_MARK + code["code"]
    q("friend-send-text").textContent = "Send this link to " + other_name() + ": it holds your move."
    shown("friend-send", True)
    prompt = q("prompt")
    if S["waiting"] == "friend" and not str(prompt.textContent).startswith(SEND_FIRST):
        prompt.textContent = SEND_FIRST + " " + str(prompt.textContent)


def on_reconnect(event):
    """Make a connection code for the game at the table (the friend pastes it and answers)."""
    return bridge.launch(reconnect())


def hide_code():
    """Take the last connection code off the page: it belongs to a connection that is over."""
    q("friend-offer-out").value = ""
    shown("friend-offer-box", False)


async def reconnect():
    """A fresh offer for the game at the table, shown as a code to send."""
    hide_code()
    link = new_link()
    try:
        offer = await link.offer()
    except (LinkError, ValueError) as error:
        say_connection(error.message if isinstance(error, LinkError) else str(error))
        return
    q("friend-offer-out").value = page_address() + CONNECT_MARK + offer
    shown("friend-offer-box", True)
    q("friend-connection").textContent = ("Send this connection code to " + other_name()
                                          + ", then paste the code that comes back.")


async def open_connection(text):
    """A connection code from the friend: an offer (answer it) or the answer to this side's offer."""
    if S["friend"] is None:
        show_setup_note("Open the friend game first, then paste its connection code.")
        return
    link = LIVE_STATE["link"]
    hide_code()
    try:
        if peer_sdp.is_code_start(text) and text[1] == "a":  # an answer (of any version: it says which)
            if link is None or link.role != "offer" or link.accepted or link.is_open():
                q("friend-paste-message").textContent = NO_OFFER
                return
            await link.accept(text)
            return
        link = new_link()
        answer = await link.answer(text)
    except (LinkError, ValueError) as error:
        q("friend-paste-message").textContent = error.message if isinstance(error, LinkError) else str(error)
        return
    q("friend-offer-out").value = page_address() + CONNECT_MARK + answer
    shown("friend-offer-box", True)
    q("friend-connection").textContent = "Send this code back to " + other_name() + " to connect."


def on_chat(event):
    """Send the typed line."""
    text = str(q("friend-chat-input").value)
    q("friend-chat-input").value = ""
    return bridge.launch(say(text))


def on_phrase(event):
    """Send a ready phrase."""
    button = event.target.closest("[data-phrase]")
    if button is not None:
        bridge.launch(say(str(button.getAttribute("data-phrase"))))


async def say(text):
    if S["friend"] is None or not text.strip():
        return
    try:
        out = await bridge.call("friend_chat", dict(parts(), text=text))
    except bridge.EngineError as error:
        refuse(error.message)
        return
    if not is_live() and not is_meet():
        add_chat("", "Chat needs the live connection; this line was not sent.")
        return
    send(out["send"])
    add_chat("You", out["text"])


def add_chat(who, text, keep=True):
    """A line in the chat log, as plain text; kept with the game (``keep``) for a reload."""
    if LIVE_STATE["muted"] and who not in ("You", ""):
        return
    if keep and who and S["friend"] is not None:
        entry = friend_store.get(S["friend"]["id"])
        if entry is not None:
            lines = entry.get("chat") if isinstance(entry.get("chat"), list) else []
            entry["chat"] = (lines + [[who, text]])[-CHAT_KEEP:]
            friend_store.put(entry)
    log = q("friend-chat-log")
    item = make("li", "friend-chat-line")
    if who:
        item.appendChild(make("strong", "", who + ": "))
    item.appendChild(document.createTextNode(text))
    log.appendChild(item)
    while log.children.length > CHAT_KEEP:
        log.removeChild(log.firstElementChild)
    log.scrollTop = log.scrollHeight  # the newest line in view


def restore_chat(entry):
    """The chat lines kept with a friend game, back in its chat log (after a reload)."""
    for line in entry.get("chat") or []:
        if isinstance(line, list) and len(line) == 2 and isinstance(line[0], str) and isinstance(line[1], str):
            add_chat(line[0], line[1], keep=False)


def on_mute(event):
    """Mute or unmute the friend's chat lines."""
    LIVE_STATE["muted"] = bool(q("friend-mute").checked)

