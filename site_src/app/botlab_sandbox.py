"""The bot lab's sandbox, on the page's side: the frame the visitor's bot runs in, cut off from the site.

Runs in MicroPython on the main thread (keep to the subset). The frame is an ``<iframe
sandbox="allow-scripts">`` with no allow-same-origin, so its origin is opaque; its document is
the build's (#bot-sandbox's data-sandbox-srcdoc: site_src/app/botlab_frame.js inline, allowed by
its hash in the page's policy). The frame starts the runner (app/botlab_runner.js) in a worker of
that origin, where CPython (Pyodide) runs app/botlab_worker.py and the bot. Nothing of the
site's can be reached from there: no Cache Storage, IndexedDB or localStorage, no channel the
site's tabs hear, no readable request (every address of the site is another origin's to it).

The frame fetches nothing itself. This module fetches what app/botlab_sandbox.json lists
(Pyodide's files, the engine's source and data, botlab_worker.py; through the site's service
worker, so offline as well) and hands it over in one message; from then on only calls and
their replies cross, as JSON text. Messages are read only from this frame, and only of the
shapes expected: a reply is a string for a call on its way, anything else is dropped.

    sandbox = botlab_sandbox.Sandbox()
    text = await sandbox.start()                  # botlab_worker.ping's reply (JSON text)
    text = await sandbox.call("start", request)   # JSON text both ways; "start" or "step"
    sandbox.end()   # removes the frame: its worker stops at once, whatever the bot is doing
"""

import asyncio
import json

import js
from dom import create_proxy, document, window

import bridge

MANIFEST = "app/botlab_sandbox.json"  # from the site's root
HOLDER_ID = "bot-sandbox"  # the element whose data-sandbox-srcdoc is the frame's document
SANDBOX = "allow-scripts"  # scripts, and nothing else: no same origin, forms, popups or navigation
FRAME_TIMEOUT_MS = 10000  # the frame's script says it is there within this long, or the start fails
CALLS = ("start", "step")

_files = {}  # what the runner is handed, fetched once per page (a fresh frame after Stop reuses it)


STOPPED = "stopped"


class SandboxError(Exception):
    """The sandbox could not start or carry a call; the reason is for the console, not the player."""


class Stopped(SandboxError):
    """The sandbox was ended (Stop) while the start or a call waited."""


async def fetch_ok(url):
    """The response for ``url``, or SandboxError if it failed."""
    response = await js.fetch(url)
    if not response.ok:
        raise SandboxError(url + ": HTTP " + str(response.status))
    return response


def absolute(path, base):
    """``path`` resolved against the address ``base``."""
    return str(js.URL.new(path, base).href)


async def fetch_files():
    """The boot message's parts: the runner's text, Pyodide's address and files, the Python files
    (fetched the first time; each value a JS ArrayBuffer)."""
    if _files:
        return _files
    manifest_url = absolute(bridge.root() + MANIFEST, js.location.href)
    manifest = json.loads(str(await (await fetch_ok(manifest_url)).text()))
    index = absolute(manifest["index"], manifest_url)
    runtime = js.Object.new()
    files = js.Object.new()

    async def one(url, target, key):
        buffer = await (await fetch_ok(url)).arrayBuffer()
        js.Reflect.set(target, key, buffer)

    jobs = [one(absolute(name, index), runtime, name) for name in manifest["pyodide"]]
    jobs += [one(absolute(source, manifest_url), files, path) for source, path in manifest["files"]]
    runner = fetch_ok(absolute(manifest["runner"], manifest_url))
    await asyncio.gather(*jobs)
    text = str(await (await runner).text())
    _files.update({"runner": text, "index": index, "pyodide": runtime, "files": files})
    return _files


def field(data, name):
    """A message's field, or None when the message is not an object that has it."""
    try:
        value = js.Reflect.get(data, name)
    except Exception:
        return None
    return value if isinstance(value, str) else None


