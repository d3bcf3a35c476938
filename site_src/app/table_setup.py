"""The game page's setup (table/setup.py), under the name the friend modules (friend_*.py) import."""

from table.setup import *  # noqa: F401,F403
