"""A pupil's score sums for the report: one query."""

from __future__ import annotations

from classroom.insights.score_sums import ScoreSum, ScoreSumSummary, score_sum_summary
from classroom.models import Pupil, ScoreSumRecord


def pupil_score_sums(*, pupil: Pupil) -> ScoreSumSummary:
    rows = ScoreSumRecord.objects.filter(pupil=pupil).order_by("created_at", "id").values_list(
        "addends", "sum", "answer", "correct", "compute_ms"
    )
    return score_sum_summary(
        [
            ScoreSum(addends=list(a), sum=s, answer=ans, correct=ok, compute_ms=ms)
            for a, s, ans, ok, ms in rows
        ]
    )
