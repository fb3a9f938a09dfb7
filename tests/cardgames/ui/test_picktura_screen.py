"""Picktura's tablet screen, drawn from the database: what each seat sees and
may do, the form → action of every engine action, and the end-of-game sum."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cardgames import rendering, ui
from cardgames.engines.base import IllegalAction
from cardgames.engines.picktura import ENGINE
from cardgames.models import GameState
from cardgames.ui import picktura
from tests.cardgames.factories import started_table

pytestmark = pytest.mark.django_db

CARD_VALUES = re.compile(r'name="cards?" value="(\d+)"|data-card="(\d+)"')


def _html(table_id: int, seat: int | None) -> str:
    snap = rendering.snapshot(table_id)
    assert snap is not None
    return rendering.render_fragments(snap, seat)


def _state(table_id: int) -> Any:
    return ENGINE.from_json(GameState.objects.get(table_id=table_id).state)


def test_every_engine_action_goes_through_the_form() -> None:
    """Each action of a random game, as the tablet's strings, gives back the action."""
    state = ENGINE.new_game(3, seed=5)
    import random

    rng = random.Random(1)
    seen: set[str] = set()
    for _ in range(400):
        if ENGINE.is_over(state):
            break
        seat = state.current
        legal = ENGINE.legal_actions(state, seat)
        action = rng.choice(legal)
        form: dict[str, Any] = {"move": action["type"]}
        for key, value in action.items():
            if key == "type":
                continue
            if isinstance(value, list):
                form[key] = ",".join(str(v) for v in value)
            else:
                form[key] = str(value)
        assert picktura.form_to_action(form) == action
        seen.add(action["type"])
        ENGINE.apply(state, seat, action)
    assert {"collect", "discard", "exhibit"} <= seen


@pytest.mark.parametrize(
    ("form", "code"),
    [
        ({}, "malformed"),
        ({"move": "fly"}, "malformed"),
        ({"move": "collect", "from": "sky"}, "malformed"),
        ({"move": "discard"}, "no_cards"),
        ({"move": "exhibit", "cards": ""}, "no_cards"),
        ({"move": "exhibit", "cards": "1,2,x"}, "malformed"),
        ({"move": "exhibit", "cards": "1,2,3,4,5"}, "malformed"),
        ({"move": "exhibit", "cards": "1,2", "draw_from": "visible,up"}, "malformed"),
        ({"move": "complete", "exhibit": "-1", "cards": "1,2"}, "malformed"),
        ({"move": "blank", "exhibit": "0", "card": ""}, "no_cards"),
    ],
)
def test_nonsense_forms_are_refused_with_a_code(form: dict[str, Any], code: str) -> None:
    with pytest.raises(IllegalAction) as info:
        picktura.form_to_action(form)
    assert info.value.code == code
    assert ui.get("picktura").refusal_message(code)


def test_a_seat_sees_its_hand_and_never_another() -> None:
    table = started_table(game="picktura", pupils=2, bots=1, seed=3)
    state = _state(table.pk)
    for seat in range(3):
        html = _html(table.pk, seat)
        shown = {int(a or b) for a, b in CARD_VALUES.findall(html)}
        assert shown == set(state.hands[seat])
    public = _html(table.pk, None)
    assert not CARD_VALUES.findall(public)


def test_the_seat_to_play_gets_both_piles_and_the_scoring_table() -> None:
    table = started_table(game="picktura", pupils=2, bots=1, seed=3)
    html = _html(table.pk, 0)
    assert 'value="collect"' in html
    assert 'data-pile-button="visible"' in html and 'data-pile-button="hidden"' in html
    assert "pk-scoring" in html and " open" in html.split("pk-scoring", 1)[1][:80]
    assert html.count("<dialog") == 12
    other = _html(table.pk, 1)
    assert "disabled" in other.split('data-pile-button="visible"', 1)[1][:120]
