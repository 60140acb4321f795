"""`make messages`: every string marked for translation, extracted anew into each
language's catalogues (locale/<language>/LC_MESSAGES/django.po for the Python and the
templates, djangojs.po for the web client's modules), keeping what translators wrote;
docs/translating.md. Django's `makemessages`, run for every language of
settings.LANGUAGES but English (the strings' own), over the project's own files only."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

# Not the project's own words: other people's packages, built files, tests and the
# developers' documentation (English, for contributors).
IGNORED = [".venv/*", "node_modules/*", "var/*", "sdk/*", "tests/*", "docs/*", "tools/*", "scripts/*", "deploy/*"]


class Command(BaseCommand):
    help = "Extract the strings marked for translation into every language's catalogues (locale/)."

    def handle(self, *args: Any, **options: Any) -> None:
        languages = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
        for domain in ("django", "djangojs"):
            call_command(
                "makemessages",
                domain=domain,
                locale=languages,
                ignore_patterns=IGNORED,
                no_obsolete=True,
                # Where a string is, for the translator, without line numbers that would
                # change every catalogue at every edit.
                add_location="file",
                verbosity=options["verbosity"],
            )
