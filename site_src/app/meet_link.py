"""A friend game's way through a meeting point: its messages as encrypted notes, through the meeting point's frame.

Runs in MicroPython on the page's main thread (keep to the subset). A MeetLink has PeerLink's face
(``is_open``, ``send``, ``send_all``, ``close``, ``on_message(text)``, ``on_state(state, reason)``,
``on_error(reason)``), so the friend game carries its messages the same way whichever it has.

The page's own policy lets it contact no other host. The link opens meet.html (the meeting
point's frame: site_src/static/meet.js) as an ``<iframe sandbox="allow-scripts">`` and hands it
the meeting point's address, the game's public topic and, from then on, notes only: every
message is encrypted and tied to this page's seat by the engine (``meet_seal``, engine/meeting.py)
before it leaves, and every note that comes back is opened and checked by the engine
(``meet_open``), which drops repeats, puts notes in order and refuses anything else with a
sentence (``on_error``). The frame keeps the connection up by itself; the link's state is "open"
while the meeting point can be reached, and the messages sent meanwhile wait in the frame.

What the link must keep to carry on after a reload (the number of its next note, the mailbox of
the friend's notes) it hands to ``on_kept(state)`` each time it changes; ``state`` is given back
to the constructor.
"""

import asyncio
import json

import js
from dom import create_proxy, document

import bridge
from peer_link import call_handler

FRAME_PAGE = "meet.html"
SANDBOX = "allow-scripts"
MAX_WAITING = 200  # the friend's notes kept until the reply is read (they may open then)
GAP_WAITS = (2, 5, 10, 20, 40, 60)  # seconds a note may stay missing before each ask for every note again
UNREACHABLE = ("The meeting point cannot be reached just now: the game waits, and goes on by itself "
               "as soon as it is back.")
REFUSED = "A note from the meeting point was refused: {}"


def _token():
    """A random token for one frame's messages (16 bytes, hex)."""
    data = js.Uint8Array.new(16)
    js.crypto.getRandomValues(data)
    return "".join("%02x" % int(data[i]) for i in range(16))


