"""The class's big screen at the end of a lesson.

Once the teacher ended the session, the projector's next poll (and any
reload) answered 404: under ``make run`` Django's debug page listed every URL
of the site on the class's screen. It now says "Séance terminée" with a
thank-you, stops asking, and shows nothing private."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from classroom import services
from tests.factories import (
    AttendanceFactory,
    ClassSessionFactory,
    SchoolClassFactory,
    TeacherFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def teacher(client: Client) -> Any:
    user = TeacherFactory()
    client.force_login(user)
    return user


def test_the_projector_says_the_lesson_ended_instead_of_an_error(
    client: Client, teacher: Any
) -> None:
    class_session = ClassSessionFactory(school_class=SchoolClassFactory(teacher=teacher))
    joined = [
        AttendanceFactory(class_session=class_session, pupil__display_name=name).pupil
        for name in ("Maximilienne", "Anne-Charlotte", "Léo", "Inès")
    ]
    services.groups_make(class_session=class_session, size=2)
    services.tables_start(class_session=class_session)
    url = f"/teacher/sessions/{class_session.pk}/projector/"
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 200
    client.post(f"/teacher/sessions/{class_session.pk}/end/")

    for polled in (client.get(url, HTTP_HX_REQUEST="true"), client.get(url)):
        assert polled.status_code == 200
        html = polled.content.decode()
        assert "Séance terminée" in html and "Merci" in html
        assert "hx-trigger" not in html, "an ended lesson's screen stops asking"
        assert "mosaic-table" not in html and "projector-code" not in html
        for pupil in joined:
            assert pupil.display_name not in html
    # Still the same 404 for another teacher's ended session.
    other = ClassSessionFactory()
    services.session_end(class_session=other)
    assert client.get(f"/teacher/sessions/{other.pk}/projector/").status_code == 404
