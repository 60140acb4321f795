"""Why a room ended, as a code and a moderator's own words beside the English words
(games.models.EndCause): rooms that ended before are given theirs from those words."""

from django.db import migrations, models

MODERATOR_PREFIX = "Closed by a moderator: "


def causes_from_words(apps, schema_editor):
    Room = apps.get_model("games", "Room")
    ended = Room.objects.filter(status__in=["abandoned", "closed"]).exclude(status_reason="")
    for room in ended.iterator():
        reason = room.status_reason
        if room.status == "closed" and reason.startswith(MODERATOR_PREFIX):
            room.status_cause, room.status_words = "moderator", reason[len(MODERATOR_PREFIX) :]
        elif "did not play in time" in reason and room.status_seat is not None:
            room.status_cause = "idle"
        elif reason.startswith("Every seat is played by a computer player"):
            room.status_cause = "everyone_away"
        elif reason == "Everyone left before the start.":
            room.status_cause = "everyone_left"
        else:
            continue
        room.save(update_fields=["status_cause", "status_words"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_rated_by_seats"),
    ]

    operations = [
        migrations.AddField(
            model_name="room",
            name="status_cause",
            field=models.CharField(
                blank=True,
                choices=[
                    ("idle", "Idle"),
                    ("everyone_away", "Everyone Away"),
                    ("everyone_left", "Everyone Left"),
                    ("moderator", "Moderator"),
                ],
                default="",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="room",
            name="status_words",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
        migrations.RunPython(causes_from_words, migrations.RunPython.noop),
    ]
