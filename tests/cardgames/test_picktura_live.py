"""Picktura through the table's websocket: a 3-seat table (2 pupils, 1 bot)
played to ``game_over`` by the pupils' forms, secrecy checked on every
message, then both pupils add up their scores and the records match."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async

from cardgames import services
from cardgames.engines.picktura import HIDDEN
from cardgames.models import GameEvent, Seat, Table
from classroom.models import LearningRecord, ScoreSumRecord
from tests.cardgames.factories import fresh_channel_layer, seat_resolver  # noqa: F401
from tests.cardgames.test_consumer import _tablets
from tests.cardgames.wsclient import (
    MESSAGE_VERSION,
    Tablet,
    nonce,
    notice_of,
    state_at,
    table_state,
)
from tests.factories import ClassSessionFactory, PupilFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]

# Every place a card id can appear in a seat's HTML.
CARD_IDS = re.compile(r'name="cards?" value="([\d,]+)"|data-card="(\d+)"')


def ids_in(html: str) -> set[int]:
    found: set[int] = set()
    for a, b in CARD_IDS.findall(html):
        for part in (a or b).split(","):
            found.add(int(part))
    return found


FACE = re.compile(r'viewBox="(\d+) (\d+) 100 100"[^>]*>\s*<image href="[^"]*/work-(\d+)\.svg"')


def faces_in(html: str) -> set[int]:
    """The cards whose picture is drawn (a quarter of a work)."""
    return {(int(n) - 1) * 4 + (int(y) // 100) * 2 + int(x) // 100 for x, y, n in FACE.findall(html)}




def hidden_draws_of(state: Any) -> dict[int, set[int]]:
    """Cards each seat drew from the hidden pile (only the drawer may see them)."""
    drawn: dict[int, set[int]] = {}
    for event in state.log:
        if event["type"] == "hidden_card":
            drawn.setdefault(event["seat"], set()).add(event["card"]["id"])
    return drawn


def check_secret(html: str, seat: int, state: Any) -> None:
    """Nothing in a message to ``seat`` names another hand's card, nor a card
    still hidden, nor a hidden draw of another seat that it did not see."""
    shown = ids_in(html)
    others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
    assert not shown & others, f"seat {seat} was sent another hand's card"
    assert not shown & set(state.hidden), f"seat {seat} was sent a hidden-pile card"
    # A drawn face names its card as surely as an id: work n, quarter q.
    faces = faces_in(html)
    assert not faces & others, f"seat {seat} was shown another hand's card"
    assert not faces & set(state.hidden), f"seat {seat} was shown a hidden-pile card"


def form_of(action: dict[str, Any], version: int) -> dict[str, Any]:
    """The strings the tablet's forms send for an engine action."""
    form: dict[str, Any] = {"kind": "act", "move": action["type"], "version": str(version), "nonce": nonce()}
    for key, value in action.items():
        if key == "type":
            continue
        if key == "cards" and action["type"] == "exhibit":
            form["cards"] = [str(c) for c in value]  # checkboxes: a list
        elif isinstance(value, list):
            form[key] = ",".join(value if key == "draw_from" else map(str, value))
        else:
            form[key] = str(value)
    return form


def _session_with_pupils() -> tuple[Any, list[Any]]:
    session = ClassSessionFactory(game="picktura")
    pupils = [PupilFactory(school_class=session.school_class, display_name=n) for n in ("Léa", "Tom")]
    return session, pupils


def _table(session: Any, pupils: list[Any]) -> Table:
    seats = [
        services.SeatSpec(player_key=p.player_key, display_name=p.display_name, avatar=p.avatar)
        for p in pupils
    ] + [services.bot_seat(level="medium", number=1)]
    table = services.table_create(
        game="picktura", seats=seats, options={}, seed=21, group_key=session.group_key
    )
    services.table_start(table=table)
    table.refresh_from_db()
    return table


