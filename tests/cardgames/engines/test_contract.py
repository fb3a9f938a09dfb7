"""What every engine shares: the registry, purity and option validation."""

from __future__ import annotations

import ast
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from cardgames import engines
from cardgames.engines.base import BOT_LEVELS, IllegalAction, play_bots

ENGINE_DIR = Path(engines.__file__).resolve().parent


@pytest.mark.parametrize("path", sorted(ENGINE_DIR.glob("*.py")), ids=lambda p: p.name)
def test_engines_import_nothing_outside_the_standard_library(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: a sibling engine module
                continue
            roots = [(node.module or "").split(".")[0]]
        else:
            continue
        for root in roots:
            assert root == "__future__" or root in sys.stdlib_module_names, f"{path.name} imports {root}"


def test_registry_lists_the_central_game_first() -> None:
    names = engines.names()
    assert names[0] == "chasse"
    for name in names:
        engine = engines.get(name)
        assert engine.name == name
        assert 1 <= engine.min_players <= engine.max_players


def test_unknown_engine_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        engines.get("belote")


@pytest.mark.parametrize("name", engines.names())
def test_every_engine_completes_options_with_defaults_and_rejects_unknown_keys(name: str) -> None:
    engine = engines.get(name)
    assert engine.validate_options({}) == engine.default_options()
    with pytest.raises(ValueError, match="Unknown option"):
        engine.validate_options({"no_such_option": 1})
    for spec in engine.option_schema():
        assert {"key", "type", "default"} <= set(spec)
        if spec["type"] == "int":
            with pytest.raises(ValueError):
                engine.validate_options({spec["key"]: "douze"})
            if spec.get("max") is not None:
                with pytest.raises(ValueError):
                    engine.validate_options({spec["key"]: spec["max"] + 1000})


@pytest.mark.parametrize("name", engines.names())
def test_every_engine_offers_three_bot_levels_and_refuses_non_dict_actions(name: str) -> None:
    engine = engines.get(name)
    for level in BOT_LEVELS:
        assert callable(engine.bot(level))
    state = engine.new_game(engine.min_players, seed=3)
    before = engine.to_json(state)
    for bad in (None, 7, "play", ["type"], {"type": 12}, {"type": "x" * 10_000}):
        with pytest.raises(IllegalAction) as refused:
            engine.apply(state, 0, bad)  # type: ignore[arg-type]
        assert refused.value.code in {"malformed", "not_your_turn"}
    assert engine.to_json(state) == before


@pytest.mark.parametrize("name", engines.names())
@pytest.mark.parametrize("seed", [1, 2])
def test_logged_events_and_loaded_dicts_never_change_as_the_game_goes_on(
    name: str, seed: int
) -> None:
    """What lets ``from_json`` keep the events of the dict it loads instead of
    copying each one (``base.adopt_log``): once an event is in the log it
    stays as it was, and the dict a state was loaded from is not changed by
    that state playing on. Checked at every move of bot games."""
    engine = engines.get(name)
    for players in (engine.min_players, engine.max_players):
        logged, loaded = _watched_game(engine, players, seed)
        assert logged and loaded
        for event, text in logged:
            assert _text(event) == text
        for data, text in loaded:
            assert _text(data) == text


def _text(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def _watched_game(
    engine: Any, players: int, seed: int
) -> tuple[list[tuple[Any, str]], list[tuple[Any, str]]]:
    """A bot game; each event as it was logged, and after each move a dict
    loaded into a twin state that then plays one move of its own."""
    logged: list[tuple[Any, str]] = []
    loaded: list[tuple[Any, str]] = []

    def after_move(state: Any, seat: int, action: Any, events: list[Any]) -> None:
        logged.extend((event, _text(event)) for event in events)
        source = json.loads(json.dumps(engine.to_json(state)))
        loaded.append((source, _text(source)))
        twin = engine.from_json(source)
        movers = [s for s in range(players) if engine.legal_actions(twin, s)]
        if movers:
            with contextlib.suppress(IllegalAction):
                engine.apply(twin, movers[0], _filled(engine.legal_actions(twin, movers[0])[0]))

    play_bots(engine, players, seed, list(BOT_LEVELS), max_actions=400, on_action=after_move)
    return logged, loaded


def _filled(action: Any) -> Any:
    """A legal action with its number placeholders (``"int"``) filled in."""
    if action == "int":
        return 0
    if isinstance(action, dict):
        return {key: _filled(value) for key, value in action.items()}
    if isinstance(action, list):
        return [_filled(value) for value in action]
    return action


@pytest.mark.parametrize("name", engines.names())
def test_a_game_saved_with_the_older_random_generator_form_plays_on_identically(
    name: str,
) -> None:
    """The generator is stored packed (one short string); tables saved before,
    with its 625 words as a list of numbers, must still load and deal exactly
    the cards they would have dealt. Both forms of one state play the same
    bot game to the end."""
    engine = engines.get(name)
    state = engine.new_game(engine.max_players, seed=5)
    packed = json.loads(json.dumps(engine.to_json(state)))
    words = packed["rng"][1]
    assert isinstance(words, str) and len(words) < 3500  # was 7.3 KB of numbers
    version, internal, gauss = state.rng.getstate()
    older = json.loads(json.dumps({**packed, "rng": [version, list(internal), gauss]}))

    def played(data: Any) -> list[str]:
        game = engine.from_json(data)
        bot = engine.bot("medium")
        seen = []
        for _ in range(300):
            movers = [s for s in range(engine.max_players) if engine.legal_actions(game, s)]
            if not movers or engine.is_over(game):
                break
            seat = game.rng.choice(movers)
            legal = engine.legal_actions(game, seat)
            action = bot(engine.view(game, seat), legal, game.rng, engine.history(game, seat))
            if action is None:
                continue
            engine.apply(game, seat, action)
            seen.append(_text(engine.to_json(game)))
        return seen

    from_packed, from_older = played(packed), played(older)
    assert len(from_packed) > 10 and from_packed == from_older
