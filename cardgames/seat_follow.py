"""A table socket following its player's seat: the teacher moved seats, gave
a seat to a robot and back, or started a new game of the same players
("Rejouer"). Kept apart from the socket's lifecycle (``cardgames.consumers``)
because it is the one part that decides, from the session, which table and
seat a tablet now shows."""

from __future__ import annotations

from typing import Any

from cardgames import liveness, rendering, screen_units, services, table_hub
from cardgames.dbwork import db_work
from cardgames.models import Table
from cardgames.services.sockets import socket_reseat
from cardgames.snapshot import Snapshot, snapshot

# Close code sent when the seat is gone for good (the page shows why).
CLOSE_SEAT_LOST = 4001


class SeatFollowMixin:
    """The group events about seats, for ``TableConsumer``: it provides the
    socket (``_resolve``, ``_open``, ``_seat``, ``_show``, ``_push``,
    ``moved_to``, ``close``) and the state these handlers change."""

    table_id: int
    access: Any
    joined: bool
    stranded: bool
    watch: Any
    channel_name: str
    scope: Any
    shown: Any
    rendered_version: int
    rendered_status: Any

    async def table_seats_changed(self, event: dict[str, Any]) -> None:
        result = await db_work(self._reseat)()
        if result is None:
            await self._push(rendering.render_closed(services.refusal_message(code="seat_changed")))
            if self.watch is not None and self.watch.groups and self.joined:
                await self._strand()
                return
            await self.close(code=CLOSE_SEAT_LOST)
            return
        await self._show(result)

    async def _strand(self) -> None:
        """The seat went to someone else: out of the table's updates (a tablet
        only sees what its seat may know), but still listening to its browser
        session. The child was left on "Cette place a été donnée à quelqu'un
        d'autre." even after the teacher gave the place back."""
        self.stranded = True
        self.joined = False
        liveness.unregister(self)
        await table_hub.leave(self)

    async def pupil_seated(self, event: dict[str, Any]) -> None:
        """This tablet's player has a seat at ``table_id`` (the teacher gave
        the place back, or a new table started): a stranded screen sits down
        again here; a finished game's screen goes to the new table, as after
        "Rejouer". A screen still playing has nothing to do."""
        table_id = event.get("table_id")
        if not isinstance(table_id, int):
            return
        if table_id != self.table_id:
            if self.stranded or self.rendered_status == Table.Status.FINISHED:
                await self.moved_to(table_id)
            return
        if not self.stranded:
            return
        await table_hub.join(self)
        opened = await db_work(self._open)()
        if opened is None:
            await table_hub.leave(self)
            return
        self.stranded, self.joined = False, True
        self.shown = screen_units.Shown()  # the whole screen again, as on connect
        self.rendered_version = -1
        liveness.register(self)
        await self._show(opened[0])

    def _reseat(self) -> Snapshot | None:
        """The teacher moved seats: find out who this socket is now."""
        before = self._seat()
        self.access = self._resolve()
        socket_reseat(
            table_id=self.table_id,
            channel_name=self.channel_name,
            before=before,
            after=self._seat(),
        )
        return snapshot(self.table_id) if self.access is not None else None

    async def table_moved(self, event: dict[str, Any]) -> None:
        """A new game of the same players started at another table ("Rejouer"):
        every screen follows. The new table checks access again on connect."""
        new_id = event.get("new_table_id")
        if isinstance(new_id, int):
            await self.moved_to(
                new_id, projector=b"view=projector" in self.scope.get("query_string", b"")
            )
