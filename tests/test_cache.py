"""One Redis client per process for Django's cache (config/cache.py): every
websocket is an async context of its own, and each used to build its own
cache object, client and connection pool."""

from __future__ import annotations

import asyncio
import os

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import caches

from config.cache import SharedRedisCache


def test_two_cache_objects_share_one_client_and_pool() -> None:
    """What Django does for two sockets: two cache objects of one setting."""
    first = SharedRedisCache("redis://127.0.0.1:6379/9", {"OPTIONS": {}})
    second = SharedRedisCache("redis://127.0.0.1:6379/9", {"OPTIONS": {}})
    other = SharedRedisCache("redis://127.0.0.1:6379/10", {"OPTIONS": {}})
    assert first._cache is second._cache
    assert first._cache._get_connection_pool(False) is second._cache._get_connection_pool(False)
    assert other._cache is not first._cache


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (the Redis pass)")
async def test_forty_sockets_read_the_cache_through_one_pool() -> None:
    """Forty tasks (forty sockets' contexts) each reading the cache on a
    thread, as a socket's access re-check does: one client, one pool."""

    def read() -> int:
        backend = caches["default"]
        backend.get("cardgames:probe")
        return id(backend._cache._get_connection_pool(False))

    async def socket() -> int:
        return await sync_to_async(read, thread_sensitive=False)()

    pools = await asyncio.gather(*(asyncio.create_task(socket()) for _ in range(40)))
    assert isinstance(caches["default"], SharedRedisCache)
    assert len(set(pools)) == 1
