"""The teacher's live monitor of a class session: every table, live, steerable.

Over one websocket and without polling: the monitor joins the channel group of
every table of the session (``cardgames`` announces every change there) and
redraws only the table that changed. What it shows is public: the engine's
``view(state, None)`` and the public events, never a hand.

The teacher can pause, resume or end a table, move seats between pupils and
bots, open a table's projector view, and end the whole session (which closes
the pupils' sockets and signs their tablets out).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from cardgames import engines, rendering, ui
from cardgames import services as cardgames_services
from cardgames.models import GameEvent, Seat, Table
from classroom import services as classroom_services
from classroom.access import access_session
from classroom.models import ClassSession, Pupil, TabletLogin

logger = logging.getLogger(__name__)

EVENTS_SHOWN = 5


# ------------------------------------------------------------------ reads
def session_tables(class_session: ClassSession) -> list[Table]:
    return list(Table.objects.filter(group_key=class_session.group_key).order_by("number", "id"))


def free_pupils(class_session: ClassSession) -> list[Pupil]:
    """Pupils signed in to the session who have no seat at a live table: the
    late ones a teacher may seat in a bot's place."""
    seated = set(
        Seat.objects.filter(
            table__group_key=class_session.group_key,
            table__status__in=[Table.Status.PLAYING, Table.Status.PAUSED, Table.Status.WAITING],
            is_bot=False,
        ).values_list("player_key", flat=True)
    )
    logged = (
        Pupil.objects.filter(logins__class_session=class_session)
        .distinct()
        .order_by("display_name")
    )
    return [pupil for pupil in logged if pupil.player_key not in seated]


def table_card_context(table_id: int, class_session: ClassSession) -> dict[str, Any] | None:
    """One table's public state, last events and seats, for the monitor."""
    snap = rendering.snapshot(table_id)
    if snap is None or snap.table.group_key != class_session.group_key:
        return None
    adapter = ui.get(snap.table.game)
    names = snap.seat_names
    summary: list[tuple[str, str]] = []
    current = None
    if snap.state is not None:
        view = snap.engine.view(snap.state, None)
        summary = adapter.public_summary(view, names)
        current = view.get("current_seat")
    events = list(
        GameEvent.objects.filter(table_id=table_id, visible_to__isnull=True).order_by("-seq")[
            :EVENTS_SHOWN
        ]
    )
    return {
        "table": snap.table,
        "summary": summary,
        "events": [adapter.describe_event(event.payload, names) for event in events],
        "seats": [
            {
                "index": seat.index,
                "name": seat.display_name,
                "is_bot": seat.is_bot,
                "bot_level": seat.bot_level,
                "connected": seat.connections > 0,
                "is_current": seat.index == current,
            }
            for seat in snap.seats
        ],
        "version": snap.version,
    }


def render_table_card(table_id: int, class_session: ClassSession, *, oob: bool = True) -> str:
    context = table_card_context(table_id, class_session)
    if context is None:
        return ""
    context.update(oob=oob, class_session=class_session, free=free_pupils(class_session))
    return render_to_string("classroom/monitor/_table.html", context)


def monitor_context(class_session: ClassSession) -> dict[str, Any]:
    free = free_pupils(class_session)
    cards = []
    for table in session_tables(class_session):
        context = table_card_context(table.pk, class_session)
        if context is not None:
            context.update(oob=False, class_session=class_session, free=free)
            cards.append(context)
    return {"class_session": class_session, "cards": cards, "free": free, "notice": ""}


def render_board(class_session: ClassSession, notice: str = "") -> str:
    context = monitor_context(class_session)
    context.update(oob=True, notice=notice)
    return render_to_string("classroom/monitor/_board.html", context)


# ------------------------------------------------------------------ page
def monitor(request: HttpRequest, session_id: int) -> HttpResponse:
    """The monitor page; the websocket keeps it live."""
    class_session = access_session(request.user, session_id)
    context = monitor_context(class_session)
    context["ws_url"] = f"/ws/teacher/sessions/{class_session.pk}/monitor/"
    return render(request, "classroom/monitor/monitor.html", context)


# ------------------------------------------------------------------ actions
class MonitorRefused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def session_end_everything(*, class_session: ClassSession) -> None:
    """End the session: the join code dies, every table ends (its log stays for
    replay), every tablet is signed out and every table socket is closed.
    Locks the session and each table (through the services it calls)."""
    tables = session_tables(class_session)
    with transaction.atomic():
        classroom_services.session_end(class_session=class_session)
        for table in tables:
            if table.status != Table.Status.FINISHED:
                cardgames_services.table_end(table=table)
        cardgames_services.tables_close_sockets(
            table_ids=[t.pk for t in tables],
            reason=_("La séance est terminée. Merci et à bientôt !"),
        )
    for login in list(TabletLogin.objects.filter(class_session=class_session)):
        classroom_services.tablet_sign_out(login=login)


