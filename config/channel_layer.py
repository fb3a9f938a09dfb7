"""channels_redis with a bounded, *blocking* Redis connection pool.

channels_redis 4.3 builds a plain ``redis.asyncio.ConnectionPool`` per event
loop. Since redis-py 6 that pool holds at most 100 connections and raises
``MaxConnectionsError`` on the 101st concurrent command, so a burst of tablets
connecting (each runs ``group_add``) got HTTP 500s. A ``BlockingConnectionPool``
keeps the bound (``max_connections`` per worker process, well inside Redis'
``maxclients``) but makes a command wait for a free connection instead.
"""

from __future__ import annotations

from typing import Any

from channels_redis.core import RedisChannelLayer as _RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class RedisChannelLayer(_RedisChannelLayer):  # type: ignore[misc]
    def create_pool(self, index: int) -> BlockingConnectionPool:
        host: dict[str, Any] = dict(self.hosts[index])
        address = host.pop("address", None)
        if address is None:
            return BlockingConnectionPool(**host)
        return BlockingConnectionPool.from_url(address, **host)
