"""Request and response shapes. Game views are engine dicts and pass through as JSON."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.validators import ProhibitNullCharactersValidator, RegexValidator
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts import languages, usernames
from accounts import selectors as account_selectors
from accounts.models import TRICK_PAUSE_MAX_MS, User
from core.errors import shown_name
from games import rules, selectors
from games.models import Room
from games.rules.fairness import ALGORITHMS, CLIENT_SEED_CHARACTER, CLIENT_SEED_MAX

from .serializers_webauthn import PasskeyAssertionSerializer

# The largest value of the integer columns that versions and sequence numbers live in.
POSITIVE_INT_MAX = 2**31 - 1

# Page sizes of the event log and the hand summaries (api/pagination.py). The events'
# default is the page clients have always been given (they read on while one is full).
EVENTS_PAGE, EVENTS_PAGE_MAX = 500, 1000
ROUNDS_PAGE, ROUNDS_PAGE_MAX = 100, 100

_ASCII_WHOLE_NUMBER = re.compile("[0-9]{1,10}")


class WholeNumberField(serializers.IntegerField):
    """A whole number from `low` to `high`: a JSON integer, or ASCII digits where `text`.

    DRF's IntegerField goes through Python's int(), which also reads other scripts'
    digits ('٣' is 3), and accepts floats such as 3.0; anything out of range would reach
    the database. Every failure here is `invalid`, with the range in the detail.
    """

    default_error_messages = {"invalid": gettext_lazy("A whole number from {low} to {high} is required.")}

    def __init__(self, *, low: int = 0, high: int = POSITIVE_INT_MAX, text: bool = False, **kwargs: Any) -> None:
        # min_value and max_value also put the range in the OpenAPI schema.
        super().__init__(min_value=low, max_value=high, **kwargs)
        self.low, self.high = low, high
        # Query parameters are text; in a JSON body the document promises an integer.
        self.text = text

    def validate_empty_values(self, data: Any) -> tuple[bool, Any]:
        # null, where not allowed, is a value of the wrong type like any other.
        if data is None and not self.allow_null:
            self.fail("invalid", low=self.low, high=self.high)
        return super().validate_empty_values(data)

    def to_internal_value(self, data: Any) -> int:
        if self.text and isinstance(data, str) and _ASCII_WHOLE_NUMBER.fullmatch(data):
            data = int(data)
        if isinstance(data, bool) or not isinstance(data, int) or not self.low <= data <= self.high:
            self.fail("invalid", low=self.low, high=self.high)
        return data


# A request body that holds only the fields it declares (the schema says
# `additionalProperties: false`, api/schema.py): a misspelt optional field is refused
# rather than silently ignored. (A comment, not a docstring: the schema would show it
# as the description of every request.)
class StrictSerializer(serializers.Serializer[Any]):
    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            for key in data:
                if key not in self.fields:
                    detail = _("This field is not part of the request.")
                    raise serializers.ValidationError({shown_name(key) or "non_field_errors": [detail]}, code="invalid")
        return super().to_internal_value(data)


# What no string of a request may hold; the JSON parser refuses it (`invalid_character`)
# before any field sees it, and the pattern says so in the schema.
NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f\x7f-\x9f]*$"
# Translators: said of a field's value.
CONTROL_CHARACTER = gettext_lazy("Holds a control character.")


class StrictCharField(serializers.CharField):
    """A JSON string only: DRF's CharField also takes numbers and booleans and makes
    them text, so `{"display_name": 0}` would become the name "0"."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # A body's control characters never get here (the parser refuses them); a query
        # parameter's do, and are refused with the body's code. A NUL is one of them: one
        # refusal, not also DRF's `null_characters_not_allowed`, which no catalogue names.
        self.validators = [v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)]
        self.validators.append(RegexValidator(NO_CONTROL_CHARACTERS, CONTROL_CHARACTER, "invalid_character"))

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A JSON true or false only: DRF's BooleanField also reads "yes", "on", 1 and "0"."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer only: DRF's IntegerField also reads "12", 12.0 and true."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


@extend_schema_field({"type": "string", "enum": ["1", "true", "0", "false"]})
class QueryFlagField(serializers.Field[bool, str, bool, Any]):
    """A yes/no query parameter: `1` or `true`, `0` or `false`, and nothing else (DRF's
    BooleanField would also take "yes", "on", "True", and reads a missing parameter as
    false), so what the schema lists is exactly what the server reads."""

    READS = {"1": True, "true": True, "0": False, "false": False}
    default_error_messages = {"invalid": gettext_lazy("Send 1 or true, 0 or false.")}

    def to_internal_value(self, data: Any) -> bool:
        if data not in self.READS:
            self.fail("invalid")
        return self.READS[data]


