"""JSON values written by orjson rather than the standard library's json.

Every move writes JSON: the hand's state (a few KB, the largest value of the move), its
action, its events. Django hands each to psycopg with `json.dumps`, which took some 30
µs for a hand's state where orjson takes 5. jsonb keeps the value, not the text, so the
two writers store the same thing: orjson writes keys that are not strings as json does
(as strings), and leaves to `json.dumps` whatever it would write differently or not at
all (an integer beyond 64 bits, a subclass of a built-in type, a date or a dataclass,
which json refuses as before). Two differences remain, in values no part of the project
writes: an enum member is written as its value (json refuses a plain enum), a float NaN
as null (json writes `NaN`, which PostgreSQL refuses). A field with an encoder of its
own keeps Django's way.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db.backends.postgresql import operations
from psycopg.types.json import Jsonb

_OPTIONS = (
    orjson.OPT_NON_STR_KEYS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def dumps(value: Any) -> bytes | str:
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError: what json writes its own way, or refuses
        return json.dumps(value)


class DatabaseOperations(operations.DatabaseOperations):
    def adapt_json_value(self, value: Any, encoder: type[json.JSONEncoder] | None) -> Any:
        if encoder is not None:
            return super().adapt_json_value(value, encoder)
        return Jsonb(value, dumps=dumps)
