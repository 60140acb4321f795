"""Request and answer shapes of table talk (talk): a line said, a page of lines, a block."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from accounts import usernames
from talk.models import Channel
from talk.phrases import QUICK_PHRASES

from .serializers import QuerySerializer, StrictCharField, StrictSerializer, WholeNumberField

CHAT_PAGE, CHAT_PAGE_MAX = 100, 500
LINE_MAX = 280


class _LineText(StrictCharField):
    """Plain text of one line: no control characters (the parser refuses them), no
    bidirectional controls that would make it read otherwise than it is written."""

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        if usernames.has_bidi_control(value):
            raise serializers.ValidationError(
                _("A line may not hold bidirectional control characters (such as U+202E)."), code="bidi_control"
            )
        return value


class ChatSaySerializer(StrictSerializer):
    phrase = serializers.ChoiceField(
        choices=list(QUICK_PHRASES),
        required=False,
        help_text="A quick phrase, by its key (each page shows it in its reader's language)",
    )
    text = _LineText(
        required=False,
        max_length=LINE_MAX,
        trim_whitespace=False,
        help_text=f"Plain text, up to {LINE_MAX} characters (shown as text: links and markup are not made live)",
    )


class ChatQuerySerializer(QuerySerializer):
    after = WholeNumberField(required=False, default=0, text=True, help_text="Only lines after this `id` (0: all)")
    limit = WholeNumberField(
        low=1,
        high=CHAT_PAGE_MAX,
        required=False,
        default=CHAT_PAGE,
        text=True,
        help_text=f"At most this many lines (default {CHAT_PAGE}, at most {CHAT_PAGE_MAX})",
    )


class ChatAuthorSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    display_name = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True, help_text="The seat they said it from; null for a spectator")


class ChatLineSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="Grows with each line: the `after` of the next page")
    channel = serializers.ChoiceField(
        choices=Channel.choices,
        help_text="`players`: a seated player's, read by all; `spectators`: anyone else's, read by the players "
        "only when said outside a hand",
    )
    author = ChatAuthorSerializer()
    phrase = serializers.ChoiceField(
        choices=list(QUICK_PHRASES), allow_null=True, help_text="The quick phrase's key; null for free text"
    )
    text = serializers.CharField(help_text="Plain text: a quick phrase's in English, or what was written")
    hand = serializers.IntegerField(
        allow_null=True, help_text="The hand under way when a spectator said it; null otherwise"
    )
    sent_at = serializers.DateTimeField()


class BlockSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(source="blocked.username")
    display_name = serializers.CharField(source="blocked.display_name")
    blocked_at = serializers.DateTimeField(source="created_at")


class BlockAddSerializer(StrictSerializer):
    username = StrictCharField(max_length=150, help_text="Whom to block (compared as sign-in compares names)")
