"""Moderator pages in the admin: a reason form for each action, and the replay check.

Every page checks its own permission; the actions themselves go through
moderation.services, like everything that writes game state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy

from accounts.models import User
from core.errors import ServiceError

from .services import MAX_REASON


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=MAX_REASON,
        help_text=gettext_lazy("Public: the people concerned read it."),
    )


def moderator_of(request: HttpRequest) -> User:
    """The staff account behind an admin request (the admin lets no one else in)."""
    if not isinstance(request.user, User):
        raise PermissionDenied
    return request.user


def require_perm(request: HttpRequest, perm: str) -> None:
    if not request.user.has_perm(perm):
        raise PermissionDenied


def reason_page(
    request: HttpRequest,
    *,
    perm: str,
    title: str,
    question: str,
    submit: str,
    back: str,
    act: Callable[[str], Any],
    done: str,
    consequences: list[str] | None = None,
) -> HttpResponse:
    """GET: the form; POST: run `act(reason)` and go back with a message. Every text
    given is in the moderator's language (the request's).

    `consequences` lists what else the action changes (the rooms a ban empties a seat in).
    """
    return form_page(
        request,
        perm=perm,
        title=title,
        question=question,
        submit=submit,
        back=back,
        form=ReasonForm(request.POST or None),
        act=lambda cleaned: act(cleaned["reason"]),
        done=done,
        consequences=consequences,
    )


def form_page(
    request: HttpRequest,
    *,
    perm: str,
    title: str,
    question: str,
    submit: str,
    back: str,
    form: forms.Form,
    act: Callable[[dict[str, Any]], Any],
    done: str,
    consequences: list[str] | None = None,
) -> HttpResponse:
    """A moderator's action with a form of its own: GET shows it, a valid POST runs
    `act(cleaned_data)` and goes back to `back` with a message (the service's refusal,
    or `done`)."""
    require_perm(request, perm)
    if request.method == "POST" and form.is_valid():
        try:
            act(form.cleaned_data)
        except ServiceError as err:
            messages.error(request, err.detail)
        else:
            messages.success(request, done)
        return HttpResponseRedirect(back)
    context = {
        **admin.site.each_context(request),
        "title": title,
        "question": question,
        "submit": submit,
        "back": back,
        "form": form,
        "consequences": consequences,
    }
    return TemplateResponse(request, "admin/moderation/reason_form.html", context)


class ReadOnly:
    """For an admin page or inline to look, never to change: no adding, editing or
    deleting, for superusers too. Whatever changes a record here is a moderator's
    action, with a reason and a log entry."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


# The stubs make the admin classes generic; Django's own cannot be subscripted at run time.
if TYPE_CHECKING:
    _ModelAdmin = admin.ModelAdmin[Any]
    _TabularInline = admin.TabularInline[Any, Any]
else:
    _ModelAdmin = admin.ModelAdmin
    _TabularInline = admin.TabularInline


class ReadOnlyAdmin(ReadOnly, _ModelAdmin):
    pass


class ReadOnlyInline(ReadOnly, _TabularInline):
    can_delete = False
