"""Score sums ("addition de scores"): a pupil's own end-of-game additions, in
figures. Pure: plain values in, plain values out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median


@dataclass(frozen=True)
class ScoreSum:
    addends: list[int]
    sum: int
    answer: int
    correct: bool
    compute_ms: int | None

    @property
    def written(self) -> str:
        """"6 + 3 + 2 = 11" (the form the tablet showed the pupil)."""
        if len(self.addends) < 2:
            return str(self.sum)
        return " + ".join(map(str, self.addends)) + f" = {self.sum}"


@dataclass(frozen=True)
class ScoreSumSummary:
    count: int
    correct: int
    median_seconds: float | None
    recent: list[ScoreSum]

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.count if self.count else None


def score_sum_summary(sums: Sequence[ScoreSum], *, recent: int = 5) -> ScoreSumSummary:
    """How many sums, how many right, the median time, the latest few (newest first)."""
    times = [s.compute_ms for s in sums if s.compute_ms is not None]
    return ScoreSumSummary(
        count=len(sums),
        correct=sum(1 for s in sums if s.correct),
        median_seconds=round(median(times) / 1000, 1) if times else None,
        recent=list(reversed(sums[-recent:])),
    )
