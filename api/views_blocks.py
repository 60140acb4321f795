"""Blocks: whom a person no longer wants to hear or meet, their own list
(docs/talk/table-talk.md)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors as accounts
from accounts.services import blocks
from grants.scopes import scopes

from .auth import signed_in_user
from .schema import answers
from .serializers_chat import BlockAddSerializer, BlockSerializer


@scopes(GET=None, POST=None)
class BlocksView(APIView):
    @extend_schema(responses=BlockSerializer(many=True), summary="Whom you blocked")
    def get(self, request: Request) -> Response:
        return Response(BlockSerializer(accounts.blocks_of(user=signed_in_user(request)), many=True).data)

    @extend_schema(
        request=BlockAddSerializer,
        responses={200: BlockSerializer},
        summary="Block someone",
        description="From now on neither of you reads the other's lines at any table, and neither takes a seat "
        "at a table where the other sits (`409 blocked_at_table`). Blocking again changes nothing. They are "
        "not told.",
    )
    @answers("block_self", "not_found")
    def post(self, request: Request) -> Response:
        data = BlockAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        other = accounts.user_named(username=data.validated_data["username"])
        block = blocks.block_add(user=signed_in_user(request), other=other)
        return Response(BlockSerializer(block).data)


@scopes(DELETE=None)
class BlockView(APIView):
    @extend_schema(request=None, responses={204: None}, summary="Unblock someone")
    @answers("not_found")
    def delete(self, request: Request, username: str) -> Response:
        other = accounts.user_named(username=username)
        blocks.block_remove(user=signed_in_user(request), other_id=other.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
