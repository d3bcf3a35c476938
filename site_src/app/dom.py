"""The page's ``document`` and ``window``, and ``create_proxy``: PyScript's names for them on the
main thread, taken from MicroPython's own js and jsffi modules.

PyScript's package (``pyscript``) gives the same objects on the main thread (its ``window`` is
the js module itself, its ``document`` is js.document, its ``ffi.create_proxy`` calls
jsffi.create_proxy), but every page module imports these from here instead: the build's copy of
PyScript does not write its package on the main thread at all (site_src/builder/runtime.py,
write_core_chunk), so that no page pays for writing, compiling and running it.

Runs in MicroPython on the main thread (keep to the subset).
"""

import js
from jsffi import create_proxy

window = js
"""The page's window (JavaScript's globalThis), as pyscript.window is on the main thread."""

document = js.document
"""The page's document."""

__all__ = ["create_proxy", "document", "window"]
