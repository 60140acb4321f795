"""Duel: a game that exists only for the tests, to show that a game is one folder.

Two or three players, the twelve cards 9 to A of spades and hearts dealt out, follow
suit, the highest card of the led suit takes the trick. Every trick taken is a point
against: after one or two hands (the `hands` option) the fewest points win.

Everything the game is lives here: its rules (`engine`), computer player (`bot`), JSON
types (`schema`), conformance profile (`profile`) and its tests. Nothing outside this
folder names it; `conftest.py` registers it for these tests only and takes it off the
catalogue afterwards.
"""
