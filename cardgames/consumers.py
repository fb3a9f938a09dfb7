"""One websocket per table, for every game: ``ws/table/<table_id>/``.

The consumer is the socket and knows no game. It resolves who the socket is
from the *session* (never from a message: ``services.sockets``), decodes each
message (``wire``), re-checks its access (``revocation.Watch``), hands it to
``services.messages`` and sends back what that says; every change of the table
is answered by re-rendering its own seat's view (``table_screen``), and a
change of seats is followed by ``seat_follow``. Bad input gets a notice in the
socket's language and the socket stays open; the handlers never sleep. How a
move stays cheap (threads, the hub, partial screens): docs/architecture.md.
"""

from __future__ import annotations

import asyncio
import functools
import logging
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
    wire,
)
from cardgames.access import TableAccess
from cardgames.dbwork import NoLoopConnectionClose, db_work
from cardgames.gone_sockets import GoneSocketMixin
from cardgames.i18n import SocketLanguageMixin
from cardgames.live_screens import (
    opening_slots,
    screens_in_flight_drawn,
    screens_queued_drawn,
    shared_snapshot,
)
from cardgames.seat_follow import CLOSE_SEAT_LOST, SeatFollowMixin
from cardgames.services.messages import Reply, message_handle, refusal_say
from cardgames.services.notify import group_send_retried
from cardgames.services.sockets import socket_open, viewer_resolve
from cardgames.snapshot import Snapshot
from cardgames.table_screen import TableScreenMixin

logger = logging.getLogger(__name__)

# Close code sent when the teacher ends the session (the page shows why).
CLOSE_SESSION_ENDED = 4000
CLOSE_SIGNED_OUT = 4002
__all__ = ["CLOSE_SEAT_LOST", "CLOSE_SESSION_ENDED", "CLOSE_SIGNED_OUT", "TableConsumer"]


class AccessLost(Exception):
    """The socket's browser session was signed out since it connected."""


