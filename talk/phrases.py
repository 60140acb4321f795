"""The quick phrases: said with one tap, in any phase (even where free text is off
during a hand), and shown by each page in its reader's language. The API carries the
key; the English text stands beside it for clients that know no key."""

from __future__ import annotations

QUICK_PHRASES: dict[str, str] = {
    "hello": "Hello!",
    "good_luck": "Good luck!",
    "well_played": "Well played!",
    "thanks": "Thanks!",
    "oops": "Oops!",
    "sorry": "Sorry!",
    "one_moment": "One moment, please.",
    "good_game": "Good game!",
    "bye": "Bye!",
}
