"""`manage.py asyncapi --file api/asyncapi.yaml`: writes the AsyncAPI document as
/api/asyncapi.yaml serves it (api/asyncapi_document.py), the checked-in copy that
tests/live/test_asyncapi.py compares; `make schema` runs it after the OpenAPI one."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from api.asyncapi_document import served


class Command(BaseCommand):
    help = "Write the sockets' AsyncAPI document (standard output without --file)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--file", type=Path, help="where to write it")

    def handle(self, *args: Any, **options: Any) -> None:
        text = served()
        if options["file"] is None:
            sys.stdout.write(text)
        else:
            options["file"].write_text(text)
