"""One websocket per table, for every game: ``ws/table/<table_id>/``.

The consumer knows no game. It resolves who the socket is from the *session*
(never from a message), hands moves to ``services``, and answers every change
of the table by re-rendering its own seat's view from the database. Bad input
gets a French notice and the socket stays open; the handlers never sleep.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils.translation import gettext as _

from cardgames import rendering, revocation, runtime, services, ui
from cardgames.access import TableAccess, resolve_table_access
from cardgames.engines.base import IllegalAction
from cardgames.i18n import SocketLanguageMixin
from cardgames.models import Table
from cardgames.parsing import whole_number

logger = logging.getLogger(__name__)

# Close code sent when the teacher ends the session (the page shows why).
CLOSE_SESSION_ENDED = 4000
CLOSE_SEAT_LOST = 4001
CLOSE_SIGNED_OUT = 4002
# Refusals that mean "your screen is out of date": the fresh one goes with them.
RERENDER_CODES = ("stale", "not_your_turn", "paused", "finished", "seat_changed")


def _parse_int(value: Any) -> int:
    """Form values arrive as strings; anything but a plain whole number is malformed."""
    number = whole_number(value, max_digits=12)
    if number is None:
        raise services.ActionRefused("malformed")
    return number


# One read of a table per broadcast per process. Every socket of a table gets
# the same ``table.changed`` message (same stamp): the first to handle it loads
# the table, the others reuse that read-only snapshot and only render their own
# seat. Keyed by the stamp, so a stale entry can never be served for a new change.
_SHARED_SNAPSHOTS: OrderedDict[tuple[int, str], asyncio.Future[rendering.Snapshot | None]] = (
    OrderedDict()
)
_SHARED_SNAPSHOTS_MAX = 256


async def shared_snapshot(table_id: int, stamp: object) -> rendering.Snapshot | None:
    if not isinstance(stamp, str) or not stamp:
        return await database_sync_to_async(rendering.snapshot)(table_id)
    key = (table_id, stamp)
    future = _SHARED_SNAPSHOTS.get(key)
    if future is None or future.get_loop() is not asyncio.get_running_loop():
        future = asyncio.ensure_future(database_sync_to_async(rendering.snapshot)(table_id))
        _SHARED_SNAPSHOTS[key] = future
        while len(_SHARED_SNAPSHOTS) > _SHARED_SNAPSHOTS_MAX:
            _SHARED_SNAPSHOTS.popitem(last=False)
    return await asyncio.shield(future)


class AccessLost(Exception):
    """The socket's browser session was signed out since it connected."""


