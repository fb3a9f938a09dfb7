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

It also rides out a Redis restart (``RedisChannelLayer`` and ``on_outage``):
a lost ``receive`` waits and tries again instead of ending the socket, a
``group_add`` made meanwhile is remembered, and once Redis answers again every
group this process joined is joined again (a restarted Redis is empty) before
the sockets are told to catch up.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as _InMemoryChannelLayer
from channels_redis.core import BoundedQueue, ChannelLock
from channels_redis.core import RedisChannelLayer as _RedisChannelLayer
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from cardgames import liveness

logger = logging.getLogger("channels_redis.core")  # where the stock layer logs it
outage_logger = logging.getLogger("config.channel_layer")

# What Redis being unreachable looks like from redis-py (stopped, restarting,
# still loading, network gone): each waited out, never a socket's end.
REDIS_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
# How often an unreachable Redis is asked again (a PING): the sockets catch up
# at most this long after it is back.
PROBE_SECONDS = 0.25
T = TypeVar("T")

# Called with ``down=True`` when this process finds Redis unreachable and with
# ``down=False`` once it is back and the groups are joined again, each on the
# event loop that saw it (``cardgames.liveness`` tells the tablets).
OutageListener = Callable[[bool], None]
_listeners: list[OutageListener] = []


def on_outage(listener: OutageListener) -> None:
    """Be told when the channel layer goes down and comes back (idempotent)."""
    if listener not in _listeners:
        _listeners.append(listener)


def layer_down(layer: Any) -> bool:
    """Whether ``layer`` is, on this event loop, waiting for Redis to come back
    (False for a layer that cannot go down, such as the in-memory one)."""
    state = getattr(layer, "_outage_state", None)
    return bool(state is not None and state().down_since is not None)


def _tell(down: bool) -> None:
    for listener in list(_listeners):
        try:
            listener(down)
        except Exception:  # pragma: no cover - a listener must not stop the others
            outage_logger.exception("outage listener failed")


class _Outage:
    """One event loop's view of Redis: up, or down since when (and the probe
    that waits for it)."""

    def __init__(self) -> None:
        self.down_since: float | None = None
        self.up = asyncio.Event()
        self.up.set()
        self.probe: asyncio.Task[None] | None = None
        self.errors = 0


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
    time. Measured on Redis with receives cancelled at random moments: some
    were still running seconds later, each after a command sent while the
    cancel came in.

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


class _ReceiveBuffer(collections.defaultdict):  # type: ignore[type-arg]
    """channels_redis' per-channel receive queues, which forget closed channels.

    The stock layer pops every message of this process' channels off one Redis
    key and files it under its channel's name, creating that channel's queue on
    the way (a ``defaultdict``). A message that comes after its socket has
    ended (sent to it, or to one of its groups, just as it closed) made a
    queue that nobody ever reads or deletes (channels_redis issue 384):
    ``make soak`` on a slowed server found them piling up with every lesson,
    never given back (docs/performance.md).

    ``close(channel)`` (the consumer's end: ``GoneSocketMixin``) drops the
    channel's queue, and for ``linger`` seconds (longer than a message lives in
    Redis) a late message for it is filed nowhere."""

    def __init__(self, factory: Callable[[], Any], linger: float) -> None:
        super().__init__(factory)
        self.linger = linger
        self.closed: collections.OrderedDict[str, float] = collections.OrderedDict()

    def close(self, channel: str) -> None:
        self.pop(channel, None)
        now = time.monotonic()
        self.closed[channel] = now + self.linger
        self.closed.move_to_end(channel)
        while self.closed:
            oldest, until = next(iter(self.closed.items()))
            if until > now:
                break
            del self.closed[oldest]

    def __missing__(self, channel: str) -> Any:
        if channel in self.closed:
            return self.default_factory()  # type: ignore[misc]  # not kept: the message is dropped
        return super().__missing__(channel)

    def __delitem__(self, channel: str) -> None:
        # The stock ``receive`` deletes a queue it may not have kept (above).
        self.pop(channel, None)


