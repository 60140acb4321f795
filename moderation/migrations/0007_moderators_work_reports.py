"""Moderators work the reports' queue: they see the reports and queue entries, table
talk, warnings, chat timeouts and shadow mutes, and act on an entry (dismiss, warn, time
out, shadow-mute, ban for a time or for good)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("moderation", "work_reports"),
    ("moderation", "view_case"),
    ("moderation", "view_report"),
    ("moderation", "view_warning"),
    ("talk", "view_chatmessage"),
    ("talk", "view_chattimeout"),
    ("talk", "view_shadowmute"),
]


def add_permissions(apps, schema_editor):
    # As 0003: on a fresh database the permissions appear only after every migration.
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


def remove_permissions(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    group = apps.get_model("auth", "Group").objects.filter(name=GROUP).first()
    if group is not None:
        for app, codename in PERMISSIONS:
            group.permissions.remove(*Permission.objects.filter(content_type__app_label=app, codename=codename))


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0006_reports_queue"),
        ("talk", "0001_initial"),
    ]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
