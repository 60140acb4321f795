"""A person's move settings (`confirm_moves`, `trick_pause_ms` at `me`): kept on the
account so that every device follows them, changed only as the schema says, and all or
nothing with the other settings of the same PATCH."""

from __future__ import annotations

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import TRICK_PAUSE_DEFAULT_MS, TRICK_PAUSE_MAX_MS
from privacy.archive import archive_of
from tests.api.helpers import error_code

pytestmark = pytest.mark.django_db


def test_a_new_account_leaves_confirming_to_its_device_and_pauses_a_trick(api_client, make_user):
    me = api_client(make_user()).get("/api/v1/me").json()
    assert (me["confirm_moves"], me["trick_pause_ms"]) == (None, TRICK_PAUSE_DEFAULT_MS)


@pytest.mark.parametrize("confirm", [True, False, None])
def test_confirming_moves_is_chosen_or_left_to_the_device(api_client, make_user, confirm):
    user = make_user()
    client = api_client(user)
    res = client.patch("/api/v1/me", {"confirm_moves": confirm, "trick_pause_ms": 0}, format="json")
    assert res.status_code == 200, res.content
    assert (res.json()["confirm_moves"], res.json()["trick_pause_ms"]) == (confirm, 0)
    user.refresh_from_db()
    assert (user.confirm_moves, user.trick_pause_ms) == (confirm, 0)
    # Another setting's PATCH leaves these as they are.
    client.patch("/api/v1/me", {"auto_play_forced": True}, format="json")
    assert client.get("/api/v1/me").json()["confirm_moves"] is confirm


@pytest.mark.parametrize(
    "body",
    [
        {"trick_pause_ms": TRICK_PAUSE_MAX_MS + 1},
        {"trick_pause_ms": -1},
        {"trick_pause_ms": "1200"},
        {"trick_pause_ms": 1200.0},
        {"trick_pause_ms": True},
        {"trick_pause_ms": None},
        {"confirm_moves": "yes"},
        {"confirm_moves": 1},
        # A bad value anywhere refuses the whole PATCH: the good setting beside it stays.
        {"confirm_moves": True, "trick_pause_ms": 99999},
        {"trick_pause_ms": 600, "confirm_moves": "no"},
    ],
)
def test_a_bad_value_changes_nothing(api_client, make_user, body):
    user = make_user()
    res = api_client(user).patch("/api/v1/me", body, format="json")
    assert res.status_code == 400
    assert error_code(res) in ("invalid", "max_value", "min_value", "null")
    user.refresh_from_db()
    assert (user.confirm_moves, user.trick_pause_ms) == (None, TRICK_PAUSE_DEFAULT_MS)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    value=st.one_of(
        st.integers(-10_000, 10_000), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=5), st.none()
    )
)
def test_any_pause_is_taken_exactly_when_it_is_a_whole_number_in_range(api_client, make_user, value):
    user = make_user()
    res = api_client(user).patch("/api/v1/me", {"trick_pause_ms": value}, format="json")
    fits = type(value) is int and 0 <= value <= TRICK_PAUSE_MAX_MS
    assert res.status_code == (200 if fits else 400)
    user.refresh_from_db()
    assert user.trick_pause_ms == (value if fits else TRICK_PAUSE_DEFAULT_MS)


def test_the_settings_are_in_the_export(api_client, make_user):
    user = make_user()
    client = api_client(user)
    client.patch("/api/v1/me", {"confirm_moves": True, "trick_pause_ms": 2000}, format="json")
    user.refresh_from_db()
    settings_ = archive_of(user=user, now=timezone.now())["account"]["settings"]
    assert (settings_["confirm_moves"], settings_["trick_pause_ms"]) == (True, 2000)
