""" "Nouveau : 7 + 8 est su !" follows ``docs/learning.md`` (issue 47, part 3).

Bug: the fluency grid counted a forgotten carry (38 + 6 = 34: the units were
right) as a wrong answer *of the fact* 2 + 4. A pupil who only forgot carries
lost the fluency of 2 + 4 and 3 + 4 for a moment, won it back, and the child's
and the parent's pages announced them as newly mastered, first (they had
"once been wrong"); with at most 3 news items, the truly overcome 6 + 7 and
7 + 8 fell off the parent page. A carry error never counts against a fact.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom import insights
from classroom.models import ClassSession, LearningRecord, Pupil
from classroom.selectors import records_as_plays
from classroom.services.parents import parent_link_create
from tests.factories import PupilFactory


def _record(
    pupil: Pupil, session: ClassSession, a: int, b: int, when: datetime, answer: str
) -> LearningRecord:
    """One answered addition ``a + b``. ``right``: quick and right;
    ``carry``: a forgotten carry (from 38, crossing the ten, ten too small);
    ``fact``: wrong in the units (the fact itself is not known)."""
    before = 38 if answer != "fact" else 20
    after = before + a + b
    crossed = before % 10 + (a + b) % 10 >= 10
    announced = {"right": after, "carry": after - 10, "fact": after - 1}[answer]
    return LearningRecord(
        pupil=pupil, class_session=session, table_id=1, move_version=int(when.timestamp()), round=1,
        total_before=before, card_kind="add", card_a=a, card_b=b, card_value=a + b,
        total_after=after, announced=announced, correct=answer == "right", think_ms=1000,
        compute_ms=1500, crossed_ten=crossed,
        error_kind={"right": "", "carry": "tens", "fact": "units"}[answer], created_at=when,
    )  # fmt: skip


def _history(pupil: Pupil, plan: dict[tuple[int, int], tuple[list[str], list[str]]]) -> None:
    """Per fact: the answers of three weeks ago, then those of yesterday (one
    minute apart, in order)."""
    session = ClassSession.objects.create(school_class=pupil.school_class, game="chasse")
    long_ago = timezone.now() - timedelta(days=21)
    yesterday = timezone.now() - timedelta(days=1)
    rows = []
    for n, ((a, b), (before, recent)) in enumerate(plan.items()):
        for i, answer in enumerate(before):
            rows.append(
                _record(pupil, session, a, b, long_ago + timedelta(minutes=10 * n + i), answer)
            )
        for i, answer in enumerate(recent):
            rows.append(
                _record(pupil, session, a, b, yesterday + timedelta(minutes=10 * n + i), answer)
            )
    LearningRecord.objects.bulk_create(rows)


def _parent_page(pupil: Pupil) -> str:
    _link, token = parent_link_create(pupil=pupil, expires_in_days=30)
    parent = Client()
    page = parent.get(parent.get(reverse("classroom:parent_open", args=[token]))["Location"])
    assert page.status_code == 200
    return page.content.decode()


KNOWN = ["right", "right", "right"]
CARRIES_FORGOTTEN = ["carry", "right", "carry", "right", "right"]


@pytest.mark.django_db
def test_a_pupil_who_only_forgets_carries_gets_no_fact_news() -> None:
    pupil = PupilFactory(display_name="Noé")
    _history(pupil, {(2, 4): (KNOWN, CARRIES_FORGOTTEN), (3, 4): (KNOWN, CARRIES_FORGOTTEN)})
    grid = insights.fluency_grid(plays=records_as_plays(LearningRecord.objects.filter(pupil=pupil)))
    assert grid.cell(2, 4).fluent and grid.cell(2, 4).fact_errors == 0
    # Fluent since three weeks ago: the forgotten carries did not interrupt it.
    assert grid.cell(2, 4).fluent_since is not None
    assert grid.cell(2, 4).fluent_since < timezone.now() - timedelta(days=20)
    assert "Nouveau :" not in _parent_page(pupil)


@pytest.mark.django_db
def test_a_pupil_who_overcame_7_plus_8_is_told_so() -> None:
    pupil = PupilFactory(display_name="Inès")
    _history(pupil, {(7, 8): (["fact", "fact", "fact"], KNOWN)})
    assert "Nouveau : 7 + 8 est su !" in _parent_page(pupil)


@pytest.mark.django_db
def test_facts_truly_overcome_come_before_forgotten_carries() -> None:
    """The issue's page: three facts whose only errors were forgotten carries
    (and that were fluent before) no longer push 6 + 7 and 7 + 8 off the
    three news items; a fact newly fluent without any error of its own
    (2 + 2, first met this week) comes after them."""
    pupil = PupilFactory(display_name="Léa")
    _history(
        pupil,
        {
            (6, 7): (["fact", "fact", "right", "fact"], KNOWN),
            (7, 8): (["fact", "fact", "fact"], KNOWN),
            (2, 4): (KNOWN, CARRIES_FORGOTTEN),
            (3, 4): (KNOWN, CARRIES_FORGOTTEN),
            (2, 5): (KNOWN, CARRIES_FORGOTTEN),
            (2, 2): ([], KNOWN),
        },
    )
    grid = insights.fluency_grid(plays=records_as_plays(LearningRecord.objects.filter(pupil=pupil)))
    week = timezone.now() - timedelta(days=7)
    assert grid.newly_fluent(since=week) == [(7, 8), (6, 7), (2, 2)]
    page = _parent_page(pupil)
    assert "Nouveau : 7 + 8 est su !" in page and "Nouveau : 6 + 7 est su !" in page
    for carry_only in ("2 + 4", "3 + 4", "2 + 5"):
        assert f"Nouveau : {carry_only} est su" not in page
