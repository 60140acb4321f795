"""Request and answer shapes of reports (moderation) and of a person's own sanctions."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from moderation.models import Report

from .serializers import StrictCharField, StrictSerializer, WholeNumberField


class ReportMakeSerializer(StrictSerializer):
    username = StrictCharField(
        max_length=150,
        required=False,
        help_text="Whom you report (compared as sign-in compares names); not needed with `line`",
    )
    reason = serializers.ChoiceField(choices=Report.Reason.choices)
    note = StrictCharField(
        max_length=500, required=False, allow_blank=True, help_text="What happened, in your words (plain text)"
    )
    room = StrictCharField(max_length=12, required=False, help_text="The room's code, when it happened at a table")
    line = WholeNumberField(required=False, help_text="The `id` of the table-talk line you report")


class ReportSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField(source="case.target_user.username", help_text="Whom it reports")
    reason = serializers.ChoiceField(choices=Report.Reason.choices)
    note = serializers.CharField()
    room = serializers.CharField(source="room.code", allow_null=True, default=None)
    line = serializers.IntegerField(source="line_id", allow_null=True)
    created_at = serializers.DateTimeField()
    handled = serializers.SerializerMethodField(help_text="Whether a moderator handled it (never how)")

    def get_handled(self, report: Report) -> bool:
        return report.handled_at is not None


class WarningSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="For `POST me/warnings/{id}/read`")
    # A fixed warning in the request's language (Warning.words); a moderator's own words as written.
    text = serializers.CharField(source="words", help_text="The moderator's words, plain text")
    created_at = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)


class ChatTimeoutSerializer(serializers.Serializer[Any]):
    room = serializers.CharField(
        source="room.code", allow_null=True, default=None, help_text="The room it applies in; null: everywhere"
    )
    until = serializers.DateTimeField()
    reason = serializers.CharField()


class PlaybanSerializer(serializers.Serializer[Any]):
    until = serializers.DateTimeField(help_text="When rated tables are open to you again")
    abandonments = serializers.IntegerField(help_text="Rated matches abandoned within the window")
    reason = serializers.CharField()


class SanctionsSerializer(serializers.Serializer[Any]):
    warnings = WarningSerializer(many=True, help_text="Every warning you were sent, the latest first")
    chat_timeouts = ChatTimeoutSerializer(many=True, help_text="The chat timeouts in force now")
    playban = PlaybanSerializer(allow_null=True, help_text="The wait before your next rated table, if any")
