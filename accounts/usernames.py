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
- Invisible characters (zero-width spaces and joiners, the word joiner, soft hyphens, the
  byte-order mark, Hangul fillers, variation selectors, tags: Unicode's default-ignorable
  code points) make two names that read the same different, or a name that reads as
  nothing; none is accepted where it is invisible. Where one does show (the joiner of an
  emoji sequence, 👩‍💻; a variation selector after a symbol, ❤️; the joiners of the scripts
  that write with them, such as Persian's zero-width non-joiner between letters; the tags of
  a subdivision's flag) it is taken.
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


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn as nothing.
_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
_ZWNJ, _ZWJ = "\u200c", "\u200d"
_PRESENTATION = frozenset("\ufe0e\ufe0f")
_BLACK_FLAG, _CANCEL_TAG = "\U0001f3f4", "\U000e007f"
_TAGS = range(0xE0020, 0xE0080)
# Scripts whose writing uses the joiners between letters (Arabic, Persian, the Indic
# scripts...): any but these, where a joiner between two letters changes nothing seen.
_NO_JOINERS = ("LATIN", "GREEK", "CYRILLIC", "COMBINING")


def is_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE)


def _joins_letters(char: str) -> bool:
    return (
        bool(char)
        and not char.isascii()
        and unicodedata.category(char)[0] in "LM"
        and not unicodedata.name(char, "").startswith(_NO_JOINERS)
    )


def _pictograph_before(text: str, i: int) -> bool:
    """Whether an emoji ends just before index `i` (a skin tone or presentation selector
    may follow it)."""
    j = i - 1
    while j >= 0 and (text[j] in _PRESENTATION or "\U0001f3fb" <= text[j] <= "\U0001f3ff"):
        j -= 1
    return j >= 0 and unicodedata.category(text[j]) == "So"


def _in_flag_tags(text: str, i: int) -> bool:
    """Whether the tag at `i` is in a run of tags after a black flag, ended by the cancel
    tag: a subdivision's flag (🏴 and the tags of gbsct)."""
    start = i
    while start > 0 and ord(text[start - 1]) in _TAGS:
        start -= 1
    end = i
    while end < len(text) and ord(text[end]) in _TAGS:
        end += 1
    return start > 0 and text[start - 1] == _BLACK_FLAG and text[end - 1] == _CANCEL_TAG


def has_invisible(text: str) -> bool:
    """Whether `text` holds a default-ignorable character where it shows as nothing (see
    the module's note for where one shows and is taken). The bidirectional controls among
    them are `has_bidi_control`'s."""
    for i, char in enumerate(text):
        if not is_ignorable(char):
            continue
        before = text[i - 1] if i else ""
        after = text[i + 1] if i + 1 < len(text) else ""
        if char in _PRESENTATION and before and unicodedata.category(before)[0] in "SPN":
            continue
        if char == _ZWJ and _pictograph_before(text, i) and after and unicodedata.category(after) == "So":
            continue
        if char in (_ZWJ, _ZWNJ) and _joins_letters(before) and _joins_letters(after):
            continue
        if ord(char) in _TAGS and _in_flag_tags(text, i):
            continue
        return True
    return False


def impersonates_server(text: str) -> bool:
    """Whether `text` reads as a label the server gives, such as "Computer 2" or "You"."""
    letters = "".join(c for c in skeleton(text) if c.isalnum())
    return _SERVER_LABEL.fullmatch(letters) is not None
