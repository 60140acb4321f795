"""Moderator pages in the admin: a reason form for each action, and the replay check.

Every page checks its own permission; the actions themselves go through
moderation.services, like everything that writes game state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse

from games.errors import ServiceError


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), max_length=500)


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
) -> HttpResponse:
    """GET: the form; POST: run `act(reason)` and go back with a message."""
    require_perm(request, perm)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            act(form.cleaned_data["reason"])
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
    }
    return TemplateResponse(request, "admin/moderation/reason_form.html", context)