async def test_a_three_seat_table_plays_to_the_end_then_the_pupils_add_up(settings: Any) -> None:
    settings.BOT_DELAY_RANGE = (0.0, 0.01)
    session, pupils = await database_sync_to_async(_session_with_pupils)()
    table = await database_sync_to_async(_table)(session, pupils)
    tablets = await _tablets(table.pk, [p.player_key for p in pupils])
    rng = random.Random(4)
    seen = [0, 0]
    kinds: set[str] = set()
    checked = 0
    for _step in range(3000):
        engine, state, version, _status = await table_state(table.pk)
        for tablet in tablets:
            await tablet.drain(0.01)
        for seat, tablet in enumerate(tablets):
            for html in tablet.messages[seen[seat] :]:
                match = MESSAGE_VERSION.search(html)
                if match:  # bots move meanwhile: judge each screen at its own moment
                    check_secret(html, seat, await state_at(table.pk, int(match.group(1))))
                    checked += 1
            seen[seat] = len(tablet.messages)
        if engine.is_over(state):
            break
        seat = state.current
        if seat >= 2:
            # The robot's move arrives (perhaps already drained above).
            await tablets[0].wait_version(version + 1)
            continue
        legal = engine.legal_actions(state, seat)
        laying = [a for a in legal if a["type"] not in ("collect",)]
        action = rng.choice(laying if laying and rng.random() < 0.7 else legal)
        kinds.add(action["type"] + (":" + action["from"] if action["type"] == "collect" else ""))
        await tablets[seat].send(form_of(action, version))
        await tablets[seat].wait_version(version + 1)
    engine, state, version, _ = await table_state(table.pk)
    assert engine.is_over(state), "the game never ended"
    assert checked > 50
    assert {"collect:visible", "collect:hidden", "discard", "exhibit"} <= kinds
    # A card drawn from the hidden pile reached its drawer's screen.
    drawn = hidden_draws_of(state)
    assert drawn.get(0) or drawn.get(1)

    # The end: each pupil is asked, and nothing shows the scores yet.
    # The last move may be the robot's, still on its way: wait for its screen
    # rather than for a fixed quiet time (a slow database outlasts any guess).
    screens = []
    for tablet in tablets:
        await tablet.wait_version(version)
        await tablet.drain(0.05)
        screens.append(tablet.screen)
    for html in screens:
        assert "Combien de points as-tu ?" in html
        assert "pk-ranking" not in html
    result = engine.result(state)
    breakdown = next(e for e in state.log if e["type"] == "game_over")["breakdown"]
    # Nonsense is refused kindly, and nothing is recorded.
    await tablets[0].send({"kind": "answer", "answer": "douze"})
    assert "touches" in notice_of(await tablets[0].receive())
    # Léa answers right, Tom one too many.
    answers = [result["scores"][0], result["scores"][1] + 1]
    for seat, tablet in enumerate(tablets):
        await tablet.send({"kind": "answer", "answer": str(answers[seat])})
        html = await tablet.receive_until("pk-sum-result")
        expected = breakdown[seat]["exhibits"] + [1] * breakdown[seat]["blanks_in_hand"]
        if len(expected) >= 2:
            assert " + ".join(map(str, expected)) + f" = {result['scores'][seat]}" in html
        assert "pk-ranking" in html
    # A second answer is refused; the record stays the first one.
    await tablets[1].send({"kind": "answer", "answer": "3"})
    assert "déjà" in notice_of(await tablets[1].receive_until("déjà"))

    records = await database_sync_to_async(
        lambda: list(ScoreSumRecord.objects.filter(table_id=table.pk).order_by("pupil_id"))
    )()
    assert [(r.pupil_id, r.answer, r.sum, r.correct) for r in records] == [
        (pupils[0].pk, answers[0], result["scores"][0], True),
        (pupils[1].pk, answers[1], result["scores"][1], False),
    ]
    for record, seat in zip(records, (0, 1), strict=True):
        assert record.addends == breakdown[seat]["exhibits"] + [1] * breakdown[seat]["blanks_in_hand"]
        assert sum(record.addends) == record.sum
        assert record.compute_ms is not None and record.class_session_id == session.pk
    # A Picktura game leaves no Chasse learning record.
    assert not await database_sync_to_async(LearningRecord.objects.count)()
    for tablet in tablets:
        await tablet.close()


async def test_the_bot_and_a_running_game_ask_no_sum(settings: Any) -> None:
    session, pupils = await database_sync_to_async(_session_with_pupils)()
    table = await database_sync_to_async(_table)(session, pupils)
    tablets = await _tablets(table.pk, [pupils[0].player_key])
    await tablets[0].send({"kind": "answer", "answer": "4"})
    assert "pas de question" in notice_of(await tablets[0].receive())
    assert not await database_sync_to_async(ScoreSumRecord.objects.count)()
    await tablets[0].close()


__all__ = ["HIDDEN", "GameEvent", "Seat", "Tablet"]
