"""The reports' queue for moderators: open entries, the most reported and newest
first, each with its evidence on its page (the reports, the table talk around each
reported line, the person's earlier entries, sanctions and hand-overs for being away,
other accounts from the same browser) and the actions that close it
(moderation/queue.py). Everything a person wrote is shown as text, never markup."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from accounts import selectors as accounts
from core.errors import ServiceError
from games.models import Room
from talk.models import ChatMessage

from .. import queue
from ..admin_views import ReadOnlyAdmin, ReadOnlyInline, form_page, moderator_of, require_perm
from ..canned import CANNED_WARNINGS
from ..models import Case, ModerationEntry, Report
from ..services import MAX_REASON

PERM = "moderation.work_reports"
# Lines of talk shown before and after a reported one.
CONTEXT_LINES = 5


class ReportInline(ReadOnlyInline):
    model = Report
    extra = 0
    fields = ("created_at", "reporter", "reason", "note", "room", "reported_line")
    readonly_fields = fields

    @admin.display(description=gettext_lazy("line"))
    def reported_line(self, report: Report) -> str:
        return report.line.text or report.line.phrase if report.line else "-"


class _Reason(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=MAX_REASON,
        help_text=gettext_lazy("Kept in the log."),
    )


class DismissForm(_Reason):
    pass


class WarnForm(forms.Form):
    canned = forms.ChoiceField(
        choices=[("", gettext_lazy("(write your own)")), *CANNED_WARNINGS.items()],
        required=False,
        label=gettext_lazy("Start from"),
        help_text=gettext_lazy("A fixed warning reaches the person in their own language."),
    )
    text = forms.CharField(
        label=gettext_lazy("Text"),
        widget=forms.Textarea(attrs={"rows": 4, "cols": 60}),
        max_length=500,
        required=False,
        help_text=gettext_lazy("What the person reads, as you write it (empty: the warning chosen above)."),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # The moderator's own words, else the fixed warning chosen (sent by its key).
        cleaned["text"] = (cleaned.get("text") or "").strip()
        cleaned["canned"] = "" if cleaned["text"] else cleaned.get("canned") or ""
        if not cleaned["text"] and not cleaned["canned"]:
            raise forms.ValidationError(_("Write the warning, or start from one above."))
        return cleaned


class TimeoutForm(_Reason):
    length = forms.ChoiceField(
        label=gettext_lazy("Length"),
        choices=[
            ("10m", gettext_lazy("10 minutes")),
            ("1h", gettext_lazy("1 hour")),
            ("24h", gettext_lazy("24 hours")),
        ],
    )
    room = forms.CharField(
        label=gettext_lazy("Room"),
        required=False,
        max_length=12,
        help_text=gettext_lazy("A room's code for a timeout there only; empty: everywhere."),
    )
    canned = forms.ChoiceField(
        choices=[("", gettext_lazy("(no warning)")), *CANNED_WARNINGS.items()],
        required=False,
        label=gettext_lazy("And a warning"),
        help_text=gettext_lazy("A fixed warning reaches the person in their own language."),
    )
    warning = forms.CharField(
        label=gettext_lazy("Warning"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=500,
        required=False,
        help_text=gettext_lazy("The warning's words, as you write them (empty: the one chosen above, if any)."),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # The moderator's own words, else the fixed warning chosen (sent by its key), if any.
        cleaned["warning"] = (cleaned.get("warning") or "").strip()
        cleaned["canned"] = "" if cleaned["warning"] else cleaned.get("canned") or ""
        return cleaned

    def clean_room(self) -> Room | None:
        code = (self.cleaned_data.get("room") or "").strip().upper()
        if not code:
            return None
        found = Room.objects.filter(code=code).first()
        if found is None:
            raise forms.ValidationError(_("No room has that code."))
        return found


class BanForm(_Reason):
    hours = forms.IntegerField(
        label=gettext_lazy("Hours"),
        required=False,
        min_value=1,
        max_value=24 * 365,
        help_text=gettext_lazy("Empty: for good. 24 is a day, 168 a week."),
    )


@admin.register(Case)
class CaseAdmin(ReadOnlyAdmin):
    change_form_template = "admin/moderation/change_form.html"
    list_display = ("target_user", "reports_count", "reasons", "last_report_at", "claimed_by", "status", "outcome")
    list_filter = ("status", "outcome")
    search_fields = ("target_user__username", "target_user__display_name")
    list_select_related = ("target_user", "claimed_by")
    inlines = (ReportInline,)
    fields = (
        "target_user",
        "status",
        "reports_count",
        "opened_at",
        "last_report_at",
        "claimed_by",
        "talk_around",
        "history",
        "same_browser",
        "closed_by",
        "closed_at",
        "outcome",
    )
    readonly_fields = fields

    class Media:
        css = {"all": ["moderation/admin.css"]}

    def get_queryset(self, request: HttpRequest) -> QuerySet[Case]:
        # Open first; among them the most reported, then the newest.
        return super().get_queryset(request).order_by("-status", "-reports_count", "-last_report_at")

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.has_perm(PERM)) or super().has_view_permission(request, obj)

    @admin.display(description=gettext_lazy("reasons"))
    def reasons(self, case: Case) -> str:
        return ", ".join(sorted({r.get_reason_display() for r in case.reports.all()}))

    @admin.display(description=gettext_lazy("Table talk around the reported lines"))
    def talk_around(self, case: Case) -> str:
        blocks = []
        for report in case.reports.filter(line__isnull=False).select_related("line__room"):
            line = report.line
            assert line is not None
            around = ChatMessage.objects.filter(room=line.room).select_related("author")
            before = list(around.filter(pk__lt=line.pk).order_by("-pk")[:CONTEXT_LINES])[::-1]
            after = list(around.filter(pk__gt=line.pk).order_by("pk")[:CONTEXT_LINES])
            rows = format_html_join(
                "",
                '<div class="{}">{} {} ({}): {}</div>',
                (
                    (
                        "reported-line" if m.pk == line.pk else "",
                        f"{m.created_at:%H:%M:%S}",
                        m.author.username,
                        m.channel,
                        m.text or m.phrase,
                    )
                    for m in [*before, line, *after]
                ),
            )
            link = reverse("admin:games_room_change", args=[line.room_id])
            blocks.append(format_html('<div><a href="{}">{}</a>{}</div>', link, line.room.code, rows))
        return format_html_join("", "{}", ((b,) for b in blocks)) or _("No line was reported.")

    @admin.display(description=gettext_lazy("Earlier entries, sanctions and hand-overs for being away"))
    def history(self, case: Case) -> str:
        entries = ModerationEntry.objects.filter(target_user=case.target_user).order_by("-created_at")[:30]
        earlier = Case.objects.filter(target_user=case.target_user).exclude(pk=case.pk).order_by("-opened_at")[:10]
        lines = [
            *((f"{e.created_at:%Y-%m-%d %H:%M}", e.get_kind_display(), e.shown_reason) for e in entries),
            *(
                (
                    f"{c.opened_at:%Y-%m-%d %H:%M}",
                    ngettext("Reported %(n)s time", "Reported %(n)s times", c.reports_count) % {"n": c.reports_count},
                    c.get_outcome_display() or c.get_status_display(),
                )
                for c in earlier
            ),
        ]
        return format_html_join("", "<div>{} {}: {}</div>", lines) or _("Nothing before.")

    @admin.display(description=gettext_lazy("Accounts made from the same browser"))
    def same_browser(self, case: Case) -> str:
        others = accounts.accounts_of_browser(user=case.target_user)
        return format_html_join(
            ", ",
            '<a href="{}">{}</a>',
            ((reverse("admin:accounts_user_change", args=[o.pk]), o.username) for o in others),
        ) or pgettext("accounts", "None")

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        case = self.get_object(request, object_id)
        extra = {**(extra_context or {}), "moderation": case and self.moderation(request, case)}
        return super().change_view(request, object_id, form_url, extra)

    def moderation(self, request: HttpRequest, case: Case) -> dict[str, Any] | None:
        if not request.user.has_perm(PERM):
            return None
        if case.status != Case.Status.OPEN:
            # Translators: outcome is what closed the entry (Warned, Ban); when is a date and time such as
            # 2026-03-01 12:00.
            closed = _("Closed: %(outcome)s by %(moderator)s, %(when)s UTC.")
            when = f"{case.closed_at:%Y-%m-%d %H:%M}" if case.closed_at else "-"
            return {
                "status": closed % {"outcome": case.get_outcome_display(), "moderator": case.closed_by, "when": when}
            }
        me = moderator_of(request)
        if case.target_user_id == me.pk:
            return {"status": _("This entry is about you: another moderator works it."), "alert": True}
        if case.claimed_by_id not in (None, me.pk):
            # Translators: the moderator is the username of the one who claimed the entry.
            return {"status": _("%(moderator)s works this entry.") % {"moderator": case.claimed_by}, "alert": True}

        def url(name: str) -> str:
            return reverse(f"admin:moderation_case_{name}", args=[case.pk])

        claim = (
            {"url": url("release"), "label": _("Release"), "post": True}
            if case.claimed_by_id
            else {"url": url("claim"), "label": _("Claim"), "post": True}
        )
        status = ngettext(
            # Translators: when is a date and time such as 2026-03-01 12:00.
            "Open: %(n)s report since %(when)s UTC.",
            "Open: %(n)s reports since %(when)s UTC.",
            case.reports_count,
        ) % {"n": case.reports_count, "when": f"{case.opened_at:%Y-%m-%d %H:%M}"}
        return {
            "status": status,
            "actions": [
                claim,
                {"url": url("dismiss"), "label": _("Dismiss…")},
                {"url": url("warn"), "label": _("Warn…")},
                {"url": url("timeout"), "label": _("Chat timeout…")},
                {"url": url("shadow_mute"), "label": _("Shadow-mute…")},
                {"url": url("ban"), "label": _("Ban…"), "danger": True},
            ],
        }

    def get_urls(self) -> list[Any]:
        def view(name: str, handler: Any) -> Any:
            return path(f"<id:case_id>/{name}/", self.admin_site.admin_view(handler), name=f"moderation_case_{name}")

        return [
            view("claim", self.claim_view),
            view("release", self.release_view),
            view("dismiss", self.dismiss_view),
            view("warn", self.warn_view),
            view("timeout", self.timeout_view),
            view("shadow_mute", self.shadow_mute_view),
            view("ban", self.ban_view),
            *super().get_urls(),
        ]

    def _back(self, case_id: int) -> str:
        return reverse("admin:moderation_case_change", args=[case_id])

    def _claimed(self, request: HttpRequest, case_id: int, act: Any, done: str) -> HttpResponse:
        require_perm(request, PERM)
        if request.method == "POST":
            try:
                act()
            except ServiceError as err:
                messages.error(request, err.detail)
            else:
                messages.success(request, done)
        return HttpResponseRedirect(self._back(case_id))

    def claim_view(self, request: HttpRequest, case_id: int) -> HttpResponse:
        me = moderator_of(request)
        return self._claimed(
            request, case_id, lambda: queue.case_claim(case_id=case_id, moderator=me, now=timezone.now()), _("Claimed.")
        )

    def release_view(self, request: HttpRequest, case_id: int) -> HttpResponse:
        me = moderator_of(request)
        return self._claimed(
            request, case_id, lambda: queue.case_release(case_id=case_id, moderator=me), _("Released.")
        )

    def _page(self, request: HttpRequest, case_id: int, form: forms.Form, **kwargs: Any) -> HttpResponse:
        case = get_object_or_404(Case, pk=case_id)
        return form_page(
            request,
            perm=PERM,
            back=self._back(case.pk),
            form=form,
            title=kwargs.pop("title") % {"username": case.target_user.username},
            **kwargs,
        )

    def dismiss_view(self, request: HttpRequest, case_id: int) -> HttpResponse:
        me = moderator_of(request)
        return self._page(
            request,
            case_id,
            DismissForm(request.POST or None),
            title=_("Dismiss the reports about %(username)s"),
            question=_("Nothing to act on. The reporters are told their reports were handled."),
            submit=_("Dismiss"),
            act=lambda c: queue.case_dismiss(case_id=case_id, moderator=me, reason=c["reason"], now=timezone.now()),
            done=_("Dismissed."),
        )

    def warn_view(self, request: HttpRequest, case_id: int) -> HttpResponse:
        me = moderator_of(request)
        return self._page(
            request,
            case_id,
            WarnForm(request.POST or None),
            title=_("Warn %(username)s"),
            question=_(
                "The person reads the warning (in the page, by push and mail) and must read it before taking "
                "another seat."
            ),
            submit=pgettext("button", "Warn"),
            act=lambda c: queue.case_warn(
                case_id=case_id, moderator=me, text=c["text"], canned=c["canned"], now=timezone.now()
            ),
            done=_("Warned."),
        )

    def timeout_view(self, request: HttpRequest, case_id: int) -> HttpResponse:
        me = moderator_of(request)
        return self._page(
            request,
            case_id,
            TimeoutForm(request.POST or None),
            title=_("Time %(username)s out of table talk"),
            question=_(
                "They say nothing at any table (or in one room) until it ends; they are told, with your reason."
            ),
            submit=pgettext("button", "Time out"),
            act=lambda c: queue.case_chat_timeout(
                case_id=case_id,
                moderator=me,
                length=c["length"],
                room=c["room"],
                reason=c["reason"],
                now=timezone.now(),
                warning=c["warning"],
                canned=c["canned"],
            ),
            done=_("Timed out."),
        )

    def shadow_mute_view(self, request: HttpRequest, case_id: int) -> HttpResponse:
        me = moderator_of(request)
        return self._page(
            request,
            case_id,
            DismissForm(request.POST or None),
            title=_("Shadow-mute %(username)s"),
            question=_("Their lines reach only themselves from now on; they are not told."),
            submit=pgettext("button", "Shadow-mute"),
            act=lambda c: queue.case_shadow_mute(case_id=case_id, moderator=me, reason=c["reason"], now=timezone.now()),
            done=_("Shadow-muted."),
        )

    def ban_view(self, request: HttpRequest, case_id: int) -> HttpResponse:
        me = moderator_of(request)
        return self._page(
            request,
            case_id,
            BanForm(request.POST or None),
            title=_("Ban %(username)s"),
            question=_(
                "For a number of hours (lifted on time), or for good. The account signs in nowhere and leaves its "
                "open rooms as a ban's do; it is told why by mail."
            ),
            submit=pgettext("button", "Ban"),
            act=lambda c: queue.case_ban(
                case_id=case_id, moderator=me, reason=c["reason"], hours=c.get("hours"), now=timezone.now()
            ),
            done=_("Banned."),
        )
