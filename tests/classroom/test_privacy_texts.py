"""The parents are told every kind of record kept about their child.

The letter said "le prénom, un avatar et les calculs joués, rien d'autre"
while social-game records, score sums and assigned practice were kept too."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from classroom.privacy import kept_records, models_told
from classroom.selectors.export import SECTIONS
from classroom.services.parents import parent_link_create
from tests.factories import PupilFactory


def test_every_model_the_export_covers_is_told_to_the_parents() -> None:
    """The export's sections are themselves checked against every model that
    names a pupil (tests/classroom/test_export_complete.py)."""
    missing = set(SECTIONS) - models_told()
    assert not missing, f"kept but not told to the parents: {sorted(m.__name__ for m in missing)}"


@pytest.mark.django_db
def test_the_letter_and_the_parent_page_list_every_kind_of_record() -> None:
    child = PupilFactory(display_name="Lina")
    teacher = Client()
    teacher.force_login(child.school_class.teacher)
    letter = teacher.post(
        f"/teacher/pupils/{child.pk}/parent-links/new/", {"expires_in_days": "30"}
    )
    assert letter.status_code == 302
    letter_html = teacher.get(letter["Location"]).content.decode()
    assert "Lina" in letter_html
    _link, token = parent_link_create(pupil=child, expires_in_days=30)
    parent = Client()
    parent.get(reverse("classroom:parent_open", args=[token]))
    page = parent.get(reverse("classroom:parent_page")).content.decode()
    for html in (page, letter_html):
        assert "rien d'autre" not in html and "rien d&#x27;autre" not in html
        for item in kept_records():
            assert item.replace("'", "&#x27;") in html


@pytest.mark.django_db
def test_solo_practice_is_not_listed_among_the_class_lessons() -> None:
    """A pupil's solo practice showed under "Séances passées" as a lesson whose
    page said "Son code ne fonctionne plus"."""
    from django.utils import timezone

    from classroom.models import ClassSession

    child = PupilFactory(display_name="Lina")
    school_class = child.school_class
    lesson = ClassSession.objects.create(school_class=school_class, ended_at=timezone.now())
    practice = ClassSession.objects.create(
        school_class=school_class, practice=True, ended_at=timezone.now()
    )
    teacher = Client()
    teacher.force_login(school_class.teacher)
    html = teacher.get(f"/teacher/classes/{school_class.pk}/").content.decode()
    assert f"/teacher/sessions/{lesson.pk}/" in html
    assert f"/teacher/sessions/{practice.pk}/" not in html
