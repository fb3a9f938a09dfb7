"""Solo practice can be found (issue 17): linked from the home and join pages,
its entry page always helps (200, never a 404), and the teacher switches it
on or off in the class form."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import PupilFactory, SchoolClassFactory

pytestmark = pytest.mark.django_db


def test_home_and_join_pages_lead_to_a_helpful_practice_page() -> None:
    client = Client()
    for page in ("/", "/join"):
        assert 'href="/practice/"' in client.get(page).content.decode(), page
    entry = client.get("/practice/")
    assert entry.status_code == 200
    html = entry.content.decode()
    assert "S'entraîner tout seul" in html and "QR code" in html


def test_a_tablet_that_met_its_class_is_offered_that_class() -> None:
    school_class = SchoolClassFactory(name="CE1 Les Chats")
    PupilFactory(school_class=school_class)
    client = Client()
    assert client.get(f"/practice/{school_class.link_token}/").status_code == 200
    html = client.get("/practice/").content.decode()
    assert f'href="/practice/{school_class.link_token}/"' in html
    assert "CE1 Les Chats" in html
    # A forged cookie is ignored: the page still helps, and names no class.
    stranger = Client()
    stranger.cookies["practice_class"] = school_class.link_token
    assert "CE1 Les Chats" not in stranger.get("/practice/").content.decode()


def test_the_teacher_switches_practice_off_and_on_in_the_class_form() -> None:
    school_class = SchoolClassFactory(name="CE1 Les Chats")
    tablet = Client()
    tablet.get(f"/practice/{school_class.link_token}/")
    teacher = Client()
    teacher.force_login(school_class.teacher)
    url = f"/teacher/classes/{school_class.pk}/edit/"
    form = teacher.get(url).content.decode()
    assert 'name="practice_allowed"' in form and "Entraînement libre" in form
    teacher.post(url, {"name": school_class.name, "level": school_class.level})
    school_class.refresh_from_db()
    assert not school_class.practice_allowed
    assert tablet.get(f"/practice/{school_class.link_token}/").status_code == 404
    closed = tablet.get("/practice/")
    assert closed.status_code == 200 and "fermé" in closed.content.decode()
    teacher.post(
        url, {"name": school_class.name, "level": school_class.level, "practice_allowed": "on"}
    )
    school_class.refresh_from_db()
    assert school_class.practice_allowed
    assert tablet.get(f"/practice/{school_class.link_token}/").status_code == 200
