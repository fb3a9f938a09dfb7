"""'Needs help now' on the teacher's monitor (issue 18 § 3): a struggling pupil
is marked within the move of their third wrong answer out of five, the mark
clears itself when they recover, it is pushed over the monitor's websocket
(no polling), and it never reaches the projector or a pupil's screen."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cardgames import engines
from cardgames import services as cg
from cardgames.engines.chasse import CARD_TYPES, DELTA
from cardgames.models import GameState, Table
from classroom import learning
from classroom.models import LearningRecord
from tests.cardgames.factories import fresh_channel_layer  # noqa: F401
from tests.cardgames.wsclient import Tablet, nonce, play_form, table_state
from tests.factories import ClassSessionFactory, PupilFactory, TabletLoginFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_channel_layer"),
]


def _setup() -> dict[str, Any]:
    """Léa and Tom at one table of a lesson; Léa signed in on a tablet."""
    class_session = ClassSessionFactory()
    lea, tom = (
        PupilFactory(school_class=class_session.school_class, display_name=n)
        for n in ("Léa", "Tom")
    )
    store = SessionStore()
    store.update(
        {"player_key": lea.player_key, "pupil_id": lea.pk, "class_session_id": class_session.pk}
    )
    store.save()
    TabletLoginFactory(class_session=class_session, pupil=lea, session_key=store.session_key)
    table = cg.table_create(
        game="chasse",
        seats=[
            cg.SeatSpec(player_key=p.player_key, display_name=p.display_name) for p in (lea, tom)
        ],
        options={"tokens": 5, "special_cards": False},
        seed=5,
        group_key=class_session.group_key,
    )
    cg.table_start(table=table)
    client = Client()
    client.force_login(class_session.school_class.teacher)
    return {
        "session": class_session,
        "table": table,
        "lea": lea,
        "tom": tom,
        "lea_key": store.session_key,
        "cookie": client.cookies["sessionid"].value,
    }


def _socket(path: str, cookie: str | None) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


@database_sync_to_async
def _play(table: Table, *, wrong: bool) -> tuple[int, bool]:
    """The current seat plays its first legal card, announcing ``wrong`` or
    the true total. Returns (seat, whether a number was announced)."""
    engine = engines.get("chasse")
    game_state = GameState.objects.get(table=table)
    state = engine.from_json(game_state.state)
    seat = state.current_seat
    action = dict(engine.legal_actions(state, seat)[0])
    announced = action.get("announce") == "int"
    if announced:
        true = state.total + DELTA[action["card"] % CARD_TYPES]
        action["announce"] = true + 1 if wrong else true
    cg.action_submit(
        table=table, seat=seat, action=action, version=game_state.version, nonce=nonce()
    )
    return seat, announced


async def _drain(comm: WebsocketCommunicator, into: list[str]) -> list[str]:
    got = []
    while not await comm.receive_nothing(timeout=0.3):
        got.append(await comm.receive_from())
    into.extend(got)
    return got


def _mark_of(messages: list[str], pupil_id: int) -> str | None:
    """The last mark pushed for ``pupil_id`` in ``messages``: its text, "" when
    cleared, ``None`` when no message redrew it."""
    slot = f'<span id="help-pupil-{pupil_id}"'
    found = None
    for html in messages:
        start = html.rfind(slot)
        if start < 0:
            continue
        end = html.find("</span></span>", start)
        piece = html[start : end if end > 0 else start + 400]
        found = piece.split("</span>", 1)[1] if "Besoin d" in piece else ""
    return found


async def test_a_struggling_pupil_is_marked_then_the_mark_clears() -> None:
    ctx = await database_sync_to_async(_setup)()
    table, lea, tom = ctx["table"], ctx["lea"], ctx["tom"]
    monitor = _socket(f"/ws/teacher/sessions/{ctx['session'].pk}/monitor/", ctx["cookie"])
    projector = _socket(f"/ws/projector/{ctx['session'].pk}/", ctx["cookie"])
    assert (await monitor.connect())[0] and (await projector.connect())[0]
    tablet = Tablet(table.pk, ctx["lea_key"])
    assert await tablet.connect()
    seen_by_monitor: list[str] = []
    seen_elsewhere: list[str] = []
    await _drain(monitor, seen_by_monitor)

    lea_answers: list[bool] = []  # True = right
    plan = [False, False, True, False, True, True, True, True]  # Léa: W W R W, then right
    marks: list[str | None] = []
    moves = 0
    while len(lea_answers) < len(plan) and moves < 200:
        moves += 1
        wrong_next = not plan[len(lea_answers)]
        seat, announced = await _play(table, wrong=wrong_next)
        pushed = await _drain(monitor, seen_by_monitor)
        seen_elsewhere += await _drain(projector, [])
        await tablet.drain(quiet=0.05)
        if seat != 0 or not announced:
            assert _mark_of(pushed, tom.pk) in (None, "")  # Tom answers right
            continue
        lea_answers.append(not wrong_next)
        marks.append(_mark_of(pushed, lea.pk))
    assert len(lea_answers) == len(plan)
    # Answers 1, 2 wrong: no mark. Answer 4 is the third wrong of the last
    # five: the mark comes with that very move, with the calculations.
    assert not marks[0] and not marks[1] and not marks[2]
    assert marks[3] and "3 erreurs sur 4" in marks[3]
    # W W R W R: still 3 of 5; W R W R R: 2 of 5 → cleared by that move.
    assert marks[4] is None or "3 erreurs sur 5" in marks[4]
    assert marks[5] == ""
    # Never on the projector, never on Léa's own screen.
    for html in seen_elsewhere + tablet.messages:
        assert "Besoin d" not in html and "help-pupil" not in html
    # A monitor that connects later reads the records: no mark now.
    again = _socket(f"/ws/teacher/sessions/{ctx['session'].pk}/monitor/", ctx["cookie"])
    assert (await again.connect())[0]
    board = await again.receive_from()
    assert f'id="help-pupil-{lea.pk}"' in board and "Besoin d" not in board
    for comm in (monitor, projector, again):
        await comm.disconnect()
    await tablet.close()


async def test_a_monitor_that_connects_late_shows_the_current_mark() -> None:
    ctx = await database_sync_to_async(_setup)()
    table, lea = ctx["table"], ctx["lea"]
    wrong = 0
    moves = 0
    while wrong < 3 and moves < 200:
        moves += 1
        seat, announced = await _play(table, wrong=True)
        wrong += seat == 0 and announced
    monitor = _socket(f"/ws/teacher/sessions/{ctx['session'].pk}/monitor/", ctx["cookie"])
    assert (await monitor.connect())[0]
    board = await monitor.receive_from()
    assert "Besoin d" in board and "3 erreurs sur 3" in board
    assert f'id="help-pupil-{lea.pk}"' in board
    await monitor.disconnect()


def test_the_move_path_pays_no_query_for_the_mark(monkeypatch: pytest.MonkeyPatch) -> None:
    """``record_move`` (the move path's learning step) runs the same queries
    with and without the push to the monitor: the record travels in the
    message, the monitor decides alone."""
    ctx = _setup()
    table = ctx["table"]
    engine = engines.get("chasse")
    state = engine.from_json(GameState.objects.get(table=table).state)
    view = engine.view(state, 0)
    action = dict(engine.legal_actions(state, 0)[0])
    action["announce"] = state.total + DELTA[action["card"] % CARD_TYPES]
    events = engine.apply(state, 0, action)

    def run(version: int) -> int:
        with CaptureQueriesContext(connection) as queries:
            record = learning.record_move(
                table=table,
                seat=0,
                player_key=ctx["lea"].player_key,
                events=events,
                version=version,
                view_before=view,
                timings={"think_ms": 900, "compute_ms": 1500},
                timed_out=False,
                by_bot=False,
            )
        assert record is not None
        return len(queries)

    with_push = run(1000)
    monkeypatch.setattr(learning, "help_play_notify", lambda **kw: None)
    without_push = run(1001)
    assert with_push == without_push
    assert LearningRecord.objects.filter(pupil=ctx["lea"]).count() == 2


async def test_a_mark_from_moves_made_on_the_tablet_reaches_the_monitor() -> None:
    """Léa answers on her tablet's socket, as in class: her learning record is
    written after her screen, and its push to the monitor is then sent by her
    socket on the event loop (``group_send_after_reply``), not from the
    database thread. The monitor still marks her on the third wrong answer."""
    ctx = await database_sync_to_async(_setup)()
    table, lea = ctx["table"], ctx["lea"]
    monitor = _socket(f"/ws/teacher/sessions/{ctx['session'].pk}/monitor/", ctx["cookie"])
    assert (await monitor.connect())[0]
    tablet = Tablet(table.pk, ctx["lea_key"])
    assert await tablet.connect()
    seen: list[str] = []
    await _drain(monitor, seen)
    wrong = 0
    for _ in range(60):
        engine, state, version, _status = await table_state(table.pk)
        if state.current_seat != 0:
            await _play(table, wrong=False)  # Tom, from his own (absent) tablet
            await tablet.wait_version(version + 1)
            continue
        action = dict(engine.legal_actions(state, 0)[0])
        if action.get("announce") != "int":
            await _play(table, wrong=False)  # nothing to announce: no record
            await tablet.wait_version(version + 1)
            continue
        action["announce"] = state.total + DELTA[action["card"] % CARD_TYPES] + 1
        await tablet.send(play_form(action, version))
        await tablet.wait_version(version + 1)
        wrong += 1
        pushed = await _drain(monitor, seen)
        if wrong == 3:
            mark = _mark_of(pushed, lea.pk)
            assert mark and "Besoin d" in "".join(pushed), pushed
            break
    assert wrong == 3
    await monitor.disconnect()
    await tablet.close()
