"""No dead ends for the teacher: from a table to the live view, from the live
view to the table and to the session's page (its code, late pupils)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from cardgames.models import Table
from classroom import services
from tests.factories import AttendanceFactory, ClassSessionFactory, TeacherFactory

pytestmark = pytest.mark.django_db


def _lesson_table() -> tuple[Client, Table, int]:
    class_session = ClassSessionFactory()
    for _ in range(2):
        AttendanceFactory(class_session=class_session)
    services.groups_make(class_session=class_session, size=2)
    services.tables_start(class_session=class_session)
    table = Table.objects.get(group_key=class_session.group_key)
    teacher = Client()
    teacher.force_login(class_session.school_class.teacher)
    return teacher, table, class_session.pk


def test_a_teacher_at_a_table_has_a_way_back_to_the_live_view() -> None:
    teacher, table, session_id = _lesson_table()
    page = teacher.get(reverse("cardgames:table", args=[table.pk])).content.decode()
    back = reverse("classroom:table_monitor", args=[table.pk])
    assert f'href="{back}"' in page
    followed = teacher.get(back)
    assert followed.status_code == 302
    assert followed["Location"] == reverse("classroom:monitor", args=[session_id])


def test_the_live_view_leads_to_each_table_and_to_the_sessions_page() -> None:
    teacher, table, session_id = _lesson_table()
    html = teacher.get(reverse("classroom:monitor", args=[session_id])).content.decode()
    assert f'href="{reverse("cardgames:table", args=[table.pk])}"' in html
    assert f'href="{reverse("classroom:session_detail", args=[session_id])}"' in html


def test_another_teacher_finds_no_way_to_someone_elses_table() -> None:
    _teacher, table, _session_id = _lesson_table()
    stranger = Client()
    stranger.force_login(TeacherFactory())
    assert stranger.get(reverse("classroom:table_monitor", args=[table.pk])).status_code == 404
    assert stranger.get(reverse("classroom:table_monitor", args=[987654])).status_code == 404


def test_once_every_table_plays_the_session_page_stops_offering_to_group() -> None:
    teacher, _table, session_id = _lesson_table()
    html = teacher.get(reverse("classroom:session_detail", args=[session_id])).content.decode()
    assert "Toutes les tables jouent" in html
    assert "Faire des groupes de" not in html and "Lancer 0 table" not in html
    assert "Table vide" in html  # a place for a late pupil
