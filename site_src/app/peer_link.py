"""A direct connection to another browser: one WebRTC data channel, no signalling server.

Runs in MicroPython on the page's main thread (keep to the subset). The two pages swap one
compact offer and one compact answer (peer_sdp.py), carried by the players themselves (a link,
a reply code); after that the browsers talk directly. ICE servers come only from the list given:
with none (the default) no other host is contacted, and the connection works when both devices
are on the same network.

    link = PeerLink([], on_message=show, on_state=changed)   # on_state(state, reason)
    invite = await link.offer()                  # the inviter: compact offer text, for the link
    reply = await friend.answer(invite)          # the friend's page: compact answer text
    await link.accept(reply)                     # back at the inviter: the channel opens
    link.send('{"type": "chat"}')                # True if it went out
    link.send_all([first, second])               # in order, in as few messages as fit

``state`` is one of STATES. ``on_state(state, reason)`` is called on every change; ``reason`` is
a sentence for the player when the state is "failed" (or "closed" by the other side), else "".
``offer``, ``answer`` and ``accept`` raise ValueError with a message for the player when a
pasted code is bad (the link is unchanged: paste again), and LinkError (its ``message`` for the
player) when the connection cannot go on (the state is then "failed").

Every call into WebRTC goes through the small JavaScript functions in JS, because an exception
thrown by JavaScript inside a call from MicroPython cannot be caught in Python here. They also
measure each incoming message before it crosses into Python: one longer than
``max_message`` characters, or one that is not text, is dropped there and reported through
``on_error(reason)``; the channel stays open.

Texts sent together (``send_all``) travel in one message, joined by newlines (a text holds none:
the pages send JSON), and arrive as one ``on_message`` call each, in order: the other page takes
them in one go instead of starting on the first before the rest has come. The compact codes'
version (peer_sdp.VERSION) names this framing, so two pages that frame differently never connect.
"""

import json

import js
from dom import create_proxy

import peer_sdp

STATES = ("new", "connecting", "open", "closed", "failed")
CHANNEL_LABEL = "cribbage"
MAX_MESSAGE = 64 * 1024  # characters of one incoming or outgoing message
SEPARATOR = "\n"  # between the texts of one message (send_all)
GATHER_TIMEOUT_MS = 5000  # candidates gathered by then go into the description
CONNECT_TIMEOUT_MS = 15000  # from applying the answer to the channel open
ICE_URL_PREFIXES = ("stun:", "stuns:")

NO_WEBRTC = "This browser cannot make direct connections (WebRTC is missing or turned off)."
NO_DIRECT = "No direct connection could be made: the two devices may not be on the same network."
LOST = "The direct connection to the other device was lost."
CLOSED_BY_PEER = "The other device closed the connection."
NOT_USABLE = "The other device's code could not be used: ask for a new one."
GATHER_FAILED = "This device could not prepare a direct connection."
TOO_LARGE = "A message from the other device was too large and was ignored."
NOT_TEXT = "A message from the other device was not text and was ignored."

