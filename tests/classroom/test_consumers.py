"""Live pages over websockets: the projector's list and the lobby."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from classroom import services
from classroom.models import Attendance
from tests.factories import ClassSessionFactory, PupilFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _communicator(path: str, client: Client) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    cookie = client.cookies.get("sessionid")
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie.value}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


def _setup() -> tuple[Any, Client, list[Any]]:
    class_session = ClassSessionFactory(join_code="246810")
    teacher = Client()
    teacher.force_login(class_session.school_class.teacher)
    pupils = [
        PupilFactory(
            school_class=class_session.school_class, display_name=name, picture_code=[1, 2]
        )
        for name in ("Léo", "Inès")
    ]
    return class_session, teacher, pupils


def _join(pupil: Any) -> Client:
    """A tablet going through the real join flow."""
    tablet = Client()
    tablet.post("/join", {"code": "246810"})
    response = tablet.post(f"/join/pupil/{pupil.pk}/", {"pick": ["1", "2"]})
    assert response["Location"] == "/lobby/"
    return tablet


async def test_the_projector_list_grows_live_as_pupils_join() -> None:
    class_session, teacher, (leo, ines) = await database_sync_to_async(_setup)()
    projector = _communicator(f"/ws/projector/{class_session.pk}/", teacher)
    connected, _ = await projector.connect()
    assert connected
    first = await projector.receive_from(timeout=5)
    assert 'id="joined"' in first and 'hx-swap-oob="true"' in first
    assert "On attend les premiers élèves" in first

    await database_sync_to_async(_join)(leo)
    html = await projector.receive_from(timeout=5)
    assert "Léo" in html and "1 élève est là" in html

    await database_sync_to_async(_join)(ines)
    html = await projector.receive_from(timeout=5)
    assert "Léo" in html and "Inès" in html and "2 élèves sont là" in html
    await projector.disconnect()


async def test_the_teacher_page_hears_of_tablets_and_refreshes_the_board() -> None:
    class_session, teacher, (leo, _ines) = await database_sync_to_async(_setup)()
    page = _communicator(f"/ws/projector/{class_session.pk}/?view=teacher", teacher)
    assert (await page.connect())[0]
    await page.receive_from(timeout=5)
    await database_sync_to_async(_join)(leo)
    html = await page.receive_from(timeout=5)
    assert 'id="tablets"' in html and "Déconnecter la tablette de Léo" in html
    assert 'id="board-poke"' in html and f"/teacher/sessions/{class_session.pk}/board/" in html
    await page.disconnect()


async def test_the_lobby_is_sent_to_the_table_when_it_starts() -> None:
    class_session, _teacher, pupils = await database_sync_to_async(_setup)()
    tablets = [await database_sync_to_async(_join)(p) for p in pupils]
    lobby = _communicator("/ws/lobby/", tablets[0])
    assert (await lobby.connect())[0]
    waiting = await lobby.receive_from(timeout=5)
    assert "Attends ta table" in waiting

    await database_sync_to_async(services.groups_make)(class_session=class_session, size=2)
    grouped = await lobby.receive_from(timeout=5)
    assert "Tu seras à la table 1" in grouped

    await database_sync_to_async(services.tables_start)(class_session=class_session)
    go = await lobby.receive_from(timeout=5)
    assert 'id="lobby-status"' in go and 'hx-get="/lobby/where/"' in go and 'hx-trigger="load' in go
    where = await database_sync_to_async(tablets[0].get)("/lobby/where/")
    assert where["HX-Redirect"].startswith("/table/")
    await lobby.disconnect()


async def test_a_stranger_cannot_open_a_lobby() -> None:
    lobby = _communicator("/ws/lobby/", Client())
    connected, _ = await lobby.connect()
    assert not connected


async def test_ending_the_session_tells_the_lobby_the_lesson_is_over() -> None:
    class_session, _teacher, pupils = await database_sync_to_async(_setup)()
    tablet = await database_sync_to_async(_join)(pupils[0])
    lobby = _communicator("/ws/lobby/", tablet)
    assert (await lobby.connect())[0]
    await lobby.receive_from(timeout=5)
    await database_sync_to_async(services.session_end)(class_session=class_session)
    html = await lobby.receive_from(timeout=5)
    # The tablet says so, rather than jumping back to the code keypad.
    assert "La séance est terminée." in html and 'id="lobby"' in html
    assert "/lobby/where/" not in html
    where = await database_sync_to_async(tablet.get)("/lobby/where/")
    assert where["HX-Redirect"] == "/join"
    assert (
        await database_sync_to_async(Attendance.objects.filter(class_session=class_session).count)()
        == 1
    )
    await lobby.disconnect()
