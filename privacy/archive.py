"""The archive of a person's data (GDPR art. 20): everything the server holds about them,
as one JSON document that `export.schema.json` describes. Reads only.

What is in it: the account and its settings; where notices go; the sign-ins, tokens,
apps and second factors (what they are and when they were used, never their secrets);
the names it had; every match it took part in, with its own actions and the events it
could see (its own hands, what was public; a finished match's replay, which is public);
its ratings and their history; the moderation entries about it (what and why, not who);
what it said at tables, whom it blocks, and its chat timeouts.
Nothing of another person's hidden cards is in it: a running match gives the events of
the seat the person holds now, or the public ones only.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q

from accounts import selectors as accounts
from accounts.models import NameChange, Passkey, SecondFactor, SignIn, User
from games import replay
from games import selectors as games
from games.models import Action, Room, RoomStatus, Seat
from grants import selectors as grants
from moderation.models import ModerationEntry
from notifications import selectors as notices
from notifications.models import PushSubscription
from ratings.models import Placing, Rating, RatingChange
from talk.models import ChatMessage, ChatTimeout

FORMAT = 1


def _when(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _account(user: User) -> dict[str, Any]:
    return {
        "id": user.pk,
        "username": user.username,
        "display_name": user.display_name,
        "is_guest": user.is_guest,
        "date_joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
        "settings": {
            "auto_play_forced": user.auto_play_forced,
            "confirm_moves": user.confirm_moves,
            "trick_pause_ms": user.trick_pause_ms,
            "language": user.language,
        },
        "earlier_display_names": [
            {"before": c.before, "after": c.after, "changed_at": _when(c.changed_at)}
            for c in NameChange.objects.filter(user=user)
        ],
    }


def _notifications(user: User) -> dict[str, Any]:
    wanted = notices.preferences_of(user=user)
    return {
        "push": wanted.push,
        "email": wanted.email,
        "email_address": wanted.email_address,
        "email_confirmed": wanted.email_confirmed,
        "quiet": None
        if wanted.quiet is None
        else {"start": str(wanted.quiet[0])[:5], "end": str(wanted.quiet[1])[:5], "timezone": wanted.quiet[2]},
        "push_subscriptions": [
            {"endpoint": s.endpoint, "created_at": _when(s.created_at)}
            for s in PushSubscription.objects.filter(user=user)
        ],
    }


def _access(user: User) -> dict[str, Any]:
    return {
        "sign_ins": [
            {
                "how": s.how,
                "device": s.device,
                "address": s.address,
                "created_at": _when(s.created_at),
                "last_used_at": _when(s.last_used_at),
            }
            for s in SignIn.objects.filter(user=user)
        ],
        "personal_tokens": [
            {
                "name": t.name,
                "scopes": t.scope.split(),
                "created_at": _when(t.created_at),
                "last_used_at": _when(t.last_used_at),
            }
            for t in grants.personal_tokens_of(user=user)
        ],
        "apps": [{"name": a.name, "scopes": list(a.scopes)} for a in grants.apps_allowed_by(user=user)],
        "second_factors": [
            {"kind": f.kind, "created_at": _when(f.created_at), "last_used_at": _when(f.last_used_at)}
            for f in SecondFactor.objects.filter(user=user, confirmed_at__isnull=False)
        ],
        "passkeys": [
            {"name": p.name, "created_at": _when(p.created_at), "last_used_at": _when(p.last_used_at)}
            for p in Passkey.objects.filter(user=user).order_by("created_at")
        ],
    }


def _seat_seen(room: Room, user: User, placing: Placing | None) -> int | None:
    """The seat whose events the person may read: the one they hold; in a finished match
    the one they finished in (the replay shows every hand then anyway); else none."""
    held = Seat.objects.filter(room=room, user=user).values_list("index", flat=True).first()
    if held is not None:
        return held
    if room.status == RoomStatus.FINISHED and placing is not None:
        return placing.seat
    return None


def _match(room: Room, user: User) -> dict[str, Any]:
    placing = Placing.objects.filter(room=room, user=user).first()
    seat = _seat_seen(room, user, placing)
    actions = (
        Action.objects.filter(round__room=room, user=user).select_related("round").order_by("round__number", "seq")
    )
    match: dict[str, Any] = {
        "code": room.code,
        "game": room.game,
        "name": room.name,
        "options": room.options,
        "status": room.status,
        "created_at": _when(room.created_at),
        "started_at": _when(room.started_at),
        "finished_at": _when(room.finished_at),
        "seat": seat,
        "placing": None
        if placing is None
        else {"seat": placing.seat, "place": placing.place, "score": placing.score, "won": placing.won},
        "actions": [
            {"hand": a.round.number, "seq": a.seq, "seat": a.seat, "action": a.payload, "at": _when(a.created_at)}
            for a in actions
        ],
        "events": games.events_for(room=room, seat=seat, limit=100_000),
    }
    if room.status == RoomStatus.FINISHED:
        match["replay"] = replay.match_replay(code=room.code)
    return match


def _ratings(user: User) -> dict[str, Any]:
    return {
        "current": [
            {"game": r.game, "mu": r.mu, "sigma": r.sigma, "matches": r.matches}
            for r in Rating.objects.filter(user=user)
        ],
        "history": [
            {
                "room": c.room.code,
                "game": c.game,
                "mu_before": c.mu_before,
                "sigma_before": c.sigma_before,
                "mu_after": c.mu_after,
                "sigma_after": c.sigma_after,
            }
            for c in RatingChange.objects.filter(user=user).select_related("room").order_by("id")
        ],
    }


def _talk(user: User) -> dict[str, Any]:
    """What the person said at tables (their own lines, not others'), and whom they block."""
    lines = ChatMessage.objects.filter(author=user).select_related("room").order_by("id")
    return {
        "lines": [
            {
                "room": line.room.code,
                "channel": line.channel,
                "phrase": line.phrase or None,
                "text": line.text,
                "sent_at": _when(line.created_at),
                "removed_by_a_moderator": line.removed_at is not None,
            }
            for line in lines
        ],
        "blocks": [
            {"username": b.blocked.username, "blocked_at": _when(b.created_at)} for b in accounts.blocks_of(user=user)
        ],
        "chat_timeouts": [
            {"room": t.room.code if t.room else None, "until": _when(t.until), "reason": t.reason}
            for t in ChatTimeout.objects.filter(user=user).select_related("room").order_by("id")
        ],
    }


def archive_of(*, user: User, now: datetime) -> dict[str, Any]:
    """Everything the server holds about `user`, as `export.schema.json` describes it."""
    rooms = (
        Room.objects.filter(Q(seats__user=user) | Q(placings__user=user) | Q(rounds__actions__user=user))
        .distinct()
        .order_by("created_at", "id")
    )
    return {
        "format": FORMAT,
        "made_at": now.isoformat(),
        "account": _account(user),
        "notifications": _notifications(user),
        "access": _access(user),
        "matches": [_match(room, user) for room in rooms],
        "ratings": _ratings(user),
        "moderation": [
            {"kind": e.kind, "reason": e.reason, "room": e.room.code if e.room else None, "at": _when(e.created_at)}
            for e in ModerationEntry.objects.filter(target_user=user).select_related("room").order_by("id")
        ],
        "talk": _talk(user),
        "closed_at": _when(user.closed_at),
        "restorable_until": _when(accounts.restorable_until(user=user)),
    }