JS = js.Function.new("""
  const gathered = (pc, ms) => new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const timer = setTimeout(resolve, ms);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") { clearTimeout(timer); resolve(); }
    });
  });
  const fail = (what, error) => {
    console.warn("WebRTC " + what + " failed:", error && error.name, error && error.message);
    return JSON.stringify({error: what});
  };
  const bind = (link, channel) => {
    link.channel = channel;
    channel.binaryType = "arraybuffer";
    channel.onopen = () => { link.opened = true; clearTimeout(link.timer); link.report("open", ""); link.settle(); };
    channel.onclose = () => { link.report("close", ""); link.settle(); };
    channel.onerror = (event) => link.report("error", String(event.error && event.error.message || ""));
    channel.onmessage = (event) => {
      // Measured here: a string crosses into MicroPython whole, so a huge one never crosses.
      const data = event.data;
      if (typeof data !== "string") link.report("not_text", "");
      else if (data.length > link.limit) link.report("too_large", String(data.length));
      else link.report("message", data);
    };
  };
  return {
    open(servers, limit, report) {
      // A link {pc, channel, ...}, or null when this browser has no usable RTCPeerConnection.
      try {
        const pc = new RTCPeerConnection({iceServers: JSON.parse(servers)});
        const link = {pc, channel: null, limit, report, opened: false, timer: 0, settle: null, settled: null};
        link.settled = new Promise((resolve) => { link.settle = resolve; });
        pc.addEventListener("connectionstatechange", () => {
          link.report("connection", String(pc.connectionState));
          if (pc.connectionState === "failed" || pc.connectionState === "closed") link.settle();
        });
        pc.addEventListener("datachannel", (event) => bind(link, event.channel));
        return link;
      } catch (error) { fail("RTCPeerConnection", error); return null; }
    },
    async offer(link, label, ms) {
      // JSON {sdp} of the complete local offer, or {error}.
      try {
        bind(link, link.pc.createDataChannel(label, {ordered: true}));
        await link.pc.setLocalDescription(await link.pc.createOffer());
        await gathered(link.pc, ms);
        return JSON.stringify({sdp: link.pc.localDescription.sdp});
      } catch (error) { return fail("offer", error); }
    },
    async answer(link, sdp, ms) {
      // JSON {sdp} of the complete local answer to the remote offer sdp, or {error}.
      try {
        await link.pc.setRemoteDescription({type: "offer", sdp});
      } catch (error) { return fail("remote offer", error); }
      try {
        await link.pc.setLocalDescription(await link.pc.createAnswer());
        await gathered(link.pc, ms);
        return JSON.stringify({sdp: link.pc.localDescription.sdp});
      } catch (error) { return fail("answer", error); }
    },
    async accept(link, sdp, ms) {
      // JSON {} once the remote answer sdp is applied (the timeout starts), or {error}.
      try {
        await link.pc.setRemoteDescription({type: "answer", sdp});
      } catch (error) { return fail("remote answer", error); }
      if (!link.opened) {
        link.timer = setTimeout(() => { if (!link.opened) { link.report("timeout", ""); link.settle(); } }, ms);
      }
      return "{}";
    },
    settled(link, ms) {
      // Resolves once the channel opened or the connection ended, or after ms.
      return Promise.race([link.settled, new Promise((resolve) => setTimeout(resolve, ms))]);
    },
    send(link, text) {
      try {
        if (!link.channel || link.channel.readyState !== "open") return false;
        link.channel.send(text);
        return true;
      } catch (error) { fail("send", error); return false; }
    },
    close(link) {
      try {
        clearTimeout(link.timer);
        link.report = () => {};
        link.settle();
        if (link.channel) link.channel.close();
        link.pc.close();
      } catch (error) { fail("close", error); }
    },
  };
""")()


