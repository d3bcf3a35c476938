"""Cribbage engine: cards, counting, the play, fair deals, the game, opponents and analysis.

Pure Python, standard library only, so the same files run in CPython and in Pyodide.
"""
