"""The web client's reading of a catalogue (web/static/web/i18n.js), run in Node: its
plural rule agrees with gettext's own for the rules of many languages, right-to-left
ones with six forms included, and phrases fall back to English."""

from __future__ import annotations

import gettext
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import IN_CI

SCRIPT = Path(__file__).resolve().parents[2] / "web" / "static" / "web" / "i18n.js"

# Plural-Forms expressions as catalogues write them (GNU gettext's manual, Django's own).
RULES = {
    "en": "(n != 1)",
    "fr": "(n > 1)",
    "hi": "(n != 1)",
    "ja": "0",
    "ru": "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)",
    "pl": "(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)",
    "ar": "(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 && n%100<=99 ? 4 : 5)",
    "he": "(n == 1 ? 0 : (n == 2 ? 1 : ((n > 10 && n % 10 == 0) ? 2 : 3)))",
    "ga": "n==1 ? 0 : n==2 ? 1 : (n>2 && n<7) ? 2 :(n>6 && n<11) ? 3 : 4",
}
NUMBERS = [*range(0, 230), 1000, 1001, 1011, 1102, 123456]


def run_node(program: str, *args: str) -> str:
    if shutil.which("node") is None:
        if IN_CI:
            pytest.fail("node is missing", pytrace=False)
        pytest.skip("node is missing")
    head = f"import * as i18n from {json.dumps(SCRIPT.as_uri())};"
    out = subprocess.run(
        ["node", "--input-type=module", "-e", head + program, *args], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_plural_rule_is_gettext_s_for_every_language() -> None:
    program = (
        "const [rules, numbers] = JSON.parse(process.argv[1]);"
        "const out = {};"
        "for (const [code, rule] of Object.entries(rules)) {"
        "  const index = i18n.pluralRule(rule); out[code] = numbers.map((n) => index(n)); }"
        "console.log(JSON.stringify(out));"
    )
    got = json.loads(run_node(program, json.dumps([RULES, NUMBERS])))
    for code, rule in RULES.items():
        expected = [gettext.c2py(rule)(n) for n in NUMBERS]
        assert got[code] == expected, code


def test_a_rule_that_is_not_one_is_refused_not_run() -> None:
    program = (
        "const out = [];"
        "for (const rule of JSON.parse(process.argv[1])) {"
        "  try { i18n.pluralRule(rule); out.push('read'); } catch (e) { out.push(e.name); } }"
        "console.log(JSON.stringify(out));"
    )
    rules = ["alert(1)", "n != ", "(n != 1", "n ? 1", "constructor", "n != 1)"]
    assert json.loads(run_node(program, json.dumps(rules))) == ["SyntaxError"] * len(rules)


def test_phrases_plurals_and_contexts_fall_back_to_english() -> None:
    catalogue = {
        "catalog": {
            "Your turn": "Tu turno",
            "%(n)s card": ["%(n)s carta", "%(n)s cartas"],
            "suit\x04Hearts": "Corazones",
            "Empty": "",
        },
        "plural": "(n != 1)",
    }
    program = (
        "i18n.useCatalogue('es', JSON.parse(process.argv[1]));"
        "console.log(JSON.stringify(["
        "  i18n.gettext('Your turn'), i18n.gettext('Not translated'), i18n.gettext('Empty'),"
        "  i18n.interpolate(i18n.ngettext('%(n)s card', '%(n)s cards', 1), { n: 1 }),"
        "  i18n.interpolate(i18n.ngettext('%(n)s card', '%(n)s cards', 12345), { n: i18n.numberText(12345) }),"
        "  i18n.ngettext('%(n)s tile', '%(n)s tiles', 2),"
        "  i18n.pgettext('suit', 'Hearts'), i18n.pgettext('game', 'Hearts'),"
        "  i18n.interpolate('%(who)s and %(missing)s', { who: 'ana' }),"
        "  i18n.currentLanguage(),"
        "]));"
    )
    assert json.loads(run_node(program, json.dumps(catalogue))) == [
        "Tu turno",
        "Not translated",
        "Empty",
        "1 carta",
        "12.345 cartas",
        "%(n)s tiles",
        "Corazones",
        "Hearts",
        "ana and %(missing)s",
        "es",
    ]
