"""The game page's friend games: the invitation and reply, the direct connection or links, and chat.

Part of the game page (site_src/app/game.py is its entry point). Runs in MicroPython on the main
thread. Every rule is the engine's (engine/friend_host.py, through bridge.call): this module
carries texts between the player, the engine and the other page, and draws the friend panels.

How a game starts: "Play a friend" opens #friend-panel; "Make the invitation" opens a direct
connection's offer (peer_link.PeerLink, no server: with no STUN server allowed, only devices
on the same network can connect) and asks the engine for the invitation, shown as a link
(``#invite=``) and a QR code. The friend's page, opened on that link, shows who invites and the
rules; accepting answers the connection and gives the reply (a code, or a ``#reply=`` link). Pasted
back (or opened), it starts the game on the inviter's page, which sends its secret first.

Then each side's moves go to the engine (``friend_move``), and the messages it returns go to the
other page, over the connection when it is open; otherwise the page shows a move link
(``#play=`` and the game's code) to send. Whatever arrives (a message, a pasted text, an opened
link) goes to ``friend_receive`` or ``friend_open_link``, which refuse anything that is not the
next legal move of the other seat, with the sentence shown in #friend-refused.
"""

import asyncio

import js
from pyscript import document, window
from pyscript.ffi import create_proxy

import bridge
import friend_store
from peer_link import LinkError, PeerLink
from table_flow import flow, take
from table_prompt import WAITING_HOOKS, announce, bring_into_view, set_waiting
from table_setup import close_setup, meta_from, open_setup, reset_table
from table_state import S, blank_model, cap, make, model_from_view, q, shown
from table_view import render

INVITE_MARK = "#invite="
REPLY_MARK = "#reply="
PLAY_MARK = "#play="
CONNECT_MARK = "#connect="
CHAT_KEEP = 50
HOLD_AT = ("next", "go")  # stops the player clicks past: the friend's next move waits for the click
CHAT_MARK = '"t":"chat"'  # how a chat line looks on its way (the engine checks what it really is)
SAME_NETWORK = ("Live play needs both devices on the same network; "
                "links work from anywhere.")
LIVE = "Connected live to {}: moves arrive as they are made."
BY_LINK = "Playing {} by link: after each of your moves, send the link below."
WAITING_REPLY = "Waiting for your friend's reply. Keep this page open to play live."
WAITING_START = "Waiting for {} to paste your reply…"
LINK_DOWN = "The live connection to {} closed. Carry on by link, or connect live again."

_live = {"link": None, "inbox": [], "draining": False, "muted": False, "offer_link": None}


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
        q("setup").hidden = True
        q("game").classList.add("is-setup")
        set_waiting("setup")
        bring_into_view(q("friend-panel"))


def connection_setting():
    """The ICE servers the player allowed (none by default)."""
    return friend_store.ice_servers(friend_store.load_network())


def new_link():
    """A fresh PeerLink for this page's friend game (the old one closed)."""
    old = _live["link"]
    if old is not None:
        old.close()
    link = PeerLink(connection_setting(), on_message=on_message, on_state=on_link_state, on_error=on_link_error)
    _live["link"] = link
    return link


def is_live():
    """True while the direct connection is open."""
    return _live["link"] is not None and _live["link"].is_open()


# --- making an invitation ------------------------------------------------------------------------


def on_friend_button(event):
    """Open the panel that makes an invitation."""
    setting = friend_store.load_network()
    q("friend-stun").checked = setting["stun"]
    q("friend-stun-host").value = setting["host"]
    names = S["settings"].get("friend_name") or ""
    q("friend-name").value = names
    q("friend-make-message").textContent = ""
    show_panel("friend-make")
    q("friend-name").focus()


def on_back(event):
    """Back to the new-game form."""
    show_panel("")
    open_setup(S["game"] is not None)


