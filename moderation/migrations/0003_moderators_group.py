"""The "Moderators" group: exactly what moderating needs, to be given to staff accounts.

Members browse players, rooms, hands, seats, actions and events, read the moderation log,
ban and unban, close rooms and give seats to computer players. They change nothing else
(no user editing, no deleting) and see no other part of the admin.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("accounts", "view_user"),
    ("games", "view_room"),
    ("games", "view_seat"),
    ("games", "view_round"),
    ("games", "view_action"),
    ("games", "view_event"),
    ("moderation", "view_moderationentry"),
    ("moderation", "ban_user"),
    ("moderation", "moderate_room"),
]


def add_group(apps, schema_editor):
    # On a fresh database the permissions only appear after every migration has run
    # (post_migrate); make them now so the group can hold them.
    for label in {app for app, _ in PERMISSIONS}:
        config = apps.get_app_config(label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0, using=schema_editor.connection.alias)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for app, codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label=app, codename=codename))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("accounts", "0003_banned_tokens"),
        ("games", "0001_initial"),
        ("moderation", "0002_kind_labels_without_replay_check"),
    ]

    operations = [migrations.RunPython(add_group, remove_group)]
