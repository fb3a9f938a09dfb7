"""The project's channel layers (``config/channel_layer.py``): the in-memory one
of the embedded default (a cheaper expiry sweep, which must still deliver and
still expire) and the Redis one (its pipelined ``group_send``, and connections
that never swallow a task's cancellation)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import pytest

from config.channel_layer import InMemoryChannelLayer


async def test_a_group_send_reaches_every_member_once() -> None:
    async def scenario() -> list[dict[str, object]]:
        layer = InMemoryChannelLayer()
        names = [await layer.new_channel() for _ in range(3)]
        for name in names:
            await layer.group_add("table-1", name)
        await layer.group_add("table-2", await layer.new_channel())
        await layer.group_send("table-1", {"type": "table.changed", "version": 4})
        got = [await asyncio.wait_for(layer.receive(name), 1) for name in names]
        for name in names:  # nothing more queued for anyone
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(layer.receive(name), 0.05)
        return got

    got = await scenario()
    assert got == [{"type": "table.changed", "version": 4}] * 3


async def test_a_message_nobody_read_still_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> bool:
        layer = InMemoryChannelLayer(expiry=1)
        name = await layer.new_channel()
        await layer.group_add("table-1", name)
        await layer.group_send("table-1", {"type": "table.changed", "version": 1})
        later = time.time() + 5
        monkeypatch.setattr(time, "time", lambda: later)
        layer._swept_at = -1e9  # the next sweep is due
        layer._clean_expired()
        # The expired message is gone and its channel left the group.
        return name in layer.groups.get("table-1", {}) or name in layer.channels

    assert await scenario() is False


async def test_a_redis_receive_cancelled_while_waiting_leaves_no_lock_behind() -> None:
    """A socket closing while its receive waits for the channel's lock must not
    leave that lock behind: bound to this event loop, it failed the next loop's
    sockets (each test runs its own loop) with "bound to a different event loop"."""
    from config.channel_layer import _ChannelLock

    locks = _ChannelLock()
    await locks.acquire("specific.x!")
    waiting = asyncio.ensure_future(locks.acquire("specific.x!"))
    await asyncio.sleep(0)
    waiting.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiting
    locks.release("specific.x!")
    assert dict(locks.locks) == {} and dict(locks.wait_counts) == {}


def _redis_layers(count: int, **config: object) -> list[object]:
    """Layers on the machine's Redis, on a database of their own (15), as
    separate workers would be (each has its own channel prefix)."""
    import os

    from config.channel_layer import RedisChannelLayer

    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs Redis (CI's PostgreSQL + Redis pass runs this)")
    base = url.rsplit("/", 1)[0] if url.count("/") > 2 else url
    hosts = [{"address": f"{base}/15"}]
    return [RedisChannelLayer(hosts=hosts, **config) for _ in range(count)]


async def test_a_redis_group_send_reaches_every_member_of_every_worker_once() -> None:
    """The two-round-trip ``group_send`` delivers as channels_redis' own does:
    once to each member, whichever worker (channel prefix) it belongs to; a
    member whose membership expired gets nothing and leaves the group."""
    first, second = _redis_layers(2)
    try:
        await first.flush()
        mine = [await first.new_channel() for _ in range(2)]
        theirs = await second.new_channel()
        gone = await second.new_channel()
        for name in (*mine, theirs, gone):
            await first.group_add("table-1", name)
        # ``gone`` joined longer ago than the group expiry (a dead worker's hub).
        connection = first.connection(0)
        await connection.zadd(first._group_key("table-1"), {gone: 1})
        await first.group_send("table-1", {"type": "table.changed", "version": 7})
        got = [await asyncio.wait_for(first.receive(name), 2) for name in mine]
        got.append(await asyncio.wait_for(second.receive(theirs), 2))
        assert got == [{"type": "table.changed", "version": 7}] * 3
        for layer, name in ((first, mine[0]), (first, mine[1]), (second, theirs), (second, gone)):
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(layer.receive(name), 0.2)
        members = await connection.zrange(first._group_key("table-1"), 0, -1)
        assert sorted(m.decode() for m in members) == sorted([*mine, theirs])
        # Nobody in the group: nothing is sent, nothing fails.
        await first.group_send("table-nobody", {"type": "table.changed", "version": 1})
    finally:
        for layer in (first, second):
            await layer.flush()
            await layer.close_pools()


async def test_a_redis_group_send_to_a_full_channel_drops_only_that_message(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A socket that stopped reading fills its channel: the next message for it
    is dropped and said in the log (it resyncs on its heartbeat), as before."""
    (layer,) = _redis_layers(1, capacity=1)
    try:
        await layer.flush()
        name = await layer.new_channel()
        await layer.group_add("table-2", name)
        await layer.group_send("table-2", {"type": "table.changed", "version": 1})
        with caplog.at_level("INFO", logger="channels_redis.core"):
            await layer.group_send("table-2", {"type": "table.changed", "version": 2})
        assert await asyncio.wait_for(layer.receive(name), 2) == {"type": "table.changed", "version": 1}
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(layer.receive(name), 0.2)
        assert "1 of 1 channels over capacity in group table-2" in caplog.text
    finally:
        await layer.flush()
        await layer.close_pools()


