"""Issue 44, item 8: the child's data export (``export.json``, the parents'
right of access) says "everything stored about the child". Before the fix it
left out social records, score sums, assigned practices and the child's moves
with their timings, and it carried the child's picture code (their login).

These tests go through the teacher's real download link."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.apps import apps
from django.db import models
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from cardgames.models import GameEvent, Move, Seat
from classroom.models import (
    AssignedPractice,
    Attendance,
    LearningRecord,
    Pupil,
    PupilSessionSummary,
    ScoreSumRecord,
    SocialRecord,
    TabletLogin,
)
from classroom.selectors import export
from classroom.services.parents import parent_link_create
from tests.factories import (
    ClassSessionFactory,
    GameEventFactory,
    MoveFactory,
    PupilFactory,
    SchoolClassFactory,
    SeatFactory,
    session_table,
)

pytestmark = pytest.mark.django_db

SESSION_KEY = "s3ss10nk3y" * 3 + "zz"


def _teacher(school_class: Any) -> Client:
    client = Client()
    client.force_login(school_class.teacher)
    return client


def _names_a_pupil(model: type[models.Model]) -> bool:
    """A ForeignKey to ``Pupil``, or a ``player_key`` field (cardgames' name for a player)."""
    for field in model._meta.concrete_fields:
        if field.is_relation and field.related_model is Pupil:
            return True
        if field.name == "player_key":
            return True
    return False


def _child_with_everything(games: int = 1) -> tuple[Pupil, str]:
    """A child with a row in every table that can name them; returns the
    child and the raw parent-link token."""
    school_class = SchoolClassFactory()
    child = PupilFactory(school_class=school_class, picture_code=[7, 3])
    other = PupilFactory(school_class=school_class, picture_code=[1, 4])
    for n in range(games):
        lesson = ClassSessionFactory(school_class=school_class)
        Attendance.objects.create(class_session=lesson, pupil=child)
        TabletLogin.objects.create(
            class_session=lesson, pupil=child, session_key=f"{SESSION_KEY}{n}", device_label="iPad"
        )
        table = session_table(lesson)
        # The other child sits first: the child's seat is index 1.
        SeatFactory(table=table, index=0, player_key=other.player_key)
        SeatFactory(table=table, index=1, player_key=child.player_key)
        MoveFactory(table=table, seat=0, action={"type": "play", "card": 11})
        MoveFactory(table=table, seat=1, action={"type": "play", "card": 22}, think_ms=4321)
        GameEventFactory(table=table, seat=1, kind="played", payload={"card": 22})
        GameEventFactory(table=table, seat=0, kind="played", payload={"card": 11})
        LearningRecord.objects.create(
            pupil=child, class_session=lesson, table_id=table.pk, round=1,
            total_before=10, card_kind="add", card_a=2, card_b=3, card_value=5,
            total_after=15, announced=15, correct=True,
        )  # fmt: skip
        SocialRecord.objects.create(
            pupil=child, class_session=lesson, table_id=table.pk, game="purrfect", score=3
        )
        ScoreSumRecord.objects.create(
            pupil=child, class_session=lesson, table_id=table.pk, game="picktura",
            addends=[3, 4], sum=7, answer=7, correct=True,
        )  # fmt: skip
        PupilSessionSummary.objects.create(
            pupil=child, class_session=lesson, first_at=timezone.now(), last_at=timezone.now()
        )
    AssignedPractice.objects.create(pupil=child, focus={"facts": [[8, 5]]})
    _link, token = parent_link_create(pupil=child, expires_in_days=30)
    return child, token


def _export(child: Pupil) -> tuple[dict[str, Any], str]:
    response = _teacher(child.school_class).get(reverse("classroom:pupil_export", args=[child.pk]))
    assert response.status_code == 200
    raw = response.content.decode()
    return json.loads(raw), raw


def test_every_model_that_names_a_pupil_has_a_section_in_the_export() -> None:
    """A model added later that points at a pupil (a ForeignKey, a
    ``player_key``, or listed as indirect) must be exported: this walks every
    model of the project, so it cannot be forgotten."""
    child, _token = _child_with_everything()
    data, _raw = _export(child)
    naming = {m for m in apps.get_models() if _names_a_pupil(m)} | set(export.INDIRECT_MODELS)
    assert {Seat, Move, GameEvent, SocialRecord, ScoreSumRecord, AssignedPractice} <= naming
    missing = [m.__name__ for m in naming if export.SECTIONS.get(m) not in data]
    assert not missing, f"no section in the export for {missing}"
    for model in naming - {Pupil}:
        assert data[export.SECTIONS[model]], f"{model.__name__}: the child's rows are missing"


def test_the_export_holds_the_childs_own_rows_and_moves_with_timings() -> None:
    child, _token = _child_with_everything()
    data, _raw = _export(child)
    assert [m["think_ms"] for m in data["game_moves"]] == [4321]
    assert [m["action"]["card"] for m in data["game_moves"]] == [22]  # not the other child's
    assert [e["payload"]["card"] for e in data["game_events"]] == [22]
    assert {s["player_key"] for s in data["game_seats"]} == {child.player_key}
    assert data["score_sums"][0]["addends"] == [3, 4]
    assert data["social_records"][0]["game"] == "purrfect"
    assert data["assigned_practices"][0]["focus"] == {"facts": [[8, 5]]}
    assert data["parent_links"] and data["tablet_logins"][0]["device_label"] == "iPad"


def _all_values(node: Any) -> list[Any]:
    if isinstance(node, dict):
        return [node] + [v for value in node.values() for v in _all_values(value)]
    if isinstance(node, list):
        return [node] + [v for value in node for v in _all_values(value)]
    return [node]


def test_no_secret_is_in_the_export() -> None:
    """The attack: the export (a file that travels by mail to parents) gave
    away the child's picture code, i.e. their login."""
    child, token = _child_with_everything()
    data, raw = _export(child)
    link = child.parent_links.get()
    for secret in (token, link.token_hash, SESSION_KEY, child.school_class.link_token):
        assert secret not in raw
    assert "picture_code" not in raw and "token_hash" not in raw and "session_key" not in raw
    assert [7, 3] not in _all_values(data)


def test_the_export_costs_the_same_queries_whatever_the_history(
    django_assert_max_num_queries: Any,
) -> None:
    small, _ = _child_with_everything(games=1)
    big, _ = _child_with_everything(games=6)
    teacher = _teacher(small.school_class)
    with django_assert_max_num_queries(20) as few:
        teacher.get(reverse("classroom:pupil_export", args=[small.pk]))
    teacher = _teacher(big.school_class)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = teacher.get(reverse("classroom:pupil_export", args=[big.pk]))
    assert len(json.loads(response.content)["game_moves"]) == 6