def _int(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 12:
        return int(value.strip())
    raise MonitorRefused(_("Cette demande n'est pas comprise."))


def monitor_act(*, class_session: ClassSession, data: dict[str, Any]) -> int | None:
    """Carry out one teacher command. Returns the table it touched (if any).
    The table must belong to this session: a table id from elsewhere is refused
    exactly like a missing one."""
    kind = data.get("kind")
    if kind == "end_session":
        session_end_everything(class_session=class_session)
        return None
    if kind not in ("pause", "resume", "end_table", "seat_to_bot", "seat_to_pupil"):
        raise MonitorRefused(_("Cette demande n'existe pas."))
    table = Table.objects.filter(
        pk=_int(data.get("table")), group_key=class_session.group_key
    ).first()
    if table is None:
        raise MonitorRefused(_("Cette table n'existe pas."))
    if kind == "pause":
        cardgames_services.table_pause(table=table)
    elif kind == "resume":
        cardgames_services.table_resume(table=table)
    elif kind == "end_table":
        cardgames_services.table_end(table=table)
    else:
        index = _int(data.get("seat"))
        if not table.seats.filter(index=index).exists():
            raise MonitorRefused(_("Cette place n'existe pas."))
        if kind == "seat_to_bot":
            level = (
                data.get("level") if data.get("level") in ("easy", "medium", "hard") else "medium"
            )
            cardgames_services.seat_assign(
                table=table,
                index=index,
                spec=cardgames_services.bot_seat(level=str(level), number=index + 1),
            )
        else:
            pupil = next(
                (p for p in free_pupils(class_session) if p.pk == _int(data.get("pupil"))), None
            )
            if pupil is None:
                raise MonitorRefused(_("Choisis un élève connecté qui n'a pas encore de place."))
            cardgames_services.seat_assign(
                table=table,
                index=index,
                spec=cardgames_services.SeatSpec(
                    player_key=pupil.player_key,
                    display_name=pupil.display_name,
                    avatar=pupil.avatar,
                ),
            )
    return table.pk


# ------------------------------------------------------------------ socket
class MonitorConsumer(AsyncWebsocketConsumer):
    """``ws/teacher/sessions/<session_id>/monitor/``: the teacher's live board."""

    session_id: int
    groups_joined: list[str]

    async def connect(self) -> None:
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        self.groups_joined = []
        class_session = await database_sync_to_async(self._session)()
        if class_session is None:
            await self.close()
            return
        await self._join_groups(class_session)
        await self.accept()
        await self.send(text_data=await database_sync_to_async(render_board)(class_session))

    def _session(self) -> ClassSession | None:
        try:
            return access_session(self.scope.get("user"), self.session_id)
        except Http404:
            return None

    async def _join_groups(self, class_session: ClassSession) -> None:
        tables = await database_sync_to_async(session_tables)(class_session)
        wanted = [cardgames_services.table_group(t.pk) for t in tables]
        wanted += [
            classroom_services.projector_group(class_session.pk),
            classroom_services.lobby_group(class_session.pk),
        ]
        for group in wanted:
            if group not in self.groups_joined:
                await self.channel_layer.group_add(group, self.channel_name)
                self.groups_joined.append(group)

    async def disconnect(self, code: int) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        html = ""
        try:
            if text_data is None or len(text_data) > settings.WS_MAX_MESSAGE_BYTES:
                raise MonitorRefused(_("Cette demande n'est pas comprise."))
            try:
                data = json.loads(text_data)
            except ValueError as exc:
                raise MonitorRefused(_("Cette demande n'est pas comprise.")) from exc
            if not isinstance(data, dict):
                raise MonitorRefused(_("Cette demande n'est pas comprise."))
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
            return render_board(class_session)
        return render_to_string("classroom/monitor/_notice.html", {"notice": "", "oob": True})

    def _card(self, table_id: int) -> str:
        class_session = self._session()
        if class_session is None:
            return ""
        return render_table_card(table_id, class_session)

    async def _redraw_table(self, event: dict[str, Any]) -> None:
        table_id = event.get("table_id")
        if isinstance(table_id, int):
            html = await database_sync_to_async(self._card)(table_id)
            if html:
                await self.send(text_data=html)

    async def table_changed(self, event: dict[str, Any]) -> None:
        await self._redraw_table(event)

    async def table_presence(self, event: dict[str, Any]) -> None:
        await self._redraw_table(event)

    async def table_seats_changed(self, event: dict[str, Any]) -> None:
        await self._redraw_table(event)

    async def table_close(self, event: dict[str, Any]) -> None:
        """The pupils' sockets close; the monitor stays."""

    async def _redraw_all(self, event: dict[str, Any]) -> None:
        class_session = await database_sync_to_async(self._session)()
        if class_session is None:
            await self.close()
            return
        await self._join_groups(class_session)
        await self.send(text_data=await database_sync_to_async(render_board)(class_session))

    # classroom's own events: pupils joined, tables started, session ended.
    async def pupils_changed(self, event: dict[str, Any]) -> None:
        await self._redraw_all(event)

    async def tables_started(self, event: dict[str, Any]) -> None:
        await self._redraw_all(event)

    async def session_ended(self, event: dict[str, Any]) -> None:
        await self._redraw_all(event)


# Engines are loaded once here, so the first monitor page does not pay for discovery.
engines.names()