async def _send_cancelled_as_it_ends(connection_class: type) -> str:
    """Send a command on a ``connection_class`` connection and cancel the task in
    the very turn of the event loop in which the send ends: what a socket
    closing at that moment does to its receive. Says whether the task was
    "cancelled" or the send "returned" as if nothing happened."""
    connection = connection_class(socket_timeout=15)
    sent = asyncio.get_running_loop().create_future()
    disconnected: list[bool] = []

    async def nothing(*args: object, **kwargs: object) -> None:
        return None

    async def send(command: object) -> None:
        await sent

    async def disconnect(nowait: bool = False) -> None:
        disconnected.append(nowait)

    connection.connect_check_health = nothing
    connection.check_health = nothing
    connection._send_packed_command = send
    connection.disconnect = disconnect
    task = asyncio.ensure_future(connection.send_packed_command(b"*1\r\n$4\r\nPING\r\n"))
    for _ in range(5):  # until the send waits
        await asyncio.sleep(0)
    sent.set_result(None)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        assert disconnected, "the reply of the sent command is never read: the connection must go"
        return "cancelled"
    return "returned"


async def test_a_redis_command_cancelled_as_its_send_ends_is_still_cancelled() -> None:
    """On Python 3.11 redis-py's send (``asyncio.wait_for``) loses a cancellation
    that comes as the send ends (the stock ``Connection`` returns here as if
    nothing happened, with redis-py 8.2); the layer's connections raise it, and
    close the connection whose reply nobody will read."""
    from redis.asyncio import Connection

    from config.channel_layer import cancel_safe

    assert await _send_cancelled_as_it_ends(cancel_safe(Connection)) == "cancelled"


async def test_every_redis_receive_cancelled_at_any_moment_ends() -> None:
    """A closing socket cancels its receive; Channels then waits for it to end.
    Receives cancelled at random moments while messages flow (measured before
    the fix: 3 to 21 of 200 per round still running 2 s later, for ever) must
    all end at once."""
    # The capacity of the settings: a worker's sockets share one Redis queue.
    (layer,) = _redis_layers(1, capacity=1500)

    async def send(names: list[str]) -> None:
        for _ in range(100):
            await layer.send(random.choice(names), {"type": "table.changed"})
            await asyncio.sleep(0.001)

    try:
        await layer.flush()
        still_running = []
        for _round in range(3):
            names = [await layer.new_channel() for _ in range(100)]
            receives = [asyncio.ensure_future(layer.receive(name)) for name in names]
            sending = asyncio.ensure_future(send(names))
            await asyncio.sleep(0.1)
            for receive in receives:
                await asyncio.sleep(random.uniform(0, 0.002))
                receive.cancel()
            await sending
            _done, pending = await asyncio.wait(receives, timeout=2)
            still_running.append(len(pending))
            for receive in pending:
                receive.cancel()
            await asyncio.wait(receives, timeout=6)
        assert still_running == [0, 0, 0]
    finally:
        await layer.flush()
        await layer.close_pools()


