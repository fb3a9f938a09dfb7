"""Purrfect through the table's websocket: a whole game, secrecy at every step,
the race for one offer, and the sentences a child reads when a move is refused."""

from __future__ import annotations

import html as html_lib
import random
import re

import pytest
from channels.db import database_sync_to_async

from cardgames import runtime
from cardgames.engines.purrfect import CAT_NAMES, card_cat
from cardgames.models import GameEvent, Move
from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    seat_resolver,
    started_table,
)
from tests.cardgames.test_consumer import _tablets
from tests.cardgames.wsclient import MESSAGE_VERSION, Tablet, nonce, state_at, table_state
from tests.cardgames.wsclient import notice_of as _notice_of

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]

HAND_CARDS = re.compile(r'name="cards" value="(\d+)"')
OFFER_ITEMS = re.compile(r'<li class="pf-offer-item">(.*?)</li>', re.S)
TAGS = re.compile(r"<[^>]+>")


def notice_of(html: str) -> str:
    """The notice's sentence, without its warning icon."""
    return _notice_of(html).removeprefix("⚠️").strip()


def hand_ids(html: str) -> set[int]:
    return {int(n) for n in HAND_CARDS.findall(html)}




def form_of(action: dict, version: int) -> dict:
    """The strings the tablet's forms send for an engine action."""
    form: dict = {"kind": "act", "version": str(version), "nonce": nonce()}
    if action["type"] in ("withdraw", "claim"):
        form["move"] = action["type"]
        return form
    form["cards"] = [str(card) for card in action["cards"]]
    if action["type"] == "accept":
        form["offer"] = str(action["offer"])
    return form


def check_no_leak(html: str, seat: int, state) -> None:
    """Nothing in a message to ``seat`` names a card of another seat's hand, nor
    the count or the cat of an open offer."""
    others = {card for other, hand in enumerate(state.hands) if other != seat for card in hand}
    assert not hand_ids(html) & others, f"seat {seat} was sent another seat's card"
    for item in OFFER_ITEMS.findall(html):
        assert "data-cat" not in item and "pf-cat-" not in item
        # The offerer's name may hold a digit ("Robot Poire 1"): judge the rest.
        text = html_lib.unescape(TAGS.sub(" ", re.sub(r"<bdi>.*?</bdi>", "", item)))
        assert not re.search(r"\d", text), f"an offer shows a number: {text!r}"
        assert not any(name in text for name in CAT_NAMES), f"an offer shows its cat: {text!r}"


async def test_a_four_seat_table_plays_to_game_over_without_leaking(settings) -> None:
    """Two pupils and two bots; the pupils play as a careful child would, through
    their forms. After every step, no message to a pupil holds another hand's
    card, nor an open offer's count or cat."""
    settings.SIMULTANEOUS_BOT_DELAY_RANGE = (0.2, 0.4)  # bots leave the pupils time to play
    table = await database_sync_to_async(started_table)(
        game="purrfect",
        pupils=2,
        bots=2,
        bot_level="medium",
        options={"paws_to_win": 3, "round_actions": 100},
        seed=11,
    )
    tablets = await _tablets(table.pk, ["pupil:1", "pupil:2"])
    rng = random.Random(3)
    seen = [0, 0]
    checked = 0
    for _step in range(800):
        engine, state, version, _status = await table_state(table.pk)
        for tablet in tablets:
            await tablet.drain(0.01)
        for seat, tablet in enumerate(tablets):
            for html in tablet.messages[seen[seat] :]:
                match = MESSAGE_VERSION.search(html)
                if match:  # bots move meanwhile: judge it against its own moment
                    check_no_leak(html, seat, await state_at(table.pk, int(match.group(1))))
                    checked += 1
            seen[seat] = len(tablet.messages)
        if engine.is_over(state):
            break
        seat = rng.randrange(2)
        legal = engine.legal_actions(state, seat)
        if not legal:
            continue
        bot = engine.bot("medium")
        action = bot(engine.view(state, seat), legal, rng, engine.history(state, seat))
        if action is None:
            action = rng.choice(legal)
        await tablets[seat].send(form_of(action, version))
        await tablets[seat].receive(timeout=5)
    engine, state, version, status = await table_state(table.pk)
    assert engine.is_over(state), "the table did not finish"
    assert status == "finished"
    await runtime.drain()
    for tablet in tablets:
        await tablet.wait_version(version)  # the last screen may still be on its way
        await tablet.drain(0.05)
        html = tablet.messages[-1]
        assert 'data-over="1"' in "".join(tablet.messages[-3:])
        check_no_leak(html, tablets.index(tablet), await state_at(table.pk, version))
    final = "".join(tablets[0].messages[-3:])
    assert "Partie terminée" in final and "pattes" in final
    assert checked >= 20
    pupil_moves = await database_sync_to_async(
        lambda: Move.objects.filter(table=table, by_bot=False).count()
    )()
    assert pupil_moves >= 10, "the pupils hardly played"
    for tablet in tablets:
        await tablet.close()


async def _quiet_table(pupils: int = 4):
    """A table of pupils only, so nothing moves unless a test says so."""
    table = await database_sync_to_async(started_table)(
        game="purrfect", pupils=pupils, bots=0, seed=5
    )
    tablets = await _tablets(table.pk, [f"pupil:{i + 1}" for i in range(pupils)])
    return table, tablets


