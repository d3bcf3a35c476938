"""Main-thread plumbing for interactive pages: the engine's worker, the status line, errors.

Runs in MicroPython (keep to the subset: no dataclasses, typing or itertools). A page module
(site_src/app/<page>.py) does:

    import bridge

    def setup():
        bridge.on("#count-button", "click", count_hand)   # handlers may be async
        bridge.ui_ready()

    async def count_hand(event):
        reply = await bridge.call("score_hand", {"hand": "5H 5S 5D JC", "starter": "5C"})
        ...                                               # reply is a dict

    setup()
    bridge.start()          # wait for the engine in the background; the status line shows progress

The engine runs in MicroPython in a worker (site_src/workers/engine_worker.py in app/engine_worker.mjs),
which site_src/static/engine.js starts from the page's <head> (base.html) and reaches as
``window.cribbageEngine``; ``call`` sends JSON text to it and reads JSON text back. A failed call raises EngineError, whose ``message`` is
written for the player. If the worker could not start, the message says which file did not
arrive or was damaged (engine.js's ``failure()``), and the next call starts a fresh worker that
fetches its files again (``restart()``), so trying again works once the file is back.
Handlers bound with ``on`` show such messages in the page's #app-error element instead of
raising. Markers for tests and styles: html[data-ui] is "loading" until ``ui_ready()``;
html[data-engine] is idle, loading, ready or error.
"""

import asyncio
import json

import js
from dom import create_proxy, document, window

SLOW_AFTER_MS = 8000
ENGINE_GLOBAL = "cribbageEngine"  # window.cribbageEngine, from static/engine.js
ENGINE_SCRIPT_WAIT_MS = 6000  # how long to wait for static/engine.js to have run (it normally runs first)

STATUS_ID = "engine-status"
STATUS_TEXT_ID = "engine-status-text"
ERROR_ID = "app-error"

LOADING_TEXT = "Loading the card engine (Python in your browser)…"
SLOW_TEXT = "Still loading the card engine. A slow connection can take a while the first time…"
BOOT_FAILED = "The card engine could not start. Reloading the page usually fixes this."
BOOT_FAILED_BECAUSE = "The card engine could not start: {}. Try again, or reload the page."
ENGINE_SCRIPT_MISSING = "static/engine.js did not arrive"
CALL_FAILED = "Something went wrong while the engine was working. Please try again."
PAGE_FAILED = "Something went wrong on this page. Reloading it usually helps."


class EngineError(Exception):
    """An engine call failed; ``message`` is fit to show the player, ``kind`` says why."""

    def __init__(self, message, kind="internal"):
        super().__init__(message)
        self.message = message
        self.kind = kind


_state = {"info": None, "waiting": False, "error": None, "worker": None, "booting": None, "ping": None,
          "ahead": None}
_proxies = []  # keeps event-handler proxies alive for the page's lifetime


def element(target):
    """The element for a CSS selector, or ``target`` itself if it is already an element."""
    if isinstance(target, str):
        found = document.querySelector(target)
        if found is None:
            raise ValueError("No element matches " + target)
        return found
    return target


def root():
    """Relative path from this page to the site root ("./", "../"), from html[data-root]."""
    return document.documentElement.getAttribute("data-root") or "./"


def set_state(state, text=None):
    """Show the engine state (idle, loading, ready, error) on the page and its status line."""
    document.documentElement.setAttribute("data-engine", state)
    box = document.getElementById(STATUS_ID)
    if box is not None:
        box.setAttribute("data-state", state)
    line = document.getElementById(STATUS_TEXT_ID)
    if line is not None and text is not None:
        line.textContent = text


def ui_ready():
    """Mark the page's UI as bound and usable (html[data-ui="ready"])."""
    document.documentElement.setAttribute("data-ui", "ready")


def show_error(message):
    """Show a message for the player in #app-error (or the status line); no tracebacks."""
    if isinstance(message, EngineError):
        message = message.message
    elif isinstance(message, Exception):
        message = PAGE_FAILED
    box = document.getElementById(ERROR_ID)
    if box is None:
        box = document.getElementById(STATUS_TEXT_ID)
    if box is not None:
        box.textContent = str(message)
        box.classList.add("is-shown")


def clear_error():
    """Hide the message shown by ``show_error``."""
    box = document.getElementById(ERROR_ID)
    if box is not None:
        box.textContent = ""
        box.classList.remove("is-shown")


def _log(*parts):
    """Details for developers go to the console, never into the page."""
    js.console.error(*[str(part) for part in parts])


