"""Every language the server ships has every string: no `msgstr` left empty or fuzzy in
its catalogues (locale/), the same strings in every language, each translation keeping
the English's placeholders, and a compiled catalogue no older than its source."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

LOCALE = Path(settings.LOCALE_PATHS[0])
SHIPPED = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
DOMAINS = ("django", "djangojs")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")


def _catalogue(code: str, domain: str) -> polib.POFile:
    path = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
    assert path.exists(), f"{path} is missing: make messages"
    return polib.pofile(str(path))


def _key(entry: polib.POEntry) -> tuple[str | None, str, str]:
    return (entry.msgctxt, entry.msgid, entry.msgid_plural)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("code", SHIPPED)
def test_every_string_is_translated(code, domain):
    catalogue = _catalogue(code, domain)
    assert catalogue.metadata.get("Language") == code
    missing = [e.msgid for e in catalogue if not e.obsolete and (not e.translated() or "fuzzy" in e.flags)]
    assert missing == [], f"{code} {domain}: {len(missing)} strings untranslated, e.g. {missing[:5]}"
    for entry in catalogue:
        english = sorted(PLACEHOLDER.findall(entry.msgid))
        forms = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for form in forms:
            # A plural form for one may leave out the number (`una carta`), no other place.
            assert set(PLACEHOLDER.findall(form)) <= set(english), (code, entry.msgid, form)
            if not entry.msgid_plural:
                assert sorted(PLACEHOLDER.findall(form)) == english, (code, entry.msgid, form)


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_language_has_the_same_strings(domain):
    keys = {code: {_key(e) for e in _catalogue(code, domain) if not e.obsolete} for code in SHIPPED}
    first = SHIPPED[0]
    for code in SHIPPED[1:]:
        assert keys[code] == keys[first], (code, keys[code] ^ keys[first])


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("code", SHIPPED)
def test_the_compiled_catalogue_is_the_source_s(code, domain):
    source = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
    compiled = source.with_suffix(".mo")
    assert compiled.exists(), f"{compiled} is missing: make compiles it (make run, make test)"
    assert compiled.stat().st_mtime >= source.stat().st_mtime, f"{compiled} is older than {source}: make"
