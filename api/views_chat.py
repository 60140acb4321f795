"""Table talk: the lines of a room's table, read a page at a time (with `ETag`) and
said by anyone who reads the room, pushed on its socket (api/asyncapi.yaml `chat`)
(docs/talk/table-talk.md)."""

from __future__ import annotations

import hashlib

import orjson
from django.http.response import HttpResponseBase
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from games import selectors as games
from grants.scopes import PLAY, READ, scopes
from talk import selectors, services

from . import conditional, pagination
from .auth import signed_in_user
from .conditional_schema import ETAG, IF_NONE_MATCH, NEXT_LINK, NOT_MODIFIED
from .schema import answers
from .serializers_chat import ChatLineSerializer, ChatQuerySerializer, ChatSaySerializer
from .throttling import ChatRoomThrottle, ScopedRateThrottle


class _ChatPersonThrottle(ScopedRateThrottle):
    """Lines one person says, wherever (`chat`)."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        view.throttle_scope = "chat"  # type: ignore[attr-defined]
        return super().allow_request(request, view)


@scopes(GET=READ, POST=PLAY)
class ChatView(APIView):
    def get_throttles(self) -> list[BaseThrottle]:
        # Saying is limited per person and per table; reading as any call is.
        extra = [_ChatPersonThrottle(), ChatRoomThrottle()] if self.request.method == "POST" else []
        return [*super().get_throttles(), *extra]

    def check_throttles(self, request: Request) -> None:
        # The first limit that refuses answers, and the later ones count nothing: a
        # line one person was refused is not one of the table's.
        for throttle in self.get_throttles():
            if not throttle.allow_request(request, self):
                self.throttled(request, throttle.wait() or 1)

    @extend_schema(
        parameters=[ChatQuerySerializer, NEXT_LINK, IF_NONE_MATCH, ETAG],
        responses={200: ChatLineSerializer(many=True), 304: NOT_MODIFIED},
        summary="The table's talk as the caller may read it, a page at a time",
        description="Lines in `id` order, after the `id` given as `after`. The players read their own channel "
        "and the spectators' lines said outside a hand; everyone else reads both. Lines of accounts the caller "
        "blocked, or that blocked the caller, are left out. While the list goes on, the `Link` header names "
        "the next page. The `ETag` changes when the page would; send it back as `If-None-Match` for a 304. Once a "
        "private room is over, only its players and moderators read its talk: anyone else is answered 404, as "
        "for a room that does not exist.",
    )
    def get(self, request: Request, code: str) -> HttpResponseBase:
        query = ChatQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        after, limit = query.validated_data["after"], query.validated_data["limit"]
        user = signed_in_user(request)
        # A private room's talk, once it is over, is its players' (as its replay is).
        room = games.room_record_for(code=code, user=user)
        reader = selectors.reader_of(room=room, user=user)
        rows = [
            selectors.line_shown(line)
            for line in selectors.lines_for(room=room, reader=reader, after=after, limit=limit + 1)
        ]
        page = pagination.page_after(request, rows, limit=limit, key="id")
        variant = f"{request.accepted_media_type} {request.META.get('QUERY_STRING', '')}"
        digest = hashlib.sha256(orjson.dumps([variant, page.data, page.get("Link", "")])).hexdigest()[:32]
        if conditional.holds(request, digest):
            return conditional.not_modified(digest)
        return conditional.tagged(page, digest)

    @extend_schema(
        request=ChatSaySerializer,
        responses={201: ChatLineSerializer},
        summary="Say something at the table",
        description="A quick phrase (`phrase`) or plain text (`text`), exactly one: in the players' channel "
        "from a seat, else in the spectators'. Free text from a seat during a hand only where the room's "
        "`chat_during_hand` allows it (quick phrases always). Every reader's room socket gets it as a `chat` "
        "message. Limited per person (`THROTTLE_CHAT`) and per table (`THROTTLE_CHAT_ROOM`).",
    )
    @answers(
        "one_of_phrase_or_text",
        "unknown_phrase",
        "empty_message",
        "bidi_control",
        "chat_off_during_hand",
        "chat_closed",
        "chat_timed_out",
    )
    def post(self, request: Request, code: str) -> Response:
        data = ChatSaySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        room = games.room_get(code=code)
        line = services.line_say(
            room=room,
            user=signed_in_user(request),
            phrase=data.validated_data.get("phrase", ""),
            text=data.validated_data.get("text", ""),
            now=timezone.now(),
        )
        return Response(ChatLineSerializer(selectors.line_shown(line)).data, status=status.HTTP_201_CREATED)