class UserSerializer(serializers.ModelSerializer[User]):
    has_password = serializers.SerializerMethodField(
        help_text="Whether the account signs in with a password (a guest's does not): only such an account "
        "changes or resets one"
    )
    display_name_changeable_at = serializers.SerializerMethodField(
        help_text="When the display name may change again (at most once a week); null when it may now"
    )

    class Meta:
        model = User
        fields = [
            "id",
            "username",
            "display_name",
            "is_guest",
            "auto_play_forced",
            "confirm_moves",
            "trick_pause_ms",
            "language",
            "has_password",
            "display_name_changeable_at",
        ]
        # An answer only (me/ changes through MeUpdateSerializer): every field is always sent.
        read_only_fields = fields
        extra_kwargs = {
            "auto_play_forced": {
                "help_text": "The server plays for you when your only legal action is one play (a card, a "
                "tile); the other players then see that the play was forced."
            },
            "confirm_moves": {
                "help_text": "How the web table takes a move: true, a tap raises a card or tile and a second tap "
                "plays it; false, a tap plays at once; null, as the device suits (raised on a touch screen). "
                "Other clients may honour it too."
            },
            "trick_pause_ms": {
                "help_text": "How long, in milliseconds, a finished trick stays on the web table before the next "
                "one is drawn; 0 draws the next at once"
            },
            "language": {
                "help_text": "The language the web client shows you, and that your mails and notices are written in "
                "(one of `GET languages`). The API itself answers each request in the language it asks for "
                "(`Accept-Language`)."
            },
        }

    def get_has_password(self, user: User) -> bool:
        return user.has_usable_password()

    def get_display_name_changeable_at(self, user: User) -> datetime | None:
        return account_selectors.display_name_changeable_at(user=user, now=timezone.now())


def refuse_unreadable(value: str) -> None:
    """The one rule of every name others read (display names, room names): nothing that
    makes it read otherwise than it is written, reordered text (`bidi_control`) or a
    character shown as nothing (`invisible_character`; accounts/usernames.py)."""
    if usernames.has_bidi_control(value):
        raise serializers.ValidationError(
            _("Names may not hold bidirectional control characters (such as U+202E)."), code="bidi_control"
        )
    if usernames.has_invisible(value):
        raise serializers.ValidationError(
            _("Names may not hold invisible characters (such as U+200B, a zero-width space)."),
            code="invisible_character",
        )


def _refuse_misleading(value: str) -> None:
    """What other players would misread: reordered text, invisible characters, or a name
    the server gives."""
    refuse_unreadable(value)
    if usernames.impersonates_server(value):
        raise serializers.ValidationError(_("Names like the server's own labels are reserved."), code="reserved_name")


class UsernameField(serializers.RegexField):
    """A username in NFKC, so that the pattern and the length see what is stored."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return unicodedata.normalize("NFKC", super().to_internal_value(data))


class ReadableNameField(StrictCharField):
    """A name others read: a room's (`refuse_unreadable`)."""

    def run_validation(self, data: Any = serializers.empty) -> Any:
        value = super().run_validation(data)
        if value:
            refuse_unreadable(value)
        return value


class DisplayNameField(StrictCharField):
    def run_validation(self, data: Any = serializers.empty) -> Any:
        value = super().run_validation(data)
        if value:
            _refuse_misleading(value)
        return value


class LanguageField(serializers.ChoiceField):
    """One of the server's languages (settings.LANGUAGES), by its code."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=languages.codes(), **kwargs)


class MeUpdateSerializer(StrictSerializer):
    # Optional, as a PATCH changes what it names: `{}` changes nothing.
    display_name = DisplayNameField(
        min_length=1,
        max_length=40,
        required=False,
        help_text="The name other players read (the same rules as at sign-up); it changes at most once a week, "
        "and moderators see the names you had",
    )
    auto_play_forced = StrictBooleanField(
        required=False,
        help_text="Have the server make your play when it is your only legal action; others see it was forced. "
        "Turned on, it also makes at once any such play that waits for you now.",
    )
    confirm_moves = StrictBooleanField(
        required=False,
        allow_null=True,
        help_text="true: a tap on the web table raises a card or tile, a second tap plays it; false: a tap plays "
        "at once; null: as the device suits (raised on a touch screen)",
    )
    trick_pause_ms = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=TRICK_PAUSE_MAX_MS,
        help_text="How long a finished trick stays on the web table, in milliseconds (0: not at all)",
    )
    language = LanguageField(
        required=False, help_text="The language of the web client, your mails and your notices (`GET languages`)"
    )


class GameKeyField(StrictCharField):
    """A game's key; the service answers an unknown one (`invalid`, attr `game`)."""


