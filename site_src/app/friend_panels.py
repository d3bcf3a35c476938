"""Before the table: making an invitation, answering one, the reply, and the list of friend
games kept on this device.

Part of the game page's friend games (friend_play.py is their entry point). Runs in MicroPython
on the main thread. "Make the invitation" opens a direct connection's offer (no server: with no
STUN server allowed, only devices on the same network can connect) and asks the engine for the
invitation, shown as a link (``#invite=``) and a QR code. The friend's page, opened on that link,
shows who invites and the rules; accepting answers the connection and gives the reply (a code,
or a ``#reply=`` link). Pasted back (or opened), it starts the game on the inviter's page.
"""

import asyncio

import js
from dom import document

import board
import bridge
import friend_seal
import friend_store
import friend_tabs
from table import log, store
from friend_live import connect, new_link, open_meet, restore_chat, show_sealed
from friend_seat import (INVITE_MARK, LIVE_STATE, MEET_SIGNAL, REPLY_MARK, SAME_SIGNAL, other_name, page_address,
                         parts, refuse, seat_table, send, show_panel, show_setup_note, took)
from peer_link import LinkError
from table.flow import flow
from table.prompt import announce
from table.setup import open_setup
from table.state import S, cap, make, model_from_view, q, shown

WAITING_REPLY = "Waiting for your friend's reply. Keep this page open to play live."
NO_OFFER = "Live play could not be offered here; the game goes by link."
NOT_YET_LIVE = ("Not connected to {} yet. This game's deck is sealed, so it is played over a live "
                "connection: press Connect live and send the code.")
WAITING_START = "Waiting for {} to paste your reply\u2026"
SEALING = "Connected live: sealing the first deal\u2026"
WAITING_MEET = ("Waiting for your friend to open the link. You may close this page: the reply waits at the "
                "meeting point, and the game starts when you come back.")
MEET_ASK = "Allow the meeting point first (the box under its address), or choose another way to play."
REPLIED_MEET = ("Your reply is on its way to {} through the meeting point. The game starts here as soon as "
                "{}'s page picks it up; you may close this page and come back.")
OPEN_WAIT = 10  # seconds the inviter waits for the live connection before saying it is not there yet


def on_friend_button(event):
    """Open the panel that makes an invitation."""
    setting = friend_store.load_network()
    q("friend-stun").checked = setting["stun"]
    q("friend-stun-host").value = setting["host"]
    q("friend-meet-url").value = setting["meet"]
    q("friend-meet-ok").checked = setting["meet_ok"]
    on_way_change(None)
    names = S["settings"].get("friend_name") or ""
    q("friend-name").value = names
    q("friend-make-message").textContent = ""
    show_panel("friend-make")
    q("friend-name").focus()


ASKED_AGAIN = "You asked {} for another game with the same rules: it starts here as soon as {} says yes."
AGAIN_TEXT = "{} asks for another game, to {} points, muggins {}."


def has_way_back():
    """True while the game's connection (or its meeting point) can carry a message to the friend."""
    link = LIVE_STATE["link"]
    return link is not None and (link.is_open() or getattr(link, "role", "") == "meet") and link.state != "ended"


def invite_again():
    """After a friend game: another with the same rules, asked for over the connection the game
    used (the friend says yes, and no link is sent), or else the invitation form again."""
    if has_way_back() and S["friend"] is not None:
        return bridge.launch(ask_again())
    friend, model = other_name(), S["model"] or {}
    on_friend_button(None)
    target = "61" if model.get("target") == 61 else "121"
    q("friend-make").querySelector('input[name="friend-target"][value="' + target + '"]').checked = True
    q("friend-muggins").checked = bool(model.get("muggins"))
    q("friend-make-message").textContent = "A new game with " + friend + ": make the invitation and send it."


