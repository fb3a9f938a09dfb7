"""One subscription per worker and table: a table's events reach a worker once,
and its table sockets there are drawn together.

A worker's table sockets do not join their table's channel-layer group one by
one. The worker's *hub* (one channel per event loop) joins the group of every
table it has a socket of, and hands each event to that table's sockets here:

- ``table.changed`` (a move): the table is read once (``shared_snapshot``), the
  screens of all its sockets in this worker are drawn in **one** job on the
  render thread, then each socket is sent what changed on its screen;
- any other event (seats moved, "Rejouer", the session ended) is forwarded to
  each socket's own channel, and handled there as before (they are rare).

Why: as members of the group, each socket received its own copy of every move
and Channels woke it (a task, a wait, a dispatch) only for it to ask for the
same read and a render of its own on the render thread. That per-socket
machinery was a large share of the event loop's time (``docs/performance.md``),
and each screen was a separate trip to the render thread.
On Redis, a move is also one message per worker instead of one per socket.

A socket that is busy with a message of its own (its move, its connect) when a
change comes is not drawn by the hub: the change is kept on the socket and
shown when that message is done (``TableConsumer.dispatch``), as it was when
each socket handled its changes in turn. The mover's own move is shown by the
reply and is not drawn again.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass, field
from typing import Any, Protocol

from channels.layers import BaseChannelLayer
from django.conf import settings

from cardgames import screen_units, services
from cardgames.live_screens import render_screens, screens_later, shared_snapshot

logger = logging.getLogger(__name__)


class HubSocket(Protocol):
    """What the hub needs of a table socket (``consumers.TableConsumer``)."""

    table_id: int
    channel_name: str
    channel_layer: Any
    joined: bool
    busy: int
    rendered_version: int
    answered_stamp: str | None
    missed: dict[str, Any] | None
    language: str

    def viewer(self) -> tuple[int | None, bool]: ...

    async def screen_send(self, screen: screen_units.Screen | None) -> None: ...


@dataclass
class _Hub:
    layer: BaseChannelLayer
    channel: str
    tables: dict[int, set[HubSocket]] = field(default_factory=dict)
    locks: dict[int, asyncio.Lock] = field(default_factory=dict)
    reader: asyncio.Task[None] | None = None
    # The reader last stopped: the next one waits for it to finish first (two
    # receives on one channel at once would confuse channels_redis' buffers).
    stopped: asyncio.Task[None] | None = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self.locks.get(table_id)
        if lock is None:
            lock = self.locks[table_id] = asyncio.Lock()
        return lock


# The hubs of each event loop, one per channel layer (an alias other than the
# default, as a test's "other worker" uses, gets a hub of its own).
_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Any, _Hub]] = (
    weakref.WeakKeyDictionary()
)
_starting: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


def _loop_hubs() -> dict[Any, _Hub]:
    loop = asyncio.get_running_loop()
    hubs = _hubs.get(loop)
    if hubs is None:
        hubs = _hubs[loop] = {}
    return hubs


def _starting_lock() -> asyncio.Lock:
    """Serialises the making of this loop's hubs (one channel each)."""
    loop = asyncio.get_running_loop()
    lock = _starting.get(loop)
    if lock is None:
        lock = _starting[loop] = asyncio.Lock()
    return lock


async def _hub(layer: BaseChannelLayer) -> _Hub:
    """This event loop's hub on ``layer``, its channel made once."""
    hubs = _loop_hubs()
    hub = hubs.get(layer)
    if hub is not None:
        return hub
    async with _starting_lock():
        hub = hubs.get(layer)
        if hub is None:
            # The layer's usual name for a channel of this process: channels_redis
            # reads all of them with one blocking pop on one key, so a channel
            # named otherwise waited for the others' pops to time out (seconds).
            hub = hubs[layer] = _Hub(layer=layer, channel=await layer.new_channel())
        return hub


def _reader_ensure(hub: _Hub) -> None:
    if hub.reader is None or hub.reader.done():
        hub.reader = asyncio.get_running_loop().create_task(_read(hub, hub.stopped))


def _reader_stop(hub: _Hub) -> asyncio.Task[None] | None:
    """No socket left on this hub: stop reading, at once (no await: this runs
    in a socket's last moments, maybe as its event loop shuts down). A pending
    ``receive`` holds channels_redis' receive locks, bound to this loop; left
    pending it outlived a test's loop and refused the next test's sockets."""
    reader = hub.reader
    if reader is not None:
        reader.cancel()
        hub.stopped, hub.reader = reader, None
    return reader


async def _stopped(reader: asyncio.Task[None]) -> None:
    """Wait for a cancelled reader to end, cancelling it again while it reads on.

    A ``cancel()`` used to be lost inside channels_redis' receive (seen in 2 of
    14 runs; a second ``cancel()`` always ended it): the reader went on waiting
    in ``BZPOPMIN`` for up to its 5 s, so the last socket's ``disconnect`` hung
    that long, and a test's communicator gave up after 1 s before the socket's
    presence row was deleted. The cause, Python 3.11's ``asyncio.wait_for``
    inside redis-py's send, is now mended where it happens
    (``config.channel_layer.CancelSafeConnection``); this stays as the guard
    that a socket's ``disconnect`` never hangs on a reader, whatever the layer."""
    while not reader.done():
        await asyncio.wait([reader], timeout=0.05)
        if not reader.done():
            reader.cancel()


