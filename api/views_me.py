"""What concerns the caller across rooms: where the game waits for them."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors
from grants.scopes import READ, scopes

from .auth import signed_in_user
from .serializers import TurnSerializer


@scopes(GET=READ)
class TurnsView(APIView):
    @extend_schema(
        responses=TurnSerializer(many=True),
        summary="The rooms where the caller must act now",
        description=(
            "Soonest deadline first; rooms without a clock last, longest waiting first. The same "
            "moments reach the caller's socket `ws/me/` as `your_turn` notices."
        ),
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.turns_of(user=signed_in_user(request)))
