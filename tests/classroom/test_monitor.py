"""The teacher's live monitor: live updates, steering tables, ending the session."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from cardgames import services
from cardgames.models import Table
from cardgames.screen_units import apply_update
from classroom.models import TabletLogin
from tests.cardgames.factories import fresh_channel_layer  # noqa: F401
from tests.cardgames.wsclient import Tablet, card_ids, notice_of, play_form, table_state
from tests.factories import ClassSessionFactory, PupilFactory, TabletLoginFactory, TeacherFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_channel_layer"),
]


def _setup() -> dict[str, Any]:
    """A class session with two pupils signed in on tablets and one table (+ a bot)."""
    class_session = ClassSessionFactory()
    teacher = class_session.school_class.teacher
    keys = []
    pupils = [
        PupilFactory(school_class=class_session.school_class, display_name=n)
        for n in ("Léa", "Tom")
    ]
    for pupil in pupils:
        store = SessionStore()
        store.update(
            {
                "player_key": pupil.player_key,
                "pupil_id": pupil.pk,
                "class_session_id": class_session.pk,
            }
        )
        store.save()
        TabletLoginFactory(class_session=class_session, pupil=pupil, session_key=store.session_key)
        keys.append(store.session_key)
    seats = [
        services.SeatSpec(player_key=p.player_key, display_name=p.display_name) for p in pupils
    ]
    seats.append(services.bot_seat(level="easy", number=1))
    table = services.table_create(
        game="chasse",
        seats=seats,
        options={"tokens": 2},
        seed=31,
        group_key=class_session.group_key,
    )
    services.table_start(table=table)
    client = Client()
    client.force_login(teacher)
    return {
        "session": class_session,
        "table": table,
        "pupil_keys": keys,
        "teacher_cookie": client.cookies["sessionid"].value,
        "teacher": teacher,
    }


def _teacher_headers(cookie: str) -> list[tuple[bytes, bytes]]:
    """A teacher's browser on the site: its origin, host and session cookie."""
    return [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", f"sessionid={cookie}".encode()),
    ]


def _monitor(session_id: int, cookie: str | None) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(
        application, f"/ws/teacher/sessions/{session_id}/monitor/", headers=headers
    )


async def _receive_until(comm: WebsocketCommunicator, needle: str, timeout: float = 5) -> str:
    for _ in range(50):
        html = await comm.receive_from(timeout=timeout)
        if needle in html:
            return html
    raise AssertionError(f"{needle!r} never came")


def _answer(engine, state, seat: int) -> dict:
    action = dict(engine.legal_actions(state, seat)[0])
    if action.get("announce") == "int":
        action["announce"] = 12
    return action


async def test_monitor_shows_tables_and_receives_updates_without_hands() -> None:
    ctx = await database_sync_to_async(_setup)()
    table = ctx["table"]
    monitor = _monitor(ctx["session"].pk, ctx["teacher_cookie"])
    assert (await monitor.connect())[0]
    board = await monitor.receive_from()
    assert f'id="monitor-table-{table.pk}"' in board and "Léa" in board and "Total" in board
    assert "déconnecté" in board
    lea = Tablet(table.pk, ctx["pupil_keys"][0])
    assert await lea.connect()  # through classroom.access.table_access
    presence = await _receive_until(monitor, f'id="monitor-table-{table.pk}"')
    assert "● connecté" in presence
    engine, state, version, _ = await table_state(table.pk)
    await lea.send(play_form(_answer(engine, state, 0), version))
    update = await _receive_until(monitor, f'data-version="{version + 1}"')
    assert "Léa joue" in update
    _, state, _, _ = await table_state(table.pk)
    assert not card_ids(update) & {c for hand in state.hands for c in hand}
    await lea.close()
    await monitor.disconnect()


