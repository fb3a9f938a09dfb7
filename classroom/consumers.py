"""Live classroom pages over websockets: the projector, the lobby and the
teacher's monitor.

Each consumer receives only "something changed" from the channel layer and
renders *its own* HTML from the database, so nothing lives only in a
process's memory and a reconnect always gets the whole current picture. The
HTML carries ``id`` + ``hx-swap-oob`` and htmx's ws extension swaps it in.

Who may connect is decided by ``classroom.access``; a refused connection is
closed exactly like one to a missing session.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import Http404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from cardgames import engines, revocation, socket_budget
from cardgames import services as cardgames_services
from cardgames.consumers import CLOSE_SIGNED_OUT
from cardgames.gone_sockets import GoneSocketMixin
from cardgames.i18n import SocketLanguageMixin
from cardgames.wire import WireRefused, message_decode
from classroom import access, selectors, services
from classroom.live_help import KEEP, HelpMark, RecentPlay, needs_help
from classroom.models import ClassSession
from classroom.pictures import avatar_url
from classroom.selectors.monitor import (
    free_pupils,
    monitor_context,
    recent_plays,
    session_tables,
    table_card_context,
)
from classroom.services.events import monitor_group
from classroom.services.monitor import MonitorRefused, monitor_act

logger = logging.getLogger(__name__)


class _LivePage(SocketLanguageMixin, GoneSocketMixin, AsyncWebsocketConsumer):
    """A page that listens to one channel group and, on each event, redraws
    itself from the database, in the socket's own language. What the client
    sends is ignored."""

    group_name = ""

    def _group(self) -> str | None:
        """The group to join, or ``None`` to close the socket (runs in a thread)."""
        raise NotImplementedError

    def _render(self) -> str:
        raise NotImplementedError

    async def connect(self) -> None:
        group = await database_sync_to_async(self._group)()
        if group is None:
            await self.close()
            return
        self.group_name = group
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()
        await self.redraw()

    async def disconnect(self, code: int) -> None:
        if self.group_name:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """These pages only listen: what comes is dropped unread, and a socket
        that keeps sending anyway (``cardgames.socket_budget``) is closed."""
        if socket_budget.take(self) is socket_budget.Verdict.CLOSE:
            await self.close(code=socket_budget.CLOSE_TOO_MANY)

    async def redraw(self, event: dict[str, Any] | None = None) -> None:
        await self.send(text_data=await database_sync_to_async(self._render)())


class ProjectorConsumer(revocation.WatchedSocketMixin, _LivePage):
    """``ws/projector/<session_id>/``: the class session's joined pupils, for the
    projector, and (``?view=teacher``) the tablets, locks and grouping board
    for the teacher's session page. Teacher of that class only, for as long
    as that teacher stays logged in (``WatchedSocketMixin``)."""

    session_id: int

    async def connect(self) -> None:
        await super().connect()
        if self.group_name:
            await self.watch_join()

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        await self.watch_leave()

    def _group(self) -> str | None:
        return self.watch_open(self._teacher_group)

    def _teacher_group(self) -> str | None:
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.teacher_view = query.get("view") == ["teacher"]
        try:
            class_session = access.access_session(
                self.scope.get("user"), self.scope["url_route"]["kwargs"]["session_id"]
            )
        except Http404:
            return None
        self.session_id = class_session.pk
        return services.projector_group(class_session.pk)

    pupils_changed = _LivePage.redraw

    def _render(self) -> str:
        try:
            class_session = access.access_session(self.scope.get("user"), self.session_id)
        except Http404:
            return ""
        pupils = selectors.joined_pupils(class_session=class_session)
        context: dict[str, Any] = {
            "pupils": [{"pupil": p, "avatar_url": avatar_url(p.avatar)} for p in pupils],
            "class_session": class_session,
        }
        if not self.teacher_view:
            return render_to_string("classroom/teacher/_joined.html", context)
        context.update(
            tablets=selectors.session_tablets(class_session=class_session),
            locked=selectors.locked_pupils(school_class=class_session.school_class),
            attacked=selectors.attacked_pupils(school_class=class_session.school_class),
            board_url=reverse("classroom:session_board", kwargs={"session_id": class_session.pk}),
            oob=True,
        )
        html = render_to_string("classroom/teacher/_tablets.html", context)
        if class_session.is_open:
            html += render_to_string("classroom/teacher/_board_poke.html", context)
        return html


class LobbyConsumer(_LivePage):
    """``ws/lobby/``: a signed-in pupil waits for their table. When it starts
    (or the session ends) the page is sent an element that asks
    ``/lobby/where/``, whose ``HX-Redirect`` moves the tablet on. When the
    tablet is signed out (by the teacher, or "Ce n'est pas moi" elsewhere) the
    lobby says so at once and closes, like its table sockets
    (``cardgames.revocation``)."""

    session_group = ""

    async def connect(self) -> None:
        # Joined before the page is drawn: a sign-out meanwhile is not missed.
        key = getattr(self.scope.get("session"), "session_key", None)
        if key:
            self.session_group = revocation.session_group(key)
            await self.channel_layer.group_add(self.session_group, self.channel_name)
        await super().connect()
        if not self.group_name and self.session_group:
            await self.channel_layer.group_discard(self.session_group, self.channel_name)
            self.session_group = ""

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        if self.session_group:
            await self.channel_layer.group_discard(self.session_group, self.channel_name)

    async def table_close(self, event: dict[str, Any]) -> None:
        """This tablet was signed out: the waiting screen gives way to a goodbye
        (in this socket's language), and the socket closes."""
        await self.send(
            text_data=render_to_string("classroom/join/_lobby_ended.html", {"signed_out": True})
        )
        await self.close(code=CLOSE_SIGNED_OUT)

    def _group(self) -> str | None:
        session = self.scope.get("session")
        login = access.logged_pupil(session) if session is not None else None
        return services.lobby_group(login.class_session.pk) if login else None

    # ``pupil.seated`` comes on the tablet's own session group: the teacher
    # gave this pupil a seat from the monitor (a late pupil, a place given back).
    tables_started = groups_changed = pupil_seated = _LivePage.redraw

    async def session_ended(self, event: dict[str, Any]) -> None:
        # Said here, not by a redirect: the tablet is being signed out, so no
        # later request could still tell which lesson it was in.
        await self.send(text_data=render_to_string("classroom/join/_lobby_ended.html"))

    def _render(self) -> str:
        session = self.scope.get("session")
        login = access.logged_pupil(session) if session is not None else None
        context: dict[str, Any] = {"go": login is None, "group_number": None}
        if login is not None:
            table = selectors.pupil_table(class_session=login.class_session, pupil=login.pupil)
            context["go"] = table is not None
            context["group_number"] = selectors.pupil_group_number(
                class_session=login.class_session, pupil=login.pupil
            )
        return render_to_string("classroom/join/_lobby_status.html", context)


# ------------------------------------------------------------------ the teacher's monitor
Marks = dict[int, HelpMark]


def _mark_seats(context: dict[str, Any], marks: Marks | None) -> None:
    """Put each pupil's "needs help now" mark on their seat."""
    for seat in context.get("seats", []):
        seat["help"] = (marks or {}).get(seat.get("pupil_id") or 0)


def render_table_card(
    table_id: int, class_session: ClassSession, *, oob: bool = True, marks: Marks | None = None
) -> str:
    context = table_card_context(table_id, class_session)
    if context is None:
        return ""
    context.update(oob=oob, class_session=class_session, free=free_pupils(class_session))
    _mark_seats(context, marks)
    return render_to_string("classroom/monitor/_table.html", context)


def render_board(class_session: ClassSession, notice: str = "", marks: Marks | None = None) -> str:
    context = monitor_context(class_session)
    for card in context["cards"]:
        _mark_seats(card, marks)
    context.update(oob=True, notice=notice)
    return render_to_string("classroom/monitor/_board.html", context)


def render_help(pupil_id: int, mark: HelpMark | None) -> str:
    return render_to_string(
        "classroom/monitor/_help.html", {"pupil_id": pupil_id, "mark": mark, "oob": True}
    )


class MonitorConsumer(
    SocketLanguageMixin, revocation.WatchedSocketMixin, GoneSocketMixin, AsyncWebsocketConsumer
):
    """``ws/teacher/sessions/<session_id>/monitor/``: the teacher's live board,
    closed as soon as that teacher's login ends (``WatchedSocketMixin``)."""

    session_id: int
    groups_joined: list[str]
    # "Needs help now": each pupil's last plays and current mark. A cache of
    # the learning records (read again on every connect), kept up to date by
    # the records pushed to ``monitor_group``: never the only copy.
    windows: dict[int, list[RecentPlay]]
    marks: Marks

    async def connect(self) -> None:
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        self.groups_joined = []
        self.windows, self.marks = {}, {}
        class_session = await database_sync_to_async(self.watch_open)(self._session)
        if class_session is None:
            await self.close()
            return
        await self.watch_join()
        await self._join_groups(class_session)
        self.windows = await database_sync_to_async(recent_plays)(class_session)
        for pupil_id, window in self.windows.items():
            mark = needs_help(recent=window)
            if mark is not None:
                self.marks[pupil_id] = mark
        await self.accept()
        await self.send(
            text_data=await database_sync_to_async(render_board)(class_session, marks=self.marks)
        )

    def _session(self) -> ClassSession | None:
        try:
            return access.access_session(self.scope.get("user"), self.session_id)
        except Http404:
            return None

    async def _join_groups(self, class_session: ClassSession) -> None:
        tables = await database_sync_to_async(session_tables)(class_session)
        wanted = [cardgames_services.table_group(t.pk) for t in tables]
        # Presence goes to a group of its own: only this page shows it.
        wanted += [cardgames_services.presence_group(t.pk) for t in tables]
        wanted += [
            services.projector_group(class_session.pk),
            services.lobby_group(class_session.pk),
            monitor_group(class_session.pk),
        ]
        for group in wanted:
            if group not in self.groups_joined:
                await self.channel_layer.group_add(group, self.channel_name)
                self.groups_joined.append(group)

    async def disconnect(self, code: int) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.watch_leave()

    def watch_goodbye(self) -> str:
        return render_to_string(
            "classroom/monitor/_notice.html",
            {"notice": _("Vous êtes déconnecté. Reconnectez-vous pour continuer."), "oob": True},
        )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        html = ""
        # The message budget first, before any parsing or database work.
        verdict = socket_budget.take(self)
        if verdict is socket_budget.Verdict.CLOSE:
            await self.close(code=socket_budget.CLOSE_TOO_MANY)
            return
        if verdict is not socket_budget.Verdict.ALLOWED:
            if verdict is socket_budget.Verdict.SLOW_DOWN:
                notice = _("Trop de demandes à la fois : patientez un instant.")
                await self.send(
                    text_data=render_to_string(
                        "classroom/monitor/_notice.html", {"notice": notice, "oob": True}
                    )
                )
            return
        try:
            try:
                data = message_decode(text_data, bytes_data)
            except WireRefused as refused:
                raise MonitorRefused(_("Cette demande n'est pas comprise.")) from refused
            html = await database_sync_to_async(self._act)(data)
        except MonitorRefused as refused:
            html = render_to_string(
                "classroom/monitor/_notice.html", {"notice": refused.message, "oob": True}
            )
        except Exception:
            logger.exception("monitor %s: command failed", self.session_id)
            html = render_to_string(
                "classroom/monitor/_notice.html",
                {"notice": _("Oups, cela n'a pas marché. Réessayez."), "oob": True},
            )
        if html:
            await self.send(text_data=html)

    def _act(self, data: dict[str, Any]) -> str:
        class_session = self._session()
        if class_session is None:
            raise MonitorRefused(_("Cette séance n'existe pas."))
        monitor_act(class_session=class_session, data=data)
        # The changed table redraws itself when cardgames announces it; the
        # notice line is cleared now.
        if data.get("kind") == "end_session":
            class_session.refresh_from_db()
            return render_board(class_session, marks=self.marks)
        return render_to_string("classroom/monitor/_notice.html", {"notice": "", "oob": True})

    def _card(self, table_id: int) -> str:
        class_session = self._session()
        if class_session is None:
            return ""
        return render_table_card(table_id, class_session, marks=self.marks)

    async def help_play(self, event: dict[str, Any]) -> None:
        """A pupil's new learning record: update their window and, when their
        mark appears, changes or clears, redraw that one mark. No database."""
        pupil_id = event.get("pupil_id")
        play = RecentPlay.from_payload(event.get("play") or {})
        if not isinstance(pupil_id, int) or play is None:
            return
        window = [*self.windows.get(pupil_id, []), play][-KEEP:]
        self.windows[pupil_id] = window
        mark = needs_help(recent=window)
        old = self.marks.get(pupil_id)
        if mark == old:
            return
        if mark is None:
            self.marks.pop(pupil_id, None)
        else:
            self.marks[pupil_id] = mark
        await self.send(text_data=render_help(pupil_id, mark))

    async def _redraw_table(self, event: dict[str, Any]) -> None:
        table_id = event.get("table_id")
        if isinstance(table_id, int):
            html = await database_sync_to_async(self._card)(table_id)
            if html:
                await self.send(text_data=html)

    # cardgames' events: one table changed.
    table_changed = table_presence = table_seats_changed = _redraw_table

    async def table_moved(self, event: dict[str, Any]) -> None:
        """"Rejouer": a new table replaced one of the session's; the whole
        board is drawn again and its group joined (there was no handler: the
        monitor's socket failed on every "Rejouer")."""
        await self._redraw_all(event)

    async def table_close(self, event: dict[str, Any]) -> None:
        """The pupils' sockets close; the monitor stays, unless the teacher's
        own login ended (``WatchedSocketMixin.table_close``)."""
        await super().table_close(event)

    async def _redraw_all(self, event: dict[str, Any]) -> None:
        class_session = await database_sync_to_async(self._session)()
        if class_session is None:
            await self.close()
            return
        await self._join_groups(class_session)
        await self.send(
            text_data=await database_sync_to_async(render_board)(class_session, marks=self.marks)
        )

    # classroom's own events: pupils joined, tables started, session ended.
    pupils_changed = tables_started = session_ended = _redraw_all


# Engines are loaded once here, so the first monitor page does not pay for discovery.
engines.names()