def _watch():
    """Show the loading state once, and a kinder line if the engine is slow to come."""
    if _state["waiting"]:
        return
    _state["waiting"] = True
    set_state("loading", LOADING_TEXT)

    def slow(*args):
        if _state["info"] is None and _state["error"] is None:
            set_state("loading", SLOW_TEXT)

    handler = create_proxy(slow)
    _proxies.append(handler)
    window.setTimeout(handler, SLOW_AFTER_MS)


def _worker_failure():
    """What did not start in the engine's worker, as engine.js says it, or None."""
    worker = _state["worker"]
    try:
        failure = worker.failure() if worker is not None else None
    except Exception:
        return None
    return str(failure) if failure else None


def _start_again():
    """After a failed start, a fresh worker that fetches its files again; the status line waits."""
    _state["error"] = None
    _state["booting"] = None
    worker = _state["worker"]
    if worker is not None:
        worker.restart()
    set_state("loading", LOADING_TEXT)


async def _boot():
    """Wait for the engine's worker and ping it once; returns the ping reply. Callers that come
    while the ping is on its way wait for the same one. After a failed start, a call starts the
    worker again (trying again fetches the files afresh)."""
    if _state["info"] is not None:
        return _state["info"]
    if _state["error"] is not None:
        if _state["error"].kind != "boot":
            raise _state["error"]
        _start_again()
    if _state["booting"] is None:
        _state["booting"] = asyncio.create_task(_first_ping())
    return await _state["booting"]


async def _first_ping():
    """Find the engine's worker (static/engine.js) and ping it; returns the ping reply."""
    _watch()
    try:
        waited = 0
        while _found_worker() is None and waited < ENGINE_SCRIPT_WAIT_MS:  # async: there unless it failed
            await asyncio.sleep(0.02)
            waited += 20
        if _found_worker() is None:
            _log("window." + ENGINE_GLOBAL + " is missing (static/engine.js did not run)")
            raise EngineError(BOOT_FAILED_BECAUSE.format(ENGINE_SCRIPT_MISSING), "boot")
        sent, _state["ping"] = _state["ping"], None  # sent right behind the page's first call
        info = await (_reply("ping", sent) if sent is not None else _request("ping", {}))
    except EngineError as error:
        _fail(error)
        raise
    except Exception as error:  # the worker did not come up: show a clear message, log details
        _log("Engine worker failed to start:", error)
        _fail(EngineError(BOOT_FAILED, "boot"))
        raise _state["error"]
    if _state["info"] is None:
        _state["info"] = info
        set_state("ready", "Engine ready: " + str(info.get("interpreter")) + " running in your browser.")
    return _state["info"]


def _found_worker():
    """The engine's worker (window.cribbageEngine, from static/engine.js), or None before it is there."""
    if _state["worker"] is None:
        _state["worker"] = getattr(window, ENGINE_GLOBAL, None)
    return _state["worker"]


def _fail(error):
    if _state["error"] is None:
        _state["error"] = error
        set_state("error", error.message)


async def _request(name, payload):
    """One call to the engine's worker: JSON text out, JSON text back, errors as EngineError."""
    return await _reply(name, _send(name, payload))


def _send(name, payload):
    """The call sent to the engine's worker now: the Promise of its reply's text."""
    return _state["worker"].call(name, json.dumps(payload))


async def _reply(name, sent):
    """The reply to a call ``_send`` sent, as a dict; errors as EngineError."""
    try:
        text = await sent
    except EngineError:
        raise
    except Exception as error:  # the worker could not carry the call (it failed or stopped)
        _log("Engine call", name, "raised:", error)
        failure = _worker_failure()
        if failure is not None:  # it never started: say which file, and try afresh next time
            raise EngineError(BOOT_FAILED_BECAUSE.format(failure), "boot")
        raise EngineError(CALL_FAILED, "internal")
    reply = json.loads(str(text))
    if not reply.get("ok"):
        problem = reply.get("error") or {}
        kind = problem.get("kind", "internal")
        if kind != "bad_input":
            _log("Engine call", name, "failed:", problem.get("message"))
        message = problem.get("message") if kind == "bad_input" else CALL_FAILED
        raise EngineError(message or CALL_FAILED, kind)
    return reply.get("result")


async def ready():
    """Wait until the engine answers; returns its ping reply (versions). Raises EngineError."""
    return await _boot()


