"""The game page's friend games: its entry points, and whatever a friend sends opened.

Part of the game page (site_src/app/game.py is its entry point). Runs in MicroPython on the main
thread. Every rule is the engine's (engine/friend_host.py, through bridge.call): these modules
carry texts between the player, the engine and the other page, and draw the friend panels.
friend_panels.py makes and answers invitations and lists the friend games; friend_live.py
carries moves and chat over the direct connection; friend_seat.py seats a friend game at the
table. Here: the page's own moves (``act_call``), the friend bar after each decision
(``on_turn``), and the texts a friend sends (a move link, a reply, a connection code), pasted or
opened as the page's address.

Each side's moves go to the engine (``friend_move``), and the messages it returns go to the
other page over the connection when it is open; otherwise the page shows a move link
(``#play=`` and the game's code) to send. Whatever arrives goes to ``friend_receive`` or
``friend_open_link``, which refuse anything that is not the next legal move of the other seat.
"""

import asyncio

import js
from dom import create_proxy, window

import bridge
import friend_seal
import friend_store
import friend_tabs
import peer_sdp
from friend_live import on_chat, on_friend_turn, on_mute, on_phrase, on_reconnect, open_connection
from friend_panels import (invite_again, list_games, on_accept, on_back, on_friend_button, on_games_click, on_make,
                           on_network_change, on_reply_submit, on_way_change, open_entry, show_invitation,
                           take_reply)
from friend_seat import (CONNECT_MARK, INVITE_MARK, LIVE_STATE, PANEL_MARK, PLAY_MARK, REPLY_MARK, adopt, is_live,
                         other_name, page_address, parts, refuse, send, settle, show_setup_note)
from table.flow import flow
from table.prompt import WAITING_HOOKS, announce, set_waiting
from table.setup import AGAIN_HOOKS
from table.state import S, cap, q, shown


async def act_call(request):
    """The page's own move: the engine applies it; its message goes to the other page."""
    if S["friend"] is None:
        return await bridge.call("act", request)
    if friend_seal.is_sealed():
        return await friend_seal.move(request["action"])
    reply = await bridge.call("friend_move", dict(parts(), game=request["game"], action=request["action"]))
    send(reply.get("send"))
    return reply


def on_turn():
    """The table offered a decision: a friend game's bar follows it."""
    if S["friend"] is None:
        return
    if S["waiting"] == "friend" or (S["waiting"] == "over" and not is_live()):
        bridge.launch(on_friend_turn())  # by link, the last move's link shows the friend the end
    elif S["waiting"] in ("discard", "play", "count", "claim", "go", "next", "over"):
        shown("friend-send", False)
    list_games()


def on_paste(event):
    """Something pasted in the friend bar: a move link, a reply, a connection code."""
    text = str(q("friend-paste").value).strip()
    q("friend-paste").value = ""
    return bridge.launch(open_text(text, q("friend-paste-message")))


async def open_text(text, message=None):
    """Open whatever a friend sent: an invitation, a reply, a move link or a connection code."""
    if message is not None:
        message.textContent = ""
    if CONNECT_MARK in text or peer_sdp.is_code_start(text.strip()):  # first: its random letters may hold "c1."
        await open_connection(text[text.find(CONNECT_MARK) + len(CONNECT_MARK):] if CONNECT_MARK in text else text)
    elif "fi1." in text:
        await show_invitation(text[text.rfind("fi1."):])
    elif "fr1." in text:
        await open_reply(text[text.rfind("fr1."):])
    elif "c1." in text:
        await open_move(text[text.rfind("c1."):])
    elif message is not None:
        message.textContent = "That is not a link or code from a friend game."


async def open_reply(text):
    """A reply opened as a link: find the invitation it answers among this device's."""
    for entry in friend_store.entries():
        if entry["seat"] == 0:
            try:
                await bridge.call("friend_read_reply", {"invite": entry["invite"], "reply": text})
            except bridge.EngineError:
                continue
            if entry.get("game"):
                await open_entry(entry)
                return
            S["pending"] = entry
            await take_reply(text, entry)
            return
    refuse("This reply answers no invitation made on this device.")
    show_setup_note("This reply answers no invitation made on this device.")


async def open_move(code):
    """A move link: the game it belongs to, brought up to the link's move."""
    try:
        found = await bridge.call("friend_code_id", {"code": code})
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        refuse(error.message)
        show_setup_note(cap(error.message))
        return
    entry = friend_store.get(found["id"])
    if entry is None:
        show_setup_note("This link is for a friend game that was not started on this device.")
        return
    if S["friend"] is None or S["friend"]["id"] != entry["id"] or S.get("slot") != "friend":
        if not await open_entry(entry):
            return
    await flow(lambda: follow_link(code))


async def follow_link(code):
    """Take a move link's code for the game at the table."""
    try:
        out = await bridge.call("friend_open_link", dict(parts(), code=code, game=S["game"]))
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        refuse(error.message)
        return settle()
    if out["table"] is None:
        announce("That link holds nothing new: it is " + other_name() + "'s turn still, or yours.")
        return settle()
    return adopt(out["table"])


