"""Duel's computer player: it ducks. It plays the highest card that does not take the
trick, and when every card it may play would take it (or it leads), its lowest."""

from __future__ import annotations

from games.rules.cards import rank


def choose_play(legal: list[str], trick: list[str]) -> str:
    """`legal`: the cards it may play; `trick`: the cards on the table, the led one first."""
    if trick:
        led = trick[0][1]
        best = max(rank(c) for c in trick if c[1] == led)
        ducks = [c for c in legal if c[1] != led or rank(c) < best]
        if ducks:
            return max(ducks, key=rank)
    return min(legal, key=rank)
