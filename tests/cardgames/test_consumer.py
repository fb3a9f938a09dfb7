"""The live table through its websocket: a full game, refusals, reconnects."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async

from cardgames.models import GameState, Move
from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    seat_resolver,
    session_cookie,
    started_table,
)
from tests.cardgames.wsclient import Tablet, card_ids, notice_of, play_form, table_state

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]

SHORT = {"tokens": 2, "target": 50}


async def _tablets(table_id: int, keys: list[str]) -> list[Tablet]:
    tablets = [Tablet(table_id, await database_sync_to_async(session_cookie)(key)) for key in keys]
    for tablet in tablets:
        assert await tablet.connect()
    return tablets


def _answer(engine, state, seat: int, rng: random.Random) -> dict:
    """What a pupil would play: a legal card, announced with the right total."""
    legal = engine.legal_actions(state, seat)
    action = dict(rng.choice(legal))
    if action.get("announce") == "int":
        hand = {card["id"]: card for card in engine.view(state, seat)["hand"]}
        card = hand[action["card"]]
        sign = {"add": 1, "sub": -1}.get(card["kind"], 0)
        action["announce"] = state.total + sign * card["value"]
    return action


async def test_two_pupils_and_a_bot_play_to_game_over() -> None:
    table = await database_sync_to_async(started_table)(pupils=2, bots=1, options=SHORT, seed=11)
    lea, tom = await _tablets(table.pk, ["pupil:1", "pupil:2"])
    rng = random.Random(3)
    moves = 0
    while moves < 400:
        engine, state, version, _ = await table_state(table.pk)
        if engine.is_over(state):
            break
        current = engine.view(state, None)["current_seat"]
        if current == 2:  # the bot: it plays by itself, on a background task
            await lea.wait_version(version + 1)
            continue
        tablet = (lea, tom)[current]
        action = _answer(engine, state, current, rng)
        # Step one: tap the card (the server starts the compute clock) …
        await tablet.send({"kind": "choose", "card": str(action["card"]), "version": str(version)})
        html = await tablet.receive_until('aria-pressed="true"')
        assert f'data-card="{action["card"]}" data-legal="1" aria-label' in html
        # … step two: announce.
        await tablet.send(play_form(action, version))
        await lea.wait_version(version + 1)
        await tom.wait_version(version + 1)
        moves += 1
    engine, state, version, status = await table_state(table.pk)
    assert engine.is_over(state)
    assert status == "finished"
    for tablet in (lea, tom):
        await tablet.wait_version(version)
        assert tablet.over
        assert "Partie terminée" in tablet.messages[-1]
    # The bot did play, and pupils' moves carry server-measured timings.
    pupil_moves = await database_sync_to_async(list)(Move.objects.filter(table=table, by_bot=False))
    assert await database_sync_to_async(Move.objects.filter(table=table, by_bot=True).exists)()
    assert pupil_moves and all(
        m.think_ms is not None and m.compute_ms is not None for m in pupil_moves
    )
    for tablet in (lea, tom):
        await tablet.close()


async def test_strangers_and_missing_tables_are_refused_alike() -> None:
    table = await database_sync_to_async(started_table)()
    stranger = Tablet(table.pk, await database_sync_to_async(session_cookie)("pupil:99"))
    missing = Tablet(table.pk + 1000, await database_sync_to_async(session_cookie)("pupil:1"))
    anonymous = Tablet(table.pk, None)
    for tablet in (stranger, missing, anonymous):
        assert not await tablet.connect()


async def _refusal_case(payload) -> tuple[str, dict]:
    table = await database_sync_to_async(started_table)(seed=5)
    (lea,) = await _tablets(table.pk, ["pupil:1"])
    _, _, before_version, _ = await table_state(table.pk)
    before = await database_sync_to_async(lambda: GameState.objects.get(table=table).state)()
    await lea.send(payload)
    html = await lea.receive()
    after = await database_sync_to_async(lambda: GameState.objects.get(table=table))()
    assert after.version == before_version and after.state == before, "a refusal changed the game"
    # The socket stays open: the pupil can still ask for the screen again.
    await lea.send({"kind": "sync"})
    assert 'id="table-main"' in await lea.receive()
    await lea.close()
    return notice_of(html), {"table": table}


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ("{not json", "pas compris"),
        ("[1, 2, 3]", "pas compris"),
        ({"kind": "act", "card": {"x": 1}, "version": "0", "nonce": "n1"}, "pas compris"),
        ({"kind": "act", "card": "1", "version": [], "nonce": "n1"}, "pas compris"),
        ({"kind": "dance"}, "n'existe pas"),
        ("x" * (1024 * 1024), "trop long"),
        (
            {
                "kind": "act",
                "move": "play",
                "card": "1",
                "announce": "douze",
                "version": "0",
                "nonce": "n",
            },
            "chiffres",
        ),
    ],
    ids=[
        "bad-json",
        "not-an-object",
        "wrong-type-card",
        "wrong-type-version",
        "unknown-kind",
        "1MB",
        "letters",
    ],
)
async def test_bad_input_gets_a_french_notice_and_changes_nothing(payload, expected: str) -> None:
    notice, _ = await _refusal_case(payload)
    assert expected in notice


async def test_out_of_turn_and_card_not_in_hand_are_refused() -> None:
    table = await database_sync_to_async(started_table)(seed=5)
    lea, tom = await _tablets(table.pk, ["pupil:1", "pupil:2"])
    engine, state, version, _ = await table_state(table.pk)
    assert engine.view(state, None)["current_seat"] == 0
    # Tom (seat 1) tries to play on Léa's turn, with one of his own cards.
    toms_card = state.hands[1][0]
    await tom.send(play_form({"type": "play", "card": toms_card, "announce": 5}, version))
    assert "pas ton tour" in notice_of(await tom.receive())
    # Léa names a card that is in Tom's hand.
    await lea.send(play_form({"type": "play", "card": toms_card, "announce": 5}, version))
    assert "pas dans ta main" in notice_of(await lea.receive())
    _, _, after_version, _ = await table_state(table.pk)
    assert after_version == version
    await lea.close()
    await tom.close()


async def test_stale_version_and_duplicate_nonce_are_refused() -> None:
    table = await database_sync_to_async(started_table)(pupils=2, bots=0, seed=5)
    lea, tom = await _tablets(table.pk, ["pupil:1", "pupil:2"])
    engine, state, version, _ = await table_state(table.pk)
    action = _answer(engine, state, 0, random.Random(1))
    form = play_form(action, version)
    await lea.send(form)
    await lea.wait_version(version + 1)
    # The same form again (a double tap): same nonce → refused, nothing changes.
    await lea.send(form)
    assert "déjà été envoyé" in notice_of(await lea.receive())
    # Tom acts on the screen he had before Léa's move: stale.
    engine, state, now_version, _ = await table_state(table.pk)
    tom_action = _answer(engine, state, 1, random.Random(1))
    await tom.send(play_form(tom_action, version))
    html = await tom.receive_until("table-notice")
    while not notice_of(html):
        html = await tom.receive()
    assert "changé entre-temps" in notice_of(html)
    _, _, after_version, _ = await table_state(table.pk)
    assert after_version == now_version == version + 1
    await lea.close()
    await tom.close()


async def test_a_used_nonce_is_refused_even_on_the_current_version() -> None:
    """A nonce is good for one move, whatever version its message claims: a
    message that reuses one on the current screen is refused as already sent
    (the database's unique constraint, no lookup before), and nothing changes."""
    table = await database_sync_to_async(started_table)(pupils=2, bots=0, seed=5)
    lea, tom = await _tablets(table.pk, ["pupil:1", "pupil:2"])
    engine, state, version, _ = await table_state(table.pk)
    form = play_form(_answer(engine, state, 0, random.Random(1)), version)
    await lea.send(form)
    await lea.wait_version(version + 1)
    await tom.wait_version(version + 1)
    engine, state, now_version, _ = await table_state(table.pk)
    toms = play_form(_answer(engine, state, 1, random.Random(1)), now_version)
    toms["nonce"] = form["nonce"]
    await tom.send(toms)
    html = await tom.receive()
    while not notice_of(html):
        html = await tom.receive()
    assert "déjà été envoyé" in notice_of(html)
    _, after_state, after_version, _ = await table_state(table.pk)
    assert after_version == now_version
    assert engine.to_json(after_state) == engine.to_json(state)
    assert await database_sync_to_async(Move.objects.filter(table_id=table.pk).count)() == 1
    # The refusal lost nothing: the same move with a fresh nonce is played.
    toms["nonce"] = "fresh-" + form["nonce"][:40]
    await tom.send(toms)
    await tom.wait_version(now_version + 1)
    await lea.close()
    await tom.close()


async def test_reconnect_gives_back_the_same_hand() -> None:
    table = await database_sync_to_async(started_table)(seed=9)
    (lea,) = await _tablets(table.pk, ["pupil:1"])
    first = card_ids(lea.messages[0])
    await lea.close()
    again = Tablet(table.pk, lea.session_key)
    assert await again.connect()
    assert card_ids(again.messages[0]) == first
    _, state, _, _ = await table_state(table.pk)
    assert set(state.hands[0]) <= first
    await again.close()
