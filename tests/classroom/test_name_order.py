"""Names in the reader's alphabetical order, on every list a person reads.

Sorting by code points put every accented first name after Z: "Éloïse" after
"Zoé", "Léa" after "Lucas", "Maëlle" after "Mathis" — on the class list, the
cards, the board and the tablet's name grid where a 6-year-old looks for
their name (issue 48)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from classroom import services
from classroom.names import name_sort_key
from tests.factories import AttendanceFactory, ClassSessionFactory, PupilFactory

pytestmark = pytest.mark.django_db

NAMES = ["Zoé", "Mathis", "Maëlle", "Lucas", "Léa", "Éloïse", "Emma", "Œnone", "Oscar"]
EXPECTED = ["Éloïse", "Emma", "Léa", "Lucas", "Maëlle", "Mathis", "Œnone", "Oscar", "Zoé"]


def _order(html: str) -> list[str]:
    """The names of ``NAMES`` in the order the page shows them."""
    found = sorted((html.index(name), name) for name in NAMES if name in html)
    return [name for _at, name in found]


def test_the_sort_key_files_accents_with_their_letter() -> None:
    assert sorted(NAMES, key=name_sort_key) == EXPECTED
    assert sorted(["Ömer", "Otto", "Olaf"], key=name_sort_key) == ["Olaf", "Ömer", "Otto"]


def test_every_list_of_names_is_in_the_readers_order() -> None:
    class_session = ClassSessionFactory(join_code="246810")
    school_class = class_session.school_class
    for name in NAMES:
        pupil = PupilFactory(school_class=school_class, display_name=name)
        AttendanceFactory(class_session=class_session, pupil=pupil)
    teacher = Client()
    teacher.force_login(school_class.teacher)
    pages = {
        "class list": f"/teacher/classes/{school_class.pk}/",
        "cards": f"/teacher/classes/{school_class.pk}/cards/",
        "board": f"/teacher/sessions/{class_session.pk}/",
        "class report": f"/teacher/classes/{school_class.pk}/report/",
    }
    for what, url in pages.items():
        html = teacher.get(url).content.decode()
        html = re.sub(r"<title>.*?</title>", "", html, flags=re.S)
        assert _order(html) == EXPECTED, what
    tablet = Client()
    tablet.post("/join", {"code": "246810"})
    grid = tablet.get("/join/names/").content.decode()
    assert _order(grid) == EXPECTED, "the tablet's name grid"


def test_a_table_on_the_board_lists_its_pupils_in_the_readers_order() -> None:
    class_session = ClassSessionFactory()
    six = ["Zoé", "Mathis", "Maëlle", "Léa", "Éloïse", "Emma"]
    for name in six:
        AttendanceFactory(
            class_session=class_session,
            pupil=PupilFactory(school_class=class_session.school_class, display_name=name),
        )
    services.groups_make(class_session=class_session, size=6)
    teacher = Client()
    teacher.force_login(class_session.school_class.teacher)
    board = teacher.get(f"/teacher/sessions/{class_session.pk}/").content.decode()
    assert _order(board) == sorted(six, key=name_sort_key)
