"""One table socket's screen: what it shows now, and bringing it up to a table.

A socket is sent only what changed since its last screen
(``screen_units.Screen.update``), never an older screen than the one it shows
(a resync may race a broadcast), and a refusal it was told stays on it until
the child's next tap (``rendering.HeldNotice``). The rendering itself runs off
the event loop (``cardgames/live_screens.py``).

``consumers.TableConsumer`` is the socket; this is its screen, kept apart so
that the consumer keeps only the socket: its connection, its messages and its
group events.
"""

from __future__ import annotations

import asyncio
from typing import Any

from cardgames import rendering, screen_units, services
from cardgames.access import TableAccess
from cardgames.live_screens import read_snapshot, render_screen
from cardgames.snapshot import Snapshot


class TableScreenMixin:
    """The screen half of a table socket (``TableConsumer``)."""

    table_id: int
    scope: Any
    access: TableAccess | None = None
    joined: bool = False
    stranded: bool = False
    rendered_version: int = -1
    rendered_status: str = ""
    # The game went on at another table ("Rejouer"): this screen says where,
    # and a late redraw of the old table (its end, drawn meanwhile) must not
    # cover that.
    moved: bool = False
    # The refusal this socket was last told, shown on every screen it is sent
    # until the child's next tap (``rendering.HeldNotice``).
    held: rendering.HeldNotice | None = None
    shown: screen_units.Shown
    screen_lock: asyncio.Lock

    def _seat(self) -> int | None:
        return self.access.seat if self.access is not None else None

    def _steers(self) -> bool:
        """Whether this socket's screen offers "Rejouer". Never on a projector
        (``?view=projector``): the class sees the table, not the teacher's buttons."""
        if b"view=projector" in self.scope.get("query_string", b""):
            return False
        access = self.access
        return bool(access is not None and (access.is_teacher or access.steers))

    def viewer(self) -> tuple[int | None, bool]:
        """Whose screen this socket shows: its seat, and whether it steers."""
        return self._seat(), self._steers()

    async def _show(
        self,
        snap: Snapshot | None,
        *,
        notice: str = "",
        stamp: object = None,
        own: bool = False,
    ) -> None:
        """Bring this socket's screen to ``snap``: only what changed is sent.
        Rendering runs on the render thread (``own``: this socket's answer to
        its own message, drawn first); a screen older than the one already
        shown is dropped (a resync may race a broadcast)."""
        if snap is None:  # the table was deleted
            await self._notice(services.refusal_message(code="finished"))
            return
        screen = await render_screen(
            snap, stamp=stamp, seat=self._seat(), steer=self._steers(), notice=notice, own=own
        )
        if notice:
            self._hold(notice)
        await self.screen_send(screen)

    async def screen_send(self, screen: screen_units.Screen | None) -> None:
        """Send what changed between this socket's screen and ``screen``
        (``None``: the table was deleted)."""
        if screen is None:
            await self._notice(services.refusal_message(code="finished"))
            return
        async with self.screen_lock:
            if screen.version < self.rendered_version or self.moved or self.stranded:
                return  # older, or this socket no longer shows the table
            self.rendered_version = screen.version
            self.rendered_status = screen.status
            if self.held is not None and (kept := self.held.current()):
                screen = rendering.notice_keep(screen, kept)
            message = screen.update(self.shown)
            if message:
                await self._push(message)

    async def _notice(self, message: str) -> None:
        """Only the notice line changes; the next screen update redraws it
        (with the refusal kept until the child's next tap)."""
        self.shown.units.pop("table-notice", None)
        self._hold(message)
        await self._push(rendering.render_notice(message))

    def _hold(self, message: str) -> None:
        if self.held is None:
            self.held = rendering.HeldNotice()
        self.held.hold(message)

    async def moved_to(self, table_id: int, *, projector: bool = False) -> None:
        """The game goes on at ``table_id`` ("Rejouer"): this screen says
        where, and no late redraw of the old table covers that."""
        async with self.screen_lock:
            self.moved = True
            await self._push(rendering.render_moved(table_id, projector=projector))

    async def resync(self) -> None:
        """The heartbeat found this screen behind the table: show it again."""
        if self.joined:
            await self._show(await read_snapshot(self.table_id))

    async def _push(self, html: str) -> None:
        """Send; a tablet gone meanwhile (it slept mid-render) is not an error
        (``GoneSocketMixin``)."""
        await self.send(text_data=html)  # type: ignore[attr-defined]
