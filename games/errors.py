"""Errors the services raise; the API turns them into the single error shape.

Each carries a stable code (documented in the OpenAPI description) and an HTTP status.
"""

from __future__ import annotations

from .rules.errors import RuleError

# Rule codes that are about timing rather than the move itself answer 409.
CONFLICT_RULE_CODES = frozenset({"not_your_turn", "wrong_phase"})


class ServiceError(Exception):
    def __init__(
        self, code: str, detail: str, status: int = 400, attr: str | None = None, *, retry_after: int | None = None
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status
        self.attr = attr
        # Seconds until asking again can succeed: the answer's Retry-After header.
        self.retry_after = retry_after

    @classmethod
    def from_rule(cls, err: RuleError) -> ServiceError:
        return cls(err.code, err.detail, 409 if err.code in CONFLICT_RULE_CODES else 400, err.attr)


def not_found() -> ServiceError:
    return ServiceError("not_found", "No such room.", 404)


def not_seated() -> ServiceError:
    return ServiceError("not_seated", "You do not have a seat in this room.", 403)


def not_host() -> ServiceError:
    return ServiceError("not_host", "Only the host may do that.", 403)


# What an engine can answer to an action (the tests hold this to the engines' sources),
# for the OpenAPI document of the actions endpoint.
RULE_CODES = frozenset(
    {
        "must_follow_suit",
        "hearts_not_broken",
        "no_points_on_first_trick",
        "must_lead_two_of_clubs",
        "must_lead_trump",
        "bad_pass",
        "card_not_in_hand",
        "tile_not_in_hand",
        "bid_too_low",
        "bid_too_high",
        "bad_bid_step",
        "moon_not_allowed",
        "bad_suit",
        "widow_discard_required",
        "widow_compulsory",
        "wrong_count",
        "card_has_points",
        "not_callable",
        "claim_not_certain",
        "unknown_action",
        "invalid",
        *CONFLICT_RULE_CODES,
    }
)


# Every code the API can answer with, for the OpenAPI description: (status, meaning).
ERROR_CODES: dict[str, tuple[int, str]] = {
    "must_follow_suit": (400, "You hold the led suit and must play it."),
    "hearts_not_broken": (400, "Hearts may not be led before they are broken."),
    "no_points_on_first_trick": (400, "No heart or Q♠ on the first trick unless you hold nothing else."),
    "must_lead_two_of_clubs": (400, "The first trick must be led with 2♣ (or a club with lead_any_club)."),
    "must_lead_trump": (400, "The first lead must be a trump."),
    "bad_pass": (400, "The cards passed are not a valid pass."),
    "card_not_in_hand": (400, "That card is not in your hand."),
    "tile_not_in_hand": (400, "That tile is not in your hand."),
    "bid_too_low": (400, "The bid must be higher than the current bid and at least the minimum."),
    "bid_too_high": (400, "The bid is above the maximum."),
    "bad_bid_step": (400, "Bids go up in the game's steps."),
    "moon_not_allowed": (400, "Moon may not be bid now."),
    "bad_suit": (400, "Not a suit of this game."),
    "widow_discard_required": (400, "Taking the widow needs a discard."),
    "widow_compulsory": (400, "This room's bidder must take the widow."),
    "wrong_count": (400, "The wrong number of cards."),
    "card_has_points": (400, "Only zero-point cards may be removed."),
    "not_callable": (400, "Nobody else holds that card."),
    "claim_not_certain": (
        400,
        "A claim of the remaining tricks was refused: it is not certain (or too long to prove) that "
        "your side takes every one whatever anyone plays. Nothing changed; play on.",
    ),
    "unknown_action": (400, "The action's type is not known or the action is malformed."),
    "invalid": (
        400,
        "A field has a wrong value or type, or an action carries a field its type does not define (attr names it).",
    ),
    "parse_error": (400, "The body is not valid JSON in UTF-8."),
    "required": (400, "A required field is missing (attr names it)."),
    "username_taken": (400, "An account has that username already (names compare in NFKC, ignoring case)."),
    "username_confusable": (400, "The username looks like an existing account's (Unicode confusables)."),
    "reserved_name": (400, "Reserved: the name starts with guest- or reads as a seat label (Computer 2, Seat 3, You)."),
    "bidi_control": (400, "The name holds a bidirectional control character (such as U+202E)."),
    "weak_password": (400, "The password is too short, too common or too like the username."),
    "bad_push_endpoint": (
        400,
        "The push endpoint is not an https URL of a public host on port 443 (no credentials, no address of a "
        "private, loopback or link-local network), or too long.",
    ),
    "bad_push_key": (400, "keys.p256dh is not an uncompressed P-256 point (65 bytes) or keys.auth not 16 bytes."),
    "bad_email_address": (400, "The e-mail address is not one."),
    "bad_confirmation_token": (
        400,
        "The e-mail confirmation token does not work: tampered with, expired, or for an address the account no "
        "longer has (one answer for all).",
    ),
    "bad_time": (400, "A time of day is not HH:MM from 00:00 to 23:59 (attr names it)."),
    "bad_time_zone": (400, "The time zone is not an IANA name such as Europe/Paris."),
    "quiet_period_empty": (400, "The quiet period ends when it starts."),
    "not_a_dict": (400, "A field that must be an object is not one (attr names it)."),
    "not_a_list": (400, "A field that must be a list is not one (attr names it)."),
    "null": (400, "A field that may not be null is null (attr names it)."),
    "blank": (400, "A field that may not be empty is empty (attr names it)."),
    "max_length": (400, "A field is longer than it may be (attr names it)."),
    "min_length": (400, "A field is shorter than it must be (attr names it)."),
    "invalid_character": (
        400,
        "A string of the body (attr names where) or a header (attr names it) holds a control character "
        "or invalid Unicode such as a lone surrogate.",
    ),
    "too_deep": (400, "The body's objects and arrays nest deeper than the API allows (see Limits)."),
    "bad_request": (400, "The request is malformed in a way no endpoint could read."),
    "not_authenticated": (401, "Credentials were not sent."),
    "authentication_failed": (401, "The credentials are wrong or the token no longer works."),
    "banned": (
        401,
        "The account is banned: it cannot sign in and its tokens were revoked (both answer this); "
        "detail gives the moderator's reason.",
    ),
    "permission_denied": (403, "The request is refused (a session without its CSRF token, for one)."),
    "not_seated": (403, "You have no seat in this room."),
    "not_host": (403, "Only the host may do that."),
    "not_found": (
        404,
        "No such room, no such player, no such push subscription of yours, or nothing at this address (a room "
        "code that cannot exist included).",
    ),
    "method_not_allowed": (405, "The method is not allowed on this path; the Allow header lists those that are."),
    "not_your_turn": (409, "It is not your turn (checked before the phase)."),
    "wrong_phase": (409, "That action is not possible in the current phase."),
    "stale_version": (409, "The room changed since the version you sent; fetch the state and retry."),
    "room_full": (409, "Every seat is taken."),
    "already_started": (409, "The game has already started."),
    "already_seated": (409, "You already have a seat in this room."),
    "not_finished": (409, "The hand or match is not finished yet."),
    "match_not_over": (
        409,
        "The match is not over: its replay, like anything of its deals and plays, is given only once it is "
        "finished, and a rematch is asked for once it is finished or abandoned.",
    ),
    "not_playing": (409, "The room is not being played."),
    "already_dealt": (409, "The hand in play is dealt: a client seed counts from the next hand, set between hands."),
    "seats_not_filled": (409, "Every seat must be taken before the start."),
    "team_full": (409, "The team asked for already has all its players."),
    "teams_not_filled": (409, "The lobby teams must have the sizes the room declares before the start."),
    "room_closed": (409, "The room was closed or abandoned."),
    "too_many_push_subscriptions": (409, "The account has as many push subscriptions as it may; remove one first."),
    "seat_held_by_computer": (
        409,
        "A computer player holds your seat since you were away (on_abandon: bot); POST reclaim to play again.",
    ),
    "nothing_to_reclaim": (409, "You play your seat yourself: no computer player holds it for you."),
    "no_email_address": (409, "There is no e-mail address to confirm; set one first."),
    "already_confirmed": (409, "The e-mail address is confirmed already."),
    "body_too_large": (413, "The body is longer than the endpoint takes (see Limits)."),
    "uri_too_long": (414, "The path and query are longer than the API reads (see Limits)."),
    "unsupported_media_type": (415, "The body is not sent as JSON (Content-Type: application/json)."),
    "idempotency_key_reused": (422, "This Idempotency-Key was used for a different request."),
    "confirmation_sent_recently": (
        429,
        "A confirmation link was sent to the account less than EMAIL_CONFIRMATION_RESEND_SECONDS ago; ask again "
        "after the Retry-After header's seconds.",
    ),
    "throttled": (429, "Too many requests; retry after the Retry-After header's seconds."),
    "server_busy": (503, "No room code could be allocated; retry."),
    "server_error": (500, "Something failed on the server."),
}
