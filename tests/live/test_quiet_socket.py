"""A socket with nothing to hear stays open: the Redis channel layer's wait for the next
notice outlasts the blocking pop it is made of."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer

pytestmark = pytest.mark.asyncio


async def test_a_receive_waits_through_a_quiet_blocking_pop():
    layer = get_channel_layer()
    assert isinstance(layer, RedisChannelLayer), layer
    channel = await layer.new_channel()
    # Redis answers an empty BZPOPMIN after brpop_timeout and the layer asks again; a
    # client read timeout no longer than that ends the wait with an error instead, and
    # the socket's consumer with it.
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(channel), timeout=layer.brpop_timeout + 1)
