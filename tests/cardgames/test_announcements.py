"""What a screen reader hears at a table: one polite live region (the notice
area), which says each change of the table once, with the new total; the board
itself is not live, and a card chosen (no change of the table) says nothing."""

from __future__ import annotations

import random
import re

import pytest
from channels.db import database_sync_to_async

from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    seat_resolver,
    session_cookie,
    started_table,
)
from tests.cardgames.test_consumer import _answer, _tablets
from tests.cardgames.wsclient import play_form, table_state

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]

SAY = re.compile(r'<p class="visually-hidden cg-say">(.*?)</p>', re.S)


def _live_regions(html: str) -> list[str]:
    return re.findall(r'<[^>]*(?:aria-live|role="(?:status|alert|log)")[^>]*>', html)


async def test_each_change_is_said_once_with_its_total() -> None:
    table = await database_sync_to_async(started_table)(pupils=2, bots=0)
    lea, tom = await _tablets(table.pk, ["pupil:1", "pupil:2"])
    first = lea.messages[-1]
    # The first paint says nothing (the page itself is read); one live region only.
    assert not SAY.search(first)
    regions = _live_regions(first)
    assert len(regions) == 1 and 'id="table-notice"' in regions[0]
    assert 'aria-live="polite"' in regions[0]

    engine, state, version, _ = await table_state(table.pk)
    current = engine.view(state, None)["current_seat"]
    mover, watcher = (lea, tom) if current == 0 else (tom, lea)
    action = _answer(engine, state, current, random.Random(3))
    await mover.send({"kind": "choose", "card": str(action["card"]), "version": str(version)})
    chosen = await mover.receive()
    assert not SAY.search(chosen), "choosing a card changes nothing at the table"
    await mover.send(play_form(action, version))
    await watcher.wait_version(version + 1)
    said = SAY.findall(watcher.messages[-1])
    _engine, after, _version, _ = await table_state(table.pk)
    assert len(said) == 1
    assert f"Total : {after.total}." in said[0]
    assert said[0].count("Total") == 1
    assert "C'est ton tour" in said[0]  # the watcher plays next
    # A second render of the same version (a resync) does not say it again.
    await watcher.send({"kind": "sync"})
    again = await watcher.receive()
    assert not SAY.search(again)
    for tablet in (lea, tom):
        await tablet.close()


async def test_cards_have_names_a_screen_reader_can_say() -> None:
    table = await database_sync_to_async(started_table)(pupils=2, bots=0)
    (lea,) = await _tablets(table.pk, ["pupil:1"])
    html = lea.messages[-1]
    hand = re.findall(r'<button[^>]* class="cg-card[^"]*"[^>]*aria-label="([^"]+)"', html)
    assert len(hand) >= 5
    # "Carte addition 5 plus 9": what the card is and its numbers, in words.
    assert all(re.fullmatch(r"Carte (addition|soustraction|somme|spéciale).*", x) for x in hand), hand
    assert any(re.search(r"\d+ plus \d+", x) for x in hand), hand
    await lea.close()


async def test_a_game_without_turns_never_says_your_turn() -> None:
    """Purrfect's screen-reader line said "C'est ton tour !" after every event,
    in a game where everyone plays at once: it now says what happened only."""
    from cardgames.engines.purrfect import ENGINE as PURRFECT
    from tests.cardgames.test_purrfect_live import form_of

    table = await database_sync_to_async(started_table)(game="purrfect", pupils=4, bots=0)
    tablets = await _tablets(table.pk, ["pupil:1", "pupil:2", "pupil:3", "pupil:4"])
    _engine, state, version, _ = await table_state(table.pk)
    offer = next(a for a in PURRFECT.legal_actions(state, 0) if a["type"] == "offer")
    await tablets[0].send(form_of(offer, version))
    watcher = tablets[1]
    await watcher.wait_version(version + 1)
    said = SAY.findall(watcher.messages[-1])
    assert len(said) == 1 and said[0].strip(), "the offer is said aloud"
    assert "ton tour" not in said[0]
    for tablet in tablets:
        await tablet.close()
