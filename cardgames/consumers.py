"""One websocket per table, for every game: ``ws/table/<table_id>/``.

The consumer knows no game. It resolves who the socket is from the *session*
(never from a message), hands moves to ``services``, and answers every change
of the table by re-rendering its own seat's view from the database. Bad input
gets a French notice and the socket stays open; the handlers never sleep.

The cost of a move is kept small and off the database threads (``db_work``:
Channels' one thread on SQLite, a few on PostgreSQL):

- that thread only runs moves, bots and connects; the read of a table after a
  change and the rendering of each seat's screen are shared and run on threads
  of their own (``cardgames/live_screens.py``);
- a change reaches the worker once, through its hub (``cardgames/table_hub.py``),
  which draws all the worker's sockets of the table in one job;
- each socket is sent only the parts of its screen that changed
  (``screen_units.Screen.update``): a few KB per move rather than the whole page;
- the pupil who moved gets their new screen in the reply to the move, drawn
  before the broadcast's; what the move makes others write (the learning
  record) waits until it is sent (``services.after_reply``).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import InterfaceError, OperationalError
from django.utils.translation import gettext as _

from cardgames import (
    liveness,
    rendering,
    revocation,
    runtime,
    screen_units,
    services,
    socket_budget,
    table_hub,
    ui,
    wire,
)
from cardgames.access import TableAccess, resolve_table_access
from cardgames.dbwork import NoLoopConnectionClose, db_work
from cardgames.engines.base import IllegalAction
from cardgames.gone_sockets import GoneSocketMixin
from cardgames.i18n import SocketLanguageMixin
from cardgames.live_screens import (
    opening_slots,
    read_snapshot,
    render_screen,
    screens_in_flight_drawn,
    screens_queued_drawn,
    shared_snapshot,
)
from cardgames.models import Table
from cardgames.parsing import whole_number
from cardgames.services.after_reply import Receivers
from cardgames.services.notify import group_send_retried

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


class AccessLost(Exception):
    """The socket's browser session was signed out since it connected."""


@dataclass(frozen=True)
class _Fresh:
    """``_handle``'s answer when the socket must be shown its table again (after
    its own move, a choice, or a refusal on an out-of-date screen)."""

    snap: rendering.Snapshot | None
    notice: str = ""
    whole: bool = False
    # The broadcast of the move this answers: its read and renders are shared.
    stamp: str | None = None
    # The move's receivers (the learning record), run once this screen is sent.
    later: tuple[Receivers, ...] = ()