async def ask_again():
    """Invite the friend to another game over the game's own connection: the invitation goes as
    a message (``SAME_SIGNAL``: the game is played over the connection it came by, sealed)."""
    old = friend_store.get(S["friend"]["id"]) or S["friend"]
    names, seat, model = old.get("names") or ["", ""], old["seat"], S["model"] or {}
    request = {"name": names[seat], "target": 61 if model.get("target") == 61 else 121,
               "muggins": bool(model.get("muggins")), "signal": SAME_SIGNAL}
    try:
        made = await bridge.call("friend_invite", request)
    except bridge.EngineError as error:
        show_setup_note("Another game could not be asked for: " + error.message)
        return
    entry = {"id": made["id"], "seat": 0, "invite": made["invite"], "reply": None, "secret": made["secret"],
             "names": [names[seat], None], "target": request["target"], "muggins": request["muggins"],
             "game": None, "meta": None, "turn": "Waiting for the reply", "seal_secret": made["seal_secret"]}
    if isinstance(old.get("meet"), dict):
        entry["meet"] = dict(old["meet"])  # the same meeting point, its notes numbered on
    friend_tabs.claim(entry["id"])
    friend_store.put(entry)
    S["pending"] = entry
    send([made["invite"]])
    friend = names[1 - seat] or "your friend"
    q("friend-invite-link").value = page_address() + INVITE_MARK + made["invite"]
    q("friend-copy-invite").textContent = "Copy the link"  # a fresh invitation, a fresh button
    q("friend-sent-status").textContent = ASKED_AGAIN.replace("{}", friend)
    shown("friend-reply-form", False)
    show_panel("friend-sent")
    await draw_qr(page_address() + INVITE_MARK + made["invite"])
    list_games()
    await friend_seal.prepare(entry)


async def take_again(text):
    """The friend asks for another game over this game's connection: the question, with the rules."""
    if S["friend"] is None:
        return
    try:
        found = await bridge.call("friend_read_invite", {"invite": text})
    except bridge.EngineError as error:
        refuse(error.message)
        return
    if found["signal"] != SAME_SIGNAL or friend_store.get(found["id"]) is not None:
        return  # an invitation of another kind, or one this page has already
    S["invited"] = {"text": text, "found": found, "again": S["friend"]["id"]}
    q("friend-invite-text").textContent = AGAIN_TEXT.replace("{}", found["name"], 1).replace(
        "{}", str(found["target"]), 1).replace("{}", "on" if found["muggins"] else "off", 1)
    old = friend_store.get(S["friend"]["id"]) or S["friend"]
    q("friend-my-name").value = (old.get("names") or ["", ""])[old["seat"]] or S["settings"].get("friend_name") or ""
    q("friend-invited-message").textContent = ""
    shown("friend-accept", True)
    q("friend-accept").textContent = "Play again"
    show_panel("friend-invited")


def remember_name(name):
    """Keep the player's own name for the next friend game (cleaned again when it is used)."""
    S["settings"] = store.save_settings(dict(S["settings"], friend_name=name.strip()[:store.NAME_MAX]))


def on_back(event):
    """Back to the new-game form."""
    show_panel("")
    open_setup(S["game"] is not None)


def on_network_change(event):
    """Remember the connection setting as soon as it changes."""
    friend_store.save_network(bool(q("friend-stun").checked), str(q("friend-stun-host").value).strip(),
                              str(q("friend-meet-url").value).strip(), bool(q("friend-meet-ok").checked))


def chosen_way():
    """How the invitation is played: "live" (same network), "far" (a meeting point) or "link"."""
    return str(q("friend-make").querySelector('input[name="friend-way"]:checked').value)


def on_way_change(event):
    """Show what playing somewhere else contacts, and the choice to allow it, only when it is chosen."""
    shown("friend-far", chosen_way() == "far")


def on_make(event):
    """Make the invitation from the form."""
    return bridge.launch(make_invite())


