"""Players' profiles, their finished matches, and the leaderboard of each game."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from grants.scopes import READ, scopes
from ratings import selectors

from .auth import signed_in_user
from .schema import answers
from .serializers_ratings import (
    LeaderboardQuerySerializer,
    LeaderboardRowSerializer,
    MatchSerializer,
    ProfileSerializer,
)

_USERNAME = OpenApiParameter("username", str, OpenApiParameter.PATH, description="Compared as sign-in compares names")


@scopes(GET=READ)
class PlayerView(APIView):
    @extend_schema(parameters=[_USERNAME], responses=ProfileSerializer, summary="A player's profile and ratings")
    def get(self, request: Request, username: str) -> Response:
        user = selectors.player_get(username=username)
        return Response(ProfileSerializer(selectors.player_profile(user=user)).data)


@scopes(GET=READ)
class PlayerMatchesView(GenericAPIView):
    serializer_class = MatchSerializer

    @extend_schema(
        parameters=[_USERNAME],
        responses=MatchSerializer(many=True),
        summary="A player's finished matches",
        description="Newest first. A private room's match is listed only to those who played in it and to "
        "moderators: its code opens its replay, which is theirs alone (the profile's counts include it).",
    )
    def get(self, request: Request, username: str) -> Response:
        user = selectors.player_get(username=username)
        page = self.paginate_queryset(selectors.matches_of(user=user, viewer=signed_in_user(request)))
        assert page is not None
        return self.get_paginated_response(MatchSerializer([selectors.match_row(p) for p in page], many=True).data)


@scopes(GET=READ)
class LeaderboardView(GenericAPIView):
    serializer_class = LeaderboardRowSerializer

    @extend_schema(
        parameters=[LeaderboardQuerySerializer],
        responses=LeaderboardRowSerializer(many=True),
        summary="A game's leaderboard",
        description="Players with at least LEADERBOARD_MIN_MATCHES rated matches in the game, best shown first.",
    )
    @answers("invalid")
    def get(self, request: Request) -> Response:
        query = LeaderboardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = self.paginate_queryset(selectors.leaderboard(game=query.validated_data["game"]))
        assert page is not None and self.paginator is not None
        # PageNumberPagination keeps the page it served.
        first = self.paginator.page.start_index()  # type: ignore[attr-defined]
        rows = [selectors.leaderboard_row(r, first + i) for i, r in enumerate(page)]
        return self.get_paginated_response(LeaderboardRowSerializer(rows, many=True).data)
