"""The pupil's last games, from the plays already loaded for the page."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from classroom.insights.numbers import pct
from classroom.insights.plays import Play

RECENT_GAMES = 8


@dataclass
class RecentGame:
    table_id: int
    session_id: int
    played_at: datetime
    plays: int
    announcements: int
    correct: int

    @property
    def accuracy(self) -> float | None:
        return pct(self.correct, self.announcements)


def recent_games(plays: list[Play], *, limit: int = RECENT_GAMES) -> list[RecentGame]:
    """The pupil's last games (tables), newest first, from plays already loaded."""
    games: dict[int, RecentGame] = {}
    for p in plays:
        if not p.table_id:
            continue
        g = games.get(p.table_id)
        if g is None:
            g = games[p.table_id] = RecentGame(p.table_id, p.session_id, p.created_at, 0, 0, 0)
        g.played_at = max(g.played_at, p.created_at)
        if not p.timed_out:
            g.plays += 1
            if p.correct is not None:
                g.announcements += 1
                g.correct += bool(p.correct)
    return sorted(games.values(), key=lambda g: g.played_at, reverse=True)[:limit]
