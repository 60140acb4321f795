"""Moderators also see the apps registered for OAuth2 and players' personal access
tokens, and revoke them: deleting an app deletes its grants and tokens too, which the
admin allows only to whoever may delete each of those."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("grants", "view_personaltoken"),
    ("grants", "delete_personaltoken"),
    ("oauth2_provider", "view_application"),
    ("oauth2_provider", "delete_application"),
    ("oauth2_provider", "view_accesstoken"),
    ("oauth2_provider", "delete_accesstoken"),
    ("oauth2_provider", "view_refreshtoken"),
    ("oauth2_provider", "delete_refreshtoken"),
    ("oauth2_provider", "view_grant"),
    ("oauth2_provider", "delete_grant"),
    ("oauth2_provider", "view_idtoken"),
    ("oauth2_provider", "delete_idtoken"),
    ("oauth2_provider", "view_devicegrant"),
    ("oauth2_provider", "delete_devicegrant"),
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
        ("moderation", "0004_server_handovers"),
        ("grants", "0001_initial"),
        ("oauth2_provider", "0022_refreshtoken_token_family_index"),
    ]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
