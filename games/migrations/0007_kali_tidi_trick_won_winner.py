"""Kali Tidi's `trick_won` events name the winner `winner` and count the tricks played
(`trick`), as every game's do; those logged before said only `seat`. Each is given both,
`trick` counted in its hand's order."""

from django.db import migrations

BATCH = 1000


def name_the_winner(apps, schema_editor):
    Event = apps.get_model("games", "Event")
    rows = (
        Event.objects.filter(room__game="kali_tidi", data__type="trick_won")
        .order_by("room_id", "round_number", "seq")
        .iterator(chunk_size=BATCH)
    )
    counted: dict[tuple[int, int | None], int] = {}
    changed = []
    for row in rows:
        key = (row.room_id, row.round_number)
        counted[key] = counted.get(key, 0) + 1
        if "winner" in row.data:
            continue
        row.data = {**row.data, "winner": row.data["seat"], "trick": counted[key]}
        changed.append(row)
        if len(changed) >= BATCH:
            Event.objects.bulk_update(changed, ["data"])
            changed = []
    if changed:
        Event.objects.bulk_update(changed, ["data"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_rematch"),
    ]

    operations = [
        migrations.RunPython(name_the_winner, migrations.RunPython.noop),
    ]
