"""The engine worker: runs in Pyodide inside a Web Worker and re-exports engine.api.

It never touches ``window`` or ``document`` (that would need cross-origin isolation); the page
calls these functions through ``bridge.call`` with JSON text both ways.
"""

from engine import api

call = api.call
globals().update(api.ENDPOINTS)

__export__ = ["call", *api.ENDPOINTS]
