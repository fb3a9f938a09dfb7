"""Progress that shows (issue 18 § 4): the fluency grid knows when a fact
became fluent, and the child's page and the parent page say what is newly
mastered: "Nouveau : 7 + 8 est su !"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom import insights
from classroom.insights import Play
from classroom.models import ClassSession, LearningRecord, Pupil
from classroom.selectors import records_as_plays
from classroom.services.parents import parent_link_create
from tests.factories import PupilFactory, TabletLoginFactory

from .pupil_model import PupilModel, play_games

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


def attempt(a: int, b: int, minute: int, *, right: bool, ms: int = 1500) -> Play:
    before = 20
    after = before + a + b
    return Play(
        pupil_id=1, session_id=1, table_id=1, round=1, total_before=before, card_kind="add",
        card_a=a, card_b=b, card_value=a + b, total_after=after,
        announced=after if right else after + 1, correct=right, think_ms=1000, compute_ms=ms,
        multiple_of_ten=False, reached_target=False, avoidable=False, crossed_ten=False,
        error_kind=None if right else "units", timed_out=False, practice=False,
        created_at=T0 + timedelta(minutes=minute),
    )  # fmt: skip


def test_the_grid_knows_when_a_fact_became_fluent_and_forgets_it_when_it_is_lost() -> None:
    plays = [
        attempt(7, 8, 0, right=False),
        attempt(7, 8, 1, right=True),
        attempt(7, 8, 2, right=False),
        attempt(7, 8, 3, right=True),  # 2 of the last 3 quick and right: fluent here
        attempt(7, 8, 4, right=True),
    ]
    cell = insights.fluency_grid(plays=plays).cell(7, 8)
    assert cell.fluent and cell.fluent_since == T0 + timedelta(minutes=3)
    lost = [*plays, attempt(7, 8, 5, right=False), attempt(7, 8, 6, right=True, ms=9000)]
    assert insights.fluency_grid(plays=lost).cell(7, 8).fluent_since is None
    again = [*lost, attempt(7, 8, 7, right=True), attempt(7, 8, 8, right=True)]
    assert insights.fluency_grid(plays=again).cell(7, 8).fluent_since == T0 + timedelta(minutes=8)
    # records out of order give the same answer
    assert insights.fluency_grid(plays=list(reversed(again))).cell(7, 8).fluent_since == (
        T0 + timedelta(minutes=8)
    )


def test_newly_fluent_names_a_fact_once_and_only_recent_ones() -> None:
    plays = [attempt(8, 7, m, right=True) for m in (0, 1)]  # fluent at minute 1
    plays += [attempt(7, 8, m, right=True) for m in (10, 11)]  # its twin, at minute 11
    plays += [attempt(2, 3, m, right=True) for m in (-600, -599)]  # long ago
    grid = insights.fluency_grid(plays=plays)
    assert grid.newly_fluent(since=T0) == [(7, 8)]
    assert grid.newly_fluent(since=T0 - timedelta(days=1)) == [(7, 8), (2, 3)]
    assert grid.newly_fluent(since=T0 + timedelta(hours=1)) == []


def _planted(pupil: Pupil, *, days_ago: int, model: PupilModel, seed: int) -> None:
    session = ClassSession.objects.create(school_class=pupil.school_class, game="chasse")
    start = timezone.now() - timedelta(days=days_ago)
    rows = [
        LearningRecord(pupil=pupil, class_session=session, **fields)
        for fields in play_games(
            model,
            games=4,
            seed=seed,
            start=start,
            options={"focus": [{"seat": 0, "facts": [[7, 8]]}]},
        )
    ]
    LearningRecord.objects.bulk_create(rows)


@pytest.mark.django_db
def test_the_childs_page_and_the_parent_page_say_what_is_newly_mastered() -> None:
    pupil = PupilFactory(display_name="Inès")
    # A month ago 7 + 8 was always wrong; this week it is right and quick.
    _planted(pupil, days_ago=30, model=PupilModel(weak_facts={(7, 8): 1.0}, slip=0.0), seed=1)
    _planted(pupil, days_ago=1, model=PupilModel(slip=0.0, compute_ms=1500), seed=2)
    grid = insights.fluency_grid(plays=records_as_plays(LearningRecord.objects.filter(pupil=pupil)))
    assert grid.cell(7, 8).fluent or grid.cell(8, 7).fluent

    session = ClassSession.objects.filter(school_class=pupil.school_class).last()
    assert session is not None
    tablet = Client()
    store = tablet.session
    store.update(
        {"player_key": pupil.player_key, "pupil_id": pupil.pk, "class_session_id": session.pk}
    )
    store.save()
    TabletLoginFactory(class_session=session, pupil=pupil, session_key=store.session_key)
    own = tablet.get(reverse("classroom:pupil_page")).content.decode()
    assert "Nouveau : 7 + 8 est su !" in own

    _link, token = parent_link_create(pupil=pupil, expires_in_days=30)
    parent = Client()
    page = parent.get(parent.get(reverse("classroom:parent_open", args=[token]))["Location"])
    assert "Nouveau : 7 + 8 est su !" in page.content.decode()


@pytest.mark.django_db
def test_a_fact_mastered_long_ago_is_not_new() -> None:
    pupil = PupilFactory()
    _planted(pupil, days_ago=40, model=PupilModel(slip=0.0, compute_ms=1500), seed=3)
    _link, token = parent_link_create(pupil=pupil, expires_in_days=30)
    parent = Client()
    page = parent.get(parent.get(reverse("classroom:parent_open", args=[token]))["Location"])
    assert "Nouveau :" not in page.content.decode()
