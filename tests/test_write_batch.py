"""Deferred writes: nothing reaches the database before the block ends, then everything
does, exactly as the ORM would have written it."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games import services, write_batch
from games.models import Event, Room

pytestmark = pytest.mark.django_db(transaction=True)


def test_writes_wait_for_the_end_of_the_block_then_all_land(make_user):
    room = services.room_create(host=make_user(), game="hearts", options={})
    before_updated = Room.objects.get(pk=room.pk).updated_at
    seq = room.event_seq
    with transaction.atomic(), write_batch.batched() as batch:
        assert batch is not None
        room.name = "Friday table"
        room.scores = [1, 2, 3, 4]
        write_batch.update(room)
        room.version += 1
        write_batch.update(room)  # one UPDATE with the latest values
        write_batch.insert(
            Event(room=room, seq=seq + 1, version=room.version, data={"type": "x", "cards": ["QS"]}, audience=1),
            Event(room=room, seq=seq + 2, version=room.version, data={"type": "y"}, visible_to=None, audience=-1),
        )
        assert Room.objects.get(pk=room.pk).name == ""
        assert not Event.objects.filter(room=room, seq__gt=seq).exists()
        assert len(batch.updates) == 1 and len(batch.inserts) == 2
    stored = Room.objects.get(pk=room.pk)
    assert (stored.name, stored.scores, stored.version) == ("Friday table", [1, 2, 3, 4], room.version)
    assert stored.updated_at > before_updated  # auto_now is applied as save() would
    events = list(Event.objects.filter(room=room, seq__gt=seq).order_by("seq"))
    assert [e.data for e in events] == [{"type": "x", "cards": ["QS"]}, {"type": "y"}]
    assert all(e.created_at is not None for e in events)


def test_update_of_some_fields_leaves_the_others(make_user):
    room = services.room_create(host=make_user(), game="hearts", options={})
    with transaction.atomic(), write_batch.batched():
        room.name = "kept in memory only"
        room.version = 42
        write_batch.update(room, ["version"])
    stored = Room.objects.get(pk=room.pk)
    assert (stored.version, stored.name) == (42, "")


def test_a_failing_write_rolls_back_the_whole_transaction(make_user):
    room = services.room_create(host=make_user(), game="hearts", options={})
    seq = room.event_seq
    with pytest.raises(IntegrityError), transaction.atomic(), write_batch.batched():
        room.name = "never stored"
        write_batch.update(room)
        # The same (room, seq) twice breaks the log's unique constraint at the flush.
        write_batch.insert(Event(room=room, seq=seq + 1, version=0, data={}, audience=-1))
        write_batch.insert(Event(room=room, seq=seq + 1, version=0, data={}, audience=-1))
    assert Room.objects.get(pk=room.pk).name == ""
    assert not Event.objects.filter(room=room, seq__gt=seq).exists()


def test_without_a_block_writes_are_immediate(make_user):
    room = services.room_create(host=make_user(), game="hearts", options={})
    room.name = "at once"
    write_batch.update(room, ["name"])
    assert Room.objects.get(pk=room.pk).name == "at once"
    write_batch.insert(Event(room=room, seq=room.event_seq + 1, version=0, data={"a": 1}, audience=-1))
    assert Event.objects.filter(room=room, seq=room.event_seq + 1).exists()


def test_two_copies_of_one_row_are_refused(make_user):
    room = services.room_create(host=make_user(), game="hearts", options={})
    with pytest.raises(RuntimeError), transaction.atomic(), write_batch.batched():
        write_batch.update(room)
        write_batch.update(Room.objects.get(pk=room.pk))