class Sandbox:
    """One frame and its worker: started once, called any number of times, ended once."""

    def __init__(self):
        self.frame = None
        self.listener = None
        self.boot = None  # the start's resolvers, until the runner is up or failed
        self.pending = {}  # call id -> resolvers
        self.failures = {}  # call id (or "boot") -> why it failed
        self.serial = 0
        self.greeted = False
        self.parts = None
        self.timer = None
        self.ended = False

    async def start(self):
        """Fetch the files, make the frame, boot the runner; botlab_worker.ping's reply (JSON text)."""
        parts = await fetch_files()
        if self.ended:  # Stop came while the files were on their way
            raise Stopped(STOPPED)
        holder = document.getElementById(HOLDER_ID)
        if holder is None:
            raise SandboxError("the page has no #" + HOLDER_ID)
        self.boot = js.Promise.withResolvers()
        self.listener = create_proxy(self.on_message)
        window.addEventListener("message", self.listener)
        frame = document.createElement("iframe")
        frame.setAttribute("sandbox", SANDBOX)
        frame.setAttribute("srcdoc", holder.getAttribute("data-sandbox-srcdoc"))
        frame.setAttribute("title", "Your bot's sandbox")
        frame.setAttribute("aria-hidden", "true")
        frame.setAttribute("tabindex", "-1")
        frame.className = "bot-sandbox"
        frame.hidden = True
        self.frame = frame
        self.parts = parts
        document.body.append(frame)
        self.timer = create_proxy(self.on_timeout)
        window.setTimeout(self.timer, FRAME_TIMEOUT_MS)
        try:
            return await self.wait("boot", self.boot)
        finally:
            self.boot = None

    async def call(self, name, request):
        """Call botlab_worker's ``name`` (start or step) with JSON text; its reply (JSON text)."""
        if self.frame is None or name not in CALLS:
            raise SandboxError("no sandbox to call " + name)
        self.serial += 1
        key = "c" + str(self.serial)
        resolvers = js.Promise.withResolvers()
        self.pending[key] = resolvers
        message = js.Object.new()
        message.type = "call"
        message.id = key
        message.name = name
        message.request = request
        self.frame.contentWindow.postMessage(message, "*")
        return await self.wait(key, resolvers)

    async def wait(self, key, resolvers):
        """The text ``resolvers`` is resolved with, or SandboxError if the wait was failed."""
        text = await resolvers.promise
        failure = self.failures.pop(key, None)
        if failure == STOPPED:
            raise Stopped(failure)
        if failure is not None:
            raise SandboxError(failure)
        return str(text)

    def fail(self, key, why):
        """End a wait (the start's, or a call's) with an error."""
        resolvers = self.boot if key == "boot" else self.pending.pop(key, None)
        if resolvers is not None:
            self.failures[key] = why
            resolvers.resolve("")

    def on_timeout(self, *args):
        """FRAME_TIMEOUT_MS after the frame was made: fail the start if it never said it was there."""
        if not self.greeted:
            self.fail("boot", "the sandbox's frame did not start")

    def on_message(self, event):
        """A message from the frame: its greeting, the runner's start, a call's reply."""
        frame = self.frame
        if frame is None or not getattr(js.Object, "is")(event.source, frame.contentWindow):
            return
        data = event.data
        kind = field(data, "type")
        if kind == "sandbox" and not self.greeted:
            self.greeted = True
            self.post_boot()
        elif kind == "ready" and self.boot is not None and field(data, "reply") is not None:
            self.boot.resolve(field(data, "reply"))
        elif kind == "failed" and self.boot is not None:
            self.fail("boot", field(data, "error") or "the runner failed")
        elif kind in ("reply", "error"):
            key = field(data, "id")
            if key is None or key not in self.pending:
                return
            reply = field(data, "reply")
            if kind == "reply" and reply is not None:
                self.pending.pop(key).resolve(reply)
            else:
                self.fail(key, field(data, "error") or "the call failed")

    def post_boot(self):
        """Hand the frame the runner and its files (copied: the page keeps them for a fresh frame)."""
        message = js.Object.new()
        message.type = "boot"
        for name in ("runner", "index", "pyodide", "files"):
            js.Reflect.set(message, name, self.parts[name])
        self.frame.contentWindow.postMessage(message, "*")

    def end(self):
        """Remove the frame (its worker ends with it) and fail whatever was waiting."""
        self.ended = True
        if self.listener is not None:
            window.removeEventListener("message", self.listener)
            self.listener = None
        if self.frame is not None:
            self.frame.remove()
            self.frame = None
        self.fail("boot", STOPPED)
        for key in list(self.pending):
            self.fail(key, STOPPED)
