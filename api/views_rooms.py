"""Rooms: the lobby, the game view, actions, the event log and the hand summaries.

Views parse, call one service or selector (or the replay), and serialize; nothing else.
"""

from __future__ import annotations

import io

import segno
from django.conf import settings
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import names, replay, rules, selectors, view_tags
from games.error_codes import RULE_CODES
from games.services import lobby, play, reclaim, rematch, seeds
from grants.scopes import PLAY, READ, scopes
from moderation import seats
from talk import selectors as talk

from . import conditional, pagination
from .auth import signed_in_user
from .conditional_schema import ETAG, IF_NONE_MATCH, NEXT_LINK, NOT_MODIFIED
from .created import created, creates
from .game_schemas import ACTION_REQUEST_REF, GAME_VIEW_REF
from .inputs import IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN, idempotency_key
from .schema import answers
from .serializers import (
    ActionSerializer,
    ClientSeedSerializer,
    EventSerializer,
    EventsQuerySerializer,
    GameSerializer,
    RoomCreateSerializer,
    RoomSerializer,
    RoomsQuerySerializer,
    RoundsQuerySerializer,
    RoundSummarySerializer,
    SeatSerializer,
    TeamSerializer,
    invite_url,
)
from .serializers_replay import REPLAY_CHAT_MAX, ReplaySerializer
from .table_auth import ReadsTable
from .throttling import ClientSeedThrottle

# What the lobby's services refuse before anything else: a room no longer open, a game
# already under way.
LOBBY_CODES = ("room_closed", "already_started")


@scopes(GET=READ)
class GamesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=GameSerializer(many=True), summary="The games, their seat ranges, options and presets")
    def get(self, request: Request) -> Response:
        # Names and descriptions in the request's language (Accept-Language); keys as they are.
        return Response([names.catalogue_entry(g) for g in rules.all_games()])


@scopes(GET=READ, POST=PLAY)
class RoomListView(GenericAPIView):
    serializer_class = RoomSerializer

    @extend_schema(parameters=[RoomsQuerySerializer], responses=RoomSerializer(many=True))
    def get(self, request: Request) -> Response:
        query = RoomsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        if query.validated_data.get("mine", False):
            rooms = selectors.rooms_of_user(user=signed_in_user(request))
        else:
            rooms = selectors.rooms_open_public()
        page = self.paginate_queryset(rooms)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(request=RoomCreateSerializer, responses={201: RoomSerializer})
    @answers("invalid", "bidi_control", "invisible_character", "server_busy", "unread_warning", "playbanned")
    @creates("the room")
    def post(self, request: Request) -> Response:
        data = RoomCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        host = signed_in_user(request)
        rated = (data.validated_data.get("options") or {}).get("rated")
        seats.require_may_sit(user=host, rated=rated, now=timezone.now())
        room = lobby.room_create(host=host, **data.validated_data)
        room = selectors.room_get(code=room.code)
        return created(request, self.get_serializer(room).data, "room", code=room.code)


@scopes(GET=READ)
class RoomDetailView(APIView):
    @extend_schema(responses=RoomSerializer)
    def get(self, request: Request, code: str) -> Response:
        room = selectors.room_shown_to(code=code, user=signed_in_user(request))
        return Response(RoomSerializer(room, context={"request": request}).data)


@scopes(GET=READ)
class RoomQRView(APIView):
    @extend_schema(
        responses={
            (200, "image/svg+xml"): OpenApiResponse(
                # OpenAPI 3.1 names a body that is no JSON by its media type (3.0's `format: binary`).
                response={"type": "string", "contentMediaType": "image/svg+xml"},
                description="The room's invite link as a QR code, an SVG image.",
            )
        }
    )
    def get(self, request: Request, code: str) -> HttpResponse:
        room = selectors.room_shown_to(code=code, user=signed_in_user(request))
        out = io.BytesIO()
        segno.make(invite_url(room, request), error="m").save(out, kind="svg", scale=6, border=2)
        return HttpResponse(out.getvalue(), content_type="image/svg+xml")