class MeetLink:
    """One friend game's notes through one meeting point (see the module's docstring)."""

    role = "meet"
    accepted = False

    def __init__(self, url, key, topic, seat, tie=None, kept=None, on_message=None, on_state=None,
                 on_error=None, on_kept=None):
        """``url``: the meeting point (ws:// or wss://); ``key``: the game's meeting key;
        ``topic``: its public topic; ``seat``: this page's; ``tie``: the reply's text (None while
        this page has not read it); ``kept``: what ``on_kept`` was last given, or None."""
        self.url = url
        self.key = key
        self.topic = topic
        self.seat = seat
        self.tie = tie
        kept = kept if isinstance(kept, dict) else {}
        self.number = kept.get("out") if type(kept.get("out")) is int else 0
        self.box = kept.get("box") if isinstance(kept.get("box"), dict) else None
        self.on_message = on_message
        self.on_state = on_state
        self.on_error = on_error
        self.on_kept = on_kept
        self.on_gap = None  # called when a note stays missing: the page greets the friend (who sends again)
        self._gap_at = None  # the number of the note missing when the last look was asked for
        self.state = "connecting"
        self.reason = ""
        self._outbox = []  # [tie, texts]: messages to seal, in order
        self._inbox = []  # notes from the friend's seat, to open
        self._waiting = []  # notes that may open once the reply is read
        self._sealing = False
        self._opening = False
        self._ready = False  # the frame said it is there: until then posts wait in _posts
        self._posts = []
        self._token = _token()
        self._frame = document.createElement("iframe")
        self._frame.setAttribute("sandbox", SANDBOX)
        self._frame.setAttribute("title", "Meeting point")
        self._frame.setAttribute("aria-hidden", "true")
        self._frame.setAttribute("tabindex", "-1")
        self._frame.hidden = True
        self._frame.src = bridge.root() + FRAME_PAGE + "#" + self._token
        self._listener = create_proxy(self._on_frame)
        js.window.addEventListener("message", self._listener)
        document.body.appendChild(self._frame)

    def is_open(self):
        """True while the meeting point can be reached (messages sent now go out at once)."""
        return self.state == "open"

    def kept(self):
        """What the link needs to carry on after a reload (JSON-serialisable): not the notes that
        wait for one before them (they come from the meeting point again, which keeps them)."""
        box = None if self.box is None else {"next": self.box["next"], "part": self.box["part"], "held": []}
        return {"out": self.number, "box": box, "tie": self.tie, "seat": self.seat}

    def _tell(self, message):
        window = self._frame.contentWindow
        if window is not None:
            message["token"] = self._token
            window.postMessage(json.dumps(message), "*")  # the frame's origin is opaque: it checks the token

    def _on_frame(self, event):
        data = event.data
        if not isinstance(data, str) or len(data) > 70000:
            return
        try:
            message = json.loads(data)
        except ValueError:
            return
        if not isinstance(message, dict) or message.get("token") != self._token:
            return
        op = message.get("op")
        if op == "ready" and not self._ready:
            self._ready = True
            self._tell({"op": "open", "url": self.url, "topic": self.topic})
            for note in self._posts:
                self._tell({"op": "post", "note": note})
            self._posts = []
        elif op == "state":
            self._set_state("open" if message.get("state") == "open" else "closed",
                            "" if message.get("state") == "open" else UNREACHABLE)
        elif op == "note":
            note = message.get("note")
            if isinstance(note, str) and not note.startswith("n1." + str(self.seat) + "."):  # not this seat's own
                self._inbox.append(note)
                self._take_in()

    def _set_state(self, state, reason=""):
        if state == self.state or self.state == "ended":
            return
        self.state = state
        self.reason = reason
        call_handler(self.on_state, "MeetLink on_state", state, reason)

    def set_tie(self, tie):
        """The reply has been read: notes from now on are tied to it, and those that waited for it are opened."""
        self.tie = tie
        self._keep()
        if self._waiting:
            self._inbox[:0] = self._waiting
            self._waiting = []
            self._take_in()

    def send_reply(self, reply):
        """The friend's reply, as its seat's first note (tied to nothing: the inviter has no reply yet)."""
        self._outbox.append(["", [reply]])
        self._pump()

    def send(self, text):
        """Send one message; True (it goes out now, or as soon as the meeting point is back)."""
        return self.send_all([text])

    def send_all(self, texts):
        """Send messages in order (see ``send``)."""
        texts = [text for text in texts if isinstance(text, str) and text]
        if texts and self.state != "ended":
            self._outbox.append([self.tie or "", texts])
            self._pump()
        return self.state != "ended"

    def _pump(self):
        if not self._sealing:
            self._sealing = True  # now, not when the task starts: one task seals, so numbers never repeat
            bridge.launch(self._seal_notes())

    def _take_in(self):
        if not self._opening:
            self._opening = True
            bridge.launch(self._open_notes())

    async def _seal_notes(self):
        try:
            while self._outbox and self.state != "ended":
                tie, texts = self._outbox.pop(0)
                try:
                    out = await bridge.call("meet_seal", {"key": self.key, "tie": tie, "seat": self.seat,
                                                          "number": self.number, "texts": texts})
                except bridge.EngineError as error:
                    self._error(error.message)
                    continue
                self.number = out["number"]
                self._keep()
                for note in out["notes"]:
                    if self._ready:
                        self._tell({"op": "post", "note": note})
                    else:
                        self._posts.append(note)
        finally:
            self._sealing = False

    async def _open_notes(self):
        try:
            while self._inbox and self.state != "ended":
                notes, self._inbox = self._inbox, []
                try:
                    out = await bridge.call("meet_open", {"key": self.key, "tie": self.tie, "seat": 1 - self.seat,
                                                          "box": self.box, "notes": notes})
                except bridge.EngineError as error:
                    self._error(error.message)
                    continue
                self.box = out["box"]
                self._waiting = (self._waiting + out["waiting"])[-MAX_WAITING:]
                self._keep()
                if out["refused"]:
                    self._error(REFUSED.replace("{}", out["refused"][0]))
                for text in out["texts"]:
                    if self.state != "ended":
                        call_handler(self.on_message, "MeetLink on_message", text)
        finally:
            self._opening = False
        if self.box is not None and self.box["held"] and self._gap_at != self.box["next"]:
            self._gap_at = self.box["next"]
            bridge.launch(self._mind_gap(self.box["next"]))

    async def _mind_gap(self, number):
        """A note came before one it follows: if that one is still missing a while later, ask the
        meeting point for every note again, and the friend's page for what this one lacks."""
        for wait in GAP_WAITS:
            await asyncio.sleep(wait)
            if self.state == "ended" or self.box is None or self.box["next"] != number or not self.box["held"]:
                break
            self._tell({"op": "again"})
            call_handler(self.on_gap, "MeetLink on_gap")
        self._gap_at = None

    def _keep(self):
        call_handler(self.on_kept, "MeetLink on_kept", self.kept())

    def _error(self, reason):
        call_handler(self.on_error, "MeetLink on_error", reason)

    async def wait_open(self, seconds):
        """PeerLink's: True if the meeting point can be reached now (the link waits by itself otherwise)."""
        return self.is_open()

    def close(self):
        """Stop: the frame and its connection go; nothing more is sent or taken."""
        if self.state == "ended":
            return
        self._tell({"op": "close"})
        self.state = "ended"
        js.window.removeEventListener("message", self._listener)
        self._frame.remove()