def on_network_change(event):
    """Remember the connection setting as soon as it changes."""
    friend_store.save_network(bool(q("friend-stun").checked), str(q("friend-stun-host").value).strip())


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
    try:
        request["signal"] = None
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
    S["settings"]["friend_name"] = request["name"].strip()
    entry = {"id": made["id"], "seat": 0, "invite": made["invite"], "reply": None, "secret": made["secret"],
             "names": [request["name"].strip(), None], "target": target, "muggins": request["muggins"],
             "game": None, "meta": None, "turn": "Waiting for the reply"}
    friend_store.put(entry)
    S["pending"] = entry
    address = page_address() + INVITE_MARK + made["invite"]
    q("friend-invite-link").value = address
    q("friend-sent-status").textContent = WAITING_REPLY if request["signal"] else \
        "Live play could not be offered here; the game goes by link."
    q("friend-reply-message").textContent = ""
    q("friend-reply-in").value = ""
    show_panel("friend-sent")
    await draw_qr(address)
    list_games()


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
    entry["reply"] = text.strip()[text.strip().rfind("fr1."):]
    entry["names"] = [entry["names"][0], found["name"]]
    friend_store.put(entry)
    S["friend"] = dict(entry)
    reply = await bridge.call("friend_begin", parts())
    seat_table(entry, reply)
    link = _live["link"]
    if found["signal"] and link is not None and link.role == "offer" and not link.accepted:
        bridge.launch(connect(link, found["signal"]))  # the hello goes once the channel opens
    await flow(lambda: took(reply))
    return True


async def connect(link, signal):
    """Apply the friend's connection answer; a failure is said, and the game goes on by link."""
    try:
        await link.accept(signal)
    except (LinkError, ValueError) as error:
        say_connection(error.message if isinstance(error, LinkError) else str(error))


async def took(reply):
    """A reply taken as the step of a flow."""
    take(reply)
    return True


def seat_table(entry, reply):
    """Seat a friend game at the table (the engine's reply for this page's seat)."""
    S["friend"] = {"id": entry["id"], "seat": entry["seat"], "invite": entry["invite"], "reply": entry["reply"],
                   "secret": entry["secret"], "names": list(reply.get("names") or entry["names"])}
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


# --- the friend's side -----------------------------------------------------------------------------


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
    q("friend-invite-text").textContent = (
        found["name"] + " invites you to a game of cribbage to " + str(found["target"]) + " points, muggins "
        + ("on" if found["muggins"] else "off") + ".")
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
        if found["signal"]:
            link = new_link()
            try:
                request["signal"] = await link.answer(found["signal"])
            except (LinkError, ValueError) as error:
                js.console.warn("No live answer:", str(error))
        made = await bridge.call("friend_accept", request)
    finally:
        q("friend-accept").disabled = False
    q("friend-invited-message").textContent = ""
    S["settings"]["friend_name"] = request["name"].strip()
    entry = {"id": made["id"], "seat": 1, "invite": invited["text"], "reply": made["reply"], "secret": made["secret"],
             "names": [found["name"], request["name"].strip()], "target": found["target"],
             "muggins": found["muggins"], "game": None, "meta": None, "turn": "Waiting for the first move"}
    friend_store.put(entry)
    S["friend"] = dict(entry)
    q("friend-reply-out").value = page_address() + REPLY_MARK + made["reply"]
    q("friend-replied-text").textContent = (
        "Send this reply back to " + found["name"] + ". When " + found["name"]
        + " pastes it, the game starts here" + (" live." if request["signal"] else ", by link."))
    q("friend-replied-status").textContent = WAITING_START.replace("{}", found["name"])
    show_panel("friend-replied")
    list_games()


# --- messages from the other page ------------------------------------------------------------------


def on_message(text):
    """A message from the other page: taken in turn, once the table is not busy."""
    _live["inbox"].append(text)
    if not _live["draining"]:
        bridge.launch(drain())


async def drain():
    """Take the messages that arrived, one at a time, each through the engine."""
    _live["draining"] = True
    try:
        while _live["inbox"]:
            text = _live["inbox"][0]
            if S["busy"] or (S["waiting"] in HOLD_AT and CHAT_MARK not in text):
                await asyncio.sleep(0.05)  # a move waits until the player leaves the show or the go
                continue
            _live["inbox"].pop(0)
            await flow(lambda: receive(text))
    finally:
        _live["draining"] = False


