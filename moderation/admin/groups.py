"""Groups of staff (the moderators' among them) as Django's admin shows them, their
permissions named in the reader's language (permission_labels.py)."""

from __future__ import annotations

from django.contrib import admin

# Registers Django's own Group admin first, so that it can be replaced here.
from django.contrib.auth import admin as auth_admin
from django.contrib.auth.models import Group

from .permission_labels import PermissionLabelsAdmin

admin.site.unregister(Group)


@admin.register(Group)
class GroupAdmin(PermissionLabelsAdmin, auth_admin.GroupAdmin):
    pass
