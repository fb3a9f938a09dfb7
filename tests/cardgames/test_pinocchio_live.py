"""Pinocchio through the table's websocket: two pupils and two bots play to
``game_over``, and no message to a seat ever shows a card that seat may not
know (another seat's drawn card, a laid card nobody has doubted)."""

from __future__ import annotations

import random
import re

import pytest
from channels.db import database_sync_to_async

from cardgames.engines.pinocchio import card_face
from cardgames.models import GameState, Move
from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    seat_resolver,
    session_cookie,
    started_table,
)
from tests.cardgames.test_consumer import _tablets
from tests.cardgames.wsclient import (
    MESSAGE_VERSION,
    card_ids,
    nonce,
    notice_of,
    state_at,
    table_state,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]

FACE = re.compile(r'data-card-face="([a-z_]+:[a-z]+)"')


def _key(card: int) -> str:
    garment, colour = card_face(card)
    return f"{garment}:{colour}"


def _form(action: dict, version: int) -> dict:
    """The strings the Pinocchio screen's forms send for ``action``."""
    form = {"kind": "act", "move": action["type"], "version": str(version), "nonce": nonce()}
    if action["type"] == "announce":
        form.update(garment=action["garment"], colour=action["colour"])
    return form


@pytest.mark.parametrize("seed", [3, 8])
async def test_two_pupils_and_two_bots_play_to_game_over_without_a_leak(seed: int) -> None:
    table = await database_sync_to_async(started_table)(
        game="pinocchio", pupils=2, bots=2, options={"words_language": "de"}, seed=seed
    )
    tablets = await _tablets(table.pk, ["pupil:1", "pupil:2"])
    rng = random.Random(seed)
    seen = [0, 0]
    checked = 0
    doubts = reveals_seen = 0

    def known(state, seat: int) -> set[str]:
        """What ``seat`` may know in ``state``: faces a doubt turned over, and
        every face it drew itself."""
        faces = {_key(laid.card) for laid in state.rangement if laid.revealed}
        for event in state.log:
            if event["type"] == "card_seen" and event["seat"] == seat:
                faces.add(f"{event['card']['garment']}:{event['card']['colour']}")
        return faces

    async def check(state) -> None:
        """Each message against the game at its own version (robots play
        meanwhile); a message without one (a notice) against ``state``."""
        nonlocal checked, reveals_seen
        for seat, tablet in enumerate(tablets):
            for html in tablet.messages[seen[seat] :]:
                assert not card_ids(html), "a card id reached a screen"
                match = MESSAGE_VERSION.search(html)
                at = await state_at(table.pk, int(match.group(1))) if match else state
                shown = set(FACE.findall(html))
                allowed = known(at, seat)
                assert shown <= allowed, f"seat {seat} was shown {shown - allowed}"
                reveals_seen += 'class="pn-reveal' in html
                checked += 1
            seen[seat] = len(tablet.messages)

    for _step in range(400):
        for tablet in tablets:
            await tablet.drain(0.01)
        engine, state, version, _ = await table_state(table.pk)
        await check(state)
        if engine.is_over(state):
            break
        current = engine.view(state, None)["current_seat"]
        if current >= 2:  # a bot: it plays by itself on a background task
            await tablets[0].wait_version(version + 1)
            continue
        legal = engine.legal_actions(state, current)
        action = rng.choice(legal)
        doubts += action["type"] == "doubt"
        tablet = tablets[current]
        await tablet.send(_form(action, version))
        await tablet.wait_version(version + 1)
    engine, state, version, status = await table_state(table.pk)
    assert engine.is_over(state) and status == "finished"
    for tablet in tablets:
        await tablet.wait_version(version)
        await tablet.drain(0.05)
    await check(state)
    assert checked > 40
    assert doubts and reveals_seen, "the game had no doubt from a pupil: pick another seed"
    last = tablets[0].messages[-1]
    assert "Partie terminée" in last and "Le moins de nez gagne" in last
    # The ranking on screen says each player's noses as the engine counted them.
    for seat, count in enumerate(state.noses):
        assert f'data-seat="{seat}" data-noses="{count}"' in last
    assert await database_sync_to_async(Move.objects.filter(table=table, by_bot=True).exists)()
    for tablet in tablets:
        await tablet.close()


