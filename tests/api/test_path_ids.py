"""Every number in a URL path is checked before it reaches the database: the URLconf is
walked (the API's routes and the admin's pages of their own), and a number no 64-bit
signed column holds is a 404 (in the error shape under the API) on every route and
method, here on PostgreSQL and in tests/sqlite_ids.py on SQLite, where it was a 500."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.db import connection, models
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.ids import ID_MAX
from tests.url_ids import METHODS, OUT_OF_RANGE, bare_ints, id_routes

SQLITE_SCRIPT = Path(__file__).resolve().parents[1] / "sqlite_ids.py"
FIXTURE_EXAMPLES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def test_no_route_reads_a_number_with_djangos_own_converter():
    assert bare_ints() == []


def test_the_walk_finds_every_route_with_an_id():
    found = {route.route for route in id_routes()}
    assert "api/v1/me/apps/<id:app_id>" in found
    assert "api/v1/me/warnings/<id:pk>/read" in found
    assert "admin/games/room/<id:room_id>/seat/<id:index>/to-bot/" in found
    assert len(found) >= 14, found


# The apps whose rows the numbered routes name (oauth2_provider's: `me/apps/<id>`).
# Django's own contrib models keep 32-bit keys, named by no route of ours; the admin's
# pages of them read their keys through the field, and tests/sqlite_ids.py walks them.
ROW_APPS = (
    "accounts",
    "games",
    "grants",
    "moderation",
    "notifications",
    "talk",
    "ratings",
    "privacy",
    "oauth2_provider",
)


def test_every_models_key_holds_the_largest_id_a_path_takes():
    """The converter's bound is every integer key's (a model with a 32-bit key would need
    its own)."""
    checked = 0
    for model in apps.get_models():
        if model._meta.app_label not in ROW_APPS:
            continue
        checked += 1
        pk = model._meta.pk
        if isinstance(pk, models.IntegerField | models.AutoField):
            _low, high = connection.ops.integer_field_range(pk.get_internal_type())
            assert high is None or high >= ID_MAX, (model, pk.get_internal_type())
    assert checked > 20


@pytest.fixture
def boss(db: Any, make_user: Any, api_client: Any) -> Any:
    user = make_user(is_staff=True, is_superuser=True)
    client = api_client(user)
    client.force_login(user)
    return client


def _call(client: Any, method: str, path: str) -> Any:
    return client.generic(method, path, b"{}", content_type="application/json")


def test_a_number_beyond_64_bits_is_not_found_on_every_route_and_method(boss):
    for route in id_routes():
        for number in OUT_OF_RANGE:
            for method in METHODS:
                res = _call(boss, method, route.path(number))
                where = (method, route.path(number), res.status_code)
                if route.api:
                    assert res.status_code == 404, where
                    assert res.json() == {
                        "type": "client_error",
                        "errors": [{"code": "not_found", "detail": "There is nothing at this address.", "attr": None}],
                    }, where
                else:
                    # No route of the page's own; the admin's catch-all sends to its index.
                    assert res.status_code in (302, 404), where


def test_the_largest_id_reaches_the_view_and_is_not_found(boss):
    for route in id_routes():
        for method in METHODS:
            res = _call(boss, method, route.path(str(ID_MAX)))
            where = (method, route.path(str(ID_MAX)), res.status_code)
            assert res.status_code < 500, where
            if route.api:
                # Not found, or a body refused before the lookup, or a method the route lacks.
                assert res.status_code in (400, 404, 405), where
                assert res.json()["errors"][0]["code"], where


@FIXTURE_EXAMPLES
@given(number=st.integers(ID_MAX + 1, 10**60), data=st.data())
def test_any_number_past_the_range_is_not_found(boss, number, data):
    route = data.draw(st.sampled_from([r for r in id_routes() if r.api]))
    method = data.draw(st.sampled_from(METHODS))
    res = _call(boss, method, route.path(str(number)))
    assert res.status_code == 404, (method, route.path(str(number)), res.content)
    assert res.json()["errors"][0]["code"] == "not_found"


def test_every_route_with_an_id_on_sqlite(tmp_path):
    done = subprocess.run(
        [sys.executable, str(SQLITE_SCRIPT), str(tmp_path / "db.sqlite3")], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "ok", done.stdout[-2000:]
