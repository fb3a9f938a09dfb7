"""Refusals a child can read, through the table's websocket (issue 46, items 5 and 11).

A refusal came as the notice line and the very next change of the table (another
pupil's move, a robot's, 34 ms later) drew that line again without it: the slower
of two pupils taking one offer never read "Trop tard : …". It now stays on that
tablet's screen until the child taps again, is said once to a screen reader, and
every refusal a child can reach says something true in the child's words.
"""

from __future__ import annotations

import html as html_lib
import re

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from cardgames.rendering import HeldNotice
from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    seat_resolver,
    started_table,
)
from tests.cardgames.test_consumer import _tablets
from tests.cardgames.test_purrfect_live import _offer_one, _quiet_table, form_of
from tests.cardgames.wsclient import Tablet, nonce, notice_of, table_state

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]

NOTICE_UNIT = re.compile(r'<div id="table-notice".*?</div>', re.S)
SAY = re.compile(r'<p class="visually-hidden cg-say">(.*?)</p>', re.S)


def _spoken(html: str) -> str:
    """What a screen reader says of the notice region in ``html``: its text
    without the parts hidden from it (``aria-hidden``)."""
    unit = NOTICE_UNIT.search(html)
    if unit is None:
        return ""
    text = re.sub(r'<([a-z]+)[^>]*aria-hidden="true"[^>]*>.*?</\1>', "", unit.group(0), flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", text))


async def test_too_late_stays_on_screen_until_the_next_tap_and_is_said_once() -> None:
    """Bug: "Trop tard : Tom a déjà échangé avec Léa." was replaced by the next
    table message a few milliseconds later; nothing was left to read."""
    table, tablets = await _quiet_table()
    lea, tom, ines, noe = tablets
    offer = await _offer_one(table, lea, 0)
    _, state, version, _ = await table_state(table.pk)
    await tom.send(form_of({"type": "accept", "offer": offer, "cards": [state.hands[1][0]]}, version))
    await tom.receive()
    await ines.wait_version(version + 1)
    await ines.drain(0.1)
    await ines.send(form_of({"type": "accept", "offer": offer, "cards": [state.hands[2][0]]}, version))
    said = await ines.receive_until("Trop tard")
    assert "Trop tard : Tom a déjà échangé avec Léa." in notice_of(said)
    assert "Trop tard" in _spoken(ines.messages[-1]), "the refusal is said when it comes"

    # Another pupil's move redraws Inès's screen: the refusal is still there,
    # but a screen reader is not told it again.
    _, state, version, _ = await table_state(table.pk)
    await noe.send(form_of({"type": "offer", "cards": [state.hands[3][0]]}, version))
    await ines.wait_version(version + 1)
    await ines.drain(0.1)
    assert "Trop tard" in notice_of(ines.screen), "the refusal vanished with the next change"
    redraw = ines.messages[-1]
    assert SAY.search(redraw), "the change itself is still said"
    assert "Trop tard" not in _spoken(redraw), "the refusal was said a second time"

    # Her next tap (a real move) clears it.
    _, state, version, _ = await table_state(table.pk)
    await ines.send(form_of({"type": "offer", "cards": [state.hands[2][0]]}, version))
    await ines.receive_until("pf-own-offer")
    await ines.drain(0.1)
    assert "Trop tard" not in ines.screen
    for tablet in tablets:
        await tablet.close()


async def test_a_refusal_held_past_its_time_goes_with_the_next_change() -> None:
    """A "not your turn" must not outlive the turn it was about: after the hold,
    the next change of the table clears it (the child's tap clears it at once)."""
    held = HeldNotice()
    held.hold("Ce n'est pas ton tour.", now=100.0)
    assert held.current(now=104.0) == "Ce n'est pas ton tour."
    assert held.current(now=200.0) == ""
    held.hold("Trop tard.", now=300.0)
    held.drop()
    assert held.current(now=300.5) == ""


async def test_offering_a_card_never_held_says_nothing_false() -> None:
    """Bug: offering a card the child never had answered "Cette carte n'est plus
    dans ta main." ("plus": as if it had been there)."""
    table, tablets = await _quiet_table()
    _, state, version, _ = await table_state(table.pk)
    await tablets[0].send(form_of({"type": "offer", "cards": [state.hands[1][0]]}, version))
    text = notice_of(await tablets[0].receive_until("table-notice"))
    assert "n'est pas dans ta main" in text and "plus" not in text, text
    for tablet in tablets:
        await tablet.close()


@pytest.mark.parametrize("game", ["purrfect", "pinocchio"])
async def test_an_end_of_game_answer_during_play_is_worded(game: str) -> None:
    """Bug: an end-of-game answer sent during a Purrfect or Pinocchio game got the
    generic "Ce coup n'est pas possible."."""
    table = await database_sync_to_async(started_table)(game=game, pupils=4, bots=0)
    (lea,) = await _tablets(table.pk, ["pupil:1"])
    await lea.send({"kind": "answer", "answer": "5"})
    text = notice_of(await lea.receive_until("table-notice"))
    assert text and "pas possible" not in text, text
    await lea.close()


async def test_a_hand_made_discard_of_two_cards_is_not_told_to_tap_cards() -> None:
    """Bug: a Picktura discard naming two cards was answered "Touche d'abord des
    cartes de ta main." (in English: "First tap cards in your hand."), though
    cards were named."""
    table = await database_sync_to_async(started_table)(game="picktura", pupils=2, bots=0)
    (lea,) = await _tablets(table.pk, ["pupil:1"])
    _, _state, version, _ = await table_state(table.pk)
    form = {"kind": "act", "move": "discard", "card": "1,2", "version": str(version), "nonce": nonce()}
    await lea.send(form)
    text = notice_of(await lea.receive_until("table-notice"))
    assert "une seule carte" in text, text
    await lea.close()


def _teacher_cookie() -> str:
    user = get_user_model().objects.create_user(
        username="maitresse", password="x-long-password-1", is_staff=True
    )
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def test_the_teacher_is_not_spoken_to_as_a_child() -> None:
    """Bug: a move sent from the teacher's own screen was answered "Tu regardes
    cette table : tu ne peux pas jouer." ("tu" to a teacher)."""
    table = await database_sync_to_async(started_table)(game="purrfect", pupils=4, bots=0)
    teacher = Tablet(table.pk, await database_sync_to_async(_teacher_cookie)())
    assert await teacher.connect()
    await teacher.send({"kind": "act", "version": "1", "nonce": nonce(), "move": "claim"})
    text = notice_of(await teacher.receive_until("table-notice"))
    assert text and "Tu " not in text and " tu " not in text, text
    assert "Vous" in text
    await teacher.close()