def test_the_tablets_hear_of_a_redis_outage() -> None:
    """The project's layer tells the sockets' heartbeat (``cardgames.liveness``)
    when Redis goes and comes back: wired in ``config``, which cardgames never
    imports."""
    from cardgames import liveness
    from config import channel_layer

    assert liveness.redis_outage in channel_layer._listeners


async def test_a_message_for_a_closed_redis_channel_is_not_kept() -> None:
    """A message that comes for a socket's channel after the socket ended used
    to stay in the worker for good, in a receive queue nobody read (channels_redis
    issue 384; ``make soak`` on a slowed server found them piling up).
    Once the channel is closed, its queue goes and late messages are dropped;
    the other channels of the worker still get theirs."""
    (layer,) = _redis_layers(1)
    try:
        await layer.flush()
        gone, alive, never_closed = [await layer.new_channel() for _ in range(3)]
        # The stock layer, for a channel never said closed: the late message
        # is filed under it (and would stay).
        await layer.send(never_closed, {"type": "table.close", "n": 0})
        await layer.send(alive, {"type": "table.changed", "n": 1})
        assert await asyncio.wait_for(layer.receive(alive), 2) == {"type": "table.changed", "n": 1}
        assert never_closed in layer.receive_buffer
        # Closed: what was queued for it goes, and what comes later is dropped.
        layer.channel_closed(never_closed)
        layer.channel_closed(gone)
        assert never_closed not in layer.receive_buffer
        await layer.send(gone, {"type": "table.close", "n": 2})
        await layer.send(alive, {"type": "table.changed", "n": 3})
        assert await asyncio.wait_for(layer.receive(alive), 2) == {"type": "table.changed", "n": 3}
        assert gone not in layer.receive_buffer and never_closed not in layer.receive_buffer
        assert list(layer.receive_buffer) == []
    finally:
        await layer.flush()
        await layer.close_pools()


def test_a_closed_channel_is_forgotten_after_its_linger() -> None:
    from config.channel_layer import _ReceiveBuffer

    buffer = _ReceiveBuffer(list, linger=0.05)
    buffer.close("specific.a!1")
    time.sleep(0.1)
    buffer.close("specific.a!2")  # prunes the first, whose linger is over
    assert list(buffer.closed) == ["specific.a!2"]
    buffer["specific.a!1"].append("kept again")  # an unknown channel: kept
    assert buffer["specific.a!1"] == ["kept again"]
    del buffer["specific.a!3"]  # the stock receive may delete a queue never kept


@pytest.mark.django_db(transaction=True)
async def test_a_socket_that_ends_tells_the_layer_its_channel_is_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every project consumer (``GoneSocketMixin``): when its task ends, the
    channel layer hears that its channel is closed."""
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.layers import get_channel_layer
    from channels.testing import WebsocketCommunicator

    from cardgames.dbwork import NoLoopConnectionClose
    from cardgames.gone_sockets import GoneSocketMixin

    closed: list[str] = []
    layer_class = type(get_channel_layer())
    monkeypatch.setattr(layer_class, "channel_closed", closed.append, raising=False)

    class Echo(GoneSocketMixin, NoLoopConnectionClose, AsyncWebsocketConsumer):
        async def connect(self) -> None:
            await self.accept()

    communicator = WebsocketCommunicator(Echo.as_asgi(), "/ws/echo/")
    connected, _ = await communicator.connect()
    assert connected
    await communicator.disconnect()
    assert len(closed) == 1 and closed[0].startswith("specific.")
