"""Live classroom pages over websockets: the projector's list and the lobby.

Each consumer receives only "something changed" from the channel layer and
renders *its own* HTML from the database, so nothing lives only in a
process's memory and a reconnect always gets the whole current picture. The
HTML carries ``id`` + ``hx-swap-oob`` and htmx's ws extension swaps it in.

Who may connect is decided by ``classroom.access``; a refused connection is
closed exactly like one to a missing session.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import Http404
from django.template.loader import render_to_string
from django.urls import reverse

from classroom import access, selectors, services
from classroom.pictures import avatar_url


class ProjectorConsumer(AsyncWebsocketConsumer):
    """``ws/projector/<session_id>/``: the class session's joined pupils, for the
    projector, and (``?view=teacher``) the tablets, locks and grouping board
    for the teacher's session page. Teacher of that class only."""

    group_name = ""

    async def connect(self) -> None:
        session_id = self.scope["url_route"]["kwargs"]["session_id"]
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.teacher_view = query.get("view") == ["teacher"]
        self.session_id = await database_sync_to_async(self._authorise)(session_id)
        if self.session_id is None:
            await self.close()
            return
        self.group_name = services.projector_group(self.session_id)
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()
        await self.send(text_data=await database_sync_to_async(self._render)())

    def _authorise(self, session_id: Any) -> int | None:
        try:
            return access.access_session(self.scope.get("user"), session_id).pk
        except Http404:
            return None

    async def disconnect(self, code: int) -> None:
        if self.group_name:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The projector only listens; whatever a client sends is ignored."""

    async def pupils_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=await database_sync_to_async(self._render)())

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
            board_url=reverse("classroom:session_board", kwargs={"session_id": class_session.pk}),
            oob=True,
        )
        html = render_to_string("classroom/teacher/_tablets.html", context)
        if class_session.is_open:
            html += render_to_string("classroom/teacher/_board_poke.html", context)
        return html


class LobbyConsumer(AsyncWebsocketConsumer):
    """``ws/lobby/``: a signed-in pupil waits for their table. When it starts
    (or the session ends) the page is sent an element that asks
    ``/lobby/where/``, whose ``HX-Redirect`` moves the tablet on."""

    group_name = ""

    async def connect(self) -> None:
        found = await database_sync_to_async(self._login)()
        if found is None:
            await self.close()
            return
        self.group_name = services.lobby_group(found)
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()
        await self.send(text_data=await database_sync_to_async(self._render)())

    def _login(self) -> int | None:
        session = self.scope.get("session")
        login = access.logged_pupil(session) if session is not None else None
        return login.class_session.pk if login else None

    async def disconnect(self, code: int) -> None:
        if self.group_name:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing to say from a lobby."""

    async def tables_started(self, event: dict[str, Any]) -> None:
        await self.send(text_data=await database_sync_to_async(self._render)())

    async def groups_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=await database_sync_to_async(self._render)())

    async def session_ended(self, event: dict[str, Any]) -> None:
        # Said here, not by a redirect: the tablet is being signed out, so no
        # later request could still tell which lesson it was in.
        await self.send(
            text_data=render_to_string("classroom/join/_lobby_ended.html")
        )

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