async def test_pause_from_the_monitor_refuses_moves_then_resume() -> None:
    ctx = await database_sync_to_async(_setup)()
    table = ctx["table"]
    monitor = _monitor(ctx["session"].pk, ctx["teacher_cookie"])
    assert (await monitor.connect())[0]
    await monitor.receive_from()
    lea = Tablet(table.pk, ctx["pupil_keys"][0])
    assert await lea.connect()
    await monitor.send_json_to({"kind": "pause", "table": str(table.pk)})
    await _receive_until(monitor, 'data-status="paused"')
    engine, state, version, _ = await table_state(table.pk)
    await lea.send(play_form(_answer(engine, state, 0), version))
    html = await lea.receive_until("table-notice")
    while not notice_of(html):
        html = await lea.receive()
    assert "pause" in notice_of(html)
    assert (await table_state(table.pk))[2] == version
    await monitor.send_json_to({"kind": "resume", "table": str(table.pk)})
    await _receive_until(monitor, 'data-status="playing"')
    await lea.send(play_form(_answer(engine, state, 0), version))
    await lea.wait_version(version + 1)
    await lea.close()
    await monitor.disconnect()


async def test_another_teacher_gets_nothing() -> None:
    ctx = await database_sync_to_async(_setup)()

    def other_cookie() -> str:
        client = Client()
        client.force_login(TeacherFactory())
        return client.cookies["sessionid"].value

    cookie = await database_sync_to_async(other_cookie)()
    for session_id, key in (
        (ctx["session"].pk, cookie),
        (ctx["session"].pk + 99, ctx["teacher_cookie"]),
        (ctx["session"].pk, None),
    ):
        connected, _ = await _monitor(session_id, key).connect()
        assert not connected

    # The page: same 404 for someone else's session and a missing one.
    def pages() -> list[int]:
        client = Client()
        client.force_login(TeacherFactory())
        own = Client()
        own.force_login(ctx["teacher"])
        return [
            client.get(f"/teacher/sessions/{ctx['session'].pk}/monitor/").status_code,
            own.get(f"/teacher/sessions/{ctx['session'].pk + 99}/monitor/").status_code,
            own.get(f"/teacher/sessions/{ctx['session'].pk}/monitor/").status_code,
        ]

    assert await database_sync_to_async(pages)() == [404, 404, 200]


async def test_a_table_from_another_session_cannot_be_steered() -> None:
    ctx = await database_sync_to_async(_setup)()
    other = await database_sync_to_async(_setup)()
    monitor = _monitor(ctx["session"].pk, ctx["teacher_cookie"])
    assert (await monitor.connect())[0]
    await monitor.receive_from()
    await monitor.send_json_to({"kind": "pause", "table": str(other["table"].pk)})
    assert "n'existe pas" in (await _receive_until(monitor, "monitor-notice")).replace(
        "&#x27;", "'"
    )
    status = await database_sync_to_async(lambda: Table.objects.get(pk=other["table"].pk).status)()
    assert status == Table.Status.PLAYING
    await monitor.disconnect()


async def test_seat_to_bot_from_the_monitor_keeps_the_table_moving() -> None:
    ctx = await database_sync_to_async(_setup)()
    table = ctx["table"]
    monitor = _monitor(ctx["session"].pk, ctx["teacher_cookie"])
    assert (await monitor.connect())[0]
    await monitor.receive_from()
    # Léa (seat 0, whose turn it is) has to leave: a bot takes her seat and plays.
    await monitor.send_json_to({"kind": "seat_to_bot", "table": str(table.pk), "seat": "0"})
    await _receive_until(monitor, 'data-version="1"')
    moves = await database_sync_to_async(
        lambda: list(table.moves.filter(seat=0).values_list("by_bot", flat=True))
    )()
    assert moves and all(moves)
    await monitor.disconnect()


async def test_ending_the_session_closes_pupil_sockets_and_logs_them_out() -> None:
    ctx = await database_sync_to_async(_setup)()
    table = ctx["table"]
    monitor = _monitor(ctx["session"].pk, ctx["teacher_cookie"])
    assert (await monitor.connect())[0]
    await monitor.receive_from()
    lea = Tablet(table.pk, ctx["pupil_keys"][0])
    assert await lea.connect()
    await monitor.send_json_to({"kind": "end_session"})
    closing = await lea.receive_until("data-closed")
    assert "séance est terminée" in closing
    assert (await lea.comm.receive_output(timeout=2))["type"] == "websocket.close"
    await _receive_until(monitor, "Cette séance est terminée")

    def after() -> tuple[int, bool, str]:
        return (
            TabletLogin.objects.filter(class_session=ctx["session"]).count(),
            SessionStore().exists(ctx["pupil_keys"][0]),
            Table.objects.get(pk=table.pk).status,
        )

    assert await database_sync_to_async(after)() == (0, False, Table.Status.FINISHED)
    # The tablet is a stranger now: reconnecting is refused.
    again = Tablet(table.pk, ctx["pupil_keys"][0])
    assert not await again.connect()
    await monitor.disconnect()


