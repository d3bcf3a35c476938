"""The game page's flow (table/flow.py), under the name the friend modules (friend_*.py) import."""

from table.flow import *  # noqa: F401,F403
