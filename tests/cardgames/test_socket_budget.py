"""A message budget per socket (``cardgames/socket_budget.py``).

The attack: one socket sent 300 refused moves and 200 ``sync`` and every one
was served: a database thread each (a write transaction each on SQLite, the
school's one write lock) and 2.7 MB of redraws. Now a message beyond the budget
is refused on the event loop, before any parsing or database work, and a
socket that keeps flooding is closed. A child's real pace is never refused."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from cardgames import socket_budget
from cardgames.consumers import TableConsumer
from cardgames.models import GameState
from cardgames.socket_budget import SocketBudget, Verdict
from tests.cardgames.factories import (  # noqa: F401
    communicator,
    fresh_channel_layer,
    seat_resolver,
    session_cookie,
    started_table,
)
from tests.cardgames.wsclient import Tablet, notice_of, play_form, table_state
from tests.factories import ClassSessionFactory


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _budget(clock: Clock) -> SocketBudget:
    return SocketBudget(burst=30, per_second=8, close_after=90, close_window=10, clock=clock)


def test_a_burst_then_slow_down_once_then_quiet_then_refilled() -> None:
    clock = Clock()
    budget = _budget(clock)
    assert [budget.take() for _ in range(30)] == [Verdict.ALLOWED] * 30
    assert budget.take() is Verdict.SLOW_DOWN
    assert budget.take() is Verdict.QUIET
    clock.now += 0.25  # two messages earned
    assert [budget.take() for _ in range(3)] == [
        Verdict.ALLOWED,
        Verdict.ALLOWED,
        Verdict.SLOW_DOWN,
    ]
    clock.now += 3600  # never more than the burst saved up
    assert [budget.take() for _ in range(31)][-1] is Verdict.SLOW_DOWN


def test_sustained_abuse_closes_once_but_a_slow_masher_is_never_closed() -> None:
    clock = Clock()
    flood = _budget(clock)
    verdicts = [flood.take() for _ in range(300)]
    assert verdicts.count(Verdict.ALLOWED) == 30
    assert verdicts[30 + 89] is Verdict.CLOSE and verdicts.count(Verdict.CLOSE) == 1
    assert set(verdicts[30 + 90 :]) == {Verdict.QUIET}  # queued behind the close: dropped
    # Two hands mashing, 12 taps a second for a minute: some taps are refused,
    # the socket is never closed.
    clock = Clock()
    masher = _budget(clock)
    seen = []
    for _ in range(12 * 60):
        clock.now += 1 / 12
        seen.append(masher.take())
    assert Verdict.CLOSE not in seen and Verdict.SLOW_DOWN in seen


def test_a_fast_child_and_reconnects_are_never_refused() -> None:
    """Ten minutes at a two-step move every 0.3 s (card, then move: a message
    every 0.15 s), a ``sync`` every 5 s, and a reconnect replaying 20 taps
    queued while offline every minute."""
    clock = Clock()
    budget = _budget(clock)
    for step in range(4000):
        clock.now += 0.15
        assert budget.take() is Verdict.ALLOWED
        if step % 33 == 0:
            assert budget.take() is Verdict.ALLOWED  # sync
        if step % 400 == 399:
            clock.now += 10  # offline ten seconds, then the queue at once
            assert [budget.take() for _ in range(20)] == [Verdict.ALLOWED] * 20


async def _outputs_until_close(
    comm: WebsocketCommunicator, timeout: float = 20
) -> list[dict[str, Any]]:
    outputs = []
    while True:
        output = await comm.receive_output(timeout=timeout)
        outputs.append(output)
        if output["type"] == "websocket.close":
            return outputs


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer")
async def test_a_flood_of_refused_moves_is_cut_off_before_the_database_then_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Attack: 300 out-of-turn moves from one socket. Before: 300 database jobs
    (300 write transactions), 300 answers, the socket open. Now: at most the
    budget reaches the database, the rest are refused on the event loop, and
    the socket is closed with 1008."""
    reached = 0
    handle_checked = TableConsumer._handle_checked

    def counted(self: TableConsumer, data: dict[str, Any]) -> Any:
        nonlocal reached
        reached += 1
        return handle_checked(self, data)

    monkeypatch.setattr(TableConsumer, "_handle_checked", counted)
    table = await database_sync_to_async(started_table)(seed=5)
    engine, state, version, _ = await table_state(table.pk)
    assert engine.view(state, None)["current_seat"] == 0
    tom = Tablet(table.pk, await database_sync_to_async(session_cookie)("pupil:2"))
    assert await tom.connect()
    assert tom.comm is not None
    loop = asyncio.get_running_loop()
    started = loop.time()
    for _ in range(300):
        await tom.send(
            play_form({"type": "play", "card": state.hands[1][0], "announce": 5}, version)
        )
    outputs = await _outputs_until_close(tom.comm)
    elapsed = loop.time() - started
    assert outputs[-1] == {"type": "websocket.close", "code": socket_budget.CLOSE_TOO_MANY}
    texts = [o.get("text", "") for o in outputs]
    assert any("Doucement" in notice_of(t) for t in texts)
    assert "Recharge la page" in texts[-2]
    # The budget, plus what it earned while the allowed ones were worked on.
    assert 30 <= reached <= 30 + 8 * elapsed + 1, (reached, elapsed)
    # Far fewer answers than messages: no redraw per refused message.
    assert len(outputs) < reached + 10
    after = await database_sync_to_async(lambda: GameState.objects.get(table=table).version)()
    assert after == version
    # The refused messages did not even reach the handler afterwards.
    await asyncio.sleep(0.2)
    assert reached <= 30 + 8 * (loop.time() - started) + 1


