"""What ends a credential reaches its open sockets: the one rule.

HTTP reads a credential on every request, so a token or session that ended answers 401
at the next call. A socket reads its credential once, when it opens, so every change that
can end one tells the account's sockets to read theirs again
(`live.credentials_check_after_commit`); one whose credential no longer works closes
with 4401 `credentials ended` (or `banned`) before anything else is sent on it
(api/consumers.py, api/ws_auth.py).

The changes are caught where the credential's row changes, not in each service that
changes it, so a path added later (an admin page, the OAuth toolkit's own revocation
endpoint, a cascade from a deleted app) is covered without a line here:

- a sign-in (the account's own token) deleted: signing out, ending a sign-in, a new
  password, a ban, closing the account;
- a personal token deleted;
- an app's access token deleted: revoking the app's access or the app, `oauth/revoke_token`,
  and a refresh (the access token it replaces ends);
- a session deleted: signing out of it (Django's `logout` deletes it only after its
  `user_logged_out` signal, so the row is what is watched), or the session cleanup;
- the account's password, activity or sessions changed (a new password, a ban, a closure,
  an erasure: `User` saved with one of `ACCOUNT_FIELDS`).

docs/accounts.md has the table of what ends what.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.db.models.signals import post_delete, post_save
from oauth2_provider.models import get_access_token_model

from accounts.models import SignIn, User
from games import live
from grants.models import PersonalToken

# A saved account with one of these changed may have lost a credential: its password (and
# so its sessions), whether it may act at all, and the sessions' epoch (accounts.models).
ACCOUNT_FIELDS = frozenset({"password", "is_active", "banned_at", "closed_at", "sessions_epoch"})


def _owner_lost_one(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.user_id is not None:
        live.credentials_check_after_commit(instance.user_id)


def _session_ended(sender: Any, instance: Any, **kwargs: Any) -> None:
    user_id = instance.get_decoded().get(SESSION_KEY)
    if user_id is not None:
        live.credentials_check_after_commit(int(user_id))


def _account_saved(sender: Any, instance: User, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    if created:
        return
    if update_fields is None or ACCOUNT_FIELDS & set(update_fields):
        live.credentials_check_after_commit(instance.pk)


def connect() -> None:
    """Called once, from the app's `ready`."""
    for model in (SignIn, PersonalToken, get_access_token_model()):
        post_delete.connect(_owner_lost_one, sender=model, dispatch_uid=f"credential-ends-{model._meta.label}")
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if hasattr(store, "get_model_class"):  # sessions kept in the database (the default)
        post_delete.connect(_session_ended, sender=store.get_model_class(), dispatch_uid="credential-ends-session")
    post_save.connect(_account_saved, sender=User, dispatch_uid="credential-ends-account")
