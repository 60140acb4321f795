"""The admin's lists of permissions (on a user's page and a group's) in the reader's
language.

Django keeps each permission's name in the database, in English as it made it ("Can
change room"), and its widgets show `str(permission)`: "Games | room | Can change room"
in every language. Here an option is named from what the permission is instead: its
app's and its model's names, which their declarations translate, then for Django's
default permissions (`add_`, `change_`, `delete_`, `view_` and the model's name) a
translated "Can change %(model)s", and for the project's own (`Meta.permissions`, marked
with gettext_noop where they are declared) the stored name, translated."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import Permission
from django.db.models import ManyToManyField
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_noop

from ..admin_views import _ModelAdmin

# Translated as they are shown: the model's name is the reader's language's too.
DEFAULT_PERMISSIONS = {
    # Translators: a permission; the model is a kind of thing the server keeps, such as "room".
    "add": gettext_noop("Can add %(model)s"),
    # Translators: a permission; the model is a kind of thing the server keeps, such as "room".
    "change": gettext_noop("Can change %(model)s"),
    # Translators: a permission; the model is a kind of thing the server keeps, such as "room".
    "delete": gettext_noop("Can delete %(model)s"),
    # Translators: a permission; the model is a kind of thing the server keeps, such as "room".
    "view": gettext_noop("Can view %(model)s"),
}


def permission_label(permission: Permission) -> str:
    """What the admin shows for a permission, in the active language."""
    content_type = permission.content_type
    model = content_type.model_class()
    if model is None:
        # A model no longer in the code: its stored name is all there is to say.
        return str(permission)
    action, _, model_name = permission.codename.partition("_")
    if action in DEFAULT_PERMISSIONS and model_name == model._meta.model_name:
        name = gettext(DEFAULT_PERMISSIONS[action]) % {"model": model._meta.verbose_name}
    else:
        name = gettext(permission.name)
    # As Django's own `str(permission)` puts it: app | model | permission.
    return f"{content_type} | {name}"


class PermissionsField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return permission_label(obj)


class PermissionLabelsAdmin(_ModelAdmin):
    """Before an admin of Django's (UserAdmin, GroupAdmin) among the bases: its
    permissions' field names each option in the reader's language."""

    def formfield_for_manytomany(
        self, db_field: ManyToManyField[Any, Any], request: HttpRequest | None = None, **kwargs: Any
    ) -> forms.ModelMultipleChoiceField | None:
        if db_field.related_model is Permission:
            kwargs["form_class"] = PermissionsField
        # The request is optional as in Django's own GroupAdmin, which ModelAdmin's stub is not.
        return super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[arg-type]