async def join(socket: HubSocket) -> None:
    """From the socket's connect, before it reads its table: every change
    committed after this returns reaches it (join first, read second)."""
    hub = await _hub(socket.channel_layer)
    hub.tables.setdefault(socket.table_id, set()).add(socket)
    _reader_ensure(hub)
    async with hub.lock(socket.table_id):
        # On every join, not only the table's first: an idempotent add that
        # also renews the membership's expiry on Redis.
        await hub.layer.group_add(services.table_group(socket.table_id), hub.channel)


async def leave(socket: HubSocket) -> None:
    """From the socket's end: the last socket of a table takes the worker out
    of the table's group, the last of all stops the hub's reader."""
    hub = _loop_hubs().get(socket.channel_layer)
    members = hub.tables.get(socket.table_id) if hub is not None else None
    if hub is None or members is None or socket not in members:
        return
    members.discard(socket)
    if members:
        return
    del hub.tables[socket.table_id]
    stopped = _reader_stop(hub) if not hub.tables else None
    lock = hub.lock(socket.table_id)
    async with lock:
        if socket.table_id not in hub.tables:  # nobody of the table joined meanwhile
            await hub.layer.group_discard(services.table_group(socket.table_id), hub.channel)
    if socket.table_id not in hub.tables and not lock.locked():
        hub.locks.pop(socket.table_id, None)  # a worker sees many tables in a day
    if stopped is not None:
        # Its receive is cleaned up before this socket's task ends, as a
        # socket's own receive is (Channels awaits it): the loop may stop next.
        await _stopped(stopped)


async def _read(hub: _Hub, previous: asyncio.Task[None] | None) -> None:
    """The hub's reader: one event at a time off its channel, each handled in a
    task of its own (a table's screens never wait behind another table's)."""
    if previous is not None:
        # The reader stopped by the last socket that left (``leave``), which
        # may itself have been cancelled before that reader ended.
        await _stopped(previous)
    while True:
        try:
            event = await hub.layer.receive(hub.channel)
        except asyncio.CancelledError:
            raise
        except Exception:
            # The layer is down (Redis restarting): the heartbeat resyncs the
            # screens meanwhile; try again shortly.
            logger.exception("table hub: receive failed")
            await asyncio.sleep(0.5)
            continue
        table_id = event.get("table_id")
        if not isinstance(table_id, int):
            continue
        task = asyncio.get_running_loop().create_task(_deliver(hub, table_id, event))
        hub.tasks.add(task)
        task.add_done_callback(hub.tasks.discard)


async def _deliver(hub: _Hub, table_id: int, event: dict[str, Any]) -> None:
    try:
        if event.get("type") == "table.changed":
            await _changed(hub, table_id, event)
        elif event.get("type") != "table.presence":  # the monitor's, not a tablet's
            for socket in list(hub.tables.get(table_id, ())):
                await hub.layer.send(socket.channel_name, event)
    except Exception:
        # A lost update delays a screen until the heartbeat, never freezes it.
        logger.exception("table %s: %s not shown", table_id, event.get("type"))


def behind(socket: HubSocket, event: dict[str, Any]) -> bool:
    """Whether ``socket`` must still be shown the change ``event``: not when a
    newer screen was already sent (updates queued up behind a robot), nor for
    the socket's own move, which its reply showed (drawn again, it only found
    nothing to send). Asked by the hub and by a socket handed a change late."""
    version = event.get("version")
    if isinstance(version, int) and version < socket.rendered_version:
        return False
    stamp = event.get("stamp")
    return stamp is None or stamp != socket.answered_stamp


async def _changed(hub: _Hub, table_id: int, event: dict[str, Any]) -> None:
    """Draw the change on every socket of the table here that is behind it."""
    stamp = event.get("stamp")
    targets = []
    for socket in hub.tables.get(table_id, ()):
        if not behind(socket, event):
            continue
        if socket.busy:
            # Shown when the socket's own message (its connect, its move) is
            # done; the newest change is kept.
            if socket.missed is None or _newer(event, socket.missed):
                socket.missed = event
            continue
        if socket.joined:
            targets.append(socket)
    if not targets:
        return
    snap = await shared_snapshot(table_id, stamp)
    if snap is None:
        for socket in targets:
            await socket.screen_send(None)
        return
    viewers = [(*socket.viewer(), socket.language or settings.LANGUAGE_CODE) for socket in targets]
    if event.get("robot"):
        # Behind any pupil's screens, one at a time (``screens_later``).
        later = screens_later(snap, stamp=stamp, viewers=viewers)
        for socket, pending in zip(targets, later, strict=True):
            (screen,) = await pending
            await socket.screen_send(screen)
        return
    screens = await render_screens(snap, stamp=stamp, viewers=viewers)
    for socket, screen in zip(targets, screens, strict=True):
        await socket.screen_send(screen)


def _newer(event: dict[str, Any], than: dict[str, Any]) -> bool:
    version, kept = event.get("version"), than.get("version")
    return not isinstance(kept, int) or (isinstance(version, int) and version >= kept)
