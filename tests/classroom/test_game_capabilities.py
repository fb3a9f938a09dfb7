"""Games plug into the classroom by capability, as they plug into cardgames.

The classroom asks a game's adapter (``cardgames.ui.get(game)``) whether its
plays are learning records, whether it deals targeted cards, how it words
them and whether it can be practised solo; it never imports a game's engine
or UI module, and names a game only where a default or the demo data must.
A fifth game then needs no edit in ``classroom``.
"""

from __future__ import annotations

import ast
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardgames import engines, ui
from cardgames.models import Table
from classroom import learning, social
from classroom.forms import OptionsForm
from classroom.games import DEFAULT_GAME
from classroom.models import LearningRecord
from classroom.services.practice import practice_game
from tests.factories import ClassSessionFactory, PupilFactory

ROOT = Path(__file__).resolve().parents[2]
CLASSROOM = ROOT / "classroom"

# Where the classroom may name a game (path, the whole line): the default game,
# named once; the game the demo's simulated pupils play; and the model field's
# default, whose value the migrations hold (it may read ``DEFAULT_GAME``).
ALLOWED_NAMINGS = {
    ("classroom/games.py", 'DEFAULT_GAME = "chasse"'),
    ("classroom/demo_history.py", 'DEMO_GAME = "chasse"'),
    ("classroom/models.py", 'game = models.CharField(max_length=32, default="chasse")'),
}


def _sources() -> Iterator[Path]:
    for path in sorted(CLASSROOM.rglob("*.py")):
        if "migrations" not in path.relative_to(CLASSROOM).parts:
            yield path


def _submodules(package: Any) -> set[str]:
    return {info.name for info in pkgutil.iter_modules(package.__path__)}


def _forbidden_modules() -> set[str]:
    """Every game's engine module (``engines.base`` is the protocol, fine) and
    every module under ``cardgames.ui`` (the package itself is the registry)."""
    games = {f"cardgames.engines.{name}" for name in _submodules(engines) - {"base"}}
    adapters = {f"cardgames.ui.{name}" for name in _submodules(ui)}
    return games | adapters