class LinkError(Exception):
    """The connection cannot go on; ``message`` says why, fit to show the player."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


def ice_servers_json(urls):
    """The RTCPeerConnection ``iceServers`` (JSON text) for a list of STUN URLs; ValueError if one
    is not a STUN URL. An empty list (or None) gives "[]": no server is contacted."""
    servers = []
    for url in urls or []:
        if not isinstance(url, str) or not url.startswith(ICE_URL_PREFIXES) or len(url) > 200 or " " in url:
            raise ValueError("A server for direct connections must be a stun: address.")
        servers.append({"urls": url})
    return json.dumps(servers)


def _log(*parts):
    """Details for developers go to the console (as warnings), never into the page."""
    js.console.warn(*[str(part) for part in parts])


def call_handler(handler, what, *args):
    """Call a page's handler (if any) with ``args``; one that raises is logged as ``what``, and
    the link carries on."""
    if handler is None:
        return
    try:
        handler(*args)
    except Exception as error:
        _log(what + " handler raised:", error)


class PeerLink:
    """One direct connection to one other browser (see the module's docstring)."""

    def __init__(self, ice_servers=None, on_message=None, on_state=None, on_error=None,
                 connect_timeout_ms=CONNECT_TIMEOUT_MS, gather_timeout_ms=GATHER_TIMEOUT_MS,
                 max_message=MAX_MESSAGE):
        """``ice_servers``: STUN URLs the player allowed (none by default); ``on_message(text)``
        for each message; ``on_state(state, reason)`` on each change; ``on_error(reason)`` when
        an incoming message is refused (the link stays open)."""
        self.servers = ice_servers_json(ice_servers)
        self.on_message = on_message
        self.on_state = on_state
        self.on_error = on_error
        self.connect_timeout_ms = connect_timeout_ms
        self.gather_timeout_ms = gather_timeout_ms
        self.max_message = max_message
        self.state = "new"
        self.reason = ""
        self.role = None  # "offer" (the inviter) or "answer" (the friend)
        self.accepted = False  # the inviter applied the friend's answer
        self._link = None
        self._report = create_proxy(self._on_event)

    def is_open(self):
        """True while messages can be sent."""
        return self.state == "open"

    def _set_state(self, state, reason=""):
        if state == self.state or self.state in ("closed", "failed"):
            return
        self.state = state
        self.reason = reason
        if self.on_state is not None:
            try:
                self.on_state(state, reason)
            except Exception as error:  # the page's handler failed: log it, keep the link
                _log("PeerLink on_state handler raised:", error)

    def _fail(self, reason):
        """Go to "failed" with ``reason``, close the connection and return a LinkError to raise."""
        self._set_state("failed", reason)
        self._shut()
        return LinkError(reason)

    def _shut(self):
        if self._link is not None:
            JS.close(self._link)
            self._link = None

    def _start(self, role):
        if self.state != "new":
            raise RuntimeError("PeerLink." + role + "() needs a new link; this one is " + self.state)
        self._link = JS.open(self.servers, self.max_message, self._report)
        if self._link is None:
            raise self._fail(NO_WEBRTC)
        self.role = role
        self._set_state("connecting")

    def _on_event(self, kind, detail):
        """Events from the JavaScript side: open, close, error, message, too_large, not_text,
        timeout and connection (the RTCPeerConnection's connectionState)."""
        kind, detail = str(kind), str(detail)
        if kind == "message":
            for text in detail.split(SEPARATOR):
                if self.on_message is not None and self.state == "open" and text:
                    try:
                        self.on_message(text)
                    except Exception as error:
                        _log("PeerLink on_message handler raised:", error)
        elif kind in ("too_large", "not_text"):
            self._error(TOO_LARGE if kind == "too_large" else NOT_TEXT)
        elif kind == "open":
            self._set_state("open")
        elif kind == "timeout":
            self._fail(NO_DIRECT)
        elif kind == "close":
            if self.state == "open":
                self._set_state("closed", CLOSED_BY_PEER)
                self._shut()
        elif kind == "connection" and detail == "failed":
            self._fail(LOST if self.state == "open" else NO_DIRECT)
        elif kind == "error":
            _log("PeerLink data channel error:", detail)

    def _error(self, reason):
        call_handler(self.on_error, "PeerLink on_error", reason)

    async def _local(self, promise):
        reply = json.loads(str(await promise))
        if "error" in reply:
            return None
        return reply["sdp"]

    async def offer(self):
        """The inviter's side: the compact offer text, once candidates are gathered (at most
        ``gather_timeout_ms``). Raises LinkError if no offer can be made."""
        self._start("offer")
        sdp = await self._local(JS.offer(self._link, CHANNEL_LABEL, self.gather_timeout_ms))
        if self.state != "connecting":
            raise LinkError(self.reason or LOST)
        if sdp is None:
            raise self._fail(GATHER_FAILED)
        try:
            return peer_sdp.compact_description(sdp)
        except ValueError as error:
            _log("PeerLink: this browser's offer could not be compacted:", error)
            raise self._fail(GATHER_FAILED)

    async def answer(self, offer_text):
        """The friend's side: the compact answer text to the inviter's compact offer. Raises
        ValueError (the link unchanged) if the code is bad, LinkError if it cannot be used."""
        sdp = peer_sdp.expand_description(offer_text, "offer")  # ValueError before anything starts
        self._start("answer")
        reply = json.loads(str(await JS.answer(self._link, sdp, self.gather_timeout_ms)))
        if self.state != "connecting":
            raise LinkError(self.reason or LOST)
        if "error" in reply:
            raise self._fail(NOT_USABLE if reply["error"] == "remote offer" else GATHER_FAILED)
        try:
            return peer_sdp.compact_description(reply["sdp"])
        except ValueError as error:
            _log("PeerLink: this browser's answer could not be compacted:", error)
            raise self._fail(GATHER_FAILED)

    async def accept(self, answer_text):
        """Back at the inviter: apply the friend's compact answer; the channel opens within
        ``connect_timeout_ms`` or the state becomes "failed". Raises ValueError (the link
        unchanged: paste again) if the code is bad, LinkError if it cannot be used."""
        if self.role != "offer" or self.state != "connecting" or self.accepted:
            raise RuntimeError("PeerLink.accept() needs a link that made an offer and is waiting for the answer")
        sdp = peer_sdp.expand_description(answer_text, "answer")
        self.accepted = True
        reply = json.loads(str(await JS.accept(self._link, sdp, self.connect_timeout_ms)))
        if "error" in reply:
            raise self._fail(NOT_USABLE)

    async def wait_open(self, seconds):
        """Wait until the channel opens or the connection ends (at most ``seconds``); True if open."""
        if self.state == "connecting" and self._link is not None:
            await JS.settled(self._link, int(seconds * 1000))
        return self.is_open()

    def send(self, text):
        """Send one text; True if it went out (the link is open, and the text fits and has no newline)."""
        return self.send_all([text])

    def send_all(self, texts):
        """Send texts in order, those that fit together in one message (``SEPARATOR`` between
        them); True if every one went out. A text that is not a string, holds a newline or is
        longer than ``max_message`` is not sent."""
        if self.state != "open":
            return False
        sent = True
        frame = ""
        for text in texts:
            if not isinstance(text, str) or SEPARATOR in text or not text or len(text) > self.max_message:
                sent = False
                continue
            if frame and len(frame) + len(SEPARATOR) + len(text) > self.max_message:
                sent = bool(JS.send(self._link, frame)) and sent
                frame = ""
            frame = frame + SEPARATOR + text if frame else text
        if frame:
            sent = bool(JS.send(self._link, frame)) and sent
        return sent

    def close(self):
        """Close the connection (the other side sees it closed); the state becomes "closed"."""
        self._set_state("closed")
        self._shut()
