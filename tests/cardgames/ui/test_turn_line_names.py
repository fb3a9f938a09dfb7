"""Every game's turn line names the player the French way.

Chasse said "C'est au tour d'Anne-Charlotte." while Pinocchio and Picktura
said "C'est au tour de Inès." (their templates and Picktura's history skipped
the name helper): one helper now places names for every game, and this test
draws each game's screens with a vowel name and a consonant name."""

from __future__ import annotations

import pytest
from django.utils import translation

from cardgames import engines, rendering
from cardgames.models import GameState, Seat
from tests.cardgames.factories import started_table

pytestmark = pytest.mark.django_db

GAMES = ["chasse", "purrfect", "pinocchio", "picktura"]


def _screens_with_current_named(game: str, name: str) -> list[str]:
    """The public screen and another seat's screen, the seat to play named ``name``."""
    table = started_table(game=game, pupils=4, bots=0)
    engine = engines.get(game)
    state = engine.from_json(GameState.objects.get(table_id=table.pk).state)
    current = getattr(state, "current", 0)
    Seat.objects.filter(table=table, index=current).update(display_name=name)
    other = (current + 1) % 4
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    with translation.override("fr"):
        return [rendering.render_fragments(snap, None), rendering.render_fragments(snap, other)]


@pytest.mark.parametrize("game", ["chasse", "pinocchio", "picktura"])
@pytest.mark.parametrize(
    ("name", "said", "never"),
    [
        ("Inès", "au tour d'", "au tour de Inès"),
        ("Anne-Charlotte", "au tour d'", "au tour de Anne-Charlotte"),
        ("Léo", "au tour de ", "au tour d'Léo"),
    ],
)
def test_turn_line_elides_before_a_vowel_name(game: str, name: str, said: str, never: str) -> None:
    screens = _screens_with_current_named(game, name)
    for html in screens:
        flat = html.replace("<bdi>", "").replace("</bdi>", "").replace("&#x27;", "'")
        assert never not in flat
        assert f"{said}{name}" in flat, f"{game}: no '{said}{name}' on a screen"


@pytest.mark.parametrize("game", GAMES)
def test_no_screen_of_any_game_says_de_before_a_vowel_name(game: str) -> None:
    """Whatever a game writes about the player to move (history, turn line,
    screen-reader line), French never leaves "de" before "Inès"."""
    for html in _screens_with_current_named(game, "Inès"):
        flat = html.replace("<bdi>", "").replace("</bdi>", "")
        assert "de Inès" not in flat
        assert "De Inès" not in flat
