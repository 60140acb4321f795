"""Apps registered for OAuth2, as django-oauth-toolkit's admin shows them, with the
moderators' action: revoke an app, which deletes it with every grant and token it was
given. (The toolkit's own delete refuses an app that has tokens: its token pages allow
revoking them one by one, not deleting them.)"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy, ngettext

# Registers the toolkit's admin pages first, so that the apps' page can be replaced here.
from oauth2_provider import admin as oauth_admin
from oauth2_provider.models import get_application_model

from grants import services

Application = get_application_model()
admin.site.unregister(Application)


@admin.register(Application)
class RegisteredAppAdmin(oauth_admin.ApplicationAdmin):
    actions = ["revoke"]

    @admin.action(
        description=gettext_lazy("Revoke the selected apps and every token they were given"), permissions=["delete"]
    )
    def revoke(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self.log_deletions(request, queryset)
        count = services.apps_revoke(app_ids=list(queryset.values_list("pk", flat=True)))
        done = ngettext(
            "Revoked %(count)s app; its tokens no longer work.",
            "Revoked %(count)s apps; their tokens no longer work.",
            count,
        )
        self.message_user(request, done % {"count": count})
