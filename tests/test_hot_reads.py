"""The plain-SQL reads of the hot path give exactly what the ORM gives."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games import hot_reads, services
from games.models import Room, Round, Seat

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_table_matches_the_orm_field_by_field(make_user):
    host, guest = make_user(), make_user()
    guest.display_name = ""  # shown by username instead
    guest.save()
    room = services.room_create(host=host, game="hearts", options={"preset": "sweedo"})
    services.room_join(code=room.code, user=guest)
    services.room_add_bot(code=room.code, user=host)
    services.room_add_bot(code=room.code, user=host)
    services.room_start(code=room.code, user=host)
    Seat.objects.filter(room=room, index=1).update(last_acted_at=timezone.now())

    found_room, seats, round_ = hot_reads.table(room.code)

    assert fields(found_room) == fields(Room.objects.get(pk=room.pk))
    orm_seats = list(Seat.objects.filter(room=room).select_related("user").order_by("index"))
    assert [fields(s) for s in seats] == [fields(s) for s in orm_seats]
    assert [s.display_name for s in seats] == [s.display_name for s in orm_seats]
    assert [s.user.username if s.user_id else None for s in seats] == [
        s.user.username if s.user_id else None for s in orm_seats
    ]
    latest = Round.objects.filter(room=room).order_by("-number").first()
    assert fields(round_) == fields(latest)
    assert round_.room is found_room and all(s.room is found_room for s in seats)


def test_table_of_a_lobby_and_of_no_room(make_user):
    room = services.room_create(host=make_user(), game="hearts", options={})
    found_room, seats, round_ = hot_reads.table(room.code)
    assert found_room.pk == room.pk and [s.index for s in seats] == [0, 1, 2, 3] and round_ is None
    assert hot_reads.table("NOSUCH") is None


def test_a_deferred_user_field_still_loads(make_user):
    host = make_user(email="host@example.com")
    room = services.room_create(host=host, game="hearts", options={})
    _, seats, _ = hot_reads.table(room.code)
    assert seats[0].user.email == "host@example.com"


def _prepared_statements() -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_the_token_lookup_and_the_table_read_become_prepared_statements(make_user, api_client):
    """After a few uses on a connection PostgreSQL keeps them parsed and planned; the ORM's
    other statements are never prepared."""
    host = make_user()
    client = api_client(host)
    code = client.post("/api/v1/rooms/", {"game": "hearts", "options": {}}, format="json").json()["code"]
    for _ in range(4):
        assert client.get(f"/api/v1/rooms/{code}/state").status_code == 200
    prepared = _prepared_statements()
    assert any('JOIN "authtoken_token"' in sql for sql in prepared)
    assert any("json_build_object('room'" in sql for sql in prepared)
    assert not any("INSERT" in sql or "UPDATE" in sql for sql in prepared)
    # A prepared lookup still sees a revoked token at once.
    assert client.post("/api/v1/auth/logout").status_code == 204
    assert client.get(f"/api/v1/rooms/{code}/state").status_code == 401


def test_the_token_lookup_gives_the_user_as_the_orm_does(make_user):
    from rest_framework.authtoken.models import Token

    from accounts.authentication import TokenAuthentication
    from accounts.models import User

    user = make_user()
    user.last_login = timezone.now()
    user.save()
    token = Token.objects.create(user=user)
    found, auth = TokenAuthentication().authenticate_credentials(token.key)
    assert fields(found) == fields(User.objects.get(pk=user.pk))
    assert found.date_joined.tzinfo is not None and auth.key == token.key
