"""The engine's worker: MicroPython running engine/api.py off the page's main thread.

PyScript starts it from the page (``<script type="mpy" worker name="engine">``, config
app/engine.toml, which puts the engine's bytecode in its file system) and the page reaches it
through ``pyscript.workers["engine"]`` (site_src/app/bridge.py). It exports one function,
``call(name, request_json) -> reply_json``: engine.api's, with JSON text both ways. Fresh
seeds come from the browser's cryptographic generator. It never touches the page.
"""

import js

from engine import api, fairdeal


def random_bytes(n):
    """n bytes from the browser's crypto.getRandomValues (a cryptographic source)."""
    buffer = js.Uint8Array.new(n)
    js.crypto.getRandomValues(buffer)
    return bytes([buffer[i] for i in range(n)])


fairdeal.use_seed_source(random_bytes)


def call(name, request_json):
    """Run engine endpoint ``name`` on a JSON request; the reply is JSON text (engine.api.call)."""
    return api.call(str(name), str(request_json))


__export__ = ["call"]