class TableConsumer(SocketLanguageMixin, AsyncWebsocketConsumer):
    """Every render runs in the socket's own language (``SocketLanguageMixin``)."""

    table_id: int
    group: str
    access: TableAccess | None = None
    player_key: str | None = None
    joined: bool = False
    rendered_version: int = -1
    game: str = ""
    # The browser session this socket speaks for, and the generation of its
    # access when it was last resolved (see ``cardgames.revocation``).
    session_key: str | None = None
    session_group: str | None = None
    generation: int | None = None

    # ------------------------------------------------------------ lifecycle
    async def connect(self) -> None:
        runtime.remember_loop()
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.group = services.table_group(self.table_id)
        # Join first, read second: a change between the two is then never missed.
        await self.channel_layer.group_add(self.group, self.channel_name)
        session = self.scope.get("session")
        self.session_key = getattr(session, "session_key", None) or None
        if self.session_key:
            # Signing this browser session out closes this socket at once.
            self.session_group = revocation.session_group(self.session_key)
            await self.channel_layer.group_add(self.session_group, self.channel_name)
        opened = await database_sync_to_async(self._open)()
        if opened is None:
            # A missing table and a forbidden one look exactly the same.
            await self.channel_layer.group_discard(self.group, self.channel_name)
            if self.session_group:
                await self.channel_layer.group_discard(self.session_group, self.channel_name)
            await self.close()
            return
        self.joined = True
        html, next_due = opened
        await self.accept()
        await self.send(text_data=html)
        if next_due is not None:
            runtime.schedule(self.table_id, next_due)

    def _resolve(self) -> TableAccess | None:
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            return None
        self.game = table.game
        access = resolve_table_access(
            user=self.scope.get("user"), session=self.scope.get("session"), table=table
        )
        self.player_key = None
        if access is not None and access.seat is not None:
            self.player_key = (
                table.seats.filter(index=access.seat).values_list("player_key", flat=True).first()
            )
        return access

    def _open(self) -> tuple[str, Any] | None:
        if self.session_key:
            self.generation = revocation.session_generation_remember(self.session_key)
        access = self._resolve()
        if access is None:
            return None
        self.access = access
        if access.seat is not None:
            services.seat_presence(table_id=self.table_id, seat=access.seat, delta=1)
        snap = rendering.snapshot(self.table_id)
        if snap is None:  # pragma: no cover - deleted between two queries
            return None
        self.rendered_version = snap.version
        html = rendering.render_fragments(snap, access.seat, steer=self._steers())
        return html, services.table_next_due(table_id=self.table_id)

    async def disconnect(self, code: int) -> None:
        if not self.joined:
            return
        self.joined = False
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.session_group:
            await self.channel_layer.group_discard(self.session_group, self.channel_name)
        if self.access is not None and self.access.seat is not None:
            await database_sync_to_async(services.seat_presence)(
                table_id=self.table_id, seat=self.access.seat, delta=-1
            )

    # ------------------------------------------------------------ input
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            data = self._decode(text_data, bytes_data)
            html = await database_sync_to_async(self._handle_checked)(data)
        except AccessLost:
            await self._push(
                rendering.render_closed(_("Cette tablette a été déconnectée. Merci et à bientôt !"))
            )
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        except services.ActionRefused as refused:
            html = rendering.render_notice(self._say(refused))
        except Exception:
            # A bug must not drop a child's socket: log it, say something kind.
            logger.exception("table %s: message failed", self.table_id)
            html = rendering.render_notice(_("Oups, quelque chose n'a pas marché. Réessaie."))
        if html:
            await self._push(html)

    def _decode(self, text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
        limit = int(settings.WS_MAX_MESSAGE_BYTES)
        if bytes_data is not None or text_data is None:
            raise services.ActionRefused("malformed")
        if len(text_data) > limit or len(text_data.encode("utf-8", "surrogatepass")) > limit:
            raise services.ActionRefused("too_big")
        try:
            data = json.loads(text_data)
        except ValueError as exc:
            raise services.ActionRefused("malformed") from exc
        if not isinstance(data, dict):
            raise services.ActionRefused("malformed")
        return data

    def _handle_checked(self, data: dict[str, Any]) -> str:
        """Re-check access, then handle the message. The check is one cache
        read while the session's generation is unchanged; otherwise the access
        is resolved again from the database (the session may be gone)."""
        if not self._access_current():
            raise AccessLost
        return self._handle(data)

    def _access_current(self) -> bool:
        key = self.session_key
        if not key:
            return True  # no browser session (e.g. a teacher's own login): nothing to revoke
        current = revocation.session_generation(key)
        if current is not None and current == self.generation:
            return True
        from importlib import import_module

        store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
        if not store.exists(key):
            self.access = None
            return False
        self.scope["session"] = store
        self.generation = revocation.session_generation_remember(key)
        access = self._resolve()
        if access is None:
            self.access = None
            return False
        self.access = access
        return True

    def _handle(self, data: dict[str, Any]) -> str:
        """One message, synchronously (database thread). Returns the HTML to send
        to this socket only; applied moves reach everyone via ``table.changed``."""
        kind = data.get("kind")
        if kind == "sync":
            return self._render()
        if kind not in ("choose", "cancel", "act"):
            raise services.ActionRefused("unknown_kind")
        access = self.access
        if access is None or access.seat is None:
            raise services.ActionRefused("spectator")
        seat = access.seat
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            raise services.ActionRefused("finished")
        if kind in ("choose", "cancel") and not ui.get(table.game).two_step:
            # Only a two-step game (a card chosen, then the move) has a choice.
            raise services.ActionRefused("unknown_kind")
        if kind == "cancel":
            services.card_choice_clear(table=table, seat=seat)
            return self._render()
        version = _parse_int(data.get("version"))
        if kind == "choose":
            try:
                services.card_choose(
                    table=table, seat=seat, card=_parse_int(data.get("card")), version=version
                )
            except services.ActionRefused as refused:
                return self._refusal(refused)
            return self._render()
        nonce = data.get("nonce")
        if not isinstance(nonce, str):
            raise services.ActionRefused("malformed")
        try:
            action = ui.get(table.game).form_to_action(data)
        except IllegalAction as exc:
            raise services.ActionRefused(exc.code, game=table.game) from exc
        try:
            services.action_submit(
                table=table,
                seat=seat,
                action=action,
                version=version,
                nonce=nonce,
                player_key=self.player_key,
            )
        except services.ActionRefused as refused:
            if refused.code in RERENDER_CODES:
                return self._refusal(refused)
            # The engine's refusal, in the game's words (some with context).
            text = rendering.refusal_text(rendering.snapshot(self.table_id), seat, refused.code, action)
            return rendering.render_notice(text)
        return ""

    def _refusal(self, refused: services.ActionRefused) -> str:
        # When the screen was out of date, send the fresh one with the notice.
        if refused.code in RERENDER_CODES:
            return self._render(notice=self._say(refused))
        return rendering.render_notice(self._say(refused))

    def _say(self, refused: services.ActionRefused) -> str:
        """The refusal in this table's game's words."""
        return services.refusal_message(code=refused.code, game=refused.game or self.game)

    def _render(self, notice: str = "") -> str:
        snap = rendering.snapshot(self.table_id)
        if snap is None:
            return rendering.render_notice(services.refusal_message(code="finished"))
        announce = self._changed(snap.version)
        seat = self.access.seat if self.access is not None else None
        return rendering.render_fragments(
            snap, seat, notice=notice, steer=self._steers(), announce=announce
        )

    async def _push(self, html: str) -> None:
        """Send unless the tablet has gone meanwhile (it slept mid-render): some
        servers raise on a send after the close, and that is not an error."""
        try:
            await self.send(text_data=html)
        except RuntimeError:
            logger.debug("table %s: socket closed before the update was sent", self.table_id)

    # ------------------------------------------------------------ group events
    async def table_changed(self, event: dict[str, Any]) -> None:
        version = event.get("version")
        if isinstance(version, int) and version < self.rendered_version:
            return  # a newer screen was already sent (updates queued up behind a bot)
        snap = await shared_snapshot(self.table_id, event.get("stamp"))
        html = await database_sync_to_async(self._render_snapshot)(snap)
        await self._push(html)

    def _render_snapshot(self, snap: rendering.Snapshot | None) -> str:
        if snap is None:
            return rendering.render_notice(services.refusal_message(code="finished"))
        announce = self._changed(snap.version)
        seat = self.access.seat if self.access is not None else None
        return rendering.render_fragments(snap, seat, steer=self._steers(), announce=announce)

    def _changed(self, version: int) -> bool:
        """Whether ``version`` is news to this screen (said once, then remembered)."""
        news = 0 <= self.rendered_version < version
        self.rendered_version = max(self.rendered_version, version)
        return news

    def _steers(self) -> bool:
        """Whether this socket's screen offers "Rejouer". Never on a projector
        (``?view=projector``): the class sees the table, not the teacher's buttons."""
        if b"view=projector" in self.scope.get("query_string", b""):
            return False
        access = self.access
        return bool(access is not None and (access.is_teacher or access.steers))

    async def table_presence(self, event: dict[str, Any]) -> None:
        """Presence is for the teacher's monitor; a seat's screen ignores it."""

    async def table_seats_changed(self, event: dict[str, Any]) -> None:
        result = await database_sync_to_async(self._reseat)()
        if result is None:
            await self.send(
                text_data=rendering.render_closed(services.refusal_message(code="seat_changed"))
            )
            await self.close(code=CLOSE_SEAT_LOST)
            return
        await self._push(result)

    def _reseat(self) -> str | None:
        """The teacher moved seats: find out who this socket is now."""
        before = self.access.seat if self.access is not None else None
        access = self._resolve()
        if access is None:
            if before is not None:
                services.seat_presence(table_id=self.table_id, seat=before, delta=-1)
            self.access = None
            return None
        if access.seat != before:
            if before is not None:
                services.seat_presence(table_id=self.table_id, seat=before, delta=-1)
            if access.seat is not None:
                services.seat_presence(table_id=self.table_id, seat=access.seat, delta=1)
        self.access = access
        return self._render()

    async def table_moved(self, event: dict[str, Any]) -> None:
        """A new game of the same players started at another table ("Rejouer"):
        every screen follows. The new table checks access again on connect."""
        new_id = event.get("new_table_id")
        if isinstance(new_id, int):
            await self._push(rendering.render_moved(new_id))

    async def table_close(self, event: dict[str, Any]) -> None:
        message = str(event.get("reason") or _("La séance est terminée. Merci et à bientôt !"))
        await self.send(text_data=rendering.render_closed(message))
        await self.close(code=CLOSE_SESSION_ENDED)
