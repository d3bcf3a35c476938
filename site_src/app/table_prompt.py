"""The game page's decision on offer (table/prompt.py), under the name the friend modules (friend_*.py) import."""

from table.prompt import *  # noqa: F401,F403
