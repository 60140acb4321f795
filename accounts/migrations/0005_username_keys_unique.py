from django.db import migrations, models

import accounts.models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_username_keys"),
    ]

    operations = [
        migrations.AlterModelManagers(
            name="user",
            managers=[("objects", accounts.models.PlayerManager())],
        ),
        migrations.AlterField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=150, null=True, unique=True),
        ),
        migrations.AlterField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(editable=False, max_length=150, null=True, unique=True),
        ),
    ]