async def receive(text):
    """One message through the engine; refused ones are said, and the game stays as it was."""
    if S["friend"] is None:
        return False
    request = dict(parts(), message=text, game=S["game"])
    try:
        out = await bridge.call("friend_receive", request)
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        refuse(error.message)
        return settle()
    send(out["send"])
    if out["chat"]:
        add_chat(other_name(), out["chat"])
    if out["table"] is None:
        return settle()
    return adopt(out["table"])


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
    box.textContent = "Refused: " + cap(message) + " Nothing has changed in the game."
    box.hidden = False
    if S["game"] is None:  # not at the table yet: say it where the player is looking
        q("friend-replied-status").textContent = box.textContent
        q("friend-sent-status").textContent = box.textContent
    js.console.warn("Friend message refused:", message)


def send(messages):
    """Messages to the other page, over the connection if it is open."""
    link = _live["link"]
    for text in messages or []:
        if link is not None and link.is_open():
            link.send(text)


async def act_call(request):
    """The page's own move: the engine applies it; its message goes to the other page."""
    if S["friend"] is None:
        return await bridge.call("act", request)
    reply = await bridge.call("friend_move", dict(parts(), game=request["game"], action=request["action"]))
    send(reply.get("send"))
    return reply


async def on_friend_turn():
    """The other seat is to move: say so, and without a live connection offer the move link."""
    say_connection()
    if is_live():
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


def on_turn():
    """The table offered a decision: a friend game's bar follows it."""
    if S["friend"] is None:
        return
    if S["waiting"] == "friend" or (S["waiting"] == "over" and not is_live()):
        bridge.launch(on_friend_turn())  # by link, the last move's link shows the friend the end
    elif S["waiting"] in ("discard", "play", "count", "claim", "go", "next", "over"):
        shown("friend-send", False)
    list_games()


async def greet():
    """Say hello on a newly opened connection: the moves this side holds (and the inviter's secret)."""
    try:
        out = await bridge.call("friend_hello", dict(parts(), game=S["game"]))
    except bridge.EngineError as error:
        refuse(error.message)
        return
    send(out["send"])


def on_link_state(state, reason):
    """The connection opened or closed."""
    if state == "open":
        if S["friend"] is not None:
            bridge.launch(greet())
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


def say_connection(reason=""):
    """The line that says how this game is being played."""
    if S["friend"] is None:
        return
    name = other_name()
    if is_live():
        text = LIVE.replace("{}", name)
    elif reason:
        text = reason + " " + BY_LINK.replace("{}", name)
    else:
        text = BY_LINK.replace("{}", name) + " " + SAME_NETWORK
    q("friend-connection").textContent = text


# --- pasted texts and opened links ---------------------------------------------------------------


def on_paste(event):
    """Something pasted in the friend bar: a move link, a reply, a connection code."""
    text = str(q("friend-paste").value).strip()
    q("friend-paste").value = ""
    return bridge.launch(open_text(text, q("friend-paste-message")))


async def open_text(text, message=None):
    """Open whatever a friend sent: an invitation, a reply, a move link or a connection code."""
    if message is not None:
        message.textContent = ""
    if "fi1." in text:
        await show_invitation(text[text.rfind("fi1."):])
    elif "fr1." in text:
        await open_reply(text[text.rfind("fr1."):])
    elif "c1." in text:
        await open_move(text[text.rfind("c1."):])
    elif CONNECT_MARK in text or text.startswith(("1o", "1a")):
        await open_connection(text[text.find(CONNECT_MARK) + len(CONNECT_MARK):] if CONNECT_MARK in text else text)
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
        await open_entry(entry)
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


def show_setup_note(text):
    """A sentence where the player is looking when no friend game is at the table."""
    if S["game"] is None:
        open_setup(False)
        q("setup-message").textContent = text


# --- live again: a fresh offer and answer ------------------------------------------------------


def on_reconnect(event):
    """Make a connection code for the game at the table (the friend pastes it and answers)."""
    return bridge.launch(reconnect())


async def reconnect():
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
    link = _live["link"]
    try:
        if link is not None and link.role == "offer" and not link.accepted and not link.is_open():
            await link.accept(text)
            shown("friend-offer-box", False)
            return
        link = new_link()
        answer = await link.answer(text)
    except (LinkError, ValueError) as error:
        q("friend-paste-message").textContent = error.message if isinstance(error, LinkError) else str(error)
        return
    q("friend-offer-out").value = page_address() + CONNECT_MARK + answer
    shown("friend-offer-box", True)
    q("friend-connection").textContent = "Send this code back to " + other_name() + " to connect."


