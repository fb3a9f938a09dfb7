"""The channel layers: channels_redis with a bounded, *blocking* Redis
connection pool, and the in-memory layer with a cheaper expiry sweep.

channels_redis 4.3 builds a plain ``redis.asyncio.ConnectionPool`` per event
loop. Since redis-py 6 that pool holds at most 100 connections and raises
``MaxConnectionsError`` on the 101st concurrent command, so a burst of tablets
connecting (each runs ``group_add``) got HTTP 500s. A ``BlockingConnectionPool``
keeps the bound (``max_connections`` per worker process, well inside Redis'
``maxclients``) but makes a command wait for a free connection instead. Its
``group_send`` makes the stock one's Redis commands in two round trips, not four,
and its connections never swallow a task's cancellation (``CancelSafeConnection``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as _InMemoryChannelLayer
from channels_redis.core import ChannelLock
from channels_redis.core import RedisChannelLayer as _RedisChannelLayer
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.connection import AbstractConnection

logger = logging.getLogger("channels_redis.core")  # where the stock layer logs it


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


# channels_redis 4.3's own script for a group send (``RedisChannelLayer.group_send``),
# unchanged: queue the message on each member channel that has room.
_GROUP_SEND_LUA = """
    local over_capacity = 0
    local current_time = ARGV[#ARGV - 1]
    local expiry = ARGV[#ARGV]
    for i=1,#KEYS do
        if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
            redis.call('ZADD', KEYS[i], current_time, ARGV[i])
            redis.call('EXPIRE', KEYS[i], expiry)
        else
            over_capacity = over_capacity + 1
        end
    end
    return over_capacity
"""


class CancelSafeConnection(AbstractConnection):
    """A redis-py connection that never swallows its task's cancellation.

    redis-py sends every command through ``asyncio.wait_for(send, socket_timeout)``.
    On Python 3.11, ``wait_for`` returns the send's result when the send ends in
    the same turn of the event loop as the task is cancelled, and the
    ``CancelledError`` is lost (CPython gh-86296; 3.12 rebuilt ``wait_for`` on
    ``asyncio.timeout``). channels_redis' ``receive`` then loops on, waiting for
    a message that never comes: a closed socket's consumer never ended (Channels
    awaits its receive task after cancelling it), the hub reader stopped by a
    last socket read on for up to 5 s, and a worker's graceful stop ran out of
    time. Measured on this machine's Redis: of 200 receives cancelled at random
    moments, 3 to 21 per round were still running 2 s later, each after a
    command sent while the cancel came in.

    The send has gone out but its reply is unread, so the connection is closed
    (as redis-py does when a send is interrupted) and the cancellation raised.
    Mixed in front of the class the pool would use (TCP, TLS or Unix socket)."""

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        task = asyncio.current_task()
        cancels = task.cancelling() if task is not None else 0
        await super().send_packed_command(command, check_health)
        if task is not None and task.cancelling() > cancels:
            await self.disconnect(nowait=True)
            raise asyncio.CancelledError


@functools.cache
def cancel_safe(connection_class: type[AbstractConnection]) -> type[AbstractConnection]:
    """``connection_class`` with ``CancelSafeConnection`` in front of it (one
    class per pool class, however many pools and event loops)."""
    if issubclass(connection_class, CancelSafeConnection):
        return connection_class
    return type(f"CancelSafe{connection_class.__name__}", (CancelSafeConnection, connection_class), {})


class RedisChannelLayer(_RedisChannelLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.receive_clean_locks = _ChannelLock()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """channels_redis' ``group_send`` in two round trips to Redis instead of
        four: the same commands, in the same order.

        The stock one awaits, one after the other: dropping the group's expired
        members, reading the members, dropping each member's expired messages
        (in a MULTI/EXEC of their own), then the script that queues the message.
        On a loaded worker each await is a turn of the event loop among every
        socket's work, and py-spy on the load test (PostgreSQL + Redis, 1
        worker, 300 sockets) put ``group_send`` at a fifth of the event loop's
        time. Here the first two go in one pipeline, the last two in another,
        without MULTI/EXEC: each command is atomic on its own, and nothing needs
        the trims and the script to be one (the stock code did not make them one
        either). Two differences, neither reachable with this project's single
        Redis host: with several hosts, a member's expired messages are trimmed
        on its own host (the stock code trims them on the group's host), and a
        failed trim no longer stops the script from queueing the message (the
        error is still raised)."""
        assert self.require_valid_group_name(group), "Group name not valid"
        key = self._group_key(group)
        connection = self.connection(self.consistent_hash(group))
        members = connection.pipeline(transaction=False)
        members.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
        members.zrange(key, 0, -1)
        _dropped, names = await members.execute()
        channel_names = [name.decode("utf8") for name in names]
        if not channel_names:
            return
        to_connection, messages, capacities = self._map_channel_keys_to_connection(
            channel_names, message
        )
        for index, channel_keys in to_connection.items():
            connection = self.connection(index)
            sending = connection.pipeline(transaction=False)
            for channel_key in channel_keys:
                sending.zremrangebyscore(channel_key, min=0, max=int(time.time()) - int(self.expiry))
            sending.eval(
                _GROUP_SEND_LUA,
                len(channel_keys),
                *channel_keys,
                *[messages[channel_key] for channel_key in channel_keys],
                *[capacities[channel_key] for channel_key in channel_keys],
                time.time(),
                self.expiry,
            )
            over_capacity = (await sending.execute())[-1]
            if over_capacity > 0:
                logger.info(
                    "%s of %s channels over capacity in group %s",
                    over_capacity,
                    len(channel_names),
                    group,
                )

    def create_pool(self, index: int) -> BlockingConnectionPool:
        host: dict[str, Any] = dict(self.hosts[index])
        address = host.pop("address", None)
        if address is None:
            pool = BlockingConnectionPool(**host)
        else:
            pool = BlockingConnectionPool.from_url(address, **host)
        pool.connection_class = cancel_safe(pool.connection_class)
        return pool


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
