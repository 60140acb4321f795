"""Fixed deals for the browser tests, with the reasoning that makes their outcome certain.

A Hearts moon for seat 0, whatever the computer players pass and play, when the room has
`queen_breaks_hearts` and seat 0 passes 2♦ 3♦ 4♦ (hand 1 passes left) and then plays the
cards of `MOON_PLAY_ORDER` in that order whenever it may:

- Seat 0 keeps A♣ A♠ K♠ Q♠ and the six top hearts; whatever three cards seat 3 passes it
  (never 2♣, which seat 3 does not hold), 2♣ is led by another seat and A♣ wins trick 1.
- Seat 0 then leads A♠, K♠, Q♠: each is the highest spade left, and Q♠ breaks hearts.
- It leads A♥ down to 9♥: the seven low hearts are spread so that no other seat can hold
  more than five of them after the pass (3 + 2 + 2, each seat passing at most its own),
  so six heart leads force every heart out of the other hands, into seat 0's tricks.
- Any heart seat 3 passed it is led next, while nobody else has one left; tricks after
  that may be lost, but no heart and no Q♠ is left to lose: a moon.
"""

from __future__ import annotations

HEARTS_MOON_DEAL = [
    ["AC", "AS", "KS", "QS", "AH", "KH", "QH", "JH", "TH", "9H", "2D", "3D", "4D"],
    ["2C", "3C", "4C", "5C", "8H", "7H", "6H", "2S", "3S", "4S", "5S", "5D", "6D"],
    ["6C", "7C", "8C", "9C", "5H", "4H", "6S", "7S", "8S", "7D", "8D", "9D", "TD"],
    ["TC", "JC", "QC", "KC", "3H", "2H", "9S", "TS", "JS", "JD", "QD", "KD", "AD"],
]
MOON_PASS = ["2D", "3D", "4D"]
MOON_PLAY_ORDER = ["AC", "AS", "KS", "QS", "AH", "KH", "QH", "JH", "TH", "9H"]
MOON_OPTIONS = {"moon": "shooter_choice", "queen_breaks_hearts": True}


def moon_card(legal: list[str]) -> str:
    """Seat 0's card in the moon deal: the first of the plan it may play, else a heart
    (received in the pass), else any."""
    planned = [c for c in MOON_PLAY_ORDER if c in legal]
    hearts = [c for c in legal if c[1] == "H"]
    return (planned or hearts or legal)[0]
