"""Push endpoints stored in their one spelling (notifications.endpoints.normalised), as
the server now stores and compares them. Two rows whose endpoints were spellings of one
URL are one browser's subscription: the first registered (its account kept it, and
another spelling could only have been a second account's way around
`push_endpoint_taken`) stays, the others go."""

from django.db import migrations


def normalise(apps, schema_editor):
    from notifications.endpoints import normalised

    PushSubscription = apps.get_model("notifications", "PushSubscription")
    kept: dict[str, int] = {}
    renamed: dict[int, str] = {}
    gone: list[int] = []
    for pk, endpoint in PushSubscription.objects.order_by("created_at", "pk").values_list("pk", "endpoint"):
        spelling = normalised(endpoint)
        if spelling in kept:
            gone.append(pk)
            continue
        kept[spelling] = pk
        if spelling != endpoint:
            renamed[pk] = spelling
    PushSubscription.objects.filter(pk__in=gone).delete()
    for pk, spelling in renamed.items():
        PushSubscription.objects.filter(pk=pk).update(endpoint=spelling)


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0003_turn_reminder"),
    ]

    operations = [migrations.RunPython(normalise, migrations.RunPython.noop)]
