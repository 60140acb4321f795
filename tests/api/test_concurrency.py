"""Races against the real PostgreSQL: the room lock and the version check let exactly
one of two simultaneous submissions through."""

import threading

import pytest
from django.db import connection

from games.models import Action

from .helpers import act, error_code, state

pytestmark = pytest.mark.django_db(transaction=True)


def race(calls):
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, fn):
        try:
            barrier.wait()
            results[i] = fn()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_two_seats_same_version_apply_exactly_one(hearts_table):
    assert connection.vendor == "postgresql"
    code, clients, _ = hearts_table()
    views = {s: state(clients[s], code) for s in (0, 1)}
    version = views[0]["version"]
    before = Action.objects.count()
    results = race(
        [
            lambda s=s: act(clients[s], code, version, {"type": "pass_cards", "cards": views[s]["you"]["hand"][:3]})
            for s in (0, 1)
        ]
    )
    statuses = sorted(r.status_code for r in results)
    assert statuses == [200, 409]
    assert error_code(next(r for r in results if r.status_code == 409)) == "stale_version"
    assert Action.objects.count() == before + 1
    assert state(clients[0], code)["version"] == version + 1


def test_same_request_twice_at_once_applies_once(hearts_table):
    code, clients, _ = hearts_table()
    view = state(clients[2], code)
    action = {"type": "pass_cards", "cards": view["you"]["hand"][-3:]}
    before = Action.objects.count()
    results = race([lambda: act(clients[2], code, view["version"], action) for _ in range(2)])
    assert sorted(r.status_code for r in results) == [200, 409]
    assert Action.objects.count() == before + 1


def test_same_idempotency_key_at_once_applies_once_and_both_succeed(hearts_table):
    code, clients, _ = hearts_table()
    view = state(clients[1], code)
    action = {"type": "pass_cards", "cards": view["you"]["hand"][:3]}
    before = Action.objects.count()
    results = race(
        [lambda: act(clients[1], code, view["version"], action, HTTP_IDEMPOTENCY_KEY="race-key-1") for _ in range(2)]
    )
    assert [r.status_code for r in results] == [200, 200]
    assert results[0].json() == results[1].json()
    assert Action.objects.count() == before + 1


def _solo_table(client):
    """A started Hearts room: the client's user at seat 0, three computer players."""
    code = client.post("/api/v1/rooms/", {"game": "hearts", "options": {}}, format="json").json()["code"]
    for _ in range(3):
        assert client.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code == 201
    assert client.post(f"/api/v1/rooms/{code}/start").status_code == 200
    return code


@pytest.mark.parametrize("trial", range(5))
def test_same_idempotency_key_at_once_in_two_rooms_applies_one_and_refuses_the_other(api_client, make_user, trial):
    # Each room's lock serializes its own requests only: both lookups of the key find
    # nothing and the later insert meets the unique key. That must not answer 500.
    client = api_client(make_user())
    codes = [_solo_table(client), _solo_table(client)]
    moves = {}
    for code in codes:
        view = state(client, code)
        moves[code] = (view["version"], {"type": "pass_cards", "cards": view["you"]["hand"][:3]})
    actions_before = {code: Action.objects.filter(round__room__code=code).count() for code in codes}
    results = race(
        [lambda code=code: act(client, code, *moves[code], HTTP_IDEMPOTENCY_KEY=f"two-rooms-{trial}") for code in codes]
    )
    assert sorted(r.status_code for r in results) == [200, 422], [r.content for r in results]
    refused = next(i for i, r in enumerate(results) if r.status_code == 422)
    assert error_code(results[refused]) == "idempotency_key_reused"
    # The refused room is untouched: its move was rolled back with the failed insert.
    applied = [Action.objects.filter(round__room__code=code).count() - actions_before[code] for code in codes]
    assert applied[refused] == 0 and applied[1 - refused] > 0
    assert state(client, codes[refused])["version"] == moves[codes[refused]][0]
    # The key stays bound to the request that won, in the room that won.
    again = act(client, codes[1 - refused], *moves[codes[1 - refused]], HTTP_IDEMPOTENCY_KEY=f"two-rooms-{trial}")
    assert again.status_code == 200 and again.json() == results[1 - refused].json()