def _imported(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every module a file imports (``from package import module`` counted as
    the module), and every module named to ``import_module``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"
        elif (
            isinstance(node, ast.Call)
            and ast.unparse(node.func).endswith("import_module")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.lineno, node.args[0].value


def test_the_classroom_imports_no_games_engine_or_ui_module() -> None:
    forbidden = _forbidden_modules()
    assert "cardgames.engines.chasse" in forbidden and "cardgames.ui.chasse" in forbidden
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module in _imported(tree):
            if any(module == bad or module.startswith(bad + ".") for bad in forbidden):
                found.append(f"{path.relative_to(ROOT)}:{line}: {module}")
    assert not found, "ask cardgames.engines.get / cardgames.ui.get instead:\n" + "\n".join(found)


def test_the_classroom_names_a_game_only_for_its_defaults_and_demo_data() -> None:
    named = re.compile(r"""["']chasse["']""")
    found = [
        (str(path.relative_to(ROOT)), line.strip())
        for path in _sources()
        for line in path.read_text(encoding="utf-8").splitlines()
        if named.search(line)
    ]
    assert set(found) <= ALLOWED_NAMINGS, sorted(set(found) - ALLOWED_NAMINGS)
    assert len(found) == len(set(found)), "each default is named once"


# ------------------------------------------------------------ what the adapters say
def test_chasse_says_what_it_teaches_and_the_social_games_say_nothing() -> None:
    chasse = ui.get("chasse")
    assert chasse.learning_record is not None
    assert chasse.targeted_cards and chasse.solo_practice
    assert chasse.focus_line({"facts": [[7, 8]], "crossing": True})
    for game in ("purrfect", "pinocchio", "picktura"):
        adapter = ui.get(game)
        assert adapter.learning_record is None
        assert not adapter.targeted_cards and not adapter.solo_practice
        assert adapter.focus_line({"facts": [[7, 8]], "crossing": True}) == ""
        assert social.is_social(game)
    assert not social.is_social("chasse")
    assert ui.practice_games() == ["chasse"]
    assert practice_game() == "chasse" == DEFAULT_GAME


def test_a_game_without_an_adapter_teaches_nothing() -> None:
    """A brand-new engine with no UI module: the generic screen, and for the
    classroom no learning records, no targeted cards, no solo practice."""
    adapter = ui.get("no-such-game")
    assert adapter.learning_record is None
    assert not adapter.targeted_cards and not adapter.solo_practice
    assert adapter.focus_line({"facts": [[7, 8]]}) == ""


def test_only_a_game_with_targeted_cards_offers_them_to_the_teacher() -> None:
    assert "targeted_cards" in OptionsForm(game="chasse", targeted=False).fields
    assert "targeted_cards" not in OptionsForm(game="purrfect", targeted=False).fields


# ------------------------------------------------------------ the engine's verdict
def _card(a: int, b: int) -> dict[str, Any]:
    return {"id": 1, "kind": "add", "a": a, "b": b, "value": a + b, "effect": None}


def _event(*, announced: int, correct: bool) -> dict[str, Any]:
    # 30 + 7 = 37; ``correct`` is the engine's word, whatever ``announced`` is.
    return {
        "type": "card_played",
        "seat": 0,
        "card": _card(3, 4),
        "before": 30,
        "after": 37,
        "announced": announced,
        "correct": correct,
    }


@pytest.mark.parametrize(("announced", "correct"), [(37, False), (38, True)])
def test_a_learning_record_takes_the_engines_verdict(announced: int, correct: bool) -> None:
    """An event whose ``correct`` disagrees with ``announced == after`` (an
    engine with its own idea of a right answer) is recorded as the engine
    said: the classroom never judges the answer again."""
    record = ui.get("chasse").learning_record
    assert record is not None
    fields = record(
        events=[_event(announced=announced, correct=correct)],
        seat=0,
        view_before={"total": 30, "target": 100, "round": 1, "hand": [_card(3, 4)]},
        timings={"think_ms": 10, "compute_ms": 20},
        timed_out=False,
    )
    assert fields is not None
    assert fields["announced"] == announced and fields["correct"] is correct
    if correct:  # a right answer has no kind of error, whatever the numbers say
        assert fields["error_kind"] == ""


@pytest.mark.django_db
def test_the_stored_row_holds_the_engines_verdict() -> None:
    class_session = ClassSessionFactory(join_code="246802")
    pupil = PupilFactory(school_class=class_session.school_class)
    table = Table.objects.create(game="chasse", group_key=class_session.group_key, seed=1)
    learning.on_actions_applied(
        Table,
        table=table,
        seat=0,
        player_key=pupil.player_key,
        action={},
        events=[_event(announced=37, correct=False)],
        version=1,
        view_before={"total": 30, "target": 100, "round": 1, "hand": [_card(3, 4)]},
        timings={"think_ms": 10, "compute_ms": 20},
        timed_out=False,
        by_bot=False,
    )
    (row,) = LearningRecord.objects.filter(pupil=pupil)
    assert (row.announced, row.total_after, row.correct) == (37, 37, False)


@pytest.mark.django_db
def test_a_social_games_move_makes_no_learning_record() -> None:
    class_session = ClassSessionFactory(join_code="246803", game="purrfect")
    pupil = PupilFactory(school_class=class_session.school_class)
    table = Table.objects.create(game="purrfect", group_key=class_session.group_key, seed=1)
    learning.on_actions_applied(
        Table,
        table=table,
        seat=0,
        player_key=pupil.player_key,
        action={},
        events=[_event(announced=37, correct=True)],
        version=1,
        view_before={"total": 30, "target": 100, "round": 1, "hand": [_card(3, 4)]},
        timings={},
        timed_out=False,
        by_bot=False,
    )
    assert not LearningRecord.objects.exists()
