"""The events the services log beside the engines' (`games.services`): what happens to a
room and its seats rather than in a hand. Each type's fields, for the API's `Event`
(`api.event_schemas`); the HTTP play-outs check every event logged against it, so a
service that logs a new type or field must say so here.
"""

from __future__ import annotations

from games.rules.schema import SEAT_NUMBER, Schema, payload

NAME: Schema = {"type": "string", "description": "The player's name as the table shows it."}
REASON: Schema = {"type": "string", "description": "Why, in words for people."}
SERVER_WORDS: Schema = {
    "type": "string",
    "description": "Why, in the server's own English words; `cause` (where given) is what to say in the reader's "
    "language.",
}
CAUSE: Schema = {
    "type": "string",
    "description": "Why, as the view's `status_cause.code` says it (EndCause); absent from events logged before it "
    "was added.",
}
BANNED: Schema = {"type": "boolean", "const": True, "description": "Present when a moderator's ban is why."}

SERVICE_EVENTS: dict[str, Schema] = {
    "room_created": payload(
        "The room was opened.", game={"type": "string", "description": "The game's key."}, host=NAME
    ),
    "joined": payload("A person took a seat.", seat=SEAT_NUMBER, name=NAME),
    "team_changed": payload(
        "A seat chose its team in the lobby.", seat=SEAT_NUMBER, team={"type": ["integer", "null"]}
    ),
    "left": payload("A person left their seat in the lobby.", seat=SEAT_NUMBER, name=NAME),
    "host_changed": payload("The host's role passed to another seat.", seat=SEAT_NUMBER),
    "bot_added": payload("The host seated a computer player.", seat=SEAT_NUMBER),
    "started": payload("The host started the match."),
    "round_started": payload("A hand was dealt.", round={"type": "integer"}),
    "client_seed": payload(
        "A player set their seed for the next deal.", seat=SEAT_NUMBER, client_seed={"type": "string"}
    ),
    "timed_out": payload("A seat's turn clock ran out; the server acts for it.", seat=SEAT_NUMBER),
    "seat_to_bot": payload(
        "A computer player took a seat: its player was idle past abandon_seconds (`idle`; they may reclaim "
        "it) or a moderator gave it away.",
        optional=("idle", "reason", "banned"),
        seat=SEAT_NUMBER,
        name=NAME,
        idle={"type": "boolean", "const": True},
        reason=REASON,
        banned=BANNED,
    ),
    "seat_reclaimed": payload("A player took their seat back from a computer player.", seat=SEAT_NUMBER, name=NAME),
    "removed": payload(
        "A moderator took a lobby seat from its player.",
        optional=("banned",),
        seat=SEAT_NUMBER,
        name=NAME,
        reason=REASON,
        banned=BANNED,
    ),
    "abandoned": payload(
        "The match was abandoned: a player idle past abandon_seconds (`seat`, `idle`), every seat left to "
        "computer players, or everyone leaving the lobby (`cause`, as the view's `status_cause`).",
        optional=("seat", "idle", "cause"),
        seat=SEAT_NUMBER,
        idle={"type": "boolean"},
        reason=SERVER_WORDS,
        cause=CAUSE,
    ),
    "closed": payload(
        "A moderator closed the room, saying `words`.",
        optional=("cause", "words"),
        reason=SERVER_WORDS,
        cause=CAUSE,
        words={"type": "string", "description": "The moderator's own words, as written."},
    ),
    "rematch_agreed": payload("A player wants a rematch.", seat=SEAT_NUMBER, name=NAME),
    "rematch": payload("Everyone agreed: the rematch's room.", room={"type": "string", "description": "Its code."}),
}

# Marks a seat's `play` event, in any game, when the server made a forced play for a
# player who asked for it (`games.services.forced`).
PLAY_MARKS: dict[str, Schema] = {
    "forced": {
        "type": "boolean",
        "const": True,
        "description": "Present when the server played this seat's only legal move for it (auto_play_forced).",
    }
}
