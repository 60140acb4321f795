"""games.store: the one way to read, lock and write a table.

Its two paths (PostgreSQL's prepared read and one-round-trip flush, and the portable ORM
path the embedded SQLite start uses) must read the same objects and write the same rows.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from core.errors import ServiceError
from games import rules, selectors, store
from games.models import Action, Event, Room, Round, Seat
from games.rules import fairness, templates
from games.services import due, lobby, moves, play, table_moderation
from tests.rules.support import without_claim

# The store is tested with events of its own making, not the games'.
pytestmark = [pytest.mark.django_db, pytest.mark.made_up_events]


def fields(instance: Any, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        f.attname: getattr(instance, f.attname)
        for f in type(instance)._meta.concrete_fields
        if f.attname not in leave_out
    }


@pytest.fixture(params=["batched", "portable"])
def path(request, settings) -> str:
    settings.TABLE_STORE_PORTABLE = request.param == "portable"
    return request.param


def test_the_read_matches_the_orm_field_by_field(make_user, path):
    host, guest = make_user(), make_user()
    guest.display_name = ""  # shown by username instead
    guest.save()
    room = lobby.room_create(host=host, game="hearts", options={"preset": "sweedo"})
    lobby.room_join(code=room.code, user=guest)
    lobby.room_add_bot(code=room.code, user=host)
    lobby.room_add_bot(code=room.code, user=host)
    lobby.room_start(code=room.code, user=host)
    Seat.objects.filter(room=room, index=1).update(last_acted_at=timezone.now())

    table = store.table(room.code)

    assert table is not None
    assert fields(table.room) == fields(Room.objects.get(pk=room.pk))
    orm_seats = list(Seat.objects.filter(room=room).select_related("user").order_by("index"))
    assert [fields(s) for s in table.seats] == [fields(s) for s in orm_seats]
    assert [s.display_name for s in table.seats] == [s.display_name for s in orm_seats]
    assert fields(table.round) == fields(Round.objects.filter(room=room).order_by("-number").first())
    assert table.round.room is table.room and all(s.room is table.room for s in table.seats)
    # The pass: the people at once (the computers passed as the hand began).
    assert table.rules.key == "hearts" and table.to_act == [0, 1]
    # Instances as the ORM's own: read from the database, the seats' accounts (on the
    # batched path) with the fields the read leaves out deferred.
    only = store._USER_FIELDS if path == "batched" else [f.attname for f in User._meta.concrete_fields]
    orm_users = [s.user for s in Seat.objects.filter(room=room, user__isnull=False).select_related("user")]
    orm_users = [User.objects.only(*only).get(pk=u.pk) for u in orm_users]
    users = [s.user for s in table.seats if s.user_id is not None]
    assert [fields(u, leave_out=tuple(u.get_deferred_fields())) for u in users] == [
        fields(u, leave_out=tuple(u.get_deferred_fields())) for u in orm_users
    ]
    assert [u.get_deferred_fields() for u in users] == [u.get_deferred_fields() for u in orm_users]
    for instance in [table.room, table.round, *table.seats, *users]:
        assert instance._state.adding is False and instance._state.db == "default"
    assert not any(i.get_deferred_fields() for i in [table.room, table.round, *table.seats])
    assert table.room == Room.objects.get(pk=room.pk) and hash(table.room) == hash(room)


def test_the_token_and_the_table_read_together_as_each_alone(make_user, path):
    from tests.tokens import new_token

    host, other = make_user(), make_user()
    host.last_login = timezone.now()
    host.save()
    key = new_token(host)
    room = lobby.room_create(host=host, game="hearts", options={})
    lobby.room_join(code=room.code, user=other)

    table, user = store.table_and_token_user(room.code, key)
    alone = store.table(room.code)
    assert table is not None and alone is not None
    assert fields(table.room) == fields(alone.room)
    assert [fields(s) for s in table.seats] == [fields(s) for s in alone.seats]
    assert user is not None and fields(user) == fields(User.objects.get(pk=host.pk))
    assert user.last_login is not None and user.last_login.tzinfo is not None
    # Either may be missing; an inactive account is given as it is, for the caller to refuse.
    assert store.table_and_token_user(room.code, "0" * 40)[1] is None
    assert store.table_and_token_user("ZZZZZZ", key)[0] is None
    assert store.table_and_token_user("no such room; --", key) == (None, user)
    User.objects.filter(pk=host.pk).update(is_active=False)
    found = store.table_and_token_user(room.code, key)[1]
    assert found is not None and found.is_active is False


def test_a_lobby_no_room_and_a_code_that_cannot_exist(make_user, path, django_assert_num_queries):
    room = lobby.room_create(host=make_user(), game="hearts", options={})
    table = store.table(room.code)
    assert table is not None and [s.index for s in table.seats] == [0, 1, 2, 3] and table.round is None
    assert table.to_act == []
    assert store.table("ZZZZZZ") is None
    with django_assert_num_queries(0):
        assert store.table("no such room; --") is None
    with pytest.raises(ServiceError) as err, store.locked("ZZZZZZ"):
        pass
    assert err.value.code == "not_found"


def test_a_deferred_user_field_still_loads(make_user, path):
    host = make_user(email="host@example.com")
    room = lobby.room_create(host=host, game="hearts", options={})
    table = store.table(room.code)
    assert table is not None and table.seats[0].user.email == "host@example.com"


def test_a_table_read_without_its_lock_cannot_write(make_user, path):
    room = lobby.room_create(host=make_user(), game="hearts", options={})
    table = store.table(room.code)
    assert table is not None
    with pytest.raises(RuntimeError, match="without its lock"):
        table.touch()


@pytest.mark.django_db(transaction=True)
def test_nothing_is_written_before_the_block_ends_then_everything_is(make_user, path):
    room = lobby.room_create(host=make_user(), game="hearts", options={})
    updated = Room.objects.get(pk=room.pk).updated_at
    with store.locked(room.code) as table:
        table.room.name = "Friday table"
        table.mark(table.room, ["name"])
        table.touch()
        table.touch()  # one UPDATE with the latest values
        table.log({"type": "x", "cards": ["QS"]}, visible_to=[0])
        table.log({"type": "y"})
        assert Room.objects.get(pk=room.pk).name == ""
        assert not Event.objects.filter(room=room, data__type__in=["x", "y"]).exists()
    stored = Room.objects.get(pk=room.pk)
    assert (stored.name, stored.version) == ("Friday table", room.version + 2)
    assert stored.updated_at > updated  # auto_now is applied as save() would
    events = list(Event.objects.filter(room=room, data__type__in=["x", "y"]).order_by("seq"))
    assert [(e.data, e.audience, e.version) for e in events] == [
        ({"type": "x", "cards": ["QS"]}, 1, stored.version),
        ({"type": "y"}, -1, stored.version),
    ]


def test_a_change_never_named_to_save_is_refused_in_the_tests(make_user, path):
    """Only the fields named to `mark` are written; the tests prove no change is left out
    (TABLE_STORE_CHECK_WRITES compares each row with a copy taken when it was read)."""
    room = lobby.room_create(host=make_user(), game="hearts", options={})
    with pytest.raises(AssertionError, match=r"Room .*\['name', 'public'\] changed, never marked"):
        with store.locked(room.code) as table:
            table.room.name, table.room.public = "Friday table", False
            table.touch()
    assert Room.objects.get(pk=room.pk).name == ""


@pytest.mark.django_db(transaction=True)
def test_a_failing_flush_or_an_error_in_the_block_writes_nothing(make_user, path):
    room = lobby.room_create(host=make_user(), game="hearts", options={})
    version, events = room.version, Event.objects.filter(room=room).count()
    with pytest.raises(IntegrityError), store.locked(room.code) as table:
        table.touch()
        table.log({"type": "x"})
        table.room.event_seq -= 1  # the next event takes the same number: the flush fails
        table.log({"type": "y"})
    with pytest.raises(ServiceError), store.locked(room.code) as table:
        table.touch()
        raise ServiceError("invalid", "changed my mind")
    assert Room.objects.get(pk=room.pk).version == version
    assert Event.objects.filter(room=room).count() == events


def test_a_move_reads_once_and_writes_once_on_postgresql(make_user, settings, django_assert_num_queries):
    """The lock-and-read is one statement and every row of a move one more; a portable
    flush is a statement per row. (The idempotency lookup and the hand's first insert
    come on top where they apply; tests/api/test_query_counts.py pins the whole request.)"""
    users = [make_user() for _ in range(4)]
    room = lobby.room_create(host=users[0], game="hearts", options={})
    for user in users[1:]:
        lobby.room_join(code=room.code, user=user)
    lobby.room_start(code=room.code, user=users[0])
    view = selectors.view_by_code(code=room.code, user=users[0])
    seat = view["to_act"][0]
    template = selectors.view_by_code(code=room.code, user=users[seat])["you"]["legal_actions"][0]
    action = templates.concrete(template, rules.get("hearts").action_fields[template["type"]])
    # A savepoint for the service's transaction inside the test's, then the read, the flush
    # and the savepoint's release.
    with django_assert_num_queries(4):
        play.action_submit(code=room.code, user=users[seat], version=view["version"], action=action)


def rows(room_code: str) -> dict[str, list[dict[str, Any]]]:
    """Every row a match wrote, without what differs between any two runs (ids, times)."""
    room = Room.objects.get(code=room_code)
    times = ("id", "created_at", "updated_at", "started_at", "finished_at", "joined_at", "last_acted_at")
    return {
        "room": [fields(room, (*times, "code"))],
        "seats": [fields(s, (*times, "room_id")) for s in Seat.objects.filter(room=room).order_by("index")],
        "rounds": [
            fields(r, (*times, "room_id", "deadline_at", "bots_due_at", "due_at"))
            for r in Round.objects.filter(room=room).order_by("number")
        ],
        "actions": [
            fields(a, (*times, "round_id"))
            for a in Action.objects.filter(round__room=room).order_by("round__number", "seq")
        ],
        "events": [fields(e, (*times, "room_id")) for e in Event.objects.filter(room=room).order_by("seq")],
    }


def play_a_match(users: list[Any], monkeypatch) -> str:
    """The same match each time: fixed seeds, fixed choices, lobby moves, a moderator's
    hand-over, deadlines and computer players through the due-time loop."""
    seeds = iter(range(1000, 2000))
    monkeypatch.setattr(moves, "new_seed", lambda: next(seeds))
    server_seeds = iter(f"{n:064x}" for n in range(1000, 2000))
    monkeypatch.setattr(fairness, "new_server_seed", lambda: next(server_seeds))
    monkeypatch.setattr(lobby, "new_code", lambda: "SHUFFE")
    rng = random.Random(11)
    room = lobby.room_create(host=users[0], game="hearts", options={"target": 40, "turn_seconds": 30})
    lobby.room_join(code=room.code, user=users[3])
    lobby.room_join(code=room.code, user=users[1])
    lobby.room_leave(code=room.code, user=users[3])
    lobby.room_add_bot(code=room.code, user=users[0])
    lobby.room_join(code=room.code, user=users[2])
    lobby.room_start(code=room.code, user=users[0])
    for step in range(400):
        view = selectors.view_by_code(code=room.code, user=users[0])
        if view["status"] != "playing":
            break
        if step == 60:
            table_moderation.seat_give_to_bot(code=room.code, index=2, reason="asked to leave")
            continue  # the room changed: read the view again
        if step % 7 == 3:
            round_ = selectors.table_of(code=room.code).round
            due.due_actions_apply(code=room.code, now=round_.deadline_at)
            continue
        seat = rng.choice(view["to_act"])
        user = next(
            (u for u in users if selectors.view_by_code(code=room.code, user=u).get("you", {}).get("seat") == seat),
            None,
        )
        if user is None:
            continue
        legal = selectors.view_by_code(code=room.code, user=user)["you"]["legal_actions"]
        # A claim at random is mostly refused: random players play on.
        template = rng.choice(without_claim(legal))
        fields = rules.get(room.game).action_fields[template["type"]]
        action = templates.concrete(template, fields, lambda choices, count: sorted(choices)[:count])
        play.action_submit(code=room.code, user=user, version=view["version"], action=action)
    return room.code


def test_both_paths_write_the_same_rows(make_user, settings, monkeypatch):
    users = [make_user() for _ in range(4)]
    settings.TABLE_STORE_PORTABLE = False
    code = play_a_match(users, monkeypatch)
    batched = rows(code)
    # The deals follow the room's code too: the second match gets the same one.
    Room.objects.filter(code=code).update(code="ZZZZZZ")
    settings.TABLE_STORE_PORTABLE = True
    portable = rows(play_a_match(users, monkeypatch))
    assert len(batched["rounds"]) >= 2 and len(batched["actions"]) > 100
    assert any(a["automatic"] for a in batched["actions"]) and any(a["by_bot"] for a in batched["actions"])
    for table in ("room", "seats", "rounds", "actions", "events"):
        assert batched[table] == portable[table], table


def test_the_query_counts_of_both_paths_differ_as_documented(make_user, settings):
    """The portable path writes a statement per row: more queries, same rows (above)."""
    counts = {}
    for portable in (False, True):
        settings.TABLE_STORE_PORTABLE = portable
        host = make_user()
        room = lobby.room_create(host=host, game="hearts", options={})
        for _ in range(3):
            lobby.room_add_bot(code=room.code, user=host)
        with CaptureQueriesContext(connection) as queries, transaction.atomic():
            lobby.room_start(code=room.code, user=host)
        counts[portable] = len(queries)
    assert counts[False] < counts[True]


def test_a_room_code_already_taken_is_drawn_again(make_user, monkeypatch):
    first = lobby.room_create(host=make_user(), game="hearts", options={})
    codes = iter([first.code, first.code, "QWERTY"])
    monkeypatch.setattr(lobby, "new_code", lambda: next(codes))
    second = lobby.room_create(host=make_user(), game="hearts", options={})
    assert second.code == "QWERTY" and Room.objects.filter(code__in=[first.code, "QWERTY"]).count() == 2
    assert [s.index for s in store.table("QWERTY").seats] == [0, 1, 2, 3]


@pytest.mark.django_db(transaction=True)
def test_a_table_locked_after_a_wait_reads_what_the_holder_committed(make_user, path):
    """The lock and the read are one statement on PostgreSQL; one that waited for the lock
    must still see the seats and the hand the lock's holder committed, not those of the
    moment it began (READ COMMITTED hands it only the locked row as it is now)."""
    import threading

    room = lobby.room_create(host=make_user(), game="hearts", options={})
    newcomer = make_user()
    holding, release, seen = threading.Event(), threading.Event(), {}

    def in_thread(work):
        def run():
            try:
                work()
            finally:
                connection.close()

        return threading.Thread(target=run)

    def holder():
        with store.locked(room.code) as table:
            seat = table.seats[1]
            seat.user = newcomer
            table.mark(seat, ["user"])
            holding.set()
            release.wait(10)

    def waiter():
        holding.wait(10)
        with store.locked(room.code) as table:
            seen["user"] = table.seats[1].user_id
            seen["version"] = table.room.version

    threads = [in_thread(holder), in_thread(waiter)]
    for thread in threads:
        thread.start()
    holding.wait(10)
    waited = False
    for _ in range(100):  # until the waiter's statement is queued behind the holder's lock
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
            waited = cursor.fetchone()[0] > 0
        if waited:
            break
        time.sleep(0.05)
    release.set()
    for thread in threads:
        thread.join(10)
    assert waited
    assert seen["user"] == newcomer.id


def test_a_field_the_model_has_not_is_refused_at_once(make_user, path):
    room = lobby.room_create(host=make_user(), game="hearts", options={})
    with pytest.raises(ValueError, match="nmae"), store.locked(room.code) as table:
        table.mark(table.room, ["nmae"])
    with pytest.raises(ValueError), store.locked(room.code) as table:
        table.mark(table.room, [])


def test_a_flush_beyond_one_statements_values_is_split(make_user, path, monkeypatch):
    from core import write_batch

    monkeypatch.setattr(write_batch, "MAX_VALUES", 20)  # an event row has 8 values
    room = lobby.room_create(host=make_user(), game="hearts", options={})
    with store.locked(room.code) as table:
        for n in range(7):
            table.log({"type": "note", "n": n})
        table.touch()
    notes = Event.objects.filter(room=room, data__type="note").order_by("seq")
    assert [e.data["n"] for e in notes] == list(range(7))
    assert Room.objects.get(pk=room.pk).version == room.version + 1


def _prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_the_token_lookup_the_table_read_and_the_flush_become_prepared_statements(make_user, api_client):
    """After a few uses on a connection PostgreSQL keeps them parsed and planned; the ORM's
    other statements are never prepared."""
    host = make_user()
    client = api_client(host)
    code = client.post("/api/v1/rooms/", {"game": "hearts", "options": {}}, format="json").json()["code"]
    for _ in range(4):
        assert client.get(f"/api/v1/rooms/{code}/state").status_code == 200
        with store.locked(code) as table:
            table.touch()
    prepared = _prepared_statements()
    assert any('JOIN "accounts_signin"' in sql for sql in prepared)
    assert any("json_build_object('room'" in sql for sql in prepared)
    assert any(sql.startswith("WITH w0 AS (UPDATE") for sql in prepared)
    assert not any(sql.startswith(("INSERT", "UPDATE")) for sql in prepared)
    # A prepared lookup still sees a revoked token at once.
    assert client.post("/api/v1/auth/logout").status_code == 204
    assert client.get(f"/api/v1/rooms/{code}/state").status_code == 401


def test_the_token_lookup_gives_the_user_as_the_orm_does(make_user):
    from accounts.authentication import TokenAuthentication
    from accounts.models import SignIn, User
    from tests.tokens import new_token

    user = make_user()
    user.last_login = timezone.now()
    user.save()
    token = new_token(user)
    found, auth = TokenAuthentication().authenticate_credentials(token)
    assert fields(found) == fields(User.objects.get(pk=user.pk))
    assert found.date_joined.tzinfo is not None
    assert auth is not None and auth.id == SignIn.objects.get(digest=SignIn.digest_of(token)).pk