async def make_invite():
    """Ask for a connection offer, then the invitation; show its link and QR code."""
    host = str(q("friend-stun-host").value).strip()
    stun = bool(q("friend-stun").checked)
    if stun and not friend_store.is_host(host):
        q("friend-make-message").textContent = "Give the STUN server as host:port, for example " + \
            friend_store.DEFAULT_STUN_HOST + "."
        return
    friend_store.save_network(stun, host)
    target = 61 if q("friend-make").querySelector('input[name="friend-target"]:checked').value == "61" else 121
    request = {"name": str(q("friend-name").value), "target": target, "muggins": bool(q("friend-muggins").checked)}
    q("friend-make-button").disabled = True
    q("friend-make-message").textContent = "Making the invitation\u2026"
    way = chosen_way()
    live = way == "live"
    if way == "far":
        on_network_change(None)
        if not q("friend-meet-ok").checked:
            q("friend-make-button").disabled = False
            q("friend-make-message").textContent = MEET_ASK
            return
        request["meet"] = [str(q("friend-meet-url").value).strip(), (await bridge.call("meet_key", {}))["key"]]
    try:
        request["signal"] = MEET_SIGNAL if way == "far" else None
        if live:
            link = new_link()
            try:
                request["signal"] = await link.offer()
            except (LinkError, ValueError) as error:
                js.console.warn("No live offer:", str(error))
        try:
            made = await bridge.call("friend_invite", request)
        except bridge.EngineError as error:
            if error.kind != "bad_input":
                raise
            q("friend-make-message").textContent = cap(error.message)
            return
    finally:
        q("friend-make-button").disabled = False
    q("friend-make-message").textContent = ""
    remember_name(request["name"])
    entry = {"id": made["id"], "seat": 0, "invite": made["invite"], "reply": None, "secret": made["secret"],
             "names": [request["name"].strip(), None], "target": target, "muggins": request["muggins"],
             "game": None, "meta": None, "turn": "Waiting for the reply", "seal_secret": made["seal_secret"]}
    if way == "far":
        found = await bridge.call("friend_read_invite", {"invite": made["invite"]})
        entry["meet"] = dict(found["meet"], link=None)
    friend_tabs.claim(entry["id"])
    friend_store.put(entry)
    S["pending"] = entry
    address = page_address() + INVITE_MARK + made["invite"]
    q("friend-invite-link").value = address
    q("friend-sent-status").textContent = WAITING_MEET if way == "far" else WAITING_REPLY if request["signal"] else \
        (NO_OFFER if live else "The game goes by link.")
    q("friend-reply-message").textContent = ""
    q("friend-reply-in").value = ""
    q("friend-copy-invite").textContent = "Copy the link"  # a fresh invitation, a fresh button
    shown("friend-reply-form", way != "far")
    show_panel("friend-sent")
    await draw_qr(address)
    list_games()
    if way == "far":
        open_meet(entry)  # the reply comes through it (take_meet_reply)
    if request["signal"]:
        board_ahead(entry)
        await friend_seal.prepare(entry)


async def draw_qr(text):
    """The QR code of a link, drawn as SVG squares from the engine's matrix (no markup parsed)."""
    box = q("friend-qr")
    box.replaceChildren()
    try:
        code = await bridge.call("qr_code", {"text": text})
    except bridge.EngineError as error:
        box.textContent = "No QR code: " + error.message
        return
    size = code["size"] + 8
    ns = "http://www.w3.org/2000/svg"
    svg = document.createElementNS(ns, "svg")
    svg.setAttribute("viewBox", "0 0 " + str(size) + " " + str(size))
    svg.setAttribute("role", "img")
    svg.setAttribute("aria-label", "QR code of the invitation link")
    svg.setAttribute("shape-rendering", "crispEdges")
    back = document.createElementNS(ns, "rect")
    for key, value in (("width", str(size)), ("height", str(size)), ("fill", "#fff")):
        back.setAttribute(key, value)
    path = document.createElementNS(ns, "path")
    path.setAttribute("d", code["path"])
    path.setAttribute("transform", "translate(4 4)")
    path.setAttribute("fill", "#000")
    svg.appendChild(back)
    svg.appendChild(path)
    box.appendChild(svg)


