"""The channel layers: channels_redis with a bounded, *blocking* Redis
connection pool, and the in-memory layer with a cheaper expiry sweep.

channels_redis 4.3 builds a plain ``redis.asyncio.ConnectionPool`` per event
loop. Since redis-py 6 that pool holds at most 100 connections and raises
``MaxConnectionsError`` on the 101st concurrent command, so a burst of tablets
connecting (each runs ``group_add``) got HTTP 500s. A ``BlockingConnectionPool``
keeps the bound (``max_connections`` per worker process, well inside Redis'
``maxclients``) but makes a command wait for a free connection instead.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as _InMemoryChannelLayer
from channels_redis.core import ChannelLock
from channels_redis.core import RedisChannelLayer as _RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class _ChannelLock(ChannelLock):  # type: ignore[misc]
    """channels_redis' per-channel lock, forgetting a waiter that was cancelled.

    The stock one counts a waiter in ``acquire`` and only uncounts it in
    ``release``: a receive cancelled while waiting for the lock (a socket
    closing) left its count behind, so the lock was never dropped and stayed
    bound to the event loop it first waited on. A later loop (each test has its
    own) that waited on it failed with "bound to a different event loop"."""

    async def acquire(self, channel: str) -> bool:
        try:
            return bool(await super().acquire(channel))
        except BaseException:
            self.wait_counts[channel] -= 1
            if self.wait_counts[channel] < 1 and not self.locks[channel].locked():
                del self.locks[channel]
                del self.wait_counts[channel]
            raise


class RedisChannelLayer(_RedisChannelLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.receive_clean_locks = _ChannelLock()

    def create_pool(self, index: int) -> BlockingConnectionPool:
        host: dict[str, Any] = dict(self.hosts[index])
        address = host.pop("address", None)
        if address is None:
            return BlockingConnectionPool(**host)
        return BlockingConnectionPool.from_url(address, **host)


class InMemoryChannelLayer(_InMemoryChannelLayer):  # type: ignore[misc]
    """Channels' in-memory layer, with its expiry sweep run at most once a second.

    The stock layer walks every channel and every group on *each* ``receive``
    and ``group_send``: with 300 sockets each receiving after every message,
    that sweep alone took 4.5 % of a loaded worker's time (py-spy), for
    messages that expire after a minute. Sweeping once a second drops an
    expired message at most a second late, which nobody can see.

    ``group_send`` also puts the message straight into each member's queue
    instead of starting one task per member (``send`` never waits)."""

    SWEEP_EVERY = 1.0
    _swept_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept_at < self.SWEEP_EVERY:
            return
        self._swept_at = now
        super()._clean_expired()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            # A full queue is a socket that stopped reading: it resyncs later.
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)
