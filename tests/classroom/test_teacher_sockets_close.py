"""Issue 44, item 5: a teacher's live sockets end with their login.

The attack: on a shared classroom PC a teacher logs out (or changes their
password, or deletes their account) but leaves the live monitor, the session
page or a table page open. Before the fix those sockets kept the user they
resolved at connect: the next person could still pause, resume or end the
lesson's tables, and the projector and table pages kept answering. Now each
closes at once, and a message that still arrives on one (say its worker
missed the close) finds the login gone and changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from cardgames import revocation
from cardgames import services as cardgames_services
from cardgames.models import Table
from tests.cardgames.factories import fresh_channel_layer  # noqa: F401
from tests.factories import ClassSessionFactory, PupilFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_channel_layer"),
]


def _setup() -> dict[str, Any]:
    """A lesson with one playing table (two pupils and a robot), and the
    teacher signed in on two browsers (the classroom PC and their laptop)."""
    class_session = ClassSessionFactory()
    teacher = class_session.school_class.teacher
    pupils = [
        PupilFactory(school_class=class_session.school_class, display_name=name)
        for name in ("Léa", "Tom")
    ]
    seats = [
        cardgames_services.SeatSpec(player_key=p.player_key, display_name=p.display_name)
        for p in pupils
    ]
    seats.append(cardgames_services.bot_seat(level="easy", number=1))
    table = cardgames_services.table_create(
        game="chasse", seats=seats, options={"tokens": 2}, seed=31,
        group_key=class_session.group_key,
    )
    cardgames_services.table_start(table=table)
    browsers = []
    for _ in range(2):
        browser = Client()
        browser.force_login(teacher)
        browsers.append(browser)
    return {"session": class_session, "table": table, "teacher": teacher, "browsers": browsers}


def _socket(path: str, browser: Client) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", f"sessionid={browser.cookies['sessionid'].value}".encode()),
    ]
    return WebsocketCommunicator(application, path, headers=headers)


async def _open(ctx: dict[str, Any], browser: Client) -> dict[str, WebsocketCommunicator]:
    """The monitor, the session page's socket and the table page's, open."""
    session_id, table_id = ctx["session"].pk, ctx["table"].pk
    socks = {
        "monitor": _socket(f"/ws/teacher/sessions/{session_id}/monitor/", browser),
        "projector": _socket(f"/ws/projector/{session_id}/?view=teacher", browser),
        "table": _socket(f"/ws/table/{table_id}/", browser),
    }
    for sock in socks.values():
        assert (await sock.connect())[0]
        await sock.receive_from(timeout=5)
    return socks


async def _closed(comm: WebsocketCommunicator) -> tuple[str, int | None]:
    """Everything until the socket closes: (last text, close code)."""
    text = ""
    for _ in range(20):
        out = await comm.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            return text, out.get("code")
        text = out.get("text", text)
    raise AssertionError("the socket stayed open")


def _logout(ctx: dict[str, Any]) -> None:
    response = ctx["browsers"][0].post("/teacher/logout/")
    assert response.status_code == 302


def _new_password(ctx: dict[str, Any]) -> None:
    teacher = get_user_model().objects.get(pk=ctx["teacher"].pk)
    teacher.set_password("un-tout-autre-mot-de-passe")
    teacher.save()


def _delete_account(ctx: dict[str, Any]) -> None:
    get_user_model().objects.get(pk=ctx["teacher"].pk).delete()


ENDINGS = {"logout": _logout, "password": _new_password, "deletion": _delete_account}


def _status(table_id: int) -> str | None:
    """The table's status (``None``: it went with a deleted account's classes)."""
    return Table.objects.filter(pk=table_id).values_list("status", flat=True).first()


@pytest.mark.parametrize("ending", sorted(ENDINGS))
async def test_the_teachers_sockets_close_when_the_login_ends(ending: str) -> None:
    """Logout through the real page, a new password, a deleted account: the
    monitor, the projector page and the table page of that browser close at
    once; the monitor says why, in words."""
    ctx = await database_sync_to_async(_setup)()
    socks = await _open(ctx, ctx["browsers"][0])
    await database_sync_to_async(ENDINGS[ending])(ctx)
    text, code = await _closed(socks["monitor"])
    assert code == revocation.CLOSE_LOGGED_OUT and "Reconnectez-vous" in text
    _text, code = await _closed(socks["projector"])
    assert code == revocation.CLOSE_LOGGED_OUT
    text, code = await _closed(socks["table"])
    assert code == revocation.CLOSE_LOGGED_OUT and "Reconnectez-vous" in text


@pytest.mark.parametrize("ending", ["password", "deletion"])
async def test_a_new_password_closes_every_browser_of_the_teacher(ending: str) -> None:
    """Every session of that teacher loses its sockets, not only the browser
    that made the change (the other one may be the classroom PC)."""
    ctx = await database_sync_to_async(_setup)()
    socks = await _open(ctx, ctx["browsers"][1])
    await database_sync_to_async(ENDINGS[ending])(ctx)
    for sock in socks.values():
        _text, code = await _closed(sock)
        assert code == revocation.CLOSE_LOGGED_OUT


async def test_logging_out_one_browser_leaves_the_other_open() -> None:
    """A logout ends that browser's sockets only: the teacher's laptop goes on."""
    ctx = await database_sync_to_async(_setup)()
    laptop = await _open(ctx, ctx["browsers"][1])
    await database_sync_to_async(_logout)(ctx)
    await laptop["monitor"].send_json_to({"kind": "pause", "table": str(ctx["table"].pk)})
    for _ in range(20):
        if 'data-status="paused"' in await laptop["monitor"].receive_from(timeout=5):
            break
    assert await database_sync_to_async(_status)(ctx["table"].pk) == Table.Status.PAUSED
    for sock in laptop.values():
        await sock.disconnect()


@pytest.mark.parametrize("ending", sorted(ENDINGS))
async def test_a_message_after_the_login_ended_is_refused_even_if_the_close_was_missed(
    ending: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The close never reaches these sockets (say their worker missed it):
    the monitor's next "pause" still finds the login gone, closes, and the
    table keeps playing; the table page's next message closes it too."""
    ctx = await database_sync_to_async(_setup)()
    socks = await _open(ctx, ctx["browsers"][0])
    monkeypatch.setattr(revocation, "_close_group", lambda group, reason: None)
    await database_sync_to_async(ENDINGS[ending])(ctx)
    table_id = ctx["table"].pk
    await socks["monitor"].send_json_to({"kind": "pause", "table": str(table_id)})
    text, code = await _closed(socks["monitor"])
    assert code == revocation.CLOSE_LOGGED_OUT and "Reconnectez-vous" in text
    still = None if ending == "deletion" else Table.Status.PLAYING
    assert await database_sync_to_async(_status)(table_id) == still
    await socks["table"].send_json_to({"kind": "sync"})
    _text, code = await _closed(socks["table"])
    assert code == revocation.CLOSE_LOGGED_OUT
    await socks["projector"].disconnect()


async def test_the_projector_stops_answering_after_a_missed_logout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The projector page only listens: the next change it is told of (a
    pupil joins) finds the login gone and closes it, drawing nothing."""
    ctx = await database_sync_to_async(_setup)()
    socks = await _open(ctx, ctx["browsers"][0])
    monkeypatch.setattr(revocation, "_close_group", lambda group, reason: None)
    await database_sync_to_async(_logout)(ctx)
    from classroom.services import projector_group

    await socks["projector"].send_input({"type": "websocket.receive", "text": "{}"})
    from channels.layers import get_channel_layer

    await get_channel_layer().group_send(
        projector_group(ctx["session"].pk), {"type": "pupils.changed"}
    )
    text, code = await _closed(socks["projector"])
    assert code == revocation.CLOSE_LOGGED_OUT and text == ""
    for name in ("monitor", "table"):
        await socks[name].disconnect()
