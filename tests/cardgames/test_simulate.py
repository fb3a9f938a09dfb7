"""The simulate command prints the figures of a seeded bot tournament."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command


def test_simulate_chasse_prints_win_rates_length_mult10_share_and_speed() -> None:
    out = io.StringIO()
    call_command("simulate", "chasse", games=20, players=4, levels="hard,easy,easy,easy", seed=1, stdout=out)
    text = out.getvalue()
    assert "games per second" in text
    assert "mean rounds per game" in text
    assert "mean plays per game" in text
    assert "seat 0 (hard): win rate" in text
    assert "level easy: win rate" in text
    assert "landed on a multiple of ten" in text


def test_simulate_is_deterministic_for_a_seed() -> None:
    def run() -> list[str]:
        out = io.StringIO()
        call_command("simulate", "chasse", games=10, players=3, levels="medium", seed=7, stdout=out)
        return [line for line in out.getvalue().splitlines() if "per second" not in line]

    assert run() == run()


def test_simulate_refuses_unknown_levels_and_player_counts() -> None:
    with pytest.raises(CommandError, match="Unknown bot level"):
        call_command("simulate", "chasse", games=1, levels="genius")
    with pytest.raises(CommandError, match="2 to 6 players"):
        call_command("simulate", "chasse", games=1, players=9)
