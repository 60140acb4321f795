"""Whole numbers in URL paths, checked before anything queries with them.

`<id:name>` is the one converter of every number in a path (the API's ids, the admin's
pages of its own): ASCII digits without a leading zero, from 0 to ID_MAX, the most a
64-bit signed column holds (every model's key is a BigAutoField, DEFAULT_AUTO_FIELD;
tests/api/test_path_ids.py checks it). A larger one does not route: the answer is the
404 of an address with nothing at it, before any query (Django's own `<int:…>` would
hand 9223372036854775808 to the database, which SQLite's driver cannot bind: a 500).

Importing this module registers the converter; the URL modules that use it import it.
"""

from __future__ import annotations

from django.urls import register_converter

ID_MAX = 2**63 - 1
ID_PATTERN = "0|[1-9][0-9]{0,18}"


class IdConverter:
    regex = ID_PATTERN

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > ID_MAX:
            # Django reads a ValueError as "this pattern does not match": a 404.
            raise ValueError(f"{value} is beyond {ID_MAX}")
        return number

    def to_url(self, value: int) -> str:
        number = int(value)
        if not 0 <= number <= ID_MAX:
            raise ValueError(f"{value} is no id")
        return str(number)


register_converter(IdConverter, "id")
