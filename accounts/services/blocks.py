"""Writes: blocks made and undone (accounts.models.Block)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from core.errors import ServiceError

from ..models import Block, User


def block_add(*, user: User, other: User) -> Block:
    """`user` blocks `other` (again: nothing more happens)."""
    if other.pk == user.pk:
        raise ServiceError("block_self", gettext("You cannot block yourself."), 400, "username")
    try:
        with transaction.atomic():
            return Block.objects.create(blocker=user, blocked=other)
    except IntegrityError:
        return Block.objects.get(blocker=user, blocked=other)


def block_remove(*, user: User, other_id: int) -> None:
    """`user` no longer blocks the account `other_id`; 404 when they did not."""
    deleted, _ = Block.objects.filter(blocker=user, blocked_id=other_id).delete()
    if not deleted:
        raise ServiceError("not_found", gettext("You do not block that account."), 404)
