"""The layout tests' pseudo-locales (pseudo_locales.py): every string of the shipped
catalogues, gettext's own check takes them, the longer one is 40% longer, the mirrored one
draws right to left; and a language with a region, as theirs are, has its catalogue's
address named by its words, as every language's is (web/catalogues.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import polib
import pytest

from web import catalogues

from .pseudo_locales import DOMAINS, KEPT, LOCALES, PDF, RLO, SHIPPED, longer, mirrored, write


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(tmp_path_factory.mktemp("pseudo"))


def english(domain: str) -> set[tuple[str | None, str]]:
    po = polib.pofile(str(next(SHIPPED.glob(f"*/LC_MESSAGES/{domain}.po"))))
    return {(e.msgctxt, e.msgid) for e in po if not e.obsolete}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", ["en_XA", "ar_XB"])
def test_each_pseudo_catalogue_has_every_string_and_gettext_s_check_takes_it(written, locale, domain):
    source = written / locale / "LC_MESSAGES" / f"{domain}.po"
    done = subprocess.run(
        ["msgfmt", "--check-format", "-o", "/dev/null", str(source)], capture_output=True, text=True, errors="replace"
    )
    assert done.returncode == 0, done.stderr
    po = polib.pofile(str(source))
    assert {(e.msgctxt, e.msgid) for e in po} == english(domain)
    assert all(e.msgstr or all(e.msgstr_plural.values()) for e in po)


@pytest.mark.parametrize(
    "text",
    ["Settings", "Bid", "To %(name)s: ", "<strong>%(n)s</strong> cards left", "Your turn: choose cards to pass."],
)
def test_the_longer_words_are_40_percent_longer_and_keep_their_places(text):
    made = longer(text)
    letters = len(KEPT.sub("", text).strip())
    assert len(KEPT.sub("", made).strip()) >= 1.4 * letters, made
    assert KEPT.findall(made) == KEPT.findall(text)
    assert made != text and made.strip().startswith("[") and made.strip().endswith("]")
    # A separator keeps its spaces outside the brackets.
    assert made[len(made.rstrip()) :] == text[len(text.rstrip()) :]


def test_the_mirrored_words_draw_right_to_left_around_their_places():
    made = mirrored("To %(name)s: pass 3 cards")
    assert made == f"{RLO}To {PDF}%(name)s{RLO}: pass 3 cards{PDF}"
    assert [locale.bidi for locale in LOCALES] == [False, True]


def test_a_language_with_a_region_has_its_catalogue_s_address_named_by_its_words(written, settings):
    # en-xa is kept as Django keeps a language with a region, in en_XA/.
    settings.LOCALE_PATHS = [written]
    version = catalogues.version.__wrapped__
    before = version("en-xa")
    compiled = written / "en_XA" / "LC_MESSAGES" / "djangojs.mo"
    words = compiled.read_bytes()
    compiled.write_bytes(words.replace("Šéţţîñĝš".encode(), "Šéţţîñĝž".encode()))
    try:
        assert version("en-xa") != before
    finally:
        compiled.write_bytes(words)
