"""core/postgresql/operations.py: JSON values go to PostgreSQL through orjson, and jsonb
stores what json.dumps would have had it store."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection, models
from django.utils.safestring import mark_safe
from psycopg.types.json import Jsonb

from core.postgresql import operations

pytestmark = pytest.mark.django_db


class Suit(models.TextChoices):
    HEARTS = "H"


VALUES: list[Any] = [
    {"phase": "play", "hands": [["2C", "QS"], []], "scores": {"0": 26}, "moon": None, "on": True},
    {7: "an int key", 2.5: "a float key", True: "a bool key", None: "a null key"},
    {"name": "Zoë ♠ 名前", "quote": 'say "hi"\n', "e": 1e-7, "big": 2**60},
    {"beyond 64 bits": 2**70},
    {"a subclass": mark_safe("<b>safe</b>"), "a choice": Suit.HEARTS},
    [1, "two", [3.5, {"four": []}]],
    "a string alone",
    42,
    None,
]


@pytest.mark.parametrize("value", VALUES)
def test_jsonb_stores_what_json_dumps_would(value):
    ours = connection.ops.adapt_json_value(value, None)
    django = Jsonb(value, dumps=json.dumps)
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::jsonb = %s::jsonb, %s::jsonb::text", [ours, django, ours])
        same, text = cursor.fetchone()
    assert same, text
    assert json.loads(text) == json.loads(json.dumps(value))


def test_orjson_writes_the_usual_values_and_json_the_rest():
    assert connection.ops.adapt_json_value({}, None).dumps is operations.dumps
    assert isinstance(operations.dumps({"version": 3, "state": {"1": [2]}}), bytes)
    assert operations.dumps({"x": 2**70}) == json.dumps({"x": 2**70})
    with pytest.raises(TypeError):
        operations.dumps({"not json": object()})


def test_a_field_with_an_encoder_of_its_own_keeps_djangos_way():
    class Encoder(json.JSONEncoder):
        def default(self, o: Any) -> Any:
            return "encoded"

    adapted = connection.ops.adapt_json_value({"x": object()}, Encoder)
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::jsonb ->> 'x'", [adapted])
        assert cursor.fetchone()[0] == "encoded"