async def _offer_one(table, tablet: Tablet, seat: int) -> int:
    _engine, state, version, _ = await table_state(table.pk)
    card = state.hands[seat][0]
    await tablet.send(form_of({"type": "offer", "cards": [card]}, version))
    await tablet.receive_until("pf-own-offer")
    _, state, _, _ = await table_state(table.pk)
    return state.offers[-1].id


async def test_two_acceptances_of_one_offer_make_one_trade() -> None:
    """Tom and Inès tap "Échanger" on Léa's offer at the same moment: exactly
    one trade, and the slower one reads who was faster."""
    table, tablets = await _quiet_table()
    offer = await _offer_one(table, tablets[0], 0)
    _, state, version, _ = await table_state(table.pk)
    for seat in (1, 2):
        card = state.hands[seat][0]
        await tablets[seat].send(
            form_of({"type": "accept", "offer": offer, "cards": [card]}, version)
        )
    notices = []
    for seat in (1, 2):
        for _ in range(6):
            html = await tablets[seat].receive(timeout=5)
            if notice_of(html):
                notices.append((seat, notice_of(html)))
                break
            if await tablets[seat].comm.receive_nothing(timeout=0.2):
                break
    trades = await database_sync_to_async(
        lambda: GameEvent.objects.filter(table=table, kind="trade_done").count()
    )()
    assert trades == 1
    _, state, _, _ = await table_state(table.pk)
    taker = next(e for e in state.log if e["type"] == "trade_done")["seats"][1]
    loser = 2 if taker == 1 else 1
    names = {1: "Tom", 2: "Inès"}
    assert (loser, f"Trop tard : {names[taker]} a déjà échangé avec Léa.") in notices
    for tablet in tablets:
        await tablet.close()


async def test_wrong_count_refusal_names_the_meow_not_the_number() -> None:
    table, tablets = await _quiet_table()
    _, state, version, _ = await table_state(table.pk)
    by_cat: dict[int, list[int]] = {}
    for card in state.hands[0]:
        by_cat.setdefault(card_cat(card), []).append(card)
    cards = max(by_cat.values(), key=len)[:2]
    await tablets[0].send(form_of({"type": "offer", "cards": cards}, version))
    await tablets[0].receive_until("pf-own-offer")
    _, state, version, _ = await table_state(table.pk)
    offer = state.offers[-1]
    meow = next(m["meow"] for m in engine_meows(state) if m["count"] == 2)
    await tablets[1].wait_version(version)  # the offer's screen, before the refusal's
    await tablets[1].drain(0.1)
    await tablets[1].send(
        form_of({"type": "accept", "offer": offer.id, "cards": [state.hands[1][0]]}, version)
    )
    text = notice_of(await tablets[1].receive_until("table-notice"))
    assert text == f"Regarde le tableau des miaous : combien de cartes demande « {meow} » ?"
    assert not re.search(r"\d", text)
    _, after, after_version, _ = await table_state(table.pk)
    assert after_version == version and after.offers[-1].id == offer.id
    for tablet in tablets:
        await tablet.close()


def engine_meows(state) -> list[dict]:
    from cardgames.engines.purrfect import MEOWS

    return [{"count": n, "meow": MEOWS[i][0]} for n, i in enumerate(state.meows, 1)]


async def test_mixed_cats_and_bad_forms_get_a_sentence_and_change_nothing() -> None:
    table, tablets = await _quiet_table()
    _, state, version, _ = await table_state(table.pk)
    hand = state.hands[0]
    mixed = [hand[0], next(c for c in hand if card_cat(c) != card_cat(hand[0]))]
    cases = [
        (form_of({"type": "offer", "cards": mixed}, version), "Choisis des cartes du même chat."),
        ({"kind": "act", "version": str(version), "nonce": nonce()}, "Touche d'abord des cartes"),
        ({"kind": "act", "version": str(version), "nonce": nonce(), "cards": ["x"]}, "pas compris"),
        (
            {"kind": "act", "version": str(version), "nonce": nonce(), "cards": ["1"] * 40},
            "pas compris",
        ),
        (form_of({"type": "withdraw"}, version), "Tu n'as pas d'offre à retirer."),
        # Purrfect is not a two-step game: there is no card to "choose" first.
        ({"kind": "choose", "card": str(hand[0]), "version": str(version)}, "n'existe pas"),
        (
            form_of({"type": "offer", "cards": [state.hands[1][0]]}, version),
            "n'est pas dans ta main",
        ),
    ]
    for form, expected in cases:
        await tablets[0].send(form)
        text = notice_of(await tablets[0].receive_until("table-notice"))
        assert expected in text, (form, text)
    _, _, after_version, _ = await table_state(table.pk)
    assert after_version == version
    for tablet in tablets:
        await tablet.close()


async def test_a_mistaken_claim_disables_the_button_until_the_hand_changes() -> None:
    table, tablets = await _quiet_table()
    _, _state, version, _ = await table_state(table.pk)
    await tablets[0].send(form_of({"type": "claim"}, version))
    html = await tablets[0].receive_until("pf-claim-why")
    assert re.search(r'class="btn btn-big pf-claim" disabled', html)
    other = await tablets[1].receive_until("trop tôt")
    assert "Léa a crié Purrfect! trop tôt." in html_lib.unescape(other)
    for tablet in tablets:
        await tablet.close()
