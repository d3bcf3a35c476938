"""Cribbage engine: cards, counting, the play, fair deals, the game, opponents and analysis.

Pure Python with nothing but its own files, so the same files run in CPython and in MicroPython
(the pages' interpreter); the conformance test holds the two to the same output.
"""