class GameKeyFieldSchema(OpenApiSerializerFieldExtension):
    """The keys of the games registered when the document is built."""

    target_class = GameKeyField

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Any:
        return {"type": "string", "enum": [game.key for game in rules.all_games()]}


# A new account's language: the one given, else the one the sign-up's request asked in
# (`Accept-Language`), else English.
NEW_ACCOUNT_LANGUAGE = (
    "The language of the web client, the mails and the notices (`GET languages`); without it, the one the "
    "request asks in (`Accept-Language`), else English"
)


class RegisterSerializer(StrictSerializer):
    username = UsernameField(r"^[\w.@+-]{3,40}$", max_length=40)
    password = StrictCharField(min_length=8, max_length=128, write_only=True)
    display_name = DisplayNameField(max_length=40, required=False, allow_blank=True)
    language = LanguageField(required=False, help_text=NEW_ACCOUNT_LANGUAGE)

    def validate_username(self, value: str) -> str:
        if value.lower().startswith("guest-"):
            raise serializers.ValidationError(_("Names starting with 'guest-' are reserved."), code="reserved_name")
        # Without a display name the username is what other players read.
        _refuse_misleading(value)
        clash = account_selectors.username_clash(username=value)
        if clash is not None:
            raise serializers.ValidationError(str(clash.detail), code=clash.code)
        return value


class LoginSerializer(StrictSerializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, write_only=True)
    code = StrictCharField(
        max_length=20,
        required=False,
        write_only=True,
        help_text="For an account with two-step sign-in: the authenticator app's 6 digits, or a recovery code",
    )
    passkey = PasskeyAssertionSerializer(
        required=False,
        help_text="For an account with two-step sign-in, in place of `code`: its passkey's answer to "
        "`auth/passkey/options` begun with `second_step`",
    )


class GuestSerializer(StrictSerializer):
    display_name = DisplayNameField(min_length=1, max_length=40)
    language = LanguageField(required=False, help_text=NEW_ACCOUNT_LANGUAGE)


class AuthAnswerSerializer(serializers.Serializer[Any]):
    user = UserSerializer()
    token = serializers.CharField()


class TokenAnswerSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()


class RoomCreateSerializer(StrictSerializer):
    game = GameKeyField(max_length=20)
    options = serializers.DictField(required=False, default=dict)
    name = ReadableNameField(
        max_length=80,
        required=False,
        allow_blank=True,
        default="",
        help_text="Shown in the room list when public: the rules of display names, no bidirectional control or "
        "invisible character",
    )
    public = StrictBooleanField(required=False, default=True)


class TeamSerializer(StrictSerializer):
    team = WholeNumberField(low=0, high=1, required=False, allow_null=True)


class ClientSeedSerializer(StrictSerializer):
    client_seed = StrictCharField(
        max_length=CLIENT_SEED_MAX,
        allow_blank=True,
        trim_whitespace=False,
        validators=[RegexValidator(f"^{CLIENT_SEED_CHARACTER}*$", gettext_lazy("Printable ASCII characters only."))],
        help_text="Your part in the next deal's shuffle: 0 to 64 printable ASCII characters, public.",
    )


class ActionSerializer(StrictSerializer):
    version = WholeNumberField()
    action = serializers.DictField()


class QuerySerializer(serializers.Serializer[Any]):
    """Query parameters, each given at most once: a QueryDict would keep the last of a
    repeated one (`?after=5&after=`), so the request would mean something other than
    what was sent. An empty one (`?after=`, `?mine=`) is given, and read as its value:
    DRF would skip an empty optional field of a QueryDict, as of an empty form input."""

    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "getlist"):
            # keys(): the stubs have iterating a BindingDict yield fields, not names.
            for name in self.fields.keys():
                if len(data.getlist(name)) > 1:
                    raise serializers.ValidationError({name: [_("Give this parameter once.")]}, code="invalid")
            # Each given once: a plain dict, which DRF's fields read as it is.
            data = data.dict()
        return super().to_internal_value(data)


class EventsQuerySerializer(QuerySerializer):
    after = WholeNumberField(
        required=False, default=0, text=True, help_text="Only events after this seq (the last read; 0: all)"
    )
    limit = WholeNumberField(
        low=1,
        high=EVENTS_PAGE_MAX,
        required=False,
        default=EVENTS_PAGE,
        text=True,
        help_text=f"At most this many events (default {EVENTS_PAGE}, at most {EVENTS_PAGE_MAX})",
    )


