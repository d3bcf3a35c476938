"""Test page module: drives bridge.py through its success and failure paths."""

import json

import js

import pack

pack.mount("calculator.pack")  # its config (app/calculator.json) is the calculator's, whose pack holds bridge

import bridge  # noqa: E402
from dom import document  # noqa: E402


def show(value):
    document.getElementById("out").textContent = json.dumps(value)


async def echo(event):
    bridge.clear_error()
    reply = await bridge.call("ping", {"echo": {"cards": ["5H", "J♣"], "n": 2.5, "list": [1, 2]}})
    show(reply["echo"])


async def bad_input(event):
    await bridge.call("ping", [1, 2])  # not a JSON object: the engine replies bad_input


async def unknown(event):
    await bridge.call("no_such_function", {})


class BrokenEngine:
    """Stands in for the engine's worker when it cannot carry a call (a rejected promise)."""

    def call(self, name, text):
        return js.Promise.reject(js.Error.new("the engine's worker stopped"))


async def worker_raises(event):
    await bridge.ready()
    working = bridge._state["worker"]
    bridge._state["worker"] = BrokenEngine()
    try:
        await bridge._request("ping", {})
    finally:
        bridge._state["worker"] = working


def page_raises(event):
    raise RuntimeError("a bug in a page module")


bridge.on("#echo", "click", echo)
bridge.on("#bad-input", "click", bad_input)
bridge.on("#unknown", "click", unknown)
bridge.on("#worker-raises", "click", worker_raises)
bridge.on("#page-raises", "click", page_raises)
bridge.ui_ready()
bridge.start()
