"""A class's language reaches its tablets (pages and sockets) and its parent
letters; the teacher's live pages speak the teacher's browser language; a
parent may switch their page's language with a link, remembered in a cookie."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse

from classroom.services.parents import parent_link_create
from tests.factories import ClassSessionFactory, PupilFactory


def _socket(path: str, client: Client, accept: str = "fr") -> WebsocketCommunicator:
    from config.asgi import application

    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"accept-language", accept.encode()),
    ]
    cookie = client.cookies.get("sessionid")
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie.value}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


def _german_class() -> tuple[Any, Any, Any]:
    class_session = ClassSessionFactory(join_code="135790")
    school_class = class_session.school_class
    school_class.language = "de"
    school_class.save()
    pupil = PupilFactory(school_class=school_class, display_name="Adam", picture_code=[1, 2])
    teacher = Client(HTTP_ACCEPT_LANGUAGE="en")
    teacher.force_login(school_class.teacher)
    return class_session, pupil, teacher


def _join(pupil: Any) -> Client:
    """A French tablet (its browser says so) joining a German class."""
    tablet = Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr")
    tablet.post("/join", {"code": "135790"})
    names = tablet.get("/join/names/")
    assert names["Content-Language"] == "de"
    response = tablet.post(f"/join/pupil/{pupil.pk}/", {"pick": ["1", "2"]})
    assert response["Location"] == "/lobby/"
    return tablet


@pytest.mark.django_db(transaction=True)
async def test_a_german_class_s_tablet_speaks_german_on_pages_and_sockets() -> None:
    class_session, pupil, teacher = await database_sync_to_async(_german_class)()
    # The teacher's projector and monitor follow the teacher's own browser (English).
    projector = _socket(f"/ws/projector/{class_session.pk}/", teacher, accept="en-GB,en")
    assert (await projector.connect())[0]
    html = await projector.receive_from(timeout=5)
    assert "Waiting for the first" in html and "On attend" not in html
    await projector.disconnect()
    monitor = _socket(f"/ws/teacher/sessions/{class_session.pk}/monitor/", teacher, accept="de-DE")
    assert (await monitor.connect())[0]
    html = await monitor.receive_from(timeout=5)
    assert "Séance" not in html and "séance" not in html
    await monitor.disconnect()
    tablet = await database_sync_to_async(_join)(pupil)
    lobby = await database_sync_to_async(tablet.get)("/lobby/")
    assert lobby["Content-Language"] == "de"
    socket = _socket("/ws/lobby/", tablet, accept="fr-FR,fr")
    assert (await socket.connect())[0]
    html = await socket.receive_from(timeout=5)
    assert "Warte auf deinen Tisch" in html and "Attends ta table" not in html
    await socket.disconnect()



@pytest.mark.django_db
def test_a_class_without_a_language_leaves_each_tablet_in_its_own() -> None:
    ClassSessionFactory(join_code="246802")
    tablet = Client(HTTP_ACCEPT_LANGUAGE="en")
    tablet.post("/join", {"code": "246802"})
    assert tablet.get("/join/names/")["Content-Language"] == "en"


@pytest.mark.django_db
def test_the_class_form_sets_the_language() -> None:
    class_session = ClassSessionFactory()
    school_class = class_session.school_class
    teacher = Client()
    teacher.force_login(school_class.teacher)
    url = reverse("classroom:class_edit", args=[school_class.pk])
    assert 'name="language"' in teacher.get(url).content.decode()
    teacher.post(url, {"name": school_class.name, "level": school_class.level, "language": "en"})
    school_class.refresh_from_db()
    assert school_class.language == "en"


@pytest.mark.django_db
def test_parent_letter_and_page_speak_the_class_language_until_the_parent_switches() -> None:
    _session, pupil, teacher = _german_class()
    link, token = parent_link_create(pupil=pupil, expires_in_days=30)
    # The teacher's browser is English; the letter goes home in German.
    letter = teacher.get(reverse("classroom:parent_letter", args=[link.pk]))
    assert letter["Content-Language"] == "de"
    parent = Client(HTTP_ACCEPT_LANGUAGE="fr")
    parent.get(reverse("classroom:parent_open", args=[token]))
    page = parent.get(reverse("classroom:parent_page"))
    text = page.content.decode()
    assert page["Content-Language"] == "de"
    assert "Die Fortschritte von Adam" in text
    # The language links, each in its own language.
    for code, name in (("fr", "Français"), ("de", "Deutsch"), ("en", "English")):
        assert f'href="?lang={code}" lang="{code}"' in text and name in text
    switched = parent.get(reverse("classroom:parent_page") + "?lang=en")
    assert switched.status_code == 302 and switched["Location"] == reverse("classroom:parent_page")
    assert parent.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    page = parent.get(reverse("classroom:parent_page"))
    assert page["Content-Language"] == "en" and "Adam's progress" in page.content.decode()
    # Nonsense is ignored, the choice stays.
    parent.get(reverse("classroom:parent_page") + "?lang=xx")
    assert parent.get(reverse("classroom:parent_page"))["Content-Language"] == "en"
