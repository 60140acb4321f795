"""No words reach a person unmarked for translation: the web client's modules (ESLint's
i18next/no-literal-string, eslint.config.js) and the templates (text and the attributes
a person reads or hears, outside {% translate %} and {% blocktranslate %}). Each check
is shown to catch an unmarked sample, so that it cannot pass by looking at nothing."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

ROOT = Path(settings.BASE_DIR)
ESLINT = ROOT / "node_modules" / ".bin" / "eslint"
RULE = "i18next/no-literal-string"

# -- the web client's modules ----------------------------------------------------------


def _eslint(*args: str, stdin: str | None = None) -> list[dict]:
    if not ESLINT.exists():
        pytest.fail(f"{ESLINT} is missing: make node_modules/.installed")
    done = subprocess.run(
        [str(ESLINT), "--format", "json", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=300
    )
    assert done.returncode in (0, 1), done.stderr  # 1: problems found, which the caller reads
    return [m for report in json.loads(done.stdout) for m in report["messages"]]


SAMPLE = """import { h } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";
export const said = h("p", {}, "Your turn");
export const titled = h("button", { title: "Pass the cards" }, gettext("Pass"));
export const marked = h("p", { class: "turn-line to-act" }, gettext("Your turn"));
export const filled = interpolate(gettext("Table %(code)s"), { code: "ABCDEF" });
export const template = h("p", {}, `Waiting for ${"Asha"}`);
"""


def test_the_rule_flags_unmarked_words_and_passes_marked_ones():
    found = _eslint("--stdin", "--stdin-filename", "web/static/web/sample.js", stdin=SAMPLE)
    flagged = sorted({m["line"] for m in found if m["ruleId"] == RULE})
    assert flagged == [3, 4, 7], found


def test_every_module_of_the_web_client_marks_its_words():
    found = _eslint("web/static/web", "games/rules")
    unmarked = [f"{m['line']}:{m['column']} {m['message']}" for m in found if m["ruleId"] == RULE]
    assert unmarked == []


# -- the templates ---------------------------------------------------------------------

# Attributes a person reads or hears; the rest (class, href, name, type...) name things.
SPOKEN_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "aria-description", "aria-roledescription", "label"}
SPOKEN_META = {"description", "application-name", "apple-mobile-web-app-title"}
# Blocks whose text is translated, or never shown.
SKIPPED_BLOCKS = {"blocktranslate": "endblocktranslate", "blocktrans": "endblocktrans", "comment": "endcomment"}
WORDS = re.compile(r"[^\W\d_]{2}")


class _Shown(HTMLParser):
    """The text of an HTML page a person reads: its text outside scripts and styles, and
    its spoken attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        named = dict(attrs)
        self.texts += [value for key, value in attrs if value and key in SPOKEN_ATTRIBUTES]
        if tag == "meta" and named.get("name") in SPOKEN_META and named.get("content"):
            self.texts.append(str(named["content"]))
        if tag == "input" and named.get("type") in ("submit", "button", "reset") and named.get("value"):
            self.texts.append(str(named["value"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.texts.append(data)


def unmarked_words(source: str) -> list[str]:
    """The words of a Django template a person would read untranslated: the template's
    own text with its tags and variables taken out (what they give is theirs to mark)."""
    html: list[str] = []
    closing: list[str] = []
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents else ""
            if closing and name == closing[-1]:
                closing.pop()
            elif name in SKIPPED_BLOCKS:
                closing.append(SKIPPED_BLOCKS[name])
            html.append(" ")
        elif token.token_type == TokenType.VAR:
            html.append(" ")
        elif token.token_type == TokenType.TEXT and not closing:
            html.append(token.contents)
    shown = _Shown()
    shown.feed("".join(html))
    shown.close()
    return [" ".join(text.split()) for text in shown.texts if WORDS.search(text)]


def test_the_template_check_finds_unmarked_words_and_passes_marked_ones():
    source = """{% load i18n %}{# a note for developers #}
    <html lang="{{ LANGUAGE_CODE }}"><head><title>{% translate "Settings" %}</title>
    <meta name="description" content="Trick-taking tables"><style>body { color: red }</style></head>
    <body class="page wide"><h1>Your turn</h1><p>{% blocktranslate %}Hello {{ name }}{% endblocktranslate %}</p>
    <button aria-label="Close" title="{% translate 'Close' %}">&times;</button>
    {% comment %}Not shown.{% endcomment %}<script>const x = "Not words";</script>
    <input type="submit" value="Send"> <img alt="{{ alt }}" src="/x.png"></body></html>"""
    assert unmarked_words(source) == ["Trick-taking tables", "Your turn", "Close", "Send"]


def _templates() -> list[Path]:
    tracked = subprocess.run(["git", "ls-files", "*.html", "*.txt"], cwd=ROOT, capture_output=True, text=True)
    paths = [ROOT / p for p in tracked.stdout.split() if "/templates/" in p]
    assert paths, "no templates found"
    return paths


def test_every_template_marks_its_words():
    unmarked = {str(p.relative_to(ROOT)): words for p in _templates() if (words := unmarked_words(p.read_text()))}
    assert unmarked == {}


# -- the catalogues against the sources ------------------------------------------------


def _keys(path: Path) -> set[tuple[str | None, str, str]]:
    return {(e.msgctxt, e.msgid, e.msgid_plural) for e in polib.pofile(str(path)) if not e.obsolete}


def test_the_catalogues_hold_every_string_the_sources_mark_and_no_other(tmp_path):
    """`make messages` run now would change nothing but the header: a string marked in
    the sources since, or one no longer there, fails here until the catalogues are
    extracted again (and translated, tests/i18n/test_catalogues_complete.py)."""
    tracked = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True)
    copy = tmp_path / "tree"
    for name in tracked.stdout.split():
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    done = subprocess.run(
        [sys.executable, "manage.py", "messages", "--verbosity", "0"],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    stale = {}
    for extracted in sorted((copy / "locale").glob("*/LC_MESSAGES/*.po")):
        kept = ROOT / extracted.relative_to(copy)
        added, gone = _keys(extracted) - _keys(kept), _keys(kept) - _keys(extracted)
        if added or gone:
            stale[str(kept.relative_to(ROOT))] = {
                "not in the catalogue": sorted(added, key=str)[:5],
                "no longer marked": sorted(gone, key=str)[:5],
            }
    assert stale == {}, "run make messages and translate what it adds"
