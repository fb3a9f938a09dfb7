"""Targeted cards: a pupil's focus, their assigned practices and how they went.

The focus itself is decided by ``classroom.insights`` (the same weaknesses as
"practise next"); these reads load the records for it and cache the result
with the pupil's other figures."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from classroom.insights import PupilFocus, fluency_grid, pupil_focus, weaknesses
from classroom.insights.numbers import pct
from classroom.models import AssignedPractice, LearningRecord, Pupil
from classroom.selectors.records import pupil_cached, pupil_records_version, records_as_plays


def _focus_from_records(pupil: Pupil) -> PupilFocus:
    plays = records_as_plays(LearningRecord.objects.filter(pupil=pupil))
    return pupil_focus(weaknesses=weaknesses(plays=plays), grid=fluency_grid(plays=plays))


def pupil_focus_of(*, pupil: Pupil) -> PupilFocus:
    """The cards to target for ``pupil`` now. Two queries at most: the
    records' version, then (only when it changed) the records."""
    version = pupil_records_version(pupil=pupil)
    return pupil_cached(
        pupil=pupil, version=version, name="focus", build=lambda: _focus_from_records(pupil)
    )


def open_assignment(*, pupil: Pupil) -> AssignedPractice | None:
    """The targeted practice the teacher gave and the pupil has not finished
    yet (the latest one). One query."""
    return pupil.assignments.filter(done_at__isnull=True).order_by("-assigned_at", "-id").first()


@dataclass(frozen=True)
class Side:
    attempts: int
    correct: int

    @property
    def accuracy(self) -> float | None:
        return pct(self.correct, self.attempts)


@dataclass(frozen=True)
class AssignmentOutcome:
    """How an assigned practice went: the pupil's answers on its facts before
    it was assigned, and since."""

    assignment: AssignedPractice
    focus: PupilFocus
    before: Side
    after: Side


def assignment_outcomes(*, pupil: Pupil, limit: int = 3) -> list[AssignmentOutcome]:
    """The latest ``limit`` assignments with their before/after figures. Two
    queries: the assignments, then the answers on all their facts at once."""
    assignments = list(pupil.assignments.order_by("-assigned_at", "-id")[:limit])
    if not assignments:
        return []
    focuses = [PupilFocus.from_json(a.focus) for a in assignments]
    wanted = {fact for focus in focuses for fact in focus.facts}
    rows: list[tuple[int, int, bool, object]] = []
    if wanted:
        cards = Q()
        for a, b in wanted:
            cards |= Q(card_a=a, card_b=b) | Q(card_a=b, card_b=a)
        rows = list(
            LearningRecord.objects.filter(
                cards,
                pupil=pupil,
                card_kind="add",
                timed_out=False,
                correct__isnull=False,
            ).values_list("card_a", "card_b", "correct", "created_at")
        )
    out = []
    for assignment, focus in zip(assignments, focuses, strict=True):
        counts = [0, 0, 0, 0]  # before n, before ok, after n, after ok
        for a, b, correct, when in rows:
            if not focus.covers("add", a, b):
                continue
            side = 2 if when >= assignment.assigned_at else 0  # type: ignore[operator]
            counts[side] += 1
            counts[side + 1] += bool(correct)
        out.append(
            AssignmentOutcome(
                assignment=assignment,
                focus=focus,
                before=Side(counts[0], counts[1]),
                after=Side(counts[2], counts[3]),
            )
        )
    return out