# --- chat -------------------------------------------------------------------------------------------


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
    if not is_live():
        add_chat("", "Chat needs the live connection; this line was not sent.")
        return
    send(out["send"])
    add_chat("You", out["text"])


def add_chat(who, text):
    """A line in the chat log, as plain text."""
    if _live["muted"] and who not in ("You", ""):
        return
    log = q("friend-chat-log")
    item = make("li", "friend-chat-line")
    if who:
        item.appendChild(make("strong", "", who + ": "))
    item.appendChild(document.createTextNode(text))
    log.appendChild(item)
    while log.children.length > CHAT_KEEP:
        log.removeChild(log.firstElementChild)


def on_mute(event):
    """Mute or unmute the friend's chat lines."""
    _live["muted"] = bool(q("friend-mute").checked)


# --- the list of friend games ------------------------------------------------------------------------


def list_games():
    """The friend games kept on this device, each with whose turn it is, in the setup form."""
    box = q("friend-games")
    box.replaceChildren()
    games = friend_store.entries()
    for entry in games:
        names = entry.get("names") or ["", ""]
        friend = names[1 - entry["seat"]] or "a friend"
        item = make("li", "friend-game")
        button = make("button", "button button-secondary friend-open", "Open")
        button.setAttribute("type", "button")
        button.setAttribute("data-friend", entry["id"])
        button.setAttribute("aria-label", "Open the game with " + friend)
        item.appendChild(make("span", "friend-game-name", "With " + friend + ": "))
        item.appendChild(make("span", "friend-game-turn", entry.get("turn") or ""))
        item.appendChild(button)
        box.appendChild(item)
    shown("friend-games", bool(games))


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
    """Put a friend game kept on this device back at the table (or its waiting panel)."""
    if not entry.get("game"):
        S["friend"] = dict(entry)
        if entry["seat"] == 0:
            S["pending"] = entry
            await draw_qr(page_address() + INVITE_MARK + entry["invite"])
            q("friend-invite-link").value = page_address() + INVITE_MARK + entry["invite"]
            q("friend-sent-status").textContent = "Paste your friend's reply to start, or open the reply link."
            show_panel("friend-sent")
        else:
            q("friend-reply-out").value = page_address() + REPLY_MARK + entry["reply"]
            show_panel("friend-replied")
        return
    S["friend"] = dict(entry)
    try:
        reply = await bridge.call("friend_resume", {"game": entry["game"], "seat": entry["seat"]})
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        show_setup_note("This friend game could not be read: " + error.message)
        return
    seat_table(entry, reply)
    S["model"] = model_from_view(reply["view"])
    reply["events"] = []
    await flow(lambda: took(reply))
    announce("Your game with " + other_name() + " is as you left it.")


async def resume_current():
    """After a reload: the friend game this device was playing, back at the table (True), if any."""
    entry = friend_store.get(friend_store.current() or "")
    if entry is None or not entry.get("game"):
        return False
    await open_entry(entry)
    return True


async def open_address():
    """A friend link in the page's address (an invitation, a reply, a move, a connection code):
    act on it and return True; False if the address holds none."""
    mark = str(window.location.hash)
    if not mark.startswith((INVITE_MARK, REPLY_MARK, PLAY_MARK, CONNECT_MARK)):
        return False
    window.history.replaceState(None, "", page_address() + str(window.location.search))
    q("prompt").textContent = ""
    await open_text(mark)
    list_games()
    return True


def on_hash_change(event):
    """A friend link opened in this tab while the page was open."""
    return bridge.launch(open_address())


def setup():
    """Bind the friend panels."""
    bridge.on("#friend-button", "click", on_friend_button)
    bridge.on("#friend-back", "click", on_back)
    bridge.on("#friend-decline", "click", on_back)
    bridge.on("#friend-make", "submit", on_make, prevent_default=True)
    bridge.on("#friend-stun", "change", on_network_change)
    bridge.on("#friend-stun-host", "change", on_network_change)
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
    _live["hash_listener"] = create_proxy(on_hash_change)
    js.window.addEventListener("hashchange", _live["hash_listener"])  # via pyscript's window it loses "this"
    WAITING_HOOKS.append(on_turn)
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
