"""Request and response shapes. Game views are engine dicts and pass through as JSON."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django.conf import settings
from rest_framework import serializers

from accounts import selectors as account_selectors
from accounts import usernames
from accounts.models import User
from games import selectors
from games.models import Room

# The largest value of the integer columns that versions and sequence numbers live in.
POSITIVE_INT_MAX = 2**31 - 1
_ASCII_WHOLE_NUMBER = re.compile("[0-9]{1,10}")


class WholeNumberField(serializers.IntegerField):
    """A whole number from `low` to `high`, as a JSON integer or written in ASCII digits.

    DRF's IntegerField goes through Python's int(), which also reads other scripts'
    digits ('٣' is 3), and accepts floats such as 3.0; anything out of range would reach
    the database. Every failure here is `invalid`, with the range in the detail.
    """

    default_error_messages = {"invalid": "A whole number from {low} to {high} is required."}

    def __init__(self, *, low: int = 0, high: int = POSITIVE_INT_MAX, **kwargs: Any) -> None:
        # min_value and max_value also put the range in the OpenAPI schema.
        super().__init__(min_value=low, max_value=high, **kwargs)
        self.low, self.high = low, high

    def validate_empty_values(self, data: Any) -> tuple[bool, Any]:
        # null, where not allowed, is a value of the wrong type like any other.
        if data is None and not self.allow_null:
            self.fail("invalid", low=self.low, high=self.high)
        return super().validate_empty_values(data)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and _ASCII_WHOLE_NUMBER.fullmatch(data):
            data = int(data)
        if isinstance(data, bool) or not isinstance(data, int) or not self.low <= data <= self.high:
            self.fail("invalid", low=self.low, high=self.high)
        return data


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "display_name", "is_guest"]


def _refuse_misleading(value: str) -> None:
    """What other players would misread: reordered text, or a name the server gives."""
    if usernames.has_bidi_control(value):
        raise serializers.ValidationError(
            "Names may not hold bidirectional control characters (such as U+202E).", code="bidi_control"
        )
    if usernames.impersonates_server(value):
        raise serializers.ValidationError("Names like the server's own labels are reserved.", code="reserved_name")


class UsernameField(serializers.RegexField):
    """A username in NFKC, so that the pattern and the length see what is stored."""

    def to_internal_value(self, data: Any) -> str:
        return unicodedata.normalize("NFKC", super().to_internal_value(data))


class DisplayNameField(serializers.CharField):
    def run_validation(self, data: Any = serializers.empty) -> Any:
        value = super().run_validation(data)
        if value:
            _refuse_misleading(value)
        return value


class RegisterSerializer(serializers.Serializer):
    username = UsernameField(r"^[\w.@+-]{3,40}$", max_length=40)
    password = serializers.CharField(min_length=8, max_length=128, write_only=True)
    display_name = DisplayNameField(max_length=40, required=False, allow_blank=True)

    def validate_username(self, value: str) -> str:
        if value.lower().startswith("guest-"):
            raise serializers.ValidationError("Names starting with 'guest-' are reserved.", code="reserved_name")
        # Without a display name the username is what other players read.
        _refuse_misleading(value)
        clash = account_selectors.username_clash(username=value)
        if clash is not None:
            raise serializers.ValidationError(clash.detail, code=clash.code)
        return value


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, write_only=True)


class GuestSerializer(serializers.Serializer):
    display_name = DisplayNameField(min_length=1, max_length=40)


class AuthAnswerSerializer(serializers.Serializer):
    user = UserSerializer()
    token = serializers.CharField()


class TokenAnswerSerializer(serializers.Serializer):
    token = serializers.CharField()


class RoomCreateSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=20)
    options = serializers.DictField(required=False, default=dict)
    name = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    public = serializers.BooleanField(required=False, default=True)


class TeamSerializer(serializers.Serializer):
    team = WholeNumberField(low=0, high=1, required=False, allow_null=True)


class ActionSerializer(serializers.Serializer):
    version = WholeNumberField()
    action = serializers.DictField()


class EventsQuerySerializer(serializers.Serializer):
    after = WholeNumberField(required=False, default=0, help_text="Only events after this seq")


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    user = serializers.CharField(allow_null=True)
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()
    team = serializers.IntegerField(allow_null=True)


def invite_url(room: Room, request: Any) -> str:
    path = f"/join/{room.code}"
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL + path
    return request.build_absolute_uri(path)


class RoomSerializer(serializers.ModelSerializer):
    host = serializers.CharField(source="host.username")
    seats = serializers.SerializerMethodField()
    invite_url = serializers.SerializerMethodField()

    class Meta:
        model = Room
        fields = [
            "code",
            "game",
            "name",
            "options",
            "public",
            "status",
            "status_reason",
            "host",
            "seats",
            "invite_url",
            "version",
            "scores",
            "created_at",
            "started_at",
            "finished_at",
        ]

    def get_seats(self, room: Room) -> list[dict[str, Any]]:
        # Prefetched seats when listing; ordered by index either way.
        return [selectors.seat_public(s) for s in sorted(room.seats.all(), key=lambda s: s.index)]

    def get_invite_url(self, room: Room) -> str:
        return invite_url(room, self.context["request"])
