"""Django's Redis cache with one client, and one connection pool, per process.

Django keeps a cache object per async context: every websocket (each is a
task of its own) and every request got its own ``RedisCache``, hence its own
client and connection pool. A socket's pool lived as long as the socket, then
waited for a full garbage collection: a worker held Redis connections by the
hundred for a few hundred sockets, thousands at a large school's scale
(docs/performance.md). The client (a pool per server, thread-safe in redis-py)
is shared by every cache object of the process instead.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache
from django.utils.functional import cached_property

_clients: dict[tuple[str, ...], Any] = {}
_lock = threading.Lock()


class SharedRedisCache(RedisCache):  # type: ignore[misc]
    @cached_property
    def _cache(self) -> Any:
        key = (*self._servers, repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
