"""What every engine shares: the registry, purity and option validation."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from cardgames import engines
from cardgames.engines.base import BOT_LEVELS, IllegalAction

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
