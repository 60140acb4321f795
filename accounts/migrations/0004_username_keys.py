"""Case-insensitive, lookalike-proof usernames (accounts.usernames).

Accounts made before these rules may already collide: `Bob` and `bob`, or `admin`
spelt with a Cyrillic U+0430 next to the Latin one. Renaming either would lock someone out of an account they
know by name, and refusing to migrate would stop the server. So the earliest account
of each colliding group gets the keys, and any later one keeps null keys (a unique
column allows any number of nulls): it goes on signing in with its exact name, and
no new account can take a name that collides with either.

The unique indexes come in the next migration: PostgreSQL refuses to alter a table in
the transaction that updated its rows while foreign-key checks on them are pending.
"""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from accounts import usernames

    User = apps.get_model("accounts", "User")
    keys: set[str] = set()
    skeletons: set[str] = set()
    changed = []
    for user in User.objects.order_by("id").only("id", "username").iterator():
        key, skeleton = usernames.canonical(user.username), usernames.skeleton(user.username)
        user.username_key = key if key not in keys else None
        user.username_skeleton = skeleton if skeleton not in skeletons else None
        keys.add(key)
        skeletons.add(skeleton)
        changed.append(user)
    User.objects.bulk_update(changed, ["username_key", "username_skeleton"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_banned_tokens"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=150, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(editable=False, max_length=150, null=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
