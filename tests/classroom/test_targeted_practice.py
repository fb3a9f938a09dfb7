"""Targeted practice (issue 18 § 2): the pupil's own "Entraînement ciblé", the
one the teacher assigns from the pupil page, and the session option that
targets every table. Records come from a synthetic pupil with planted weak
facts (``pupil_model``), written as the app writes them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from cardgames import engines
from cardgames.models import GameState, Table
from cardgames.signals import actions_applied
from classroom import selectors, services
from classroom.models import AssignedPractice, ClassSession, LearningRecord, Pupil
from tests.factories import PupilFactory, SchoolClassFactory, TeacherFactory

from .pupil_model import PupilModel, play_games

pytestmark = pytest.mark.django_db

WEAK = {(7, 8): 1.0, (6, 7): 1.0}


def plant(pupil: Pupil, model: PupilModel, *, games: int = 6, seed: int = 1, **kw: Any) -> None:
    """Write the records a synthetic pupil produces, as ``classroom.learning`` does."""
    session = ClassSession.objects.create(school_class=pupil.school_class, game="chasse")
    # Targeted cards make sure the planted facts are met often enough to judge.
    facts = [list(f) for f in model.weak_facts]
    focus = {"focus": [{"seat": 0, "facts": facts}]} if facts else {}
    rows = [
        LearningRecord(pupil=pupil, class_session=session, **fields)
        for fields in play_games(model, games=games, seed=seed, options=focus, **kw)
    ]
    LearningRecord.objects.bulk_create(rows)


def _log_in(client: Client, pupil: Pupil) -> None:
    url = f"/practice/{pupil.school_class.link_token}/pupil/{pupil.pk}/"
    response = client.post(url, {"pick": [str(p) for p in pupil.picture_code]})
    assert response.status_code == 302


def _start(client: Client, mode: str) -> Table:
    response = client.post("/practice/setup/", {"bots": "2", "level": "easy", "mode": mode})
    assert response.status_code == 302, response.content.decode()[:500]
    return Table.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


@pytest.fixture
def weak_pupil() -> Pupil:
    school_class = SchoolClassFactory()
    pupil = PupilFactory(school_class=school_class, display_name="Léo", picture_code=[2, 5])
    plant(pupil, PupilModel(weak_facts=WEAK, slip=0.0))
    return pupil


def test_the_focus_is_the_weak_facts_practise_next_names(weak_pupil: Pupil) -> None:
    focus = selectors.pupil_focus_of(pupil=weak_pupil)
    assert set(focus.facts) == {(6, 7), (7, 8)} and not focus.crossing
    codes = [i.code for i in selectors.pupil_report(pupil=weak_pupil).figures.practise]
    assert {"fact:6+7", "fact:7+8"} <= set(codes)
    assert selectors.pupil_report(pupil=weak_pupil).figures.focus == focus


def test_a_pupil_with_a_focus_is_offered_a_targeted_practice(
    client: Client, weak_pupil: Pupil
) -> None:
    _log_in(client, weak_pupil)
    page = client.get("/practice/setup/").content.decode()
    assert "Entraînement ciblé" in page
    assert "Aujourd&#x27;hui : 6 + 7 et 7 + 8" in page
    table = _start(client, "focus")
    assert table.options["focus"] == [
        {"seat": 0, "facts": [[6, 7], [7, 8]], "crossing": False, "strength": 8}
    ]
    assert table.label == "Entraînement ciblé"
    seat_page = client.get(f"/table/{table.pk}/").content.decode()
    assert "Aujourd&#x27;hui : 6 + 7 et 7 + 8" in seat_page
    # The robots' seats and the public view know nothing of it.
    engine = engines.get("chasse")
    state = engine.from_json(GameState.objects.get(table=table).state)
    for seat in (None, 1, 2):
        assert "focus" not in engine.view(state, seat)["options"]
    # the free game stays the sheet's game
    free = _start(client, "free")
    assert "focus" not in free.options


def test_a_pupil_with_nothing_to_target_sees_the_usual_screen(client: Client) -> None:
    pupil = PupilFactory(school_class=SchoolClassFactory(), picture_code=[1, 4])
    plant(pupil, PupilModel(slip=0.0), games=2)
    _log_in(client, pupil)
    page = client.get("/practice/setup/").content.decode()
    assert "Entraînement ciblé" not in page
    table = _start(client, "focus")  # a forged "focus" changes nothing
    assert "focus" not in table.options


def _teacher_client(pupil: Pupil) -> Client:
    client = Client()
    client.force_login(pupil.school_class.teacher)
    return client


def test_the_teacher_assigns_it_it_comes_first_until_done_and_shows_before_after(
    client: Client, weak_pupil: Pupil
) -> None:
    teacher = _teacher_client(weak_pupil)
    report = teacher.get(f"/teacher/pupils/{weak_pupil.pk}/report/").content.decode()
    assert "Donner cet entraînement ciblé" in report
    response = teacher.post(f"/teacher/pupils/{weak_pupil.pk}/targeted-practice/")
    assert response.status_code == 302
    assignment = AssignedPractice.objects.get(pupil=weak_pupil)
    assert assignment.focus == {"facts": [[6, 7], [7, 8]], "crossing": False}

    _log_in(client, weak_pupil)
    page = client.get("/practice/setup/").content.decode()
    assert page.index("Un entraînement ciblé t'attend") < page.index("Contre combien de robots")
    table = _start(client, "focus")
    assignment.refresh_from_db()
    assert assignment.table_id == table.pk and assignment.done_at is None
    assert "Un entraînement ciblé t'attend" in client.get("/practice/setup/").content.decode()

    # The game ends: the assignment is done and leaves the practice screen.
    actions_applied.send(sender=None, table=table, events=[{"type": "game_over"}])
    assignment.refresh_from_db()
    assert assignment.done_at is not None
    assert "t'attend" not in client.get("/practice/setup/").content.decode()

    # Later answers on 7 + 8 and 6 + 7 are right: the pupil page shows before and after.
    session = ClassSession.objects.filter(school_class=weak_pupil.school_class).first()
    assert session is not None
    later = timezone.now() + timedelta(minutes=5)
    LearningRecord.objects.bulk_create(
        LearningRecord(
            pupil=weak_pupil,
            class_session=session,
            table_id=999,
            move_version=n,
            total_before=20,
            card_kind="add",
            card_a=a,
            card_b=b,
            card_value=a + b,
            total_after=20 + a + b,
            announced=20 + a + b,
            correct=True,
            compute_ms=2000,
            created_at=later + timedelta(seconds=n),
        )
        for n, (a, b) in enumerate([(7, 8), (8, 7), (6, 7)])
    )
    outcome = selectors.assignment_outcomes(pupil=weak_pupil)[0]
    before_n = sum(
        1
        for r in LearningRecord.objects.filter(
            pupil=weak_pupil, card_kind="add", created_at__lt=later, correct__isnull=False
        )
        if {r.card_a, r.card_b} in ({6, 7}, {7, 8})
    )
    assert outcome.before.attempts == before_n > 0 and outcome.before.correct == 0
    assert (outcome.after.attempts, outcome.after.correct, outcome.after.accuracy) == (3, 3, 100.0)
    report = teacher.get(f"/teacher/pupils/{weak_pupil.pk}/report/").content.decode()
    assert "(3/3)" in report and f"(0/{before_n})" in report


def test_another_teacher_cannot_assign(weak_pupil: Pupil) -> None:
    other = Client()
    other.force_login(TeacherFactory())
    response = other.post(f"/teacher/pupils/{weak_pupil.pk}/targeted-practice/")
    assert response.status_code == 404
    assert not AssignedPractice.objects.exists()


def test_a_session_with_targeted_cards_focuses_each_pupil_seat(weak_pupil: Pupil) -> None:
    school_class = weak_pupil.school_class
    steady = PupilFactory(school_class=school_class, display_name="Zoé")
    plant(steady, PupilModel(slip=0.0), games=2, seed=2)
    session = services.session_start(
        school_class=school_class, game="chasse", options={"tables": [7, 9]}, targeted_cards=True
    )
    group = services.group_add(class_session=session)
    for pupil in (weak_pupil, steady):
        session.attendances.create(pupil=pupil, group=group)
    report = services.tables_start(class_session=session)
    assert report.problems == []
    table = report.started[0]
    # Léo sits first; 6 + 7 and 7 + 8 both have a 7, so both stay in this deck.
    assert table.options["focus"] == [
        {"seat": 0, "facts": [[6, 7], [7, 8]], "crossing": False, "strength": 8}
    ]
    # With tables the facts are not in, the fact is dropped and the table still deals.
    session2 = services.session_start(
        school_class=school_class, game="chasse", options={"tables": [2]}, targeted_cards=True
    )
    group2 = services.group_add(class_session=session2)
    session2.attendances.create(pupil=weak_pupil, group=group2)
    session2.attendances.create(pupil=steady, group=group2)
    report2 = services.tables_start(class_session=session2)
    assert report2.problems == [] and "focus" not in report2.started[0].options


def test_the_session_form_offers_targeted_cards(client: Client) -> None:
    teacher = TeacherFactory()
    school_class = SchoolClassFactory(teacher=teacher)
    client.force_login(teacher)
    page = client.get(f"/teacher/classes/{school_class.pk}/sessions/new/")
    assert "Cartes ciblées pour chaque table" in page.content.decode()
