"""Issue 48: a teacher's first lesson in under 3 minutes, robots by default.

Each test names the problem a new teacher met, and goes through the pages
(the views) the way the teacher's browser does."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from cardgames.models import Table
from classroom.models import ClassSession, Pupil, SchoolClass, SessionGroup
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


def _joined(class_session: ClassSession, n: int) -> None:
    for i in range(n):
        AttendanceFactory(class_session=class_session, pupil__display_name=f"P{i}")


def _board(client: Client, class_session: ClassSession) -> str:
    return client.get(f"/teacher/sessions/{class_session.pk}/board/").content.decode()


def _seats(class_session: ClassSession) -> list[tuple[int, int]]:
    """(seats, robots) of each started table, in table order."""
    return [
        (t.seats.count(), t.seats.filter(is_bot=True).count())
        for t in Table.objects.filter(group_key=class_session.group_key).order_by("number")
    ]


# --------------------------------------------------------------------------- robots by default


def test_a_pupil_alone_plays_with_a_robot_without_choosing_a_level(
    client: Client, teacher: Any
) -> None:
    """Item 4: a pupil alone was not topped up with robots, and the teacher
    read "Lancer 0 tables" until they found a robot menu labelled 🤖."""
    class_session = ClassSessionFactory(school_class__teacher=teacher)
    _joined(class_session, 1)
    client.post(
        f"/teacher/sessions/{class_session.pk}/groups/", {"size": "2"}, HTTP_HX_REQUEST="true"
    )
    assert "Lancer 1 table" in _board(client, class_session)
    client.post(f"/teacher/sessions/{class_session.pk}/start/")
    assert _seats(class_session) == [(2, 1)]


def test_25_pupils_by_4_make_7_full_tables_the_short_ones_with_a_robot(
    client: Client, teacher: Any
) -> None:
    """25 pupils by 4 made three tables of 3 reading "3 joueurs · sans robot ·
    jusqu'à 4", as if the 4th seat would be filled; it was not."""
    class_session = ClassSessionFactory(school_class__teacher=teacher)
    _joined(class_session, 25)
    board = client.post(
        f"/teacher/sessions/{class_session.pk}/groups/", {"size": "4"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Lancer 7 tables" in board
    assert board.count("1 robot<") == 3
    assert "jusqu&#x27;à" not in board and "jusqu'à" not in board
    client.post(f"/teacher/sessions/{class_session.pk}/start/")
    seats = _seats(class_session)
    assert len(seats) == 7 and all(n == 4 for n, _robots in seats)
    assert sum(robots for _n, robots in seats) == 3


def test_one_robot_control_sets_every_table_and_the_next_groupings(
    client: Client, teacher: Any
) -> None:
    """The robots' level was a menu per table (7 choices for 7 tables); it is
    now chosen once for the session, "Aucun robot" included, and kept when
    the teacher groups again."""
    class_session = ClassSessionFactory(school_class__teacher=teacher)
    _joined(class_session, 5)
    client.post(
        f"/teacher/sessions/{class_session.pk}/groups/", {"size": "3"}, HTTP_HX_REQUEST="true"
    )
    board = client.post(
        f"/teacher/sessions/{class_session.pk}/robots/", {"robots": "hard"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert re.search(r'<option value="hard" selected>', board)
    assert set(SessionGroup.objects.values_list("bot_level", flat=True)) == {"hard"}
    client.post(
        f"/teacher/sessions/{class_session.pk}/groups/", {"size": "2"}, HTTP_HX_REQUEST="true"
    )
    assert set(SessionGroup.objects.values_list("bot_level", flat=True)) == {"hard"}
    # "Aucun robot", sent with the size before any table exists, is kept too.
    client.post(
        f"/teacher/sessions/{class_session.pk}/groups/",
        {"size": "3", "robots": ""},
        HTTP_HX_REQUEST="true",
    )
    assert set(SessionGroup.objects.values_list("bot_level", flat=True)) == {""}
    assert "Lancer 2 tables" in _board(client, class_session)
    refused = client.post(f"/teacher/sessions/{class_session.pk}/robots/", {"robots": "god"})
    assert refused.status_code == 302
    assert set(SessionGroup.objects.values_list("bot_level", flat=True)) == {""}


def test_the_per_table_robot_menu_is_labelled_in_words(client: Client, teacher: Any) -> None:
    """The only visible label of a table's robot menu was 🤖."""
    class_session = ClassSessionFactory(school_class__teacher=teacher)
    _joined(class_session, 3)
    client.post(
        f"/teacher/sessions/{class_session.pk}/groups/", {"size": "3"}, HTTP_HX_REQUEST="true"
    )
    board = _board(client, class_session)
    assert '<span aria-hidden="true">🤖</span> Robots\n' in board
    assert "Places" in board
    assert "Robots pour compléter les tables" in board


def test_group_by_4_and_start_is_one_click(client: Client, teacher: Any) -> None:
    """ "Lancer 7 tables" sat 2,080 px down the board, after a grouping click."""
    class_session = ClassSessionFactory(school_class__teacher=teacher)
    _joined(class_session, 9)
    board = _board(client, class_session)
    assert "Grouper par 4 et lancer" in board
    response = client.post(
        f"/teacher/sessions/{class_session.pk}/groups/", {"quick": "4"}, HTTP_HX_REQUEST="true"
    )
    assert response.headers["HX-Redirect"] == f"/teacher/sessions/{class_session.pk}/"
    assert _seats(class_session) == [(3, 0), (3, 0), (3, 0)]
    page = client.get(f"/teacher/sessions/{class_session.pk}/").content.decode()
    assert "3 tables lancées" in page


# --------------------------------------------------------------------------- opening a session


def test_a_session_opens_in_one_click_from_the_printed_cards(client: Client, teacher: Any) -> None:
    """After printing the cards nothing led on to a session, and the session
    form was 2,386 px of settings with the button three screens down."""
    school_class = SchoolClassFactory(teacher=teacher)
    cards = client.get(f"/teacher/classes/{school_class.pk}/cards/").content.decode()
    assert 'name="defaults"' in cards and "Ouvrir une séance" in cards
    response = client.post(f"/teacher/classes/{school_class.pk}/sessions/new/", {"defaults": "1"})
    class_session = ClassSession.objects.get(school_class=school_class, ended_at__isnull=True)
    assert response.headers["Location"] == f"/teacher/sessions/{class_session.pk}/"
    assert class_session.game == "chasse" and class_session.options["target"] == 100


def test_the_session_form_folds_its_settings_under_the_button(client: Client, teacher: Any) -> None:
    """Ten settings came before the button and nothing said the defaults
    were fine."""
    school_class = SchoolClassFactory(teacher=teacher)
    html = client.get(f"/teacher/classes/{school_class.pk}/sessions/new/").content.decode()
    button = html.index("Ouvrir la séance et afficher le code")
    fold = html.index("<summary>Réglages (facultatif)</summary>")
    assert button < fold < html.index('name="tokens"')
    assert "conviennent pour commencer" in html
    assert '<details class="options-fold">' in html  # folded


def test_a_refused_setting_opens_the_fold(client: Client, teacher: Any) -> None:
    school_class = SchoolClassFactory(teacher=teacher)
    html = client.post(
        f"/teacher/classes/{school_class.pk}/sessions/new/", {"game": "chasse", "tokens": "99"}
    ).content.decode()
    assert '<details class="options-fold" open>' in html


# --------------------------------------------------------------------------- the first class


def test_the_first_class_is_one_form_with_the_names(client: Client, teacher: Any) -> None:
    """The first class form had 6 fields (language, practice and its hours)
    and the names came on another page."""
    html = client.get("/teacher/classes/new/").content.decode()
    assert 'name="names"' in html
    for absent in ("language", "practice_allowed", "practice_from", "practice_until"):
        assert f'id="id_{absent}' not in html
    response = client.post(
        "/teacher/classes/new/", {"name": "CE1 Bleus", "level": "CE1", "names": "Léo\nInès\n\nMaël"}
    )
    school_class = SchoolClass.objects.get(teacher=teacher)
    assert response.headers["Location"] == f"/teacher/classes/{school_class.pk}/cards/"
    assert sorted(
        Pupil.objects.filter(school_class=school_class).values_list("display_name", flat=True)
    ) == [
        "Inès",
        "Léo",
        "Maël",
    ]
    assert school_class.language == "" and not school_class.practice_allowed
    edit = client.get(f"/teacher/classes/{school_class.pk}/edit/").content.decode()
    assert 'id="id_language_0"' in edit and 'name="practice_allowed"' in edit


def test_a_refused_name_keeps_the_whole_class_form(client: Client, teacher: Any) -> None:
    html = client.post(
        "/teacher/classes/new/", {"name": "CE1", "level": "CE1", "names": "Léo\n\u202eabc"}
    ).content.decode()
    assert not SchoolClass.objects.filter(teacher=teacher).exists()
    assert "ligne 2" in html and "CE1" in html


# --------------------------------------------------------------------------- onboarding


def test_the_home_page_leads_a_new_teacher_to_sign_up(client: Client) -> None:
    """The teacher tile led to a log-in form; sign-up was a small link there."""
    html = client.get("/").content.decode()
    assert 'href="/teacher/signup/"' in html and "Créer mon compte (gratuit)" in html
    assert 'href="/teacher/login/"' in html


def test_the_sign_up_mail_can_be_sent_again_within_the_mail_budget(
    client: Client, settings: Any
) -> None:
    """ "Regardez vos e-mails" said nothing of re-sending. The draft's notice
    has the button, counted by the same per-address budget."""
    settings.ACCOUNT_MAILS_PER_ADDRESS_AND_IP_PER_HOUR = 2
    page = client.post(
        "/teacher/signup/", {"email": "nouvelle@ecole.example", "first_name": "Anne"}, follow=True
    ).content.decode()
    assert "spam" in page and "Renvoyer l'e-mail" in page
    assert "nouvelle@ecole.example" in page
    for _again in range(3):
        client.post("/teacher/signup/resend/")
    assert len(mail.outbox) == 2