def on_reply_submit(event):
    """The inviter pasted the friend's reply."""
    return bridge.launch(take_reply(str(q("friend-reply-in").value)))


async def take_reply(text, entry=None):
    """Check the friend's reply, start the game and, if it carries an answer, connect live."""
    entry = entry or S.get("pending")
    message = q("friend-reply-message")
    if entry is None:
        message.textContent = "Make an invitation first."
        return False
    try:
        found = await bridge.call("friend_read_reply", {"invite": entry["invite"], "reply": text})
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        message.textContent = cap(error.message)
        return False
    message.textContent = ""
    friend_tabs.claim(entry["id"])
    entry["reply"] = text.strip()[text.strip().rfind("fr1."):]
    entry["names"] = [entry["names"][0], found["name"]]
    friend_store.put(entry)
    S["friend"] = dict(entry)
    if found["signal"]:  # a sealed game: the reply answered a live offer
        S["friend"]["seal"] = True  # no greeting of an ordinary game while the connection opens
        link = LIVE_STATE["link"]
        if found["signal"] == SAME_SIGNAL and link is not None:  # another game over the same connection
            link.game_id = entry["id"]
            S["game"] = None  # seated afresh when its first table comes
        elif found["signal"] == MEET_SIGNAL and (link is None or getattr(link, "game_id", None) != entry["id"]):
            link = open_meet(entry)
        ahead = asyncio.create_task(friend_seal.begin_ahead())  # in the worker while the connection opens
        opened = False
        if found["signal"] == MEET_SIGNAL and link is not None:
            link.set_tie(entry["reply"])  # the friend's notes from now on are tied to the reply
            opened = link.is_open()
        elif found["signal"] == SAME_SIGNAL and link is not None:
            opened = link.is_open() or getattr(link, "role", "") == "meet"
        elif link is not None and link.role == "offer" and not link.accepted:  # this page's offer, still open
            q("friend-sent-status").textContent = "Connecting live to " + found["name"] + "\u2026"
            await connect(link, found["signal"])
            opened = await link.wait_open(OPEN_WAIT)
        answer = await ahead
        q("friend-sent-status").textContent = SEALING if opened else NOT_YET_LIVE.replace("{}", found["name"])
        table = friend_seal.begin(answer)  # kept: its first messages go as soon as a connection opens
        show_sealed(table)
        if table is None:  # the reply opened no first six: the deal face down, if the cards are slow
            bridge.launch(friend_seal.preview_later(show_sealed))
        return True
    reply = await bridge.call("friend_begin", parts())
    seat_table(entry, reply)
    await flow(lambda: took(reply))
    return True


FRIEND_UNNAMED = "Your friend"  # on the board until the reply names the friend


def board_ahead(entry):
    """A live game's board (its players and target) drawn while its invitation or its reply
    waits, so that its first table, which comes the moment the cards do, finds it drawn (the
    friend's name, once the reply gives it, changes only the legend)."""
    board.render("#board", [name or FRIEND_UNNAMED for name in entry["names"]], entry["target"])


async def show_invitation(text):
    """The friend opened an invitation: say who invites and to what, and ask for a name."""
    try:
        found = await bridge.call("friend_read_invite", {"invite": text})
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        show_panel("friend-invited")
        q("friend-invite-text").textContent = cap(error.message)
        shown("friend-accept", False)
        return
    mine = friend_store.get(found["id"])
    if mine is not None and mine.get("game"):
        await open_entry(mine)
        return
    S["invited"] = {"text": text, "found": found}
    q("friend-accept").textContent = "Accept"
    q("friend-invite-text").textContent = (
        found["name"] + " invites you to a game of cribbage to " + str(found["target"]) + " points, muggins "
        + ("on" if found["muggins"] else "off") + "."
        + ("" if found.get("meet") is None else
           " Your two pages find each other through the meeting point " + found["meet"]["url"]
           + ", which only ever sees encrypted text. Accepting lets this page contact it."))
    q("friend-my-name").value = S["settings"].get("friend_name") or ""
    q("friend-invited-message").textContent = ""
    shown("friend-accept", True)
    show_panel("friend-invited")
    q("friend-my-name").focus()


