"""Every account token of before becomes a sign-in of its own (`earlier`), kept as a
digest, so that clients signed in then stay signed in; the old rows are then deleted,
and nothing reads that table any more."""

import hashlib

from django.db import migrations


def tokens_to_sign_ins(apps, schema_editor):
    Token = apps.get_model("authtoken", "Token")
    SignIn = apps.get_model("accounts", "SignIn")
    sign_ins = [
        SignIn(
            user_id=token.user_id,
            digest=hashlib.sha256(token.key.encode()).hexdigest(),
            how="earlier",
            created_at=token.created,
        )
        for token in Token.objects.all().iterator()
    ]
    SignIn.objects.bulk_create(sign_ins, batch_size=1000, ignore_conflicts=True)
    # auto_now_add wrote the migration's time: each keeps the token's own.
    for sign_in in sign_ins:
        SignIn.objects.filter(digest=sign_in.digest).update(created_at=sign_in.created_at)
    Token.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_sign_ins_name_changes"),
        ("authtoken", "0004_alter_tokenproxy_options"),
    ]

    operations = [migrations.RunPython(tokens_to_sign_ins, migrations.RunPython.noop)]
