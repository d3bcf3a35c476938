"""Test page module: drives peer_link.PeerLink through the buttons of index.html.

The location's query may set ``timeout`` (ms from accepting the answer to giving up) and
``stun`` (one STUN URL to configure). The link's states go to #states and html[data-peer], the
messages it receives to #messages, refused ones to #errors, a bad code's message to #problem;
#timing is the time in ms from applying the answer (or making it) to the channel open; #waited
what ``wait_open`` gave the inviter after applying the answer, and the state then.
"""

import js

import pack

pack.mount("game.pack")  # its config (app/game.json) is the game page's, whose pack holds peer_link

import bridge  # noqa: E402
from dom import document  # noqa: E402
import peer_link  # noqa: E402

HUGE = peer_link.MAX_MESSAGE + 1


def query(name, default):
    search = str(js.window.location.search)[1:]
    for pair in search.split("&"):
        key, _, value = pair.partition("=")
        if key == name:
            return str(js.decodeURIComponent(value))
    return default


def add_line(element_id, text):
    box = document.getElementById(element_id)
    box.textContent = box.textContent + text + "\n"


_probe = {"started": None}


def on_state(state, reason):
    add_line("states", state + "|" + reason)
    document.documentElement.setAttribute("data-peer", state)
    if state == "open" and _probe["started"] is not None:
        document.getElementById("timing").textContent = "%.1f" % (js.performance.now() - _probe["started"])


def on_message(text):
    add_line("messages", text)


def on_error(reason):
    add_line("errors", reason)


stun = query("stun", "")
link = peer_link.PeerLink([stun] if stun else [], on_message=on_message, on_state=on_state, on_error=on_error,
                          connect_timeout_ms=int(query("timeout", str(peer_link.CONNECT_TIMEOUT_MS))))


def pasted():
    return document.getElementById("input").value


async def make_offer(event):
    document.getElementById("code").textContent = await link.offer()


async def make_answer(event):
    try:
        code = await link.answer(pasted())
    except ValueError as error:
        document.getElementById("problem").textContent = str(error)
        return
    _probe["started"] = js.performance.now()
    document.getElementById("code").textContent = code


async def accept(event):
    try:
        _probe["started"] = js.performance.now()
        await link.accept(pasted())
    except ValueError as error:
        document.getElementById("problem").textContent = str(error)
        return
    opened = await link.wait_open(30)  # returns as the channel opens (or the connection ends)
    document.getElementById("waited").textContent = str(opened) + "|" + link.state


def send(event):
    document.getElementById("sent").textContent = str(link.send(pasted()))


def send_together(event):
    # The input's texts, split at "|", sent with one send_all.
    document.getElementById("sent").textContent = str(link.send_all(pasted().split("|")))


def send_huge(event):
    # Past PeerLink.send's own limit, straight to the channel: what a hostile page could send.
    document.getElementById("sent").textContent = str(peer_link.JS.send(link._link, "x" * HUGE))


def close(event):
    link.close()


bridge.on("#offer", "click", make_offer)
bridge.on("#answer", "click", make_answer)
bridge.on("#accept", "click", accept)
bridge.on("#send", "click", send)
bridge.on("#send-huge", "click", send_huge)
bridge.on("#send-together", "click", send_together)
bridge.on("#close", "click", close)
bridge.ui_ready()
