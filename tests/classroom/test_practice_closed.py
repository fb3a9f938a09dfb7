"""Giving a targeted practice while solo practice is closed (issue 47, part 4).

Bug: a new class has solo practice closed, yet the pupil page let the teacher
give a targeted practice and said "il l'attend sur son écran d'entraînement":
the child could not reach that screen. Now the page says practice is closed,
the teacher can open it (hours optional) in the same step, or the practice is
kept and the teacher is told it goes to the next lesson's targeted table.
"""

from __future__ import annotations

from datetime import time

import pytest
from django.test import Client

from classroom.models import AssignedPractice, Pupil
from tests.factories import PupilFactory, SchoolClassFactory

from .pupil_model import PupilModel
from .test_targeted_practice import WEAK, plant

pytestmark = pytest.mark.django_db

PROMISE = "il l&#x27;attend sur son écran d&#x27;entraînement"


@pytest.fixture
def closed_pupil() -> Pupil:
    school_class = SchoolClassFactory(practice_allowed=False)
    pupil = PupilFactory(school_class=school_class, display_name="Léo", picture_code=[2, 5])
    plant(pupil, PupilModel(weak_facts=WEAK, slip=0.0))
    return pupil


def _teacher(pupil: Pupil) -> Client:
    client = Client()
    client.force_login(pupil.school_class.teacher)
    return client


def _report(pupil: Pupil) -> str:
    return f"/teacher/pupils/{pupil.pk}/report/"


def _give(pupil: Pupil, teacher: Client, data: dict[str, str] | None = None) -> str:
    response = teacher.post(
        f"/teacher/pupils/{pupil.pk}/targeted-practice/", data or {}, follow=True
    )
    assert response.status_code == 200
    return response.content.decode()


def test_the_pupil_page_says_practice_is_closed_and_offers_to_open_it(closed_pupil: Pupil) -> None:
    page = _teacher(closed_pupil).get(_report(closed_pupil)).content.decode()
    assert "L'entraînement libre est fermé pour cette classe" in page
    assert 'name="open_practice"' in page and 'name="practice_from"' in page


def test_given_while_closed_it_is_kept_for_the_lesson_and_promises_nothing(
    closed_pupil: Pupil,
) -> None:
    page = _give(closed_pupil, _teacher(closed_pupil))
    assert PROMISE not in page
    assert "l&#x27;entraînement libre est fermé" in page
    assert "prochaine leçon avec « cartes ciblées pour chaque table »" in page
    assert AssignedPractice.objects.filter(pupil=closed_pupil, done_at__isnull=True).exists()
    closed_pupil.school_class.refresh_from_db()
    assert not closed_pupil.school_class.practice_allowed


def test_the_teacher_opens_practice_with_hours_in_the_same_step(closed_pupil: Pupil) -> None:
    page = _give(
        closed_pupil,
        _teacher(closed_pupil),
        {"open_practice": "1", "practice_from": "16:30", "practice_until": "18:00"},
    )
    school_class = closed_pupil.school_class
    school_class.refresh_from_db()
    assert school_class.practice_allowed
    assert (school_class.practice_from, school_class.practice_until) == (time(16, 30), time(18, 0))
    assert "aux heures d&#x27;entraînement de la classe (de 16:30 à 18:00)" in page
    assert "L'entraînement libre est fermé" not in page  # the form's note is gone
    assert AssignedPractice.objects.filter(pupil=closed_pupil).count() == 1


def test_opening_without_hours_keeps_the_usual_promise(closed_pupil: Pupil) -> None:
    page = _give(closed_pupil, _teacher(closed_pupil), {"open_practice": "1"})
    closed_pupil.school_class.refresh_from_db()
    assert closed_pupil.school_class.practice_allowed
    assert PROMISE in page


def test_a_bad_hour_changes_nothing(closed_pupil: Pupil) -> None:
    page = _give(
        closed_pupil, _teacher(closed_pupil), {"open_practice": "1", "practice_from": "25h"}
    )
    assert "Heure non comprise" in page
    closed_pupil.school_class.refresh_from_db()
    assert not closed_pupil.school_class.practice_allowed
    assert not AssignedPractice.objects.filter(pupil=closed_pupil).exists()
