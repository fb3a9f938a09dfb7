"""Bot-only tournaments: the figures behind bot strength and engine speed.

Kept apart from the management command so benchmarks and tests can call it.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from cardgames import engines
from cardgames.engines.base import BOT_LEVELS, play_bots, shared_win


@dataclass
class SimulationReport:
    game: str
    games: int
    players: int
    levels: list[str]
    rotate: bool
    seconds: float = 0.0
    actions: int = 0
    stalled: int = 0
    wins_by_seat: list[float] = field(default_factory=list)
    wins_by_level: dict[str, float] = field(default_factory=dict)
    seats_by_level: dict[str, int] = field(default_factory=dict)
    score_by_level: dict[str, float] = field(default_factory=dict)
    game_metrics: dict[str, float] = field(default_factory=dict)
    seat_metrics_by_level: dict[str, dict[str, float]] = field(default_factory=dict)
    ratios: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def win_rate(self, level: str) -> float:
        """Wins per seat-game at ``level`` (ties shared): 1/players is chance."""
        seats = self.seats_by_level.get(level, 0)
        return self.wins_by_level.get(level, 0.0) / seats if seats else 0.0

    def lines(self) -> list[str]:
        out = [
            f"{self.game}: {self.games} games, {self.players} players, levels {','.join(self.levels)}"
            + (" (seats rotated each game)" if self.rotate else ""),
            f"  games per second: {self.games_per_second:,.1f}",
            f"  actions per second: {self.actions_per_second:,.0f}",
            f"  mean actions per game: {self.actions / max(self.games, 1):.1f}",
        ]
        for metric, total in sorted(self.game_metrics.items()):
            out.append(f"  mean {metric} per game: {total / max(self.games, 1):.2f}")
        if self.stalled:
            out.append(f"  STALLED games: {self.stalled}")
        if not self.rotate:
            for seat, wins in enumerate(self.wins_by_seat):
                level = self.levels[seat % len(self.levels)]
                out.append(f"  seat {seat} ({level}): win rate {wins / max(self.games, 1):.1%}")
        chance = 1 / self.players
        for level in BOT_LEVELS:
            if level not in self.seats_by_level:
                continue
            seats = self.seats_by_level[level]
            line = (
                f"  level {level}: win rate {self.win_rate(level):.1%} (chance {chance:.1%}),"
                f" mean score {self.score_by_level[level] / seats:.2f}"
            )
            metrics = self.seat_metrics_by_level.get(level, {})
            for label, numerator, denominator in self.ratios:
                den = metrics.get(denominator, 0.0)
                if den:
                    line += f", {label}: {metrics.get(numerator, 0.0) / den:.1%}"
            out.append(line)
        return out


def simulate(
    game: str,
    *,
    games: int,
    players: int,
    levels: list[str],
    seed: int = 1,
    options: dict[str, Any] | None = None,
    rotate: bool = False,
    max_actions: int = 100_000,
) -> SimulationReport:
    """Play ``games`` seeded bot-only games. With ``rotate`` the list of levels
    shifts by one seat each game, so no level keeps the first-player advantage."""
    engine = engines.get(game)
    report = SimulationReport(game, games, players, list(levels), rotate)
    report.wins_by_seat = [0.0] * players
    wins: dict[str, float] = defaultdict(float)
    seats: dict[str, int] = defaultdict(int)
    scores: dict[str, float] = defaultdict(float)
    game_metrics: dict[str, float] = defaultdict(float)
    seat_metrics: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    started = time.perf_counter()
    for number in range(games):
        shift = number % players if rotate else 0
        seat_levels = [levels[(s - shift) % len(levels)] for s in range(players)]
        played = play_bots(
            engine, players, seed + number, seat_levels, options, max_actions=max_actions
        )
        report.actions += played.actions
        if played.stalled:
            report.stalled += 1
            continue
        result = engine.result(played.state)
        share = shared_win(result, players)
        stats = engine.game_stats(played.state)
        for metric, value in stats.get("game", {}).items():
            game_metrics[metric] += value
        for seat in range(players):
            level = seat_levels[seat]
            report.wins_by_seat[seat] += share[seat]
            wins[level] += share[seat]
            seats[level] += 1
            scores[level] += float(result["scores"][seat])
            for metric, values in stats.get("seat", {}).items():
                seat_metrics[level][metric] += values[seat]
    report.seconds = time.perf_counter() - started
    report.wins_by_level = dict(wins)
    report.seats_by_level = dict(seats)
    report.score_by_level = dict(scores)
    report.game_metrics = dict(game_metrics)
    report.seat_metrics_by_level = {k: dict(v) for k, v in seat_metrics.items()}
    report.ratios = list(engine.stat_ratios)
    return report