@scopes(POST=PLAY)
class JoinView(APIView):
    @extend_schema(request=TeamSerializer, responses={201: SeatSerializer})
    @answers(
        *LOBBY_CODES,
        "already_seated",
        "room_full",
        "team_full",
        "invalid",
        "blocked_at_table",
        "unread_warning",
        "playbanned",
    )
    def post(self, request: Request, code: str) -> Response:
        data = TeamSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = signed_in_user(request)
        rated = selectors.room_get(code=code).options.get("rated")
        seats.require_may_sit(user=user, rated=rated, now=timezone.now())
        seat = lobby.room_join(code=code, user=user, team=data.validated_data.get("team"))
        return Response(selectors.seat_public(seat), status=status.HTTP_201_CREATED)


@scopes(POST=PLAY)
class LeaveView(APIView):
    @extend_schema(request=None, responses={204: None})
    @answers(*LOBBY_CODES, "not_seated")
    def post(self, request: Request, code: str) -> Response:
        lobby.room_leave(code=code, user=signed_in_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


@scopes(POST=PLAY)
class BotsView(APIView):
    @extend_schema(request=TeamSerializer, responses={201: SeatSerializer})
    @answers(*LOBBY_CODES, "not_host", "room_full", "team_full", "invalid")
    def post(self, request: Request, code: str) -> Response:
        data = TeamSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = lobby.room_add_bot(code=code, user=signed_in_user(request), team=data.validated_data.get("team"))
        return Response(selectors.seat_public(seat), status=status.HTTP_201_CREATED)


@scopes(POST=PLAY)
class StartView(APIView):
    @extend_schema(request=None, responses={200: GAME_VIEW_REF})
    @answers(*LOBBY_CODES, "not_host", "seats_not_filled", "teams_not_filled")
    def post(self, request: Request, code: str) -> Response:
        table = lobby.room_start(code=code, user=signed_in_user(request))
        return Response(selectors.table_view(table=table, user=signed_in_user(request)))


@scopes(PUT=PLAY)
class ClientSeedView(APIView):
    # Besides the account's and the address's limits, a seat's own (THROTTLE_CLIENT_SEED).
    throttle_classes = [*APIView.throttle_classes, ClientSeedThrottle]

    @extend_schema(
        request=ClientSeedSerializer,
        responses={200: SeatSerializer},
        summary="Set your client seed for the next deal",
        description=(
            "Your part in the shuffle of the next hand to be dealt (see Provably fair deals in the "
            "description): in the lobby, or between hands once the next hand's server seed is committed. "
            "It is public. During a hand: 409 `already_dealt`. Setting it does not change the room's `version` "
            "and sends no notice (nobody else's action waits for it): the seat shows it at once, and its "
            "`client_seed` event is in the log. A seat may set its seed THROTTLE_CLIENT_SEED times a minute "
            "(10 unless configured; 429 `throttled` with Retry-After beyond)."
        ),
    )
    @answers("room_closed", "not_seated", "not_playing", "already_dealt", "invalid")
    def put(self, request: Request, code: str) -> Response:
        data = ClientSeedSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = seeds.client_seed_set(
            code=code, user=signed_in_user(request), client_seed=data.validated_data["client_seed"]
        )
        return Response(selectors.seat_public(seat))


@scopes(POST=PLAY)
class ReclaimView(APIView):
    @extend_schema(
        request=None,
        responses={200: GAME_VIEW_REF},
        summary="Take back your seat from the computer player who held it while you were away",
        description=(
            "In a room whose `on_abandon` is `bot`, a player who runs past `abandon_seconds` has a computer "
            "player take their seat; the seat still names them, and they alone may take it back, at any "
            "time while the match is played. Answers the caller's view."
        ),
    )
    @answers("not_seated", "room_closed", "not_playing", "nothing_to_reclaim")
    def post(self, request: Request, code: str) -> Response:
        user = signed_in_user(request)
        table = reclaim.seat_reclaim(code=code, user=user)
        return Response(selectors.table_view(table=table, user=user))


@scopes(POST=PLAY)
class RematchView(APIView):
    @extend_schema(
        request=None,
        responses={200: GAME_VIEW_REF},
        summary="Ask for a rematch with the same players once the match is over",
        description=(
            "Each person seated in a finished or abandoned match may agree; agreeing again changes nothing. "
            "When the last of them agrees, a new room with the same game, options and computer players is "
            "made and started with everyone in it, and the view's `rematch.room` (and a public `rematch` "
            "event) names it. Answers the caller's view."
        ),
    )
    @answers("not_seated", "room_closed", "match_not_over", "blocked_at_table")
    def post(self, request: Request, code: str) -> Response:
        user = signed_in_user(request)
        table = rematch.rematch_agree(code=code, user=user)
        return Response(selectors.table_view(table=table, user=user))


# Polling is cheap: a client that holds a view (or a page of the log) names its tag, and
# when nothing it is made of changed the answer is 304 with no body, found in one small
# statement (games/view_tags.py) after authentication, scopes and throttles as ever.
@scopes(GET=READ)
class StateView(ReadsTable, APIView):
    @extend_schema(
        parameters=[IF_NONE_MATCH, ETAG],
        responses={200: GAME_VIEW_REF, 304: NOT_MODIFIED},
        summary="The caller's view of the room",
        description=(
            "The answer's `ETag` changes whenever anything in this caller's view does (a change of `version`, "
            "a client seed, a seated player's new name). Send it back as `If-None-Match` to be answered 304 "
            "with no body while it does not."
        ),
    )
    def get(self, request: Request, code: str) -> HttpResponseBase:
        user, variant = signed_in_user(request), str(request.accepted_media_type)
        if conditional.asks(request):
            digest = view_tags.state_tag(code=code, user=user, variant=variant)
            if digest is not None and conditional.holds(request, digest):  # None: no such room, read on to 404
                return conditional.not_modified(digest)
        table = selectors.table_shown_to(table=self.table_of(code), user=user)
        view = selectors.table_view(table=table, user=user)
        return conditional.tagged(Response(view), view_tags.state_tag_of(table=table, user=user, variant=variant))


@scopes(POST=PLAY)
class ActionsView(APIView):
    # Read by the JSON parser: a legal action is well under 1 KB.
    max_body_bytes = settings.API_MAX_ACTION_BYTES
    # Checks the body's envelope; the document shows the typed body (api/game_schemas.py).
    body_serializer = ActionSerializer

    @extend_schema(
        # The serializer checks the envelope; the engine checks the action itself.
        request={"application/json": ACTION_REQUEST_REF},
        responses={200: GAME_VIEW_REF},
        parameters=[
            OpenApiParameter(
                IDEMPOTENCY_KEY_HEADER,
                {"type": "string", "maxLength": IDEMPOTENCY_KEY_MAX, "pattern": f"^{IDEMPOTENCY_KEY_PATTERN}$"},
                OpenApiParameter.HEADER,
                required=False,
                description=(
                    f"Makes retries safe: the same key from the same user answers the first answer again. "
                    f"At most {IDEMPOTENCY_KEY_MAX} visible ASCII characters (a UUID fits); a longer key is "
                    "refused, never cut. A key is kept as long as its room: within a room it answers its first "
                    "answer for good, and one reused for another request is refused (422)."
                ),
            )
        ],
        summary="Play: apply one action and answer with the caller's new view",
        description=f"The body may be at most {settings.API_MAX_ACTION_BYTES} bytes long (413 beyond).",
    )
    @answers(
        *RULE_CODES,
        "not_seated",
        "room_closed",
        "not_playing",
        "seat_held_by_computer",
        "stale_version",
        "idempotency_key_reused",
    )
    def post(self, request: Request, code: str) -> Response:
        key = idempotency_key(request.headers.get(IDEMPOTENCY_KEY_HEADER))
        data = ActionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        submitted = play.action_submit(
            code=code,
            user=signed_in_user(request),
            version=data.validated_data["version"],
            action=data.validated_data["action"],
            idempotency_key=key,
        )
        return Response(submitted.view)


# Both lists are read a page at a time, after the last item read (api/pagination.py).
@scopes(GET=READ)
class EventsView(APIView):
    @extend_schema(
        parameters=[EventsQuerySerializer, NEXT_LINK, IF_NONE_MATCH, ETAG],
        responses={200: EventSerializer(many=True), 304: NOT_MODIFIED},
        summary="The room's event log as the caller may see it, a page at a time",
        description=(
            "Events in `seq` order, after the `seq` given as `after`: the last one the client has read, or the "
            "`seq` of a room socket's notice it has not caught up with yet (api/asyncapi.yaml). `seq` counts "
            "the room's whole log, so the caller's events may skip numbers (others' private events). While "
            'the list goes on, the `Link` header names the next page (`rel="next"`); without one the client '
            "has every event there is. The answer's `ETag` changes when the room logs an event (the caller's "
            "or not) or the caller's seat changes; send it back as `If-None-Match` to be answered 304 with no "
            "body while nothing was logged. Once a private room is over, only its players and moderators read "
            "its log: anyone else is answered 404, as for a room that does not exist."
        ),
    )
    def get(self, request: Request, code: str) -> HttpResponseBase:
        query = EventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        after, limit = query.validated_data["after"], query.validated_data["limit"]
        user = signed_in_user(request)
        # The page's `Link` repeats the query as sent.
        variant = f"{request.accepted_media_type} {request.META.get('QUERY_STRING', '')}"
        if conditional.asks(request):
            digest = view_tags.events_tag(code=code, user=user, after=after, limit=limit, variant=variant)
            if digest is not None and conditional.holds(request, digest):  # None: no such room, read on to 404
                return conditional.not_modified(digest)
        # The room and the seat before the events: the page holds at least what its tag says.
        room = selectors.room_record_for(code=code, user=user)
        seat = selectors.seat_index_of(room=room, user=user)
        rows = selectors.events_for(room=room, seat=seat, after=after, limit=limit + 1)
        digest = view_tags.events_tag_of(
            code=code, event_seq=room.event_seq, seat=seat, after=after, limit=limit, variant=variant
        )
        return conditional.tagged(pagination.page_after(request, rows, limit=limit, key="seq"), digest)


@scopes(GET=READ)
class RoundsView(APIView):
    @extend_schema(
        parameters=[RoundsQuerySerializer, NEXT_LINK],
        responses=RoundSummarySerializer(many=True),
        summary="The summary table of finished hands, a page at a time",
        description=(
            "Finished hands in order, after the hand numbered `after`. While the list goes on, the `Link` "
            'header names the next page (`rel="next"`). Once a private room is over, only its players and '
            "moderators read them: anyone else is answered 404, as for a room that does not exist."
        ),
    )
    def get(self, request: Request, code: str) -> Response:
        query = RoundsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        after, limit = query.validated_data["after"], query.validated_data["limit"]
        room = selectors.room_record_for(code=code, user=signed_in_user(request))
        rows = selectors.rounds_summary(room=room, after=after, limit=limit + 1)
        return pagination.page_after(request, rows, limit=limit, key="round")


@scopes(GET=READ)
class ReplayView(APIView):
    @extend_schema(
        responses=ReplaySerializer,
        summary="A finished match's replay: every hand's deal and every action, face up",
        description=(
            "Once the match is finished: each hand as dealt and each action in order, with every seat's "
            "hand and the trick on the table after it. Before the end the answer is 409 `match_not_over` "
            "whoever asks, seated or not; an abandoned or closed match has none (409 `room_closed`). A "
            "private room's replay is its players' and moderators' alone: anyone else is answered 404, as "
            "for a room that does not exist, whether the match is over or not."
        ),
    )
    @answers("match_not_over", "room_closed")
    def get(self, request: Request, code: str) -> Response:
        user = signed_in_user(request)
        room = selectors.room_match_for(code=code, user=user)
        answer = replay.match_replay(code=code)
        reader = talk.reader_of(room=room, user=user)
        lines = talk.lines_for(room=room, reader=reader, limit=REPLAY_CHAT_MAX)
        return Response({**answer, "chat": [talk.line_shown(line) for line in lines]})
