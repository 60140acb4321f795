"""Reports of people to the moderators, and a person's own sanctions
(docs/talk/moderation.md): the reporter's list says whether each was handled, never how."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from accounts import selectors as accounts
from games import selectors as games
from grants.scopes import READ, scopes
from moderation import playbans, queue, reports
from talk import selectors as talk

from .auth import signed_in_user
from .schema import answers
from .serializers_reports import ReportMakeSerializer, ReportSerializer, SanctionsSerializer, WarningSerializer
from .throttling import ScopedRateThrottle


@scopes(GET=None, POST=None)
class ReportsView(APIView):
    # Reporting is limited (`report`); reading one's own reports as any call is.
    throttle_scope = "report"

    def get_throttles(self) -> list[BaseThrottle]:
        extra = [ScopedRateThrottle()] if self.request.method == "POST" else []
        return [*super().get_throttles(), *extra]

    @extend_schema(responses=ReportSerializer(many=True), summary="Your reports")
    def get(self, request: Request) -> Response:
        return Response(ReportSerializer(queue.reports_made_by(user=signed_in_user(request)), many=True).data)

    @extend_schema(
        request=ReportMakeSerializer,
        responses={201: ReportSerializer},
        summary="Report someone to the moderators",
        description="From a table (`room`), a line of its talk (`line`: its author is the one reported), a "
        "profile, or anywhere (`username`). Reports about one person add up into one entry of the moderators' "
        "queue. You are told when it is handled, never how. Limited (`THROTTLE_REPORT`).",
    )
    @answers("report_self", "not_found")
    def post(self, request: Request) -> Response:
        data = ReportMakeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        wanted = data.validated_data
        reporter = signed_in_user(request)
        room = games.room_get(code=wanted["room"]) if "room" in wanted else None
        if "line" in wanted:
            target = talk.author_of_line(line_id=wanted["line"])
        elif "username" in wanted:
            target = accounts.user_named(username=wanted["username"])
        else:
            raise reports.nobody_named()
        report = reports.report_make(
            reporter=reporter,
            target=target,
            reason=wanted["reason"],
            note=wanted.get("note", "").strip(),
            now=timezone.now(),
            room=room,
            line_id=wanted.get("line"),
        )
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED)


@scopes(GET=READ)
class SanctionsView(APIView):
    @extend_schema(
        responses=SanctionsSerializer,
        summary="Your warnings, timeouts and playban",
        description="A warning not yet read keeps you from taking a seat or making a room (`409 unread_warning`) "
        "until `POST me/warnings/{id}/read`.",
    )
    def get(self, request: Request) -> Response:
        user = signed_in_user(request)
        now = timezone.now()
        return Response(
            SanctionsSerializer(
                {
                    "warnings": queue.warnings_of(user=user),
                    "chat_timeouts": talk.timeouts_of(user=user, now=now),
                    "playban": playbans.playban_of(user=user, now=now),
                }
            ).data
        )


@scopes(POST=None)
class WarningReadView(APIView):
    @extend_schema(request=None, responses=WarningSerializer, summary="Mark a warning read")
    @answers("not_found")
    def post(self, request: Request, pk: int) -> Response:
        warning = queue.warning_read(user=signed_in_user(request), warning_id=pk, now=timezone.now())
        return Response(WarningSerializer(warning).data)