def _answer(engine: Any, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
    legal = engine.legal_actions(state, seat)
    action = dict(rng.choice(legal))
    if action.get("announce") == "int":
        hand = {card["id"]: card for card in engine.view(state, seat)["hand"]}
        card = hand[action["card"]]
        sign = {"add": 1, "sub": -1}.get(card["kind"], 0)
        action["announce"] = state.total + sign * card["value"]
    return action


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer")
async def test_a_real_game_at_a_fast_childs_pace_is_never_refused() -> None:
    """A pupil against a robot, a message every 0.15 s for 7 s (a card, then the
    move: a move every 0.3 s), with a ``sync`` every 2 s: 50 messages, more
    than the burst, and not one "Doucement !"."""
    table = await database_sync_to_async(started_table)(
        pupils=1, bots=1, options={"tokens": 2, "target": 50}, seed=11
    )
    lea = Tablet(table.pk, await database_sync_to_async(session_cookie)("pupil:1"))
    assert await lea.connect()
    rng = random.Random(3)
    loop = asyncio.get_running_loop()
    next_at = loop.time()
    sent = 0
    pending: dict[str, Any] | None = None

    async def paced(payload: dict[str, Any]) -> None:
        nonlocal next_at, sent
        next_at += 0.15
        await asyncio.sleep(max(0.0, next_at - loop.time()))
        await lea.send(payload)
        sent += 1
        html = await lea.receive()
        assert "Doucement" not in notice_of(html), sent
        await lea.drain()

    while sent < 50:
        if sent % 13 == 0:
            await paced({"kind": "sync"})
            continue
        engine, state, version, _ = await table_state(table.pk)
        if engine.is_over(state) or engine.view(state, None)["current_seat"] != 0:
            await paced({"kind": "sync"})
            continue
        if pending is None:
            pending = _answer(engine, state, 0, rng)
            await paced({"kind": "choose", "card": str(pending["card"]), "version": str(version)})
        else:
            await paced(play_form(pending, version))
            pending = None
    assert "Doucement" not in "".join(lea.messages)
    await lea.close()


def _teacher_session() -> tuple[int, str]:
    class_session = ClassSessionFactory()
    client = Client()
    client.force_login(class_session.school_class.teacher)
    return class_session.pk, client.cookies["sessionid"].value


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_channel_layer")
@pytest.mark.parametrize("path", ["/ws/projector/{id}/", "/ws/teacher/sessions/{id}/monitor/"])
async def test_the_teachers_sockets_are_closed_after_a_flood(path: str) -> None:
    """Attack: 200 messages at the projector (which ignores them) or the monitor
    (which would run each as a command). The socket is closed with 1008."""
    from config.asgi import application

    session_id, cookie = await database_sync_to_async(_teacher_session)()
    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", f"sessionid={cookie}".encode()),
    ]
    comm = WebsocketCommunicator(application, path.format(id=session_id), headers=headers)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    for _ in range(200):
        await comm.send_to(text_data='{"kind": "dance"}')
    outputs = await _outputs_until_close(comm)
    assert outputs[-1] == {"type": "websocket.close", "code": socket_budget.CLOSE_TOO_MANY}
    if "monitor" in path:
        texts = " ".join(o.get("text", "") for o in outputs)
        assert "Trop de demandes" in texts
        assert texts.count("Trop de demandes") == 1
