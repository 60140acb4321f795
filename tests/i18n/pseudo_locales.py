"""Two pseudo-locales, for the tests only: the shipped catalogues' English strings written
so that a layout that holds only for English words shows itself. Never offered to a
person: a test server speaks them when `PSEUDO_LOCALES` names the folder `write` filled
(config/test_settings.py reads it).

- `en-xa`, longer: every string accented and padded to about 40% more letters, in
  brackets, so that a cut end shows ("Settings" is "[Šéţţîñĝš ŏñé]"). Long words are
  ordinary words: the layout must wrap them, never cut them.
- `ar-xb`, right to left: every string written mirrored (each run of words between
  right-to-left override and pop marks, U+202E and U+202C), with Arabic's six plural
  forms, in a language Django counts as right to left: the page is `dir="rtl"`.

Placeholders (`%(name)s`, `%%`, `{name}`) and markup (`<strong>`) stay as they are, so
that every string still fills in and `msgfmt --check-format` would take it.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polib
from django.utils.translation import to_locale

SHIPPED = Path(__file__).resolve().parents[2] / "locale"
DOMAINS = ("django", "djangojs")
# What a translation keeps as it is: Python's and the web client's placeholders, str.format's, markup.
KEPT = re.compile(r"%\(\w+\)[a-z]|%[a-z%]|\{[^{}\s]*\}|<[^<>]*>|&\w+;")
RLO, PDF = "\u202e", "\u202c"
ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
PADDING = "ŏñé ţŵö ţĥŕéé ƒöûŕ ƒîṽé šîẋ šéṽéñ éîĝĥţ ñîñé ţéñ".split()
ARABIC_PLURAL = (
    "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 && n%100<=99 ? 4 : 5;"
)


def _pieces(text: str) -> list[tuple[bool, str]]:
    """`text` as (kept, piece) in order: the placeholders and markup, and the words between."""
    pieces: list[tuple[bool, str]] = []
    at = 0
    for found in KEPT.finditer(text):
        if found.start() > at:
            pieces.append((False, text[at : found.start()]))
        pieces.append((True, found.group()))
        at = found.end()
    if at < len(text):
        pieces.append((False, text[at:]))
    return pieces


def _framed(text: str, frame: Any) -> str:
    """`frame(words)` applied inside the white space `text` begins and ends with (a
    separator such as "To %(name)s: " keeps its space outside)."""
    lead, core, trail = re.fullmatch(r"(\s*)(.*?)(\s*)", text, re.DOTALL).groups()  # type: ignore[union-attr]
    return f"{lead}{frame(core)}{trail}" if core else text


def longer(text: str) -> str:
    """`text` accented and about 40% longer: "[Šéţţîñĝš ŏñé]"."""

    def frame(core: str) -> str:
        accented = "".join(piece if kept else piece.translate(ACCENTED) for kept, piece in _pieces(core))
        # The brackets count towards the 40% more; whole words, each after a space, pad the rest.
        wanted = math.ceil(0.4 * len(KEPT.sub("", core))) - 2
        padding: list[str] = []
        while sum(len(word) + 1 for word in padding) < wanted:
            padding.append(PADDING[len(padding) % len(PADDING)])
        return f"[{accented}{''.join(' ' + word for word in padding)}]"

    return _framed(text, frame)


def mirrored(text: str) -> str:
    """`text` drawn right to left: each run of words between the override marks, the
    placeholders outside them (a name filled in reads as it is)."""

    def frame(core: str) -> str:
        return "".join(piece if kept or not piece.strip() else f"{RLO}{piece}{PDF}" for kept, piece in _pieces(core))

    return _framed(text, frame)


@dataclass(frozen=True)
class PseudoLocale:
    code: str
    name: str
    bidi: bool
    write: Any  # str -> str
    plural_forms: str
    forms: int
    # The plural form a count of one takes; the others are the English plural's.
    one: int


LOCALES = (
    PseudoLocale("en-xa", longer("English, longer"), False, longer, "nplurals=2; plural=(n != 1);", 2, 0),
    PseudoLocale("ar-xb", mirrored("English, right to left"), True, mirrored, ARABIC_PLURAL, 6, 1),
)


def said(code: str, english: str) -> str:
    """What the pseudo-locale `code` shows for `english`."""
    return next(locale for locale in LOCALES if locale.code == code).write(english)


def _english(domain: str) -> list[polib.POEntry]:
    """Every string of `domain` the shipped catalogues translate (their msgids), once."""
    seen: dict[tuple[str | None, str], polib.POEntry] = {}
    for po in sorted(SHIPPED.glob(f"*/LC_MESSAGES/{domain}.po")):
        for entry in polib.pofile(str(po)):
            if not entry.obsolete:
                seen.setdefault((entry.msgctxt, entry.msgid), entry)
    assert seen, f"no {domain}.po under {SHIPPED}"
    return list(seen.values())


def catalogue(locale: PseudoLocale, domain: str) -> polib.POFile:
    po = polib.POFile()
    po.metadata = {
        "Project-Id-Version": "gameserver (pseudo-locale for tests)",
        "Language": locale.code,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": locale.plural_forms,
    }
    for english in _english(domain):
        entry = polib.POEntry(msgctxt=english.msgctxt, msgid=english.msgid, flags=list(english.flags))
        if english.msgid_plural:
            entry.msgid_plural = english.msgid_plural
            one, many = locale.write(english.msgid), locale.write(english.msgid_plural)
            entry.msgstr_plural = {i: one if i == locale.one else many for i in range(locale.forms)}
        else:
            entry.msgstr = locale.write(english.msgid)
        po.append(entry)
    return po


def write(folder: Path) -> Path:
    """Both pseudo-locales' catalogues, compiled, under `folder/<locale>/LC_MESSAGES/`,
    and `folder/languages.json` naming them (code, name, bidi) for the settings; `folder`."""
    for locale in LOCALES:
        messages = folder / to_locale(locale.code) / "LC_MESSAGES"
        messages.mkdir(parents=True, exist_ok=True)
        for domain in DOMAINS:
            po = catalogue(locale, domain)
            po.save(str(messages / f"{domain}.po"))
            po.save_as_mofile(str(messages / f"{domain}.mo"))
    languages = [{"code": locale.code, "name": locale.name, "bidi": locale.bidi} for locale in LOCALES]
    (folder / "languages.json").write_text(json.dumps(languages, ensure_ascii=False), encoding="utf-8")
    return folder