async def test_a_doubt_turns_the_card_over_on_every_screen_only_then() -> None:
    table = await database_sync_to_async(started_table)(
        game="pinocchio", pupils=3, bots=0, options={"words_language": "fr"}, seed=12
    )
    ines, leo, zoe = await _tablets(table.pk, ["pupil:1", "pupil:2", "pupil:3"])
    _, state, version, _ = await table_state(table.pk)
    card = _key(state.drawn)
    garment, colour = card_face(state.drawn)
    lie = next(c for c in ("rouge", "bleu", "jaune") if c != colour)
    # Inès lays her card and lies about its colour.
    await ines.send(_form({"type": "announce", "garment": garment, "colour": lie}, version))
    for tablet in (ines, leo, zoe):
        await tablet.wait_version(version + 1)
    assert f'data-card-face="{card}"' in ines.messages[-1]  # her own hidden card, to her alone
    for tablet in (leo, zoe):
        assert f'data-card-face="{card}"' not in tablet.messages[-1]
        assert "annonce :" in tablet.messages[-1]
    # Léo doubts: the card turns over for everyone, with the verdict.
    await leo.send(_form({"type": "doubt"}, version + 1))
    for tablet in (ines, leo, zoe):
        await tablet.wait_version(version + 2)
        html = tablet.messages[-1]
        assert f'data-card-face="{card}"' in html
        assert "pn-reveal" in html
    assert "a menti et prend un nez" in zoe.messages[-1]
    assert "tu as menti et tu prends un nez" in ines.messages[-1]
    _, state, _, _ = await table_state(table.pk)
    assert state.noses == [1, 0, 0]
    for tablet in (ines, leo, zoe):
        await tablet.close()


async def test_refusals_change_nothing_and_say_why() -> None:
    table = await database_sync_to_async(started_table)(
        game="pinocchio", pupils=2, bots=0, options={"words_language": "de"}, seed=5
    )
    ines, leo = await _tablets(table.pk, ["pupil:1", "pupil:2"])
    _, _, version, _ = await table_state(table.pk)
    await ines.send(_form({"type": "announce", "garment": "chemise", "colour": "bleu"}, version))
    await ines.wait_version(version + 1)
    await leo.wait_version(version + 1)
    before = await database_sync_to_async(lambda: GameState.objects.get(table=table).state)()
    # Announcing before judging, doubting out of turn, nonsense.
    await leo.send(_form({"type": "announce", "garment": "chemise", "colour": "bleu"}, version + 1))
    assert "crois" in notice_of(await leo.receive())
    await ines.send(_form({"type": "doubt"}, version + 1))
    assert "pas ton tour" in notice_of(await ines.receive_until("table-notice"))
    await leo.send(
        {
            "kind": "act",
            "move": "announce",
            "garment": "Hut",
            "colour": "bleu",
            "version": str(version + 1),
            "nonce": nonce(),
        }
    )
    assert "pas compris" in notice_of(await leo.receive())
    # Léo believes; the announcement he must follow is named in the table's words.
    await leo.send(_form({"type": "believe"}, version + 1))
    await leo.wait_version(version + 2)
    await leo.send(_form({"type": "announce", "garment": "bonnet", "colour": "rouge"}, version + 2))
    assert "« ein blaues Hemd »" in notice_of(await leo.receive())
    after = await database_sync_to_async(lambda: GameState.objects.get(table=table))()
    assert after.version == version + 2 and after.state != before
    for tablet in (ines, leo):
        await tablet.close()