def _robots_play_a_game(class_session: Any) -> Table:
    """A table of two robots in the session, played to its end."""
    table = services.table_create(
        game="chasse",
        seats=[services.bot_seat(level="easy", number=n) for n in (1, 2)],
        options={"tokens": 1, "target": 30},
        seed=5,
        group_key=class_session.group_key,
        number=2,
    )
    services.table_start(table=table)
    for _ in range(50):
        services.bot_turns(table_id=table.pk)
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return table
    raise AssertionError("the robots never finished")


async def test_a_projector_socket_never_brings_the_teachers_rejouer_button() -> None:
    """The same teacher, two sockets on a finished table: their own screen
    offers "Rejouer", the projector's (``?view=projector``, the URL the
    projector page connects to) never does, on connect or on an update."""
    from config.asgi import application

    ctx = await database_sync_to_async(_setup)()
    table = await database_sync_to_async(_robots_play_a_game)(ctx["session"])
    headers = _teacher_headers(ctx["teacher_cookie"])
    page = await database_sync_to_async(Client().get)(f"/table/{table.pk}/projector/")
    assert page.status_code == 404  # a stranger (no teacher session) sees nothing
    own = WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=headers)
    shown = WebsocketCommunicator(
        application, f"/ws/table/{table.pk}/?view=projector", headers=headers
    )
    assert (await own.connect())[0] and (await shown.connect())[0]
    own_screen = await own.receive_from(timeout=5)
    shown_screen = await shown.receive_from(timeout=5)
    assert "Rejouer" in own_screen
    assert "Rejouer" not in shown_screen
    # A live update (a seat changes hands) reaches both screens: only the parts
    # that changed are sent, applied as htmx applies them.
    await database_sync_to_async(services.seat_assign)(
        table=table, index=0, spec=services.bot_seat(level="hard", number=3)
    )
    own_update = await _receive_until(own, 'id="cg-player-0"')
    shown_update = await _receive_until(shown, 'id="cg-player-0"')
    assert "Rejouer" not in shown_update
    assert "Rejouer" in apply_update(own_screen, own_update)
    assert "Rejouer" not in apply_update(shown_screen, shown_update)
    await own.disconnect()
    await shown.disconnect()


async def test_rejouer_sends_the_projector_to_the_new_projector_view_and_keeps_the_monitor() -> None:
    """ "Rejouer" on a finished table: the teacher's own screen follows to the new
    table, the class's projector to the new table's projector view (never to
    the teacher's page and its buttons), and the live view stays connected and
    shows the new table."""
    from classroom.services.tables import table_rematch
    from config.asgi import application

    ctx = await database_sync_to_async(_setup)()
    table = await database_sync_to_async(_robots_play_a_game)(ctx["session"])
    headers = _teacher_headers(ctx["teacher_cookie"])
    own = WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=headers)
    shown = WebsocketCommunicator(
        application, f"/ws/table/{table.pk}/?view=projector", headers=headers
    )
    monitor = _monitor(ctx["session"].pk, ctx["teacher_cookie"])
    for socket in (own, shown, monitor):
        assert (await socket.connect())[0]
        await socket.receive_from(timeout=5)
    new = await database_sync_to_async(table_rematch)(table=table)
    assert f'data-moved="/table/{new.pk}/"' in await _receive_until(own, "data-moved")
    assert f'data-moved="/table/{new.pk}/projector/"' in await _receive_until(shown, "data-moved")
    await _receive_until(monitor, f'id="monitor-table-{new.pk}"')
    # Still open: whatever else comes (the new table's first moves), no close
    # and no crash (a consumer's exception would surface here).
    for _ in range(30):
        if await monitor.receive_nothing(timeout=0.1):
            break
        assert (await monitor.receive_output(timeout=1))["type"] == "websocket.send"
    for socket in (own, shown, monitor):
        await socket.disconnect()
