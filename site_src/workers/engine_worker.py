"""The engine's endpoint in its worker: MicroPython running engine/api.py off the page's main thread.

app/engine_worker.mjs (started by static/engine.js from the page's <head>) loads MicroPython,
writes the engine's bytecode and this module into its file system and calls ``call`` for every
message from the page (site_src/app/bridge.py), JSON text both ways. Fresh seeds come from the
browser's cryptographic generator. It never touches the page.

This MicroPython build collects garbage only when a top-level call returns, and by default
after every 16 KB allocated, so almost every call paid a whole collection at its end (tens of
milliseconds once a shuffle or a search had grown the heap). The worker collects after
``GC_EVERY`` bytes instead, and when it is idle (``idle``, from engine_worker.mjs), when it also
builds the show table if the page's warm-up left it (engine/api.py: ``WARM_UP_TABLES``).
"""

import gc

import js

from engine import api, fairdeal, scoring


def random_bytes(n):
    """n bytes from the browser's crypto.getRandomValues (a cryptographic source)."""
    buffer = js.Uint8Array.new(n)
    js.crypto.getRandomValues(buffer)
    return bytes([buffer[i] for i in range(n)])


fairdeal.use_seed_source(random_bytes)

GC_EVERY = 8 * 1024 * 1024  # bytes allocated between collections (the build's default: 16 KB)
gc.threshold(GC_EVERY)


def idle():
    """The worker is idle (no call waits for it): the show table built if no call has needed it
    yet, then the garbage collected."""
    scoring.build_tables()
    gc.collect()


def call(name, request_json):
    """Run engine endpoint ``name`` on a JSON request; the reply is JSON text (engine.api.call)."""
    return api.call(str(name), str(request_json))

