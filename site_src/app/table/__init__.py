"""The game page's table: its state, drawing, flow, setup, coach, finished games and the device's memory of its games.

Loaded only by the game page (site_src/app/game.py is its entry point; the friend games,
friend_*.py, play at the same table). Runs in MicroPython on the main thread; each module names
what it owns in its docstring's first line.
"""
