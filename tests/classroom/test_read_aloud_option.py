"""The class option "lire à voix haute automatiquement" (issue 50), through the
real pages: the teacher sets it on the class's edit page (never on the short
creation form), and it reaches the class's tablets (the join pages, the lobby,
the table) and nowhere else: the projector and the teacher's view of a table
load no reading aloud at all. The 🔊 buttons name an element that is on the
page, so what is said is what is shown (the browser tests say it)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from cardgames import services as cg
from classroom.models import SchoolClass
from tests.factories import ClassSessionFactory, PupilFactory

pytestmark = pytest.mark.django_db

SCRIPT = re.compile(r'<script src="[^"]*js/speak\.js"[^>]*data-read-aloud="(1?)"')


def _read_aloud(html: str) -> str | None:
    """``"1"`` (reads by itself), ``""`` (buttons only) or None (no speak.js)."""
    found = SCRIPT.search(html)
    return None if found is None else found.group(1)


def _speak_targets_exist(html: str) -> None:
    """Each 🔊 button reads an element of the page (one source)."""
    targets = re.findall(r'data-speak-for="([^"]+)"', html)
    assert targets
    for target in targets:
        assert f'id="{target}"' in html, target


def _joined(class_session: Any, pupil: Any) -> Client:
    tablet = Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr")
    tablet.post("/join", {"code": class_session.join_code})
    response = tablet.post(f"/join/pupil/{pupil.pk}/", {"pick": ["1", "2"]})
    assert response["Location"] == "/lobby/"
    return tablet


def test_the_option_is_on_the_edit_page_and_saved_but_not_on_the_creation_form() -> None:
    class_session = ClassSessionFactory()
    school_class = class_session.school_class
    teacher = Client(HTTP_ACCEPT_LANGUAGE="fr")
    teacher.force_login(school_class.teacher)
    assert school_class.read_aloud is False  # off by default
    assert 'name="read_aloud"' not in teacher.get("/teacher/classes/new/").content.decode()
    page = teacher.get(f"/teacher/classes/{school_class.pk}/edit/").content.decode()
    assert 'name="read_aloud"' in page and "Lire à voix haute automatiquement" in page
    form = {
        "name": school_class.name,
        "level": school_class.level,
        "language": "",
        "read_aloud": "on",
    }
    response = teacher.post(f"/teacher/classes/{school_class.pk}/edit/", form)
    assert response.status_code == 302
    assert SchoolClass.objects.get(pk=school_class.pk).read_aloud is True
    form.pop("read_aloud")  # an unticked box sends nothing
    teacher.post(f"/teacher/classes/{school_class.pk}/edit/", form)
    assert SchoolClass.objects.get(pk=school_class.pk).read_aloud is False


def test_the_flag_reaches_the_class_s_tablets_and_follows_the_teacher() -> None:
    class_session = ClassSessionFactory(join_code="246813")
    pupil = PupilFactory(
        school_class=class_session.school_class, display_name="Lina", picture_code=[1, 2]
    )
    tablet = Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr")
    code_page = tablet.get("/join").content.decode()
    assert _read_aloud(code_page) == ""  # the buttons, before any class is known
    _speak_targets_exist(code_page)
    tablet = _joined(class_session, pupil)
    lobby = tablet.get("/lobby/").content.decode()
    assert _read_aloud(lobby) == ""  # the class has not asked for it
    _speak_targets_exist(lobby)
    # The teacher turns it on during the lesson: the waiting tablet follows.
    SchoolClass.objects.filter(pk=class_session.school_class_id).update(read_aloud=True)
    assert _read_aloud(tablet.get("/lobby/").content.decode()) == "1"
    assert _read_aloud(tablet.get("/me/").content.decode()) == "1"


def test_the_table_reads_aloud_for_the_seat_and_never_for_the_teacher_or_projector() -> None:
    class_session = ClassSessionFactory(join_code="975312", school_class__read_aloud=True)
    pupil = PupilFactory(
        school_class=class_session.school_class, display_name="Lina", picture_code=[1, 2]
    )
    tablet = _joined(class_session, pupil)
    table = cg.table_create(
        game="chasse",
        seats=[
            cg.SeatSpec(player_key=pupil.player_key, display_name="Lina"),
            cg.bot_seat(level="easy", number=1),
        ],
        group_key=class_session.group_key,
        number=1,
    )
    cg.table_start(table=table)
    seat_page = tablet.get(f"/table/{table.pk}/").content.decode()
    assert _read_aloud(seat_page) == "1"
    assert 'data-speak-for="cg-whose" data-speak-auto' in seat_page
    _speak_targets_exist(seat_page)
    teacher = Client(HTTP_ACCEPT_LANGUAGE="fr")
    teacher.force_login(class_session.school_class.teacher)
    for url in (
        f"/table/{table.pk}/",
        f"/table/{table.pk}/projector/",
        f"/teacher/sessions/{class_session.pk}/projector/",
    ):
        html = teacher.get(url).content.decode()
        assert _read_aloud(html) is None and "data-speak-auto" not in html, url
