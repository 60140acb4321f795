"""What makes two names the same name, to people and to the server.

- `canonical`: NFKC, then case folded. Two usernames with the same canonical form are
  one account (`Alice`, `ALICE` and a fullwidth `Alice` all sign in as alice).
- `skeleton`: the NFKC form, case folded last, with every character that Unicode's confusables list
  (confusable_homoglyphs ships it) says looks like an ASCII character replaced by that
  character, in the spirit of UTS #39's skeleton. Two names with the same skeleton look
  alike (`admin` and the same word with a Cyrillic U+0430 for its a; `ADMIN` and `admln`,
  a capital I reading as a small l), so a second one is refused.
- Bidirectional controls (U+202E and friends) reorder what follows them on screen, so
  a name that holds one can show as another; none is accepted.
- The server names computer players "Computer N" (and its client names seats "Seat N"
  and the viewer "You"); nobody may look like one.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# The explicit embeddings, overrides and isolates, plus the three implicit marks.
_BIDI_CLASSES = frozenset({"LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"})
_BIDI_MARKS = frozenset({"\u200e", "\u200f", "\u061c"})

_ASCII_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
# The labels the server and its web client give seats: "Computer 2" for a computer
# player (games.models.Seat.display_name), "Seat 3" for a free one and "You" for the
# viewer's own (web/static/web/format.js), however they are spelt, as skeletons (where
# 1 and 0 read as l and o).
_SERVER_LABEL = re.compile(r"(computer|seat)[\dlo]*|you")


def canonical(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


@lru_cache(maxsize=4096)
def _ascii_lookalike(char: str) -> str:
    """The ASCII character `char` can be mistaken for, else `char` itself.

    Letters win over other characters, and an ASCII letter only ever becomes another
    letter (`I` reads as `l`; `0` reads as `O`, never `O` as `0`), so every member of a
    family of lookalikes lands on the same character.
    """
    if char in _ASCII_LOWER:
        return char
    # Loading Unicode's table takes about 50 ms: only processes that check a name pay it.
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(char, greedy=True) or []
    glyphs: list[str] = sorted(
        {g["c"] for hit in found for g in hit["homoglyphs"] if len(g["c"]) == 1 and g["c"].isascii()}
    )
    letters = [g for g in glyphs if g.isalpha()]
    if char.isascii() and char.isalpha():
        return (letters or [char])[0]
    return (letters or glyphs or [char])[0]


def skeleton(name: str) -> str:
    # Case is looked at before folding: a capital I reads as a small l.
    shown = unicodedata.normalize("NFKC", name)
    return "".join(_ascii_lookalike(c) for c in shown).casefold()


def has_bidi_control(text: str) -> bool:
    return any(c in _BIDI_MARKS or unicodedata.bidirectional(c) in _BIDI_CLASSES for c in text)


def impersonates_server(text: str) -> bool:
    """Whether `text` reads as a label the server gives, such as "Computer 2" or "You"."""
    letters = "".join(c for c in skeleton(text) if c.isalnum())
    return _SERVER_LABEL.fullmatch(letters) is not None