class TableConsumer(
    SocketLanguageMixin, GoneSocketMixin, NoLoopConnectionClose, AsyncWebsocketConsumer
):
    """Every message is handled, and every render made, in the socket's own
    language (``SocketLanguageMixin``); shared renders are keyed by it."""

    table_id: int
    access: TableAccess | None = None
    player_key: str | None = None
    joined: bool = False
    rendered_version: int = -1
    rendered_status: str = ""
    game: str = ""
    lagging: Any = None
    # The browser session (and teacher account) this socket speaks for, and
    # the generations its access was last resolved under
    # (``cardgames.revocation``: a sign-out, logout or password change).
    watch: revocation.Watch | None = None
    # The broadcast of this socket's own last move, already shown by the reply.
    answered_stamp: str | None = None
    # Messages of this socket being handled now, and the newest table change
    # that came meanwhile (shown when they are done: ``dispatch``).
    busy: int = 0
    missed: dict[str, Any] | None = None
    # The game went on at another table ("Rejouer"): this screen says where,
    # and a late redraw of the old table (its end, drawn meanwhile) must not
    # cover that.
    moved: bool = False
    # The table that replaced this one, found as a seat's socket opened.
    successor_id: int | None = None
    # The refusal this socket was last told, shown on every screen it is sent
    # until the child's next tap (``rendering.HeldNotice``).
    held: rendering.HeldNotice | None = None
    # Its seat was given to someone else (a robot): the screen says so and the
    # socket stays open, out of the table's updates, listening only to its own
    # browser session, until the seat is given back (``pupil_seated``).
    stranded: bool = False

    # ------------------------------------------------------------ lifecycle
    async def connect(self) -> None:
        runtime.remember_loop()
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.shown = screen_units.Shown()
        self.screen_lock = asyncio.Lock()
        # Join first, read second: a change between the two is then never missed
        # (the worker's hub hands it on when this connect is done).
        await table_hub.join(self)
        self.watch = revocation.Watch(self.scope)
        # Signing this browser session out (or the teacher logging out,
        # changing their password) closes this socket at once.
        for group in self.watch.groups:
            await self.channel_layer.group_add(group, self.channel_name)
        async with opening_slots():
            opened = await db_work(self._open)()
            if opened is None:
                # A missing table and a forbidden one look exactly the same.
                await table_hub.leave(self)
                for group in self.watch.groups:
                    await self.channel_layer.group_discard(group, self.channel_name)
                await self.close()
                return
            self.joined = True
            snap, next_due = opened
            await self.accept()
            await self._show(snap)
            if self.successor_id is not None:
                # The game went on while this tablet slept ("Rejouer").
                await self.table_moved({"new_table_id": self.successor_id})
        liveness.register(self)
        if next_due is not None:
            runtime.schedule(self.table_id, next_due)

    def _resolve(self, *, read_player_key: bool = True) -> TableAccess | None:
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            return None
        self.game = table.game
        access = resolve_table_access(
            user=self.scope.get("user"), session=self.scope.get("session"), table=table
        )
        self.player_key = None
        if read_player_key and access is not None and access.seat is not None:
            self.player_key = (
                table.seats.filter(index=access.seat).values_list("player_key", flat=True).first()
            )
        return access

    def _open(self) -> tuple[rendering.Snapshot, Any] | None:
        watch = self.watch
        if watch is not None:
            watch.begin()  # a read: a refused socket writes nothing
        # The seat's player and row id come with the table's read below.
        access = self._resolve(read_player_key=False)
        if access is None:
            return None
        if watch is not None:
            watch.settle()
        self.access = access
        snap = rendering.snapshot(self.table_id)
        if snap is None:  # pragma: no cover - deleted between two queries
            return None
        if access.seat is not None:
            row = next((seat for seat in snap.seats if seat.index == access.seat), None)
            self.player_key = row.player_key if row is not None else None
            services.seat_connection_open(
                table_id=self.table_id,
                seat=access.seat,
                channel_name=self.channel_name,
                seat_id=row.pk if row is not None else None,
            )
        if snap.table.status == Table.Status.FINISHED and access.seat is not None:
            successor = services.table_successor(table=snap.table)
            self.successor_id = successor.pk if successor is not None else None
        return snap, services.table_next_due(table_id=self.table_id, snap=snap)

    async def disconnect(self, code: int) -> None:
        if not self.joined:
            if self.stranded:
                for group in self.watch.groups if self.watch is not None else ():
                    await self.channel_layer.group_discard(group, self.channel_name)
            return
        on_seat = self.present_on_seat()
        self.joined = False
        liveness.unregister(self)
        if on_seat:
            # First: what the teacher's monitor shows must not wait on the
            # channel layer (the hub's reader may take a moment to stop).
            await db_work(services.seat_connection_close)(
                channel_name=self.channel_name
            )
        await table_hub.leave(self)
        for group in self.watch.groups if self.watch is not None else ():
            await self.channel_layer.group_discard(group, self.channel_name)

    def present_on_seat(self) -> bool:
        return self.joined and self.access is not None and self.access.seat is not None

    # ------------------------------------------------------------ output
    def _seat(self) -> int | None:
        return self.access.seat if self.access is not None else None

    async def _show(
        self,
        snap: rendering.Snapshot | None,
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

    def viewer(self) -> tuple[int | None, bool]:
        """Whose screen this socket shows: its seat, and whether it steers."""
        return self._seat(), self._steers()

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

    async def resync(self) -> None:
        """The heartbeat found this screen behind the table: show it again."""
        if self.joined:
            await self._show(await read_snapshot(self.table_id))

    # ------------------------------------------------------------ input
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.held is not None:
            self.held.drop()  # the child tapped again: the last refusal is read
        if not await self._within_budget():
            return
        if self.stranded:
            return  # no seat here any more: its screen has nothing to tap
        try:
            data = self._decode(text_data, bytes_data)
            answer = await db_work(self._handle_checked)(data)
        except AccessLost:
            await self._push(
                rendering.render_closed(_("Cette tablette a été déconnectée. Merci et à bientôt !"))
            )
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        except services.ActionRefused as refused:
            answer = self._say(refused)
        except (OperationalError, InterfaceError):
            # PostgreSQL restarting: the transaction was rolled back whole (or
            # committed, and a resend is "already sent"). One log line per
            # outage (``liveness``), and the child is asked to tap again.
            liveness.database_unreachable()
            answer = _("Un instant : le serveur se reconnecte. Touche encore dans quelques secondes.")
        except Exception:
            # A bug must not drop a child's socket: log it, say something kind.
            logger.exception("table %s: message failed", self.table_id)
            answer = _("Oups, quelque chose n'a pas marché. Réessaie.")
        if isinstance(answer, _Fresh):
            if answer.whole:
                self.shown = screen_units.Shown()  # the tablet asked for everything
            try:
                await self._show(answer.snap, notice=answer.notice, stamp=answer.stamp, own=True)
                self.answered_stamp = answer.stamp
            finally:
                if answer.later:
                    # The move's receivers, after the mover's screen and the
                    # other screens queued meanwhile: the record then does not
                    # share the GIL with them. Run even if the screen failed.
                    await screens_queued_drawn()
                    sends = await db_work(services.receivers_run)(receivers=answer.later)
                    await self._group_sends(sends)
        elif answer:
            await self._notice(answer)

    async def _group_sends(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
        """The sends the move's receivers left to this handler (the learning
        record's push to the monitor), made here on the event loop rather than
        from the database thread; retried like a table's, the move stands."""
        for group, message in sends:
            await group_send_retried(self.table_id, message, group)

    async def _within_budget(self) -> bool:
        """This socket's message budget (``cardgames.socket_budget``), spent on
        the event loop before any parsing or database work: a flood is refused
        without a transaction, a child mashing the screen is told gently, and a
        sustained flood closes the socket."""
        verdict = socket_budget.take(self)
        if verdict is socket_budget.Verdict.ALLOWED:
            return True
        if verdict is socket_budget.Verdict.SLOW_DOWN:
            await self._notice(_("Doucement ! Attends un petit peu, puis touche encore."))
        elif verdict is socket_budget.Verdict.CLOSE:
            await self._push(
                rendering.render_closed(
                    _("Oups, trop de touches d'un coup ! Recharge la page pour continuer.")
                )
            )
            await self.close(code=socket_budget.CLOSE_TOO_MANY)
        return False

    def _decode(self, text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
        """The message as a dict (``cardgames.wire``: size, JSON, depth), or the
        refusal in this game's words."""
        if bytes_data is not None:
            raise services.ActionRefused("malformed")
        try:
            return wire.message_parse(text_data)
        except wire.WireRefused as refused:
            raise services.ActionRefused(refused.code) from None

    def _handle_checked(self, data: dict[str, Any]) -> _Fresh | str:
        """Re-check access, then handle the message. The check is one cache
        read while the session's generation is unchanged; otherwise the access
        is resolved again from the database (the session may be gone)."""
        # Other tables' screens already queued go out before this message is
        # worked on (``live_screens.screens_in_flight_drawn`` says why).
        screens_in_flight_drawn()
        if not self._access_current():
            raise AccessLost
        return self._handle(data)

    def _access_current(self) -> bool:
        watch = self.watch
        if watch is None or watch.current():
            return True  # nothing revoked since access was resolved: one cache read
        # Signed out, logged out, password changed? Ask the database again:
        # the session (and the teacher's account) first, then the seat.
        watch.begin()
        if not watch.recheck(self.scope):
            self.access = None
            return False
        access = self._resolve()
        if access is not None:
            watch.settle()
        if access is None:
            self.access = None
            return False
        self.access = access
        return True

    def _handle(self, data: dict[str, Any]) -> _Fresh | str:
        """One message, on the database thread: only database work here. Returns
        a refusal to say, or ``_Fresh`` when this socket must see the table again
        (rendered afterwards, off this thread). After an applied move that is the
        mover's own new screen, sent before the broadcast reaches the others."""
        kind = data.get("kind")
        if kind == "sync":
            return _Fresh(rendering.snapshot(self.table_id), whole=True)
        if kind not in ("choose", "cancel", "act", "answer"):
            raise services.ActionRefused("unknown_kind")
        access = self.access
        if access is None or access.seat is None:
            raise services.ActionRefused("spectator")
        seat = access.seat
        # The services need the table's id and game, both known since connect:
        # no read here (they lock and check the table themselves).
        table = Table(pk=self.table_id, game=self.game)
        if kind in ("choose", "cancel") and not ui.get(self.game).two_step:
            # Only a two-step game (a card chosen, then the move) has a choice.
            raise services.ActionRefused("unknown_kind")
        if kind == "cancel":
            services.card_choice_clear(table=table, seat=seat)
            return self._fresh()
        if kind == "answer":
            # After the game: the seat's answer to the game's own question.
            try:
                services.end_answer_submit(
                    table_id=table.pk, seat=seat, answer=data.get("answer"), player_key=self.player_key
                )
            except services.ActionRefused as refused:
                return self._refusal(refused)
            return self._fresh()
        version = _parse_int(data.get("version"))
        if kind == "choose":
            card = _parse_int(data.get("card"))
            # One read, for the choice and for the screen it opens.
            snap = rendering.snapshot(self.table_id)
            try:
                services.card_choose(table=table, seat=seat, card=card, version=version, snap=snap)
            except services.ActionRefused as refused:
                return self._refusal(refused, snap)
            return _Fresh(snap)
        nonce = data.get("nonce")
        if not isinstance(nonce, str):
            raise services.ActionRefused("malformed")
        try:
            action = ui.get(table.game).form_to_action(data)
        except IllegalAction as exc:
            raise services.ActionRefused(exc.code, game=table.game) from exc
        try:
            # The move's receivers wait for the mover's screen (``receive``).
            with services.receivers_after_reply() as later:
                result = services.action_submit(
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
            return rendering.refusal_text(rendering.snapshot(self.table_id), seat, refused.code, action)
        stamp = services.broadcast_stamp_take(table_id=self.table_id)
        # The mover's new screen is drawn from the table as the move committed
        # it (no second read): the very snapshot the broadcast's sockets here
        # draw from, so their screens share its parts.
        return _Fresh(result.snapshot, stamp=stamp, later=tuple(later))

    def _refusal(
        self, refused: services.ActionRefused, snap: rendering.Snapshot | None = None
    ) -> _Fresh | str:
        # When the screen was out of date, send the fresh one with the notice
        # (``snap`` when the table was read just now).
        if refused.code in RERENDER_CODES:
            if snap is not None:
                return _Fresh(snap, self._say(refused))
            return self._fresh(notice=self._say(refused))
        return self._say(refused)

    def _say(self, refused: services.ActionRefused) -> str:
        """The refusal in this table's game's words."""
        return services.refusal_message(code=refused.code, game=refused.game or self.game)

    def _fresh(self, notice: str = "") -> _Fresh:
        return _Fresh(rendering.snapshot(self.table_id), notice)

    async def _push(self, html: str) -> None:
        """Send; a tablet gone meanwhile (it slept mid-render) is not an error
        (``GoneSocketMixin``)."""
        await self.send(text_data=html)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """However this socket's task ends (closed, failed, cancelled by a
        server shutting down), it leaves the worker's sockets of its table."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            if getattr(self, "table_id", None) is not None:
                await table_hub.leave(self)

    async def dispatch(self, message: Any) -> None:
        """One message of this socket at a time, as Channels hands them over.
        A table change that comes meanwhile through the worker's hub waits for
        it (``missed``), as it waited when the socket got changes in turn: the
        mover's reply is then shown before anything else, and the change of
        the mover's own move is not drawn again."""
        self.busy += 1
        try:
            await super().dispatch(message)
        finally:
            self.busy -= 1
        if not self.busy and self.missed is not None and self.joined:
            missed, self.missed = self.missed, None
            await super().dispatch(missed)

    # ------------------------------------------------------------ group events
    async def table_changed(self, event: dict[str, Any]) -> None:
        """A change kept while this socket was busy (``dispatch``), checked
        again now: its own move or a newer screen may have come meanwhile."""
        if not table_hub.behind(self, event):
            return
        stamp = event.get("stamp")
        await self._show(await shared_snapshot(self.table_id, stamp), stamp=stamp)

    def _steers(self) -> bool:
        """Whether this socket's screen offers "Rejouer". Never on a projector
        (``?view=projector``): the class sees the table, not the teacher's buttons."""
        if b"view=projector" in self.scope.get("query_string", b""):
            return False
        access = self.access
        return bool(access is not None and (access.is_teacher or access.steers))

    async def table_presence(self, event: dict[str, Any]) -> None:
        """Presence is for the teacher's monitor, sent to a group of its own
        (``services.presence_group``); one sent by an older worker during a
        deploy is ignored here."""

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
                async with self.screen_lock:
                    self.moved = True
                    await self._push(rendering.render_moved(table_id))
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

    def _reseat(self) -> rendering.Snapshot | None:
        """The teacher moved seats: find out who this socket is now."""
        before = self.access.seat if self.access is not None else None
        access = self._resolve()
        if before is not None and (access is None or access.seat != before):
            services.seat_connection_close(channel_name=self.channel_name)
        if access is None:
            self.access = None
            return None
        if access.seat != before and access.seat is not None:
            services.seat_connection_open(
                table_id=self.table_id, seat=access.seat, channel_name=self.channel_name
            )
        self.access = access
        return rendering.snapshot(self.table_id)

    async def table_moved(self, event: dict[str, Any]) -> None:
        """A new game of the same players started at another table ("Rejouer"):
        every screen follows. The new table checks access again on connect."""
        new_id = event.get("new_table_id")
        if isinstance(new_id, int):
            projector = b"view=projector" in self.scope.get("query_string", b"")
            async with self.screen_lock:
                self.moved = True
                await self._push(rendering.render_moved(new_id, projector=projector))

    async def table_close(self, event: dict[str, Any]) -> None:
        """The session ended, or this tablet was signed out: said in this
        socket's language (the event carries a code, never a sentence)."""
        if event.get("reason") == revocation.LOGGED_OUT:
            # The teacher's own screen: their login ended (logout, new password).
            message = _("Vous êtes déconnecté. Reconnectez-vous pour continuer.")
            await self._push(rendering.render_closed(message))
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        if event.get("reason") == revocation.SIGNED_OUT:
            message = _("Cette tablette a été déconnectée. Merci et à bientôt !")
        else:
            message = _("La séance est terminée. Merci et à bientôt !")
        await self._push(rendering.render_closed(message))
        await self.close(code=CLOSE_SESSION_ENDED)