def on_accept(event):
    """The friend accepts the invitation."""
    return bridge.launch(accept())


async def accept():
    """Answer the connection offer if there is one, and make the reply."""
    invited = S.get("invited")
    if invited is None:
        return
    found = invited["found"]
    request = {"invite": invited["text"], "name": str(q("friend-my-name").value), "signal": None}
    q("friend-accept").disabled = True
    q("friend-invited-message").textContent = "Making your reply\u2026"
    try:
        try:
            await bridge.call("friend_accept", dict(request))  # the name checked before any connection
        except bridge.EngineError as error:
            if error.kind != "bad_input":
                raise
            q("friend-invited-message").textContent = cap(error.message)
            return
        if found["signal"] in (MEET_SIGNAL, SAME_SIGNAL):
            request["signal"] = found["signal"]
        elif found["signal"]:
            link = new_link()
            try:
                request["signal"] = await link.answer(found["signal"])
            except (LinkError, ValueError) as error:
                js.console.warn("No live answer:", str(error))
        made = await bridge.call("friend_accept", request)
    finally:
        q("friend-accept").disabled = False
    q("friend-invited-message").textContent = ""
    remember_name(request["name"])
    entry = {"id": made["id"], "seat": 1, "invite": invited["text"], "reply": made["reply"], "secret": made["secret"],
             "names": [found["name"], request["name"].strip()], "target": found["target"],
             "muggins": found["muggins"], "game": None, "meta": None, "turn": "Waiting for the first move",
             "seal_secret": made["seal_secret"]}
    meet = found.get("meet")
    again = found["signal"] == SAME_SIGNAL
    if meet is not None:
        entry["meet"] = dict(meet, link=None)
    elif again:
        old = friend_store.get(invited.get("again") or "") or {}
        if isinstance(old.get("meet"), dict):
            entry["meet"] = dict(old["meet"])  # the same meeting point, its notes numbered on
    friend_tabs.claim(entry["id"])
    friend_store.put(entry)
    S["friend"] = dict(entry)
    LIVE_STATE["hello"] = (made["id"], made["hello"])  # sent as the connection opens (greet)
    if again:  # the reply goes back the way the question came; the new game is seated when it begins
        link = LIVE_STATE["link"]
        if link is not None:
            link.game_id = entry["id"]
        send([made["reply"]])
        S["game"] = None
    if meet is not None:
        link = open_meet(entry)
        link.send_reply(made["reply"])  # the reply goes first, tied to nothing; all after it to the reply
    q("friend-reply-out").value = page_address() + REPLY_MARK + made["reply"]
    q("friend-replied-text").textContent = (
        "Send this reply back to " + found["name"] + ". When " + found["name"]
        + " pastes it, the game starts here" + (" over a live connection, on a sealed deck: keep this page open."
                                                if request["signal"] else ", by a link " + found["name"] + " sends you."))
    q("friend-replied-status").textContent = WAITING_START.replace("{}", found["name"])
    shown("friend-reply-copy", meet is None and not again)
    if meet is not None:
        q("friend-replied-text").textContent = REPLIED_MEET.replace("{}", found["name"])
        q("friend-replied-status").textContent = ""
    elif again:
        q("friend-replied-text").textContent = "Another game with " + found["name"] + ": the cards are being sealed\u2026"
        q("friend-replied-status").textContent = ""
    show_panel("friend-replied")
    list_games()
    if request["signal"]:
        board_ahead(entry)
        await friend_seal.prepare(entry)  # a live game is sealed: its first hand's masks, ahead


LISTED = []  # the rows the list shows: (id, friend's name, whose turn), redrawn only when they change