class RoundsQuerySerializer(QuerySerializer):
    after = WholeNumberField(
        required=False, default=0, text=True, help_text="Only hands after this one (its `round`; 0: from the first)"
    )
    limit = WholeNumberField(
        low=1,
        high=ROUNDS_PAGE_MAX,
        required=False,
        default=ROUNDS_PAGE,
        text=True,
        help_text=f"At most this many hands (default {ROUNDS_PAGE}, at most {ROUNDS_PAGE_MAX})",
    )


class RoomsQuerySerializer(QuerySerializer):
    mine = QueryFlagField(required=False, help_text="`1` or `true`: the rooms I sit in, any status")


# Shapes of answers that are engine data: the fields every item has are typed, and the
# rest (which differs by game and event type) is left open.


class PlayerRangeSerializer(serializers.Serializer[Any]):
    min = serializers.IntegerField()
    max = serializers.IntegerField()


class GameSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    name = serializers.CharField()
    players = PlayerRangeSerializer()
    options = serializers.DictField(help_text="Each option's type, default and description")
    presets = serializers.DictField(
        child=serializers.DictField(), help_text="Named sets of options, for `options.preset`"
    )


class EventSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField()
    at = serializers.DateTimeField()
    type = serializers.CharField(help_text="What happened; the other fields depend on it")


class DealSerializer(serializers.Serializer[Any]):
    redeal = serializers.IntegerField(help_text="0 for the hand's first deal; Moon counts its all-pass redeals")
    hands = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Each seat's hand in seat order, its cards or tiles in the order dealt",
    )
    widow = serializers.ListField(child=serializers.CharField(), help_text="What was left over (Moon's widow)")


class RevealedFairnessSerializer(serializers.Serializer[Any]):
    algorithm = serializers.ChoiceField(
        choices=list(ALGORITHMS), help_text="The hand's own: v2 since it came, v1 for the hands dealt before"
    )
    game = serializers.CharField()
    code = serializers.CharField(help_text="The room's code, as the shuffle's message has it")
    hand = serializers.IntegerField()
    commitment = serializers.CharField(help_text="SHA-256 (hex) of `server_seed`, as shown before the hand")
    server_seed = serializers.CharField(help_text="64 lowercase hex characters")
    client_seeds = serializers.ListField(child=serializers.CharField(allow_blank=True), help_text="In seat order")
    deals = DealSerializer(many=True)


class RoundSummarySerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    fairness = RevealedFairnessSerializer(
        allow_null=True,
        help_text="The hand's seeds and deals, for anyone to check (null for hands dealt before deals were provable)",
    )


class TurnSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="The room's code")
    game = serializers.CharField()
    name = serializers.CharField(help_text="The room's name, possibly empty")
    version = serializers.IntegerField(help_text="The room's version: send it back with an action")
    phase = serializers.CharField(help_text="The hand's phase, as in the game view")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the turn runs out; null without a clock")
    since = serializers.DateTimeField(help_text="When it became the caller's turn")


class SeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    user = serializers.CharField(allow_null=True)
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()
    team = serializers.IntegerField(allow_null=True)
    client_seed = serializers.CharField(help_text="The player's public seed for the next deal (may be empty)")


def invite_url(room: Room, request: HttpRequest) -> str:
    path = f"/join/{room.code}"
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL + path
    return request.build_absolute_uri(path)


class RoomSerializer(serializers.ModelSerializer[Room]):
    host = serializers.CharField(source="host.username")
    seats = serializers.SerializerMethodField()
    invite_url = serializers.SerializerMethodField()
    asked_options = serializers.DictField(
        read_only=True,
        help_text="The options as the host asked for them: `options` with `rated` null again where the seats "
        "decided it at the start. Send these to `POST rooms/` for a table with the same settings.",
    )

    class Meta:
        model = Room
        fields = [
            "code",
            "game",
            "name",
            "options",
            "asked_options",
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
        # An answer only (rooms are made from RoomCreateSerializer): every field is always sent.
        read_only_fields = fields

    def get_seats(self, room: Room) -> list[dict[str, Any]]:
        # Prefetched seats when listing; ordered by index either way.
        return [selectors.seat_public(s) for s in sorted(room.seats.all(), key=lambda s: s.index)]

    def get_invite_url(self, room: Room) -> str:
        return invite_url(room, self.context["request"])
