"""The device's memory for the game page (table/store.py), under the name the friend modules (friend_*.py) import."""

from table.store import *  # noqa: F401,F403