class TableConsumer(
    SocketLanguageMixin,
    GoneSocketMixin,
    NoLoopConnectionClose,
    SeatFollowMixin,
    TableScreenMixin,
    AsyncWebsocketConsumer,
):
    """Every message is handled, and every render made, in the socket's own
    language (``SocketLanguageMixin``); shared renders are keyed by it. Its
    screen (what it shows, what it is sent) is ``TableScreenMixin``'s."""

    table_id: int
    access: TableAccess | None = None
    player_key: str | None = None
    joined: bool = False
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
    # The table that replaced this one, found as a seat's socket opened.
    successor_id: int | None = None
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
        await self._watch_groups(join=True)
        async with opening_slots():
            opened = await db_work(self._open)()
            if opened is None:
                # A missing table and a forbidden one look exactly the same.
                await table_hub.leave(self)
                await self._watch_groups(join=False)
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
        """Who this socket is now, from its browser session (in ``scope``)."""
        viewer = viewer_resolve(
            table_id=self.table_id,
            user=self.scope.get("user"),
            session=self.scope.get("session"),
            read_player_key=read_player_key,
        )
        if viewer is None:
            return None
        self.game, self.player_key = viewer.game, viewer.player_key
        return viewer.access

    def _open(self) -> tuple[Snapshot, Any] | None:
        """On the database thread: access granted (``revocation.Watch.grant``:
        a refused socket writes nothing), then the table read and the seat
        marked present."""
        # The seat's player comes with the table's read (``socket_open``).
        resolve = functools.partial(self._resolve, read_player_key=False)
        access = self.watch.grant(resolve) if self.watch is not None else resolve()
        if access is None:
            return None
        self.access = access
        opened = socket_open(
            table_id=self.table_id, channel_name=self.channel_name, seat=access.seat
        )
        if opened is None:  # pragma: no cover - deleted between two queries
            return None
        self.player_key, self.successor_id = opened.player_key, opened.successor_id
        return opened.snap, opened.next_due

    async def disconnect(self, code: int) -> None:
        if not self.joined:
            if self.stranded:
                await self._watch_groups(join=False)
            return
        on_seat = self.present_on_seat()
        self.joined = False
        liveness.unregister(self)
        if on_seat:
            # First: what the teacher's monitor shows must not wait on the
            # channel layer (the hub's reader may take a moment to stop).
            await db_work(services.seat_connection_close)(channel_name=self.channel_name)
        await table_hub.leave(self)
        await self._watch_groups(join=False)

    async def _watch_groups(self, *, join: bool) -> None:
        """In or out of its browser session's (and account's) groups: signing
        the session out, or the teacher logging out or changing their
        password, closes this socket at once (``revocation``)."""
        layer = self.channel_layer
        for group in self.watch.groups if self.watch is not None else ():
            await (layer.group_add if join else layer.group_discard)(group, self.channel_name)

    def present_on_seat(self) -> bool:
        return self.joined and self.access is not None and self.access.seat is not None

    # ------------------------------------------------------------ input
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Decode, check the budget and the access, hand the message to
        ``services.messages``, and send back what it says."""
        if self.held is not None:
            self.held.drop()  # the child tapped again: the last refusal is read
        if not await self._within_budget():
            return
        if self.stranded:
            return  # no seat here any more: its screen has nothing to tap
        try:
            data = wire.message_decode(text_data, bytes_data)
            reply = await db_work(self._handle_checked)(data)
        except AccessLost:
            await self._goodbye(
                _("Cette tablette a été déconnectée. Merci et à bientôt !"), CLOSE_SIGNED_OUT
            )
            return
        except wire.WireRefused as refused:
            reply = refusal_say(code=refused.code, game=self.game)
        except (OperationalError, InterfaceError):
            # PostgreSQL restarting: the transaction was rolled back whole (or
            # committed, and a resend is "already sent"). One log line per
            # outage (``liveness``), and the child is asked to tap again.
            liveness.database_unreachable()
            reply = Reply(
                notice=_(
                    "Un instant : le serveur se reconnecte. Touche encore dans quelques secondes."
                )
            )
        except Exception:
            # A bug must not drop a child's socket: log it, say something kind.
            logger.exception("table %s: message failed", self.table_id)
            reply = Reply(notice=_("Oups, quelque chose n'a pas marché. Réessaie."))
        await self._reply(reply)

    async def _reply(self, reply: Reply) -> None:
        if not reply.show:
            if reply.notice:
                await self._notice(reply.notice)
            return
        if reply.whole:
            self.shown = screen_units.Shown()  # the tablet asked for everything
        try:
            await self._show(reply.snap, notice=reply.notice, stamp=reply.stamp, own=True)
            self.answered_stamp = reply.stamp
        finally:
            if reply.later:
                # The move's receivers, after the mover's screen and the
                # other screens queued meanwhile: the record then does not
                # share the GIL with them. Run even if the screen failed.
                await screens_queued_drawn()
                sends = await db_work(services.receivers_run)(receivers=reply.later)
                # Made here on the event loop rather than from the database
                # thread (the learning record's push to the monitor); retried
                # like a table's, the move stands.
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
            await self._goodbye(
                _("Oups, trop de touches d'un coup ! Recharge la page pour continuer."),
                socket_budget.CLOSE_TOO_MANY,
            )
        return False

    def _handle_checked(self, data: dict[str, Any]) -> Reply:
        """Re-check access, then handle the message, on the database thread.
        The check is one cache read while the session's generation is
        unchanged; otherwise the access is resolved again from the database
        (the session may be gone: ``revocation.Watch.regrant``)."""
        # Other tables' screens already queued go out before this message is
        # worked on (``live_screens.screens_in_flight_drawn`` says why).
        screens_in_flight_drawn()
        watch = self.watch
        if watch is not None and not watch.current():
            self.access = watch.regrant(self.scope, self._resolve)
            if self.access is None:
                raise AccessLost
        return message_handle(
            table_id=self.table_id,
            game=self.game,
            seat=self._seat(),
            player_key=self.player_key,
            data=data,
        )

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

    async def table_presence(self, event: dict[str, Any]) -> None:
        """Presence is for the teacher's monitor, sent to a group of its own
        (``services.presence_group``); one sent by an older worker during a
        deploy is ignored here."""

    async def table_close(self, event: dict[str, Any]) -> None:
        """The session ended, or this tablet was signed out: said in this
        socket's language (the event carries a code, never a sentence)."""
        if event.get("reason") == revocation.LOGGED_OUT:
            # The teacher's own screen: their login ended (logout, new password).
            message = _("Vous êtes déconnecté. Reconnectez-vous pour continuer.")
            await self._goodbye(message, CLOSE_SIGNED_OUT)
        elif event.get("reason") == revocation.SIGNED_OUT:
            await self._goodbye(
                _("Cette tablette a été déconnectée. Merci et à bientôt !"), CLOSE_SESSION_ENDED
            )
        else:
            await self._goodbye(
                _("La séance est terminée. Merci et à bientôt !"), CLOSE_SESSION_ENDED
            )

    async def _goodbye(self, message: str, code: int) -> None:
        """The socket's last screen says why, then the socket closes."""
        await self._push(rendering.render_closed(message))
        await self.close(code=code)
