"""Issue 48, seats: "Remplacer par un robot" asks first, and a tablet whose
seat is given back returns to it by itself (through the monitor's and the
table's real sockets)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from cardgames import services
from cardgames.models import Seat
from tests.cardgames.factories import fresh_channel_layer  # noqa: F401
from tests.cardgames.wsclient import Tablet, card_ids
from tests.factories import ClassSessionFactory, PupilFactory, TabletLoginFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_channel_layer"),
]

GIVEN_AWAY = "Cette place a été donnée à quelqu"


def _tablet_session(class_session: Any, pupil: Any) -> str:
    """A pupil signed in on a tablet of the lesson: its browser session key."""
    store = SessionStore()
    store.update(
        {"player_key": pupil.player_key, "pupil_id": pupil.pk, "class_session_id": class_session.pk}
    )
    store.save()
    TabletLoginFactory(class_session=class_session, pupil=pupil, session_key=store.session_key)
    return str(store.session_key)


def _setup(*, late: bool = False) -> dict[str, Any]:
    """Léa and Tom at a table with a robot; with ``late``, Zoé signed in too,
    waiting in the lobby without a seat."""
    class_session = ClassSessionFactory()
    names = ["Léa", "Tom", *(["Zoé"] if late else [])]
    pupils = [PupilFactory(school_class=class_session.school_class, display_name=n) for n in names]
    keys = [_tablet_session(class_session, p) for p in pupils]
    seats = [services.SeatSpec(player_key=p.player_key, display_name=p.display_name) for p in pupils[:2]]
    seats.append(services.bot_seat(level="easy", number=1))
    table = services.table_create(
        game="chasse", seats=seats, options={"tokens": 2}, seed=31, group_key=class_session.group_key
    )
    services.table_start(table=table)
    client = Client()
    client.force_login(class_session.school_class.teacher)
    return {
        "session": class_session,
        "table": table,
        "pupils": pupils,
        "keys": keys,
        "teacher": client,
    }


def _socket(path: str, cookie: str) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", f"sessionid={cookie}".encode()),
    ]
    return WebsocketCommunicator(application, path, headers=headers)


async def _until(comm: WebsocketCommunicator, needle: str, timeout: float = 5) -> str:
    for _ in range(50):
        html = await comm.receive_from(timeout=timeout)
        if needle in html:
            return html
    raise AssertionError(f"{needle!r} never came")


async def _stranded(tablet: Tablet) -> str:
    """Read the tablet until its seat is given away (the robot's first move
    may reach it first): the last message is that screen."""
    for _ in range(10):
        await tablet.receive()
        if GIVEN_AWAY in tablet.messages[-1]:
            return tablet.messages[-1]
    raise AssertionError("the tablet was never told its seat went to someone else")


async def _monitor(ctx: dict[str, Any]) -> WebsocketCommunicator:
    cookie = ctx["teacher"].cookies["sessionid"].value
    monitor = _socket(f"/ws/teacher/sessions/{ctx['session'].pk}/monitor/", cookie)
    assert (await monitor.connect())[0]
    await monitor.receive_from(timeout=5)
    return monitor


async def test_a_tablet_whose_seat_is_given_back_returns_to_it_by_itself() -> None:
    """Bug: after "Remplacer par un robot" the tablet showed "Cette place a été
    donnée à quelqu'un d'autre." and its socket closed; when the teacher gave
    the place back ("Donner la place") it stayed there until someone reloaded it."""
    ctx = await database_sync_to_async(_setup)()
    table, lea = ctx["table"], ctx["pupils"][0]
    monitor = await _monitor(ctx)
    tablet = Tablet(table.pk, ctx["keys"][0])
    assert await tablet.connect()

    await monitor.send_json_to({"kind": "seat_to_bot", "table": str(table.pk), "seat": "0"})
    stranded = await _stranded(tablet)
    assert "data-closed" in stranded

    await monitor.send_json_to(
        {"kind": "seat_to_pupil", "table": str(table.pk), "seat": "0", "pupil": str(lea.pk)}
    )
    back = await tablet.receive()
    assert 'id="table-state"' in back and GIVEN_AWAY not in back and "data-closed" not in back
    seat = await database_sync_to_async(lambda: Seat.objects.get(table=table, index=0))()
    assert (seat.player_key, seat.is_bot) == (lea.player_key, False)

    # Her own hand again (a seat's view, not a spectator's).
    assert card_ids(tablet.screen)
    await tablet.comm.disconnect()
    await monitor.disconnect()


async def test_a_stranded_tablet_sees_nothing_of_the_table_meanwhile() -> None:
    """A tablet only receives what its seat may know: while its seat is a
    robot's, the robot's moves do not reach it."""
    ctx = await database_sync_to_async(_setup)()
    table = ctx["table"]
    monitor = await _monitor(ctx)
    tablet = Tablet(table.pk, ctx["keys"][0])
    assert await tablet.connect()
    await monitor.send_json_to({"kind": "seat_to_bot", "table": str(table.pk), "seat": "0"})
    await _stranded(tablet)
    # The robot now at seat 0 plays (the monitor sees the table move on)...
    await _until(monitor, 'data-version="1"')
    # ...and the stranded tablet is told nothing of it.
    assert await tablet.comm.receive_nothing(timeout=1)
    await tablet.comm.disconnect()
    await monitor.disconnect()


async def test_a_late_pupil_given_a_seat_from_the_monitor_leaves_the_lobby() -> None:
    """Bug: "Donner la place" to a pupil waiting in the lobby told their lobby
    nothing: the tablet kept "Attends ta table" while a robot's place was theirs."""
    ctx = await database_sync_to_async(lambda: _setup(late=True))()
    table, zoe = ctx["table"], ctx["pupils"][2]
    lobby = _socket("/ws/lobby/", ctx["keys"][2])
    assert (await lobby.connect())[0]
    assert "Attends ta table" in await lobby.receive_from(timeout=5)
    monitor = await _monitor(ctx)
    await monitor.send_json_to(
        {"kind": "seat_to_pupil", "table": str(table.pk), "seat": "2", "pupil": str(zoe.pk)}
    )
    go = await _until(lobby, 'id="lobby-status"')
    assert 'hx-get="/lobby/where/"' in go
    await lobby.disconnect()
    await monitor.disconnect()


def test_replacing_a_pupil_by_a_robot_asks_first() -> None:
    """Bug: "Remplacer par un robot" took one tap and stranded the child."""
    ctx = _setup()
    html = ctx["teacher"].get(f"/teacher/sessions/{ctx['session'].pk}/monitor/").content.decode()
    form = html[html.index('value="seat_to_bot"') - 400 : html.index('value="seat_to_bot"')]
    assert "<form ws-send data-confirm=" in form
    assert "Donner la place de Léa à un robot ?" in form