def start():
    """Wait for the engine in the background (the status line shows progress); returns at once."""
    launch(_boot(), quiet=True)


def call(name, payload=None):
    """Call engine function ``name`` with a dict; returns an awaitable of the reply dict, which
    raises EngineError.

    The call leaves for the worker now, not when it is awaited: a page can send its first
    calls and draw while the engine works. The engine warmed up for this page as its worker
    started (static/engine.js), so the first calls answer at once. A call made before the first
    ping has been answered is sent at once, not after that answer (the worker answers in order):
    a round trip less before the first deal; a call made before the ping has gone takes it along,
    right behind. If the engine does not start, awaiting the call raises the ping's error.
    """
    payload = payload or {}
    sent = _taken_ahead(name, payload)
    if sent is None and _state["error"] is None and _found_worker() is not None:
        sent = _send_with_ping(name, payload)
    return _answer(name, payload, sent)


def call_ahead(name, payload):
    """Send now a call the page is about to make, before it has loaded the rest of its modules:
    the engine works on it meanwhile. The page's next ``call`` of ``name`` takes its reply if it
    asks the same (an equal ``payload``); else that call is sent as usual and this reply is let go."""
    if _state["error"] is None and _found_worker() is not None:
        sent = _send_with_ping(name, payload)
        sent.catch(_LET_GO)  # a failure is said by the call that takes the reply, if one does
        _state["ahead"] = (name, payload, sent)


_LET_GO = create_proxy(lambda _error=None: None)


def _taken_ahead(name, payload):
    """The reply of the call sent ahead, if it is this call (see ``call_ahead``), or None."""
    ahead = _state["ahead"]
    if ahead is None or ahead[0] != name:
        return None
    _state["ahead"] = None
    return ahead[2] if ahead[1] == payload else None


def _send_with_ping(name, payload):
    """``_send``, and the first ping right behind the page's first call (its reply waits for the
    ping's answer)."""
    sent = _send(name, payload)
    if _state["info"] is None and _state["booting"] is None and _state["ping"] is None:
        _state["ping"] = _send("ping", {})
    return sent


async def _answer(name, payload, sent):
    """The reply to ``call``: the call ``sent`` (or sent once the engine has started), as a dict,
    once the ping has been answered too (the page's engine state is ready before it draws)."""
    try:
        await _boot()
    except EngineError:
        if sent is not None:
            try:
                await sent  # its own failure is the ping's, already said
            except Exception:
                pass
        raise
    return await _reply(name, sent if sent is not None else _send(name, payload))


def launch(coroutine, quiet=False):
    """Run a coroutine in the background; its errors are shown with ``show_error``."""

    async def guarded():
        try:
            await coroutine
        except EngineError as error:
            if not quiet:
                show_error(error)
        except Exception as error:
            _log("Page error:", error)
            show_error(PAGE_FAILED)

    return asyncio.create_task(guarded())


_frame_proxies = {}  # a callback -> the proxy that runs it at a frame (made once, kept)
_frame_asked = set()  # the callbacks waiting for the next frame


def at_next_frame(callback):
    """Run ``callback()`` once at the browser's next animation frame, however often it is asked
    for before then: a page reads its layout there, in the layout the browser makes for that frame,
    not in one forced at once on elements just drawn. Its errors are shown as ``on``'s are."""
    if callback in _frame_asked:
        return
    proxy = _frame_proxies.get(callback)
    if proxy is None:
        proxy = _frame_proxies[callback] = create_proxy(lambda _time=None: _run_at_frame(callback))
    _frame_asked.add(callback)
    window.requestAnimationFrame(proxy)


def _run_at_frame(callback):
    _frame_asked.discard(callback)
    try:
        callback()
    except Exception as error:
        _log("Page error at a frame:", error)
        show_error(PAGE_FAILED)


def on(target, event_name, handler, prevent_default=False):
    """Bind ``handler(event)`` (plain or async) to an element's event, showing its errors.

    ``prevent_default=True`` stops the browser's own action first (a form's submit, a link).
    """

    def listener(event):
        if prevent_default:
            event.preventDefault()
        try:
            result = handler(event)
        except EngineError as error:
            show_error(error)
            return
        except Exception as error:
            _log("Page error in", event_name, "handler:", error)
            show_error(PAGE_FAILED)
            return
        if result is not None and hasattr(result, "send"):  # a coroutine: run it
            launch(result)

    proxy = create_proxy(listener)
    _proxies.append(proxy)
    element(target).addEventListener(event_name, proxy)
    return proxy