class RedisChannelLayer(_RedisChannelLayer):  # type: ignore[misc]
    """channels_redis' layer, bounded and pipelined (below), which survives
    Redis restarting.

    The stock layer raises from ``receive`` as soon as Redis goes: Channels then
    ends the consumer, so every socket was closed (1006, one traceback each)
    and each tablet's reconnect met ``group_add`` failing with an HTTP 500 until
    Redis was back, each failure doubling htmx's reconnect delay (some tablets
    came back long after Redis). Here, while Redis is unreachable:

    - ``receive`` waits for it and reads again: the socket stays open;
    - ``group_add`` and ``group_discard`` are remembered and return: a tablet
      connecting meanwhile is accepted (the database serves its screen);
    - one PING every ``PROBE_SECONDS`` asks whether it is back; then every group
      this process has joined is joined again, in one pipeline (Redis may have
      restarted empty, its groups gone), and ``on_outage`` listeners are told,
      so screens catch up at once rather than at the heartbeat.

    One log line when Redis goes and one when it is back, not one traceback
    per socket. ``send`` and ``group_send`` still raise: their callers retry or
    leave the catching up to the resync that follows the outage."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.receive_clean_locks = _ChannelLock()
        self.receive_buffer = _ReceiveBuffer(
            functools.partial(BoundedQueue, self.capacity), linger=10 * max(self.expiry, 30)
        )
        # group -> channels this process put in it (and has not taken out).
        self.memberships: dict[str, set[str]] = {}
        self._outages: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Outage] = (
            weakref.WeakKeyDictionary()
        )

    def channel_closed(self, channel: str) -> None:
        """The consumer of ``channel`` has ended: its queued and late messages
        are dropped (``_ReceiveBuffer``)."""
        self.receive_buffer.close(channel)

    def _outage_state(self) -> _Outage:
        loop = asyncio.get_running_loop()
        state = self._outages.get(loop)
        if state is None:
            state = self._outages[loop] = _Outage()
        return state

    def _went_down(self, error: BaseException) -> _Outage:
        state = self._outage_state()
        state.errors += 1
        if state.down_since is None:
            state.down_since = time.monotonic()
            state.up.clear()
            outage_logger.warning(
                "Redis unreachable (%s: %s): sockets stay open, waiting for it",
                type(error).__name__,
                error,
            )
            _tell(True)
        if state.probe is None or state.probe.done():
            state.probe = asyncio.get_running_loop().create_task(self._probe(state))
        return state

    async def _probe(self, state: _Outage) -> None:
        """PING until Redis answers, join every group again, then wake the waiters."""
        while True:
            await asyncio.sleep(PROBE_SECONDS)
            try:
                await self.connection(0).ping()
                joined = await self._rejoin()
            except REDIS_DOWN:
                continue
            since = state.down_since or time.monotonic()
            state.down_since = None
            state.up.set()
            outage_logger.warning(
                "Redis reachable again after %.1f s (%s failed calls waited): %s groups joined again",
                time.monotonic() - since,
                state.errors,
                joined,
            )
            state.errors = 0
            _tell(False)
            return

    async def _rejoin(self) -> int:
        """Every membership of this process, added again (as ``group_add`` does)."""
        by_host: dict[int, Any] = {}
        now = time.time()
        for group, channels in list(self.memberships.items()):
            if not channels:
                continue
            index = self.consistent_hash(group)
            pipe = by_host.get(index)
            if pipe is None:
                pipe = by_host[index] = self.connection(index).pipeline(transaction=False)
            key = self._group_key(group)
            pipe.zadd(key, {channel: now for channel in channels})
            pipe.expire(key, self.group_expiry)
        for pipe in by_host.values():
            await pipe.execute()
        return sum(1 for channels in self.memberships.values() if channels)

    async def _waited_out(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call()``, again and again while Redis is unreachable."""
        while True:
            state = self._outage_state()
            if state.down_since is not None:
                await state.up.wait()
            try:
                return await call()
            except REDIS_DOWN as error:
                self._went_down(error)

    async def receive(self, channel: str) -> dict[str, Any]:
        """A message for ``channel``, however long Redis is away meanwhile
        (a message queued before a restart is lost: the resync shows it)."""
        stock = super().receive
        message: dict[str, Any] = await self._waited_out(lambda: stock(channel))
        return message

    async def group_add(self, group: str, channel: str) -> None:
        self.memberships.setdefault(group, set()).add(channel)
        if layer_down(self):
            return  # joined when Redis is back (``_rejoin``)
        try:
            await super().group_add(group, channel)
        except REDIS_DOWN as error:
            self._went_down(error)

    async def group_discard(self, group: str, channel: str) -> None:
        channels = self.memberships.get(group)
        if channels is not None:
            channels.discard(channel)
            if not channels:
                del self.memberships[group]
        if layer_down(self):
            return  # a restarted Redis has forgotten it; else it expires
        try:
            await super().group_discard(group, channel)
        except REDIS_DOWN as error:
            self._went_down(error)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """channels_redis' ``group_send`` in two round trips to Redis instead of
        four: the same commands, in the same order.

        The stock one awaits, one after the other: dropping the group's expired
        members, reading the members, dropping each member's expired messages
        (in a MULTI/EXEC of their own), then the script that queues the message.
        On a loaded worker each await is a turn of the event loop among every
        socket's work, and on the load test ``group_send`` took a large share
        of a loaded worker's event loop (``docs/performance.md``). Here the
        first two go in one pipeline, the last two in another, without
        MULTI/EXEC: each command is atomic on its own, and nothing needs
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
    and ``group_send``: with a school's sockets each receiving after every
    message, that sweep alone was a noticeable share of a loaded worker's
    time, for messages that expire after a minute. Sweeping once a second
    drops an expired message at most a second late, which nobody can see.

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


# The tablets hear of an outage through their sockets' heartbeat: wired here,
# where the layer is, so cardgames never imports the project's configuration.
on_outage(liveness.redis_outage)
