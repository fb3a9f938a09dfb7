"""Live table behaviours across sockets: no leak, resume, seats change hands, pause."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async

from cardgames import runtime, services
from cardgames.models import Table
from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    pupil_spec,
    seat_resolver,
    session_cookie,
    started_table,
)
from tests.cardgames.test_consumer import _answer, _tablets
from tests.cardgames.wsclient import (
    MESSAGE_VERSION,
    Tablet,
    card_ids,
    notice_of,
    play_form,
    state_at,
    table_state,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
async def test_no_message_to_a_seat_holds_another_seats_hidden_card(seed: int) -> None:
    """Random games through the sockets, including cards chosen then abandoned:
    after every step, nothing sent to seat s names a card in another hand."""
    rng = random.Random(seed)
    options = {"tokens": 2, "target": 50, "announce": rng.choice(["typed", "choice", "shown"])}
    table = await database_sync_to_async(started_table)(
        pupils=3, bots=1, options=options, seed=seed
    )
    tablets = await _tablets(table.pk, ["pupil:1", "pupil:2", "pupil:3"])
    seen = [0, 0, 0]
    checked = 0

    async def check(state) -> None:
        """Each message against the hands at its own version (the robot plays
        meanwhile, and a new round deals new hands); a notice against ``state``."""
        nonlocal checked
        for seat, tablet in enumerate(tablets):
            for html in tablet.messages[seen[seat] :]:
                match = MESSAGE_VERSION.search(html)
                at = await state_at(table.pk, int(match.group(1))) if match else state
                hidden = {
                    card for other, hand in enumerate(at.hands) if other != seat for card in hand
                }
                assert not card_ids(html) & hidden, f"seat {seat} was sent another seat's card"
                checked += 1
            seen[seat] = len(tablet.messages)

    for _step in range(120):
        engine, state, version, _ = await table_state(table.pk)
        for tablet in tablets:
            await tablet.drain(0.01)
        await check(state)
        if engine.is_over(state):
            break
        current = engine.view(state, None)["current_seat"]
        if current == 3:
            await tablets[0].wait_version(version + 1)
            continue
        tablet = tablets[current]
        action = _answer(engine, state, current, rng)
        if rng.random() < 0.3:  # choose a card, change one's mind
            other = rng.choice(state.hands[current])
            await tablet.send({"kind": "choose", "card": str(other), "version": str(version)})
            await tablet.send({"kind": "cancel"})
        await tablet.send({"kind": "choose", "card": str(action["card"]), "version": str(version)})
        if rng.random() < 0.2:  # a spectator's curiosity: poke at another seat's card
            await tablets[(current + 1) % 3].send(
                {"kind": "choose", "card": str(state.hands[current][0]), "version": str(version)}
            )
        await tablet.send(play_form(action, version))
        await tablet.wait_version(version + 1)
    assert checked > 12
    for tablet in tablets:
        await tablet.close()


async def test_a_new_consumer_instance_resumes_mid_game() -> None:
    """Nothing lives in a consumer: a fresh one (a restarted server) carries on."""
    table = await database_sync_to_async(started_table)(pupils=2, bots=0, seed=21)
    lea, tom = await _tablets(table.pk, ["pupil:1", "pupil:2"])
    rng = random.Random(2)
    for _ in range(4):
        engine, state, version, _ = await table_state(table.pk)
        current = engine.view(state, None)["current_seat"]
        await (lea, tom)[current].send(play_form(_answer(engine, state, current, rng), version))
        await lea.wait_version(version + 1)
    await lea.close()
    await tom.close()
    engine, state, version, _ = await table_state(table.pk)
    current = engine.view(state, None)["current_seat"]
    fresh = Tablet(table.pk, (lea, tom)[current].session_key)
    assert await fresh.connect()
    assert fresh.version == version and fresh.current == current
    assert set(state.hands[current]) <= card_ids(fresh.messages[0])
    await fresh.send(play_form(_answer(engine, state, current, rng), version))
    await fresh.wait_version(version + 1)
    await fresh.close()


async def test_pupil_to_bot_and_bot_to_pupil_mid_game() -> None:
    table = await database_sync_to_async(started_table)(pupils=2, bots=1, seed=4)
    lea, tom = await _tablets(table.pk, ["pupil:1", "pupil:2"])
    # Tom's tablet died: the teacher gives seat 1 to a bot. His socket is told and closed.
    await database_sync_to_async(services.seat_assign)(
        table=table, index=1, spec=services.bot_seat(level="easy", number=9)
    )
    closing = await tom.receive_until("data-closed")
    assert "quelqu'un d'autre" in closing.replace("&#x27;", "'")
    # A late pupil takes the first bot's seat (2) and picks up its hand.
    await database_sync_to_async(services.seat_assign)(
        table=table, index=2, spec=pupil_spec(3, "Inès")
    )
    ines = Tablet(table.pk, await database_sync_to_async(session_cookie)("pupil:3"))
    assert await ines.connect()
    engine, state, version, _ = await table_state(table.pk)
    assert set(state.hands[2]) <= card_ids(ines.messages[0])
    # The table never stalls: play until seat 1 (now a bot) has moved.
    rng = random.Random(5)
    for _ in range(30):
        engine, state, version, _ = await table_state(table.pk)
        moved = [e for e in state.log if e.get("type") == "card_played" and e.get("seat") == 1]
        if moved or engine.is_over(state):
            break
        current = engine.view(state, None)["current_seat"]
        if current == 1:
            await lea.wait_version(version + 1)
            continue
        tablet = lea if current == 0 else ines
        await tablet.send(play_form(_answer(engine, state, current, rng), version))
        await lea.wait_version(version + 1)
    assert moved, "the bot never played the seat it was given"
    await lea.close()
    await ines.close()


async def test_a_paused_table_refuses_moves_with_a_message() -> None:
    table = await database_sync_to_async(started_table)(pupils=2, bots=0, seed=8)
    (lea,) = await _tablets(table.pk, ["pupil:1"])
    engine, state, version, _ = await table_state(table.pk)
    await database_sync_to_async(services.table_pause)(table=table)
    paused = await lea.receive_until('data-status="paused"')
    assert "pause" in paused
    await lea.send(play_form(_answer(engine, state, 0, random.Random(1)), version))
    html = await lea.receive_until("table-notice")
    while not notice_of(html):
        html = await lea.receive()
    assert "pause" in notice_of(html)
    _, _, after, status = await table_state(table.pk)
    assert after == version and status == Table.Status.PAUSED
    await lea.close()


async def test_connect_reschedules_a_table_waiting_on_a_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker died while a bot was thinking: the next connect gets it moving."""
    with monkeypatch.context() as patch:
        patch.setattr(runtime, "schedule", lambda table_id, at: None)  # the run is lost
        table = await database_sync_to_async(started_table)(
            pupils=1, bots=1, bots_first=True, seed=6
        )
    _, _, version, _ = await table_state(table.pk)
    assert version == 0
    (lea,) = await _tablets(table.pk, ["pupil:1"])
    await lea.wait_version(version + 1)
    await runtime.drain()
    assert lea.version >= 1
    await lea.close()