def list_games():
    """The friend games kept on this device, each with whose turn it is, in the setup form."""
    rows = []
    for entry in friend_store.entries():
        names = entry.get("names") or ["", ""]
        rows.append((entry["id"], names[1 - entry["seat"]] or "a friend", entry.get("turn") or ""))
    if rows == LISTED:
        return
    LISTED[:] = rows
    box = q("friend-games")
    box.replaceChildren()
    for game_id, friend, turn in rows:
        item = make("li", "friend-game")
        button = make("button", "button button-secondary friend-open", "Open")
        button.setAttribute("type", "button")
        button.setAttribute("data-friend", game_id)
        button.setAttribute("aria-label", "Open the game with " + friend)
        item.appendChild(make("span", "friend-game-name", "With " + friend + ": "))
        item.appendChild(make("span", "friend-game-turn", turn))
        item.appendChild(button)
        box.appendChild(item)
    shown("friend-games", bool(rows))


def on_games_click(event):
    """Open a friend game from the list."""
    button = event.target.closest("[data-friend]")
    if button is None:
        return None
    entry = friend_store.get(str(button.getAttribute("data-friend")))
    if entry is None:
        list_games()
        return None
    return bridge.launch(open_entry(entry))


async def open_entry(entry):
    """Put a friend game kept on this device back at the table (or its waiting panel): True, or
    False when another tab plays it (this tab then offers to take it over: friend_tabs.py)."""
    if not await friend_tabs.may_open(entry["id"]):
        return False
    if not entry.get("game") and not entry.get("sealed"):
        S["friend"] = dict(entry)
        if entry["seat"] == 0:
            S["pending"] = entry
            await draw_qr(page_address() + INVITE_MARK + entry["invite"])
            q("friend-invite-link").value = page_address() + INVITE_MARK + entry["invite"]
            q("friend-sent-status").textContent = "Paste your friend's reply to start, or open the reply link."
            shown("friend-reply-form", not entry.get("meet"))
            if entry.get("meet"):
                q("friend-sent-status").textContent = WAITING_MEET
                open_meet(entry)
            show_panel("friend-sent")
        else:
            q("friend-reply-out").value = page_address() + REPLY_MARK + entry["reply"]
            show_panel("friend-replied")
        return True
    S["friend"] = dict(entry)
    try:
        if entry.get("sealed"):
            reply = await friend_seal.resume(entry)
        else:
            reply = await bridge.call("friend_resume", {"game": entry["game"], "seat": entry["seat"]})
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        show_setup_note("This friend game could not be read: " + error.message)
        return True
    if entry.get("meet"):
        open_meet(entry)  # finds the friend's page again by itself: what either missed is sent again
    if reply is None:  # a sealed game whose first deal is not sealed yet: it comes over the connection
        S["friend"]["seal"] = True
        q("friend-sent-status").textContent = SEALING
        show_panel("friend-sent" if entry["seat"] == 0 else "friend-replied")
        return True
    seat_table(entry, reply)
    S["cards"].update(reply["cards"])  # the cards' faces, before anything draws the hand
    S["model"] = model_from_view(reply["view"])
    reply["events"] = []
    await flow(lambda: took(reply))
    log.fill(reply.get("said"))  # the game log as it was (a sealed game's, from the engine)
    restore_chat(entry)
    announce("Your game with " + other_name() + " is as you left it.")
    return True



async def take_sent_reply(text):
    """The friend's reply, come over the game's connection (or its meeting point): it starts the
    invitation it answers (refused there if it answers another)."""
    entry = S.get("pending")
    if entry is None or LIVE_STATE["link"] is None:
        return
    stored = friend_store.get(entry["id"])
    if stored is not None and stored.get("reply"):
        return  # taken already (a note seen again after a reload is dropped before it gets here)
    await take_reply(text, stored or entry)


LIVE_STATE["on_reply"] = take_sent_reply
LIVE_STATE["on_invite"] = take_again
