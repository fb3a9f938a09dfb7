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


def _set_state(table_id: int, state: Any) -> None:
    GameState.objects.filter(table_id=table_id).update(state=ENGINE.to_json(state))


def test_laying_buttons_appear_only_when_the_engine_allows_them() -> None:
    """Seat 0 holds work 1's quarters 0-2 and a blank canvas: it may exhibit,
    and after a 3-card exhibit the blank canvas button shows; Compléter and
    Remplacer la toile show only with their cards in hand."""
    table = started_table(game="picktura", pupils=2, bots=1, seed=3)
    state = _state(table.pk)
    rest = [c for c in range(state.deck_size()) if c not in {0, 1, 2, 48, 4, 8, 9, 10, 11, 20, 12, 16, 24, 28, 32}]
    state.hands = [[0, 1, 2, 4, 48], [8, 9, 10, 11, 20], [12, 16, 24, 28, 32]]
    state.visible, state.hidden = rest[:1], rest[1:]
    _set_state(table.pk, state)
    html = _html(table.pk, 0)
    assert 'data-draws-by="2:2,3:3"' in html  # back up to 5: 2 laid, 2 drawn; 3 laid, 3 drawn
    assert "pk-lay-blank" not in html and "pk-lay-complete" not in html
    ENGINE.apply(state, 0, {"type": "exhibit", "cards": [0, 1, 2], "draw_from": ["hidden", "hidden", "hidden"]})
    ENGINE.apply(state, 1, {"type": "exhibit", "cards": [8, 9], "draw_from": ["hidden", "hidden"]})
    ENGINE.apply(state, 2, {"type": "collect", "from": "hidden"})
    ENGINE.apply(state, 2, {"type": "discard", "card": state.taken})
    _set_state(table.pk, state)
    html = _html(table.pk, 0)
    assert "pk-lay-blank" in html and 'name="card" value="48"' in html
    assert "pk-lay-replace_blank" not in html and "pk-lay-complete" not in html
    # Not seat 1's turn: its "Compléter" waits, though it holds the cards.
    assert "pk-lay-complete" not in _html(table.pk, 1)


def test_the_discard_step_shows_the_card_just_taken() -> None:
    table = started_table(game="picktura", pupils=2, bots=1, seed=3)
    state = _state(table.pk)
    ENGINE.apply(state, 0, {"type": "collect", "from": "hidden"})
    _set_state(table.pk, state)
    html = _html(table.pk, 0)
    assert 'data-mode="discard"' in html and "défausse une carte" in html
    assert f'value="{state.taken}" class="pk-pick" aria-label="' in html
    assert "nouvelle" in html.split(f'value="{state.taken}"', 1)[1][:400]
    # The others see that a card was drawn from the hidden pile, not which.
    for seat in (1, None):
        other = _html(table.pk, seat)
        assert "pioche dans la pile cachée" in other
        assert f'value="{state.taken}"' not in other


def _finished(options: dict[str, Any]) -> Any:
    table = started_table(game="picktura", pupils=2, bots=1, seed=3, options=options)
    state = _state(table.pk)
    from cardgames.engines.base import play_bots  # noqa: F401 - a bot game to its end

    bots = [ENGINE.bot("medium") for _ in range(3)]
    import random

    rng = random.Random(2)
    while not ENGINE.is_over(state):
        seat = state.current
        action = bots[seat](ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), rng, ENGINE.history(state, seat))
        ENGINE.apply(state, seat, action)
    _set_state(table.pk, state)
    table.status = table.Status.FINISHED
    table.save(update_fields=["status"])
    return table, state


def test_the_end_asks_the_sum_first_or_shows_the_ranking_when_the_option_is_off() -> None:
    table, state = _finished({})
    html = _html(table.pk, 0)
    assert "Combien de points as-tu ?" in html and "pk-ranking" not in html
    assert "pk-players" not in html  # no score to copy from while adding up
    assert "pk-ranking" in _html(table.pk, None)  # the projector shows it
    question = picktura.end_question(ENGINE.view(state, 0))
    assert question is not None and sum(question["addends"]) == question["total"]
    off, _ = _finished({"score_sums": False})
    html = _html(off.pk, 0)
    assert "Combien de points as-tu ?" not in html and "pk-ranking" in html


def test_written_sums() -> None:
    assert picktura.written_sum([6, 3, 2], 11) == "6 + 3 + 2 = 11"
    assert picktura.written_sum([6], 6) == "6"
    assert picktura.written_sum([], 0) == "0"


def test_the_monitor_line_is_public() -> None:
    table = started_table(game="picktura", pupils=2, bots=1, seed=3)
    state = _state(table.pk)
    rows = dict(picktura.public_summary(ENGINE.view(state, None), ["Léa", "Tom", "Robot"]))
    assert rows["Au tour de"] == "Léa"
    assert rows["Pile refaite"] == "0 / 2"
    assert "Léa : 0" in rows["Points exposés"]
