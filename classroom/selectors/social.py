"""Reads of the social games' participation (``SocialRecord``): one query each.

Social games are reported as participation, never as marks, and never mixed
into the Chasse figures (those read ``LearningRecord`` only)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time

from django.db.models import Count, Max, Min, Q, Sum
from django.utils import timezone

from cardgames.ui import game_title
from classroom.models import Pupil, SchoolClass, SocialRecord

# The pupil page lists this many (session, game) rows, newest first.
PUPIL_SOCIAL_ROWS = 30


@dataclass(frozen=True)
class SocialRow:
    """One pupil's participation in one game during one session."""

    session_id: int
    started_at: datetime
    game: str
    title: str
    tables: int
    trades: int
    offers_withdrawn: int
    mistaken_claims: int
    wrong_count_accepts: int
    score: int
    best_rank: int | None
    wins: int
    practice: bool


def pupil_social_rows(*, pupil: Pupil) -> list[SocialRow]:
    """Per session and game, newest first: tables played, trades, withdrawals,
    mistaken claims, wrong-count acceptances, points, best place, wins."""
    rows = (
        SocialRecord.objects.filter(pupil=pupil, finished_at__isnull=False)
        .values("class_session_id", "class_session__started_at", "game", "practice")
        .annotate(
            tables=Count("id"),
            trades_sum=Sum("trades"),
            withdrawn_sum=Sum("offers_withdrawn"),
            claims_sum=Sum("mistaken_claims"),
            wrong_sum=Sum("wrong_count_accepts"),
            score_sum=Sum("score"),
            best_rank=Min("rank"),
            wins=Count("id", filter=Q(won=True)),
            last=Max("finished_at"),
        )
        .order_by("-last", "game")[:PUPIL_SOCIAL_ROWS]
    )
    return [
        SocialRow(
            session_id=row["class_session_id"],
            started_at=row["class_session__started_at"],
            game=row["game"],
            title=game_title(row["game"]),
            tables=row["tables"],
            trades=row["trades_sum"] or 0,
            offers_withdrawn=row["withdrawn_sum"] or 0,
            mistaken_claims=row["claims_sum"] or 0,
            wrong_count_accepts=row["wrong_sum"] or 0,
            score=row["score_sum"] or 0,
            best_rank=row["best_rank"],
            wins=row["wins"],
            practice=row["practice"],
        )
        for row in rows
    ]


@dataclass(frozen=True)
class ClassSocialTables:
    """Tables played per pupil and social game, for the class report's columns."""

    games: list[tuple[str, str]]  # (game, title), the columns, in name order
    by_pupil: dict[int, dict[str, int]]

    def row(self, pupil_id: int) -> list[int]:
        counts = self.by_pupil.get(pupil_id, {})
        return [counts.get(game, 0) for game, _title in self.games]


def class_social_tables(
    *,
    school_class: SchoolClass,
    date_from: date | None = None,
    date_to: date | None = None,
    session_id: int | None = None,
) -> ClassSocialTables:
    """How many social-game tables each pupil finished in the period (class
    sessions only, like the rest of the class report). One query."""
    records = SocialRecord.objects.filter(
        pupil__school_class=school_class, finished_at__isnull=False, practice=False
    )
    tz = timezone.get_current_timezone()
    if session_id is not None:
        records = records.filter(class_session_id=session_id)
    else:
        if date_from is not None:
            records = records.filter(
                finished_at__gte=datetime.combine(date_from, time.min, tzinfo=tz)
            )
        if date_to is not None:
            records = records.filter(
                finished_at__lte=datetime.combine(date_to, time.max, tzinfo=tz)
            )
    by_pupil: dict[int, dict[str, int]] = {}
    games: set[str] = set()
    for row in records.values("pupil_id", "game").annotate(tables=Count("id")):
        games.add(row["game"])
        by_pupil.setdefault(row["pupil_id"], {})[row["game"]] = row["tables"]
    return ClassSocialTables(
        games=[(game, game_title(game)) for game in sorted(games)], by_pupil=by_pupil
    )
