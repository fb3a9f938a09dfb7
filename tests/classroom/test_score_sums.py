"""Score sums ("addition de scores"): Picktura's end-of-game additions are kept
as their own records, shown in their own section of the pupil report, and
never change the Chasse figures."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from cardgames import services
from classroom import score_sums
from classroom.insights.score_sums import ScoreSum, score_sum_summary
from classroom.models import ScoreSumRecord
from classroom.selectors import pupil_report
from tests.classroom.test_reports import MAX_QUERIES, _class_with_history
from tests.factories import ClassSessionFactory, PupilFactory

pytestmark = pytest.mark.django_db


def _picktura_table(session: Any, pupils: list[Any]) -> Any:
    seats = [
        services.SeatSpec(player_key=p.player_key, display_name=p.display_name) for p in pupils
    ]
    return services.table_create(game="picktura", seats=seats, group_key=session.group_key)


def test_written_sum_and_summary_are_plain_figures() -> None:
    sums = [
        ScoreSum(addends=[6, 3, 2], sum=11, answer=11, correct=True, compute_ms=4000),
        ScoreSum(addends=[2], sum=2, answer=3, correct=False, compute_ms=None),
        ScoreSum(addends=[6, 1], sum=7, answer=7, correct=True, compute_ms=8000),
    ]
    summary = score_sum_summary(sums)
    assert (summary.count, summary.correct, summary.median_seconds) == (3, 2, 6.0)
    assert [s.written for s in summary.recent] == ["6 + 1 = 7", "2", "6 + 3 + 2 = 11"]
    assert score_sum_summary([]).accuracy is None


def test_a_record_per_pupil_and_table_and_none_for_strangers() -> None:
    session = ClassSessionFactory(game="picktura")
    pupil = PupilFactory(school_class=session.school_class)
    stranger = PupilFactory()  # another class
    table = _picktura_table(session, [pupil, stranger])
    args: dict[str, Any] = {"addends": [6, 3], "total": 9, "answer": 9, "correct": True, "compute_ms": 5}
    first = score_sums.score_sum_record(table=table, player_key=pupil.player_key, **args)
    again = score_sums.score_sum_record(table=table, player_key=pupil.player_key, **args)
    assert first is not None and again is not None and first.pk == again.pk
    assert score_sums.score_sum_record(table=table, player_key=stranger.player_key, **args) is None
    assert score_sums.score_sum_record(table=table, player_key="bot:easy", **args) is None
    assert ScoreSumRecord.objects.count() == 1


def test_the_report_shows_the_sums_apart_and_the_chasse_figures_do_not_move(
    django_assert_max_num_queries: Any,
) -> None:
    school_class = _class_with_history(2, 3)
    pupil = school_class.pupils.order_by("pk").first()
    before = pupil_report(pupil=pupil).figures
    client = Client()
    client.force_login(school_class.teacher)
    url = reverse("classroom:pupil_report", args=[pupil.pk])
    assert "Addition de scores" not in client.get(url).content.decode()

    session = ClassSessionFactory(school_class=school_class, game="picktura")
    table = _picktura_table(session, [pupil, PupilFactory(school_class=school_class)])
    score_sums.score_sum_record(
        table=table, player_key=pupil.player_key, addends=[6, 3, 2], total=11, answer=10,
        correct=False, compute_ms=7000,
    )
    after = pupil_report(pupil=pupil).figures
    assert after.summary == before.summary
    assert after.series == before.series
    assert after.fluency == before.fluency
    with django_assert_max_num_queries(MAX_QUERIES + 1):
        page = client.get(url).content.decode()
    assert "Addition de scores" in page
    assert "6 + 3 + 2 = 11" in page
    assert "0 juste sur 1 addition" in page