async def resume_current():
    """After a reload: the friend game this device was playing, back at the table (True), if any
    and if no other tab plays it."""
    entry = friend_store.get(friend_store.current() or "")
    if entry is None or not (entry.get("game") or entry.get("sealed")):  # sealed: begun, perhaps no card read yet
        return False
    return await open_entry(entry)  # False while another tab plays it: this tab offers to take it over


async def open_address():
    """A friend link in the page's address (an invitation, a reply, a move, a connection code):
    act on it and return True; False if the address holds none."""
    mark = str(window.location.hash)
    if mark == PANEL_MARK:  # "Play a friend" in the site's menu
        window.history.replaceState(None, "", page_address() + str(window.location.search))
        on_friend_button(None)
        list_games()
        return True
    if not mark.startswith((INVITE_MARK, REPLY_MARK, PLAY_MARK, CONNECT_MARK)):
        return False
    window.history.replaceState(None, "", page_address() + str(window.location.search))
    q("prompt").textContent = ""
    await open_text(mark)
    list_games()
    return True


def on_game_taken(game_id):
    """Another tab now plays this tab's friend game: this one stops (no connection, no move)."""
    if S["friend"] is None or S["friend"]["id"] != game_id:
        return
    link = LIVE_STATE["link"]
    LIVE_STATE["link"] = None
    if link is not None:
        link.close()
    S["readonly"] = True
    set_waiting("")
    q("prompt").textContent = "This game is being played in another tab."


def on_game_taken_here(game_id):
    """The player takes a friend game here (over from another tab, or back): it is opened again
    from what the device keeps."""
    S["readonly"] = False
    bridge.launch(_open_taken(game_id))


async def _open_taken(game_id):
    await asyncio.sleep(friend_tabs.ASK_WAIT)  # the tab that played it has written its last move
    entry = friend_store.get(game_id)
    if entry is not None:
        await open_entry(entry)


def on_page_hide(event):
    """The tab is closing (or going into the back-forward cache): close the connection now, so the
    friend's page says at once that it is gone instead of after the connection's own time-out."""
    link = LIVE_STATE["link"]
    if link is not None and not event.persisted:
        link.close()


def on_hash_change(event):
    """A friend link opened in this tab while the page was open."""
    return bridge.launch(open_address())


def setup():
    """Bind the friend panels."""
    bridge.on("#friend-button", "click", on_friend_button)
    bridge.on("#friend-back", "click", on_back)
    bridge.on("#friend-decline", "click", on_back)
    bridge.on("#friend-sent-back", "click", on_back)
    bridge.on("#friend-replied-back", "click", on_back)
    bridge.on("#friend-make", "submit", on_make, prevent_default=True)
    bridge.on("#friend-stun", "change", on_network_change)
    bridge.on("#friend-stun-host", "change", on_network_change)
    bridge.on("#friend-where", "change", on_way_change)
    bridge.on("#friend-meet-url", "change", on_network_change)
    bridge.on("#friend-meet-ok", "change", on_network_change)
    bridge.on("#friend-reply-form", "submit", on_reply_submit, prevent_default=True)
    bridge.on("#friend-invited", "submit", on_accept, prevent_default=True)
    bridge.on("#friend-paste-form", "submit", on_paste, prevent_default=True)
    bridge.on("#friend-reconnect", "click", on_reconnect)
    bridge.on("#friend-chat-form", "submit", on_chat, prevent_default=True)
    bridge.on("#friend-phrases", "click", on_phrase)
    bridge.on("#friend-mute", "change", on_mute)
    bridge.on("#friend-games", "click", on_games_click)
    for name in ("friend-copy-invite", "friend-copy-reply", "friend-copy-move", "friend-copy-offer"):
        bridge.on("#" + name, "click", on_copy)
    LIVE_STATE["hash_listener"] = create_proxy(on_hash_change)
    js.window.addEventListener("hashchange", LIVE_STATE["hash_listener"])  # via pyscript's window it loses "this"
    LIVE_STATE["hide_listener"] = create_proxy(on_page_hide)
    js.window.addEventListener("pagehide", LIVE_STATE["hide_listener"])
    friend_tabs.start(on_game_taken, on_game_taken_here)
    WAITING_HOOKS.append(on_turn)
    AGAIN_HOOKS.append(invite_again)
    list_games()



COPY_SOURCES = {"friend-copy-invite": "friend-invite-link", "friend-copy-reply": "friend-reply-out",
                "friend-copy-move": "friend-move-link", "friend-copy-offer": "friend-offer-out"}


def on_copy(event):
    """Copy a link or code to the clipboard (selected as well, for a manual copy)."""
    source = q(COPY_SOURCES[str(event.currentTarget.id)])
    source.select()
    try:
        window.navigator.clipboard.writeText(source.value)
        event.currentTarget.textContent = "Copied"
    except Exception:
        event.currentTarget.textContent = "Selected: copy it"

