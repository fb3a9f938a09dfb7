"""The in-memory channel layer of the embedded default: the stock layer with a
cheaper expiry sweep, which must still deliver and still expire."""

from __future__ import annotations

import asyncio
import contextlib
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
