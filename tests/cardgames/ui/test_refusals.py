"""Per-game wording lives in each game's UI module, never in the generic code
(refusal sentences, the generic modules' sources, bot level words)."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest
from django.utils import translation

from cardgames import engines, ui
from cardgames.ui import generic

CARDGAMES = Path(engines.__file__).resolve().parent.parent
GAMES = sorted(engines.names())


def engine_refusal_codes(game: str) -> set[str]:
    """Every code the engine module raises as ``IllegalAction("<code>", ...)``."""
    tree = ast.parse((CARDGAMES / "engines" / f"{game}.py").read_text(encoding="utf-8"))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "IllegalAction"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    }


def test_every_game_is_checked() -> None:
    assert {"chasse", "purrfect", "pinocchio", "picktura"} <= set(GAMES)
    assert {"not_your_turn", "card_not_playable"} <= engine_refusal_codes("chasse")


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_refusal_has_a_sentence_of_its_game(game: str) -> None:
    adapter = ui.get(game)
    with translation.override("fr"):
        default = str(generic.DEFAULT_REFUSAL)
        for code in sorted(engine_refusal_codes(game)):
            message = adapter.refusal_message(code)
            assert message and message != default, f"{game}: no sentence for {code!r}"
            # A game's own code is worded by the game, not borrowed from the runtime.
            module = importlib.import_module(f"cardgames.ui.{game}")
            assert code in generic.RUNTIME_REFUSALS or code in module.REFUSALS, code


def test_runtime_codes_and_unknown_codes_read_the_same_in_every_game() -> None:
    with translation.override("fr"):
        for game in GAMES:
            adapter = ui.get(game)
            assert adapter.refusal_message("stale") == generic.refusal_message("stale")
            assert "pause" in adapter.refusal_message("paused")
            assert adapter.refusal_message("no_such_code") == "Ce coup n'est pas possible."


def test_refusals_follow_the_language_at_call_time() -> None:
    adapter = ui.get("chasse")
    with translation.override("fr"):
        french = adapter.refusal_message("not_your_turn")
    with translation.override("en"):
        english = adapter.refusal_message("not_your_turn")
    assert french.startswith("Ce n'est pas ton tour")
    assert english != french


GAME_WORDS = re.compile(r"chasse|purrfect|pinocchio|picktura|souris", re.IGNORECASE)


@pytest.mark.parametrize(
    "path",
    [*sorted((CARDGAMES / "services").glob("*.py")), CARDGAMES / "rendering.py"],
    ids=lambda path: path.name,
)
def test_generic_modules_name_no_game(path: Path) -> None:
    found = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if GAME_WORDS.search(line)
    ]
    assert not found, f"{path.name} names a game:\n" + "\n".join(found)


def test_bot_levels_have_translated_words_in_level_order() -> None:
    with translation.override("fr"):
        assert ui.bot_level_choices() == [
            ("easy", "Facile"),
            ("medium", "Moyen"),
            ("hard", "Difficile"),
        ]
        assert ui.bot_level_label("hard") == "Difficile"
    with translation.override("en"):
        assert ui.bot_level_label("hard") != "Difficile"
    assert ui.bot_level_label("nonsense") == ""
