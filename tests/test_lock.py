"""The lock and pyproject must agree: CI runs ``make lock-check`` (``scripts/lock.py``).

Each test copies the two files to a temporary folder and breaks one of them the
way a hurried change would, so the check is proven to notice."""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _lock_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lock_script", ROOT / "scripts" / "lock.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lock = _lock_module()


@pytest.fixture
def copies(tmp_path: Path) -> tuple[Path, Path]:
    pyproject = tmp_path / "pyproject.toml"
    lock_file = tmp_path / "lock.txt"
    shutil.copy(ROOT / "pyproject.toml", pyproject)
    shutil.copy(ROOT / "requirements" / "lock.txt", lock_file)
    return pyproject, lock_file


def test_the_committed_lock_matches_pyproject() -> None:
    assert lock.disagreements() == []


def test_every_pin_has_hashes_and_the_lock_installs_everything() -> None:
    """``pip install --require-hashes`` refuses a pin without a hash, and the
    project is installed ``--no-deps``: the lock must hold pip's own build
    backend and every dependency pinned to one version."""
    text = (ROOT / "requirements" / "lock.txt").read_text()
    pins = lock.locked_pins(text)
    assert {
        "django",
        "channels",
        "channels-redis",
        "redis",
        "uvicorn",
        "daphne",
        "setuptools",
        "pip",
    } <= set(pins)
    assert all(hashes >= 1 for _version, hashes in pins.values())
    assert not re.search(r"^\s*(-e|--index-url|--extra-index-url|--find-links|-f)\b", text, re.M)
    assert "/work/" not in text and "/home/" not in text


def test_a_new_dependency_not_yet_locked_fails(copies: tuple[Path, Path]) -> None:
    pyproject, lock_file = copies
    text = pyproject.read_text()
    pyproject.write_text(
        text.replace('"segno>=1.6,<2",', '"segno>=1.6,<2",\n    "left-pad>=1",', 1)
    )
    problems = lock.disagreements(pyproject, lock_file)
    assert "pyproject.toml's dependency lists changed since the lock was made" in problems
    assert "left-pad is not in the lock" in problems


def test_a_range_the_locked_version_is_outside_of_fails(copies: tuple[Path, Path]) -> None:
    pyproject, lock_file = copies
    text = pyproject.read_text()
    pyproject.write_text(text.replace('"channels-redis>=4.2,<5"', '"channels-redis>=4.4,<5"', 1))
    problems = lock.disagreements(pyproject, lock_file)
    assert any(problem.startswith("channels-redis==4.3.0 is outside") for problem in problems)


def test_a_pin_edited_by_hand_without_its_hash_fails(copies: tuple[Path, Path]) -> None:
    _pyproject, lock_file = copies
    lock_file.write_text(lock_file.read_text() + "left-pad==1.0\n")
    assert "left-pad has no --hash" in lock.disagreements(_pyproject, lock_file)


def test_a_change_outside_the_dependency_lists_needs_no_new_lock(copies: tuple[Path, Path]) -> None:
    pyproject, lock_file = copies
    pyproject.write_text(pyproject.read_text().replace("line-length = 100", "line-length = 99"))
    assert lock.disagreements(pyproject, lock_file) == []


def test_the_makefile_installs_from_the_lock_with_hashes() -> None:
    makefile = (ROOT / "Makefile").read_text()
    stamp_rule = re.search(r"^\$\(STAMP\): (.*)$", makefile, re.M)
    assert stamp_rule and "$(LOCK)" in stamp_rule.group(1)
    assert "--require-hashes -r $(LOCK)" in makefile
    assert "--no-deps --no-build-isolation -e ." in makefile
    assert re.search(r"^test: .*lock-check", makefile, re.M)
    assert "make lock-check" in (ROOT / ".ci" / "run").read_text()
