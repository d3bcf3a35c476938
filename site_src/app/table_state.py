"""The game page's state (table/state.py), under the name the friend modules (friend_*.py) import."""

from table.state import *  # noqa: F401,F403
