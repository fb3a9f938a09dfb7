"""A Chasse move's explanation is worked out once per worker for every screen
that words it alike (``ui.chasse._explained``): the screens must read exactly
as if each had explained every move itself."""

from __future__ import annotations

from django.utils import translation

from cardgames.engines.base import BOT_LEVELS, play_bots
from cardgames.engines.chasse import ENGINE
from cardgames.ui import chasse


def _moves_of(history: list) -> list[list]:
    return [events for _key, events in chasse._moves(history)]


def test_kept_explanations_read_as_fresh_ones_for_every_viewer_and_language() -> None:
    names = ["Léa", "Tom", "Zoé", "Robot"]
    checked = 0

    def after_move(state: object, seat: int, action: object, events: list) -> None:
        nonlocal checked
        for language in ("fr", "de", "en"):
            with translation.override(language):
                for viewer in (None, 0, 1, 2, 3):
                    for events_of_move in _moves_of(ENGINE.history(state, viewer))[-3:]:
                        fresh = chasse.explain_move(events_of_move, names, viewer)
                        # Twice: once worked out (or found), once surely found.
                        assert chasse._explained(events_of_move, names, viewer) == fresh
                        assert chasse._explained(events_of_move, names, viewer) == fresh
                        checked += 1

    for seed in (1, 2, 3):
        play_bots(ENGINE, 4, seed, list(BOT_LEVELS), max_actions=60, on_action=after_move)
    assert checked > 1000


def test_the_same_move_is_worded_for_the_viewer_it_names() -> None:
    """"Tu joues" for the player who moved, their name for everyone else: the
    kept lines never cross from one to the other."""
    names = ["Léa", "Tom"]
    state = ENGINE.new_game(2, seed=5)
    seat = ENGINE.view(state, None)["current_seat"]
    ENGINE.apply(state, seat, _first_legal(state, seat))
    (move,) = _moves_of(ENGINE.history(state, None))[-1:]
    with translation.override("fr"):
        others = chasse._explained(move, names, 1 - seat)
        own = chasse._explained(move, names, seat)
        public = chasse._explained(move, names, None)
    assert own[0]["text"].startswith("Tu ")
    assert others[0]["text"].startswith(names[seat])
    assert public == others


def _first_legal(state: object, seat: int) -> dict:
    action = dict(ENGINE.legal_actions(state, seat)[0])  # type: ignore[arg-type]
    return {key: (0 if value == "int" else value) for key, value in action.items()}
