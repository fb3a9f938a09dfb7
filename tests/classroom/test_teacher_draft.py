"""Issue 48: a new teacher goes on before confirming the address, and nothing a
pupil or a parent sees opens until it is confirmed.

Every test goes through the pages a browser, a tablet or a phone opens."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from classroom.models import ClassSession, Pupil, SchoolClass
from classroom.services.parents import parent_link_create
from tests.factories import PASSWORD, SchoolClassFactory, TeacherFactory

pytestmark = pytest.mark.django_db

ADDRESS = "nouvelle@ecole.example"
LINK = re.compile(r"http://testserver(/teacher/signup/activate/\S+/)")


def _links() -> list[str]:
    return [m.group(1) for message in mail.outbox if (m := LINK.search(str(message.body)))]


def _signed_up(address: str = ADDRESS, *, ip: str = "10.0.0.1") -> Client:
    browser = Client(REMOTE_ADDR=ip)
    response = browser.post("/teacher/signup/", {"email": address, "first_name": "Anne"})
    assert response["Location"] == "/teacher/"
    return browser


def _lesson(browser: Client) -> tuple[SchoolClass, ClassSession]:
    """The first class (one form) and a session opened with the defaults."""
    browser.post("/teacher/classes/new/", {"name": "CP", "level": "CP", "names": "Léo\nInès"})
    school_class = SchoolClass.objects.get(name="CP")
    browser.post(f"/teacher/classes/{school_class.pk}/sessions/new/", {"defaults": "1"})
    return school_class, ClassSession.objects.get(school_class=school_class, ended_at=None)


def _tablet_types(code: str) -> str:
    """Where a tablet lands after typing ``code``: the names, or back to the keypad."""
    tablet = Client(REMOTE_ADDR="10.0.0.9")
    tablet.get("/join")
    tablet.post("/join", {"code": code})
    names = tablet.get("/join/names/")
    return names["Location"] if names.status_code == 302 else "/join/names/"


def test_a_new_teacher_prepares_the_lesson_and_pupils_get_in_once_confirmed() -> None:
    """Before: the sign-up page said "look at your e-mails" and the teacher
    could do nothing until the mail came. Now the class and the session are
    ready meanwhile; the code, the class link and a parent link open nothing
    until the address is proven, then everything prepared works."""
    teacher = _signed_up()
    school_class, lesson = _lesson(teacher)
    assert [p.display_name for p in Pupil.objects.filter(school_class=school_class)] != []
    session_page = teacher.get(f"/teacher/sessions/{lesson.pk}/").content.decode()
    assert "Confirmez votre adresse e-mail" in session_page
    assert lesson.join_code not in session_page  # a code that opens nothing is not shown
    projector = teacher.get(f"/teacher/sessions/{lesson.pk}/projector/").content.decode()
    assert "dès que l'adresse e-mail" in projector and lesson.join_code not in projector

    # A tablet typing the code, the printed class link, a parent's link: nothing.
    assert _tablet_types(lesson.join_code) == "/join"
    assert Client().get(f"/c/{school_class.link_token}").status_code == 404
    pupil = Pupil.objects.filter(school_class=school_class).first()
    assert pupil is not None
    _link, token = parent_link_create(pupil=pupil, expires_in_days=None)
    assert Client().get(f"/p/{token}").status_code == 404

    # The teacher opens the mailed link in the same browser and chooses a password.
    (link,) = _links()
    done = teacher.post(link, {"first_name": "Anne", "password1": PASSWORD, "password2": PASSWORD})
    assert done["Location"] == f"/teacher/sessions/{lesson.pk}/"  # back to the lesson
    session_page = teacher.get(done["Location"]).content.decode()
    assert "Adresse confirmée" in session_page and lesson.join_code in session_page
    assert "Confirmez votre adresse" not in session_page

    # Everything prepared now works, without a new session or new cards.
    assert _tablet_types(lesson.join_code) == "/join/names/"
    assert Client().get(f"/c/{school_class.link_token}").status_code == 302
    assert Client().get(f"/p/{token}").status_code == 302
    assert lesson.join_code in teacher.get(f"/teacher/sessions/{lesson.pk}/projector/").content.decode()


def test_the_mail_can_be_sent_again_from_the_draft_and_its_link_works() -> None:
    teacher = _signed_up()
    page = teacher.post("/teacher/signup/resend/", follow=True).content.decode()
    assert "Un nouvel e-mail est en route" in page and "spam" in page
    assert len(_links()) == 2
    done = Client().post(_links()[-1], {"password1": PASSWORD, "password2": PASSWORD})
    assert done["Location"] == "/teacher/"


def test_resending_is_counted_by_the_address_budget(settings: pytest.FixtureRequest) -> None:
    settings.ACCOUNT_MAILS_PER_ADDRESS_AND_IP_PER_HOUR = 2  # type: ignore[attr-defined]
    teacher = _signed_up()
    for _again in range(4):
        teacher.post("/teacher/signup/resend/")
    assert len(mail.outbox) == 2


def test_a_sign_up_with_an_open_accounts_address_gets_an_empty_draft() -> None:
    """A stranger signing up with a teacher's address gets the same answer as
    for a new address (no page tells an account exists), an empty draft of
    their own, and no link: the owner's mail is a note, and the owner's
    account, classes and password are untouched."""
    owner = TeacherFactory(email=ADDRESS, first_name="Anne")
    SchoolClassFactory(teacher=owner, name="CM1 des hiboux")
    stranger = _signed_up()
    page = stranger.get("/teacher/").content.decode()
    assert "Confirmez votre adresse e-mail" in page and "CM1 des hiboux" not in page
    assert _links() == [] and "activate" not in mail.outbox[0].body
    stranger.post("/teacher/signup/resend/")
    assert _links() == []
    owner.refresh_from_db()
    assert owner.is_active and owner.check_password(PASSWORD) and owner.first_name == "Anne"


def test_a_draft_cannot_be_opened_with_a_password_or_a_reset() -> None:
    """A draft has no password: the log-in form and the reset mail never
    reach it, so its only way in is the browser that made it."""
    _signed_up()
    draft = get_user_model().objects.get(email=ADDRESS)
    for username in (ADDRESS, draft.username):
        login = Client().post("/teacher/login/", {"username": username, "password": ""})
        assert login.status_code == 200
    Client(REMOTE_ADDR="10.0.0.2").post("/teacher/password-reset/", {"email": ADDRESS})
    assert all("password-reset" not in str(m.body) for m in mail.outbox)


def test_a_newer_sign_up_signs_the_older_draft_out_and_keeps_them_apart() -> None:
    """Two sign-ups for one address (maybe a stranger's first): each browser
    sees only its own draft, the older one is signed out, and the owner who
    opens the newest link ends with one account holding only their class."""
    stranger = _signed_up(ip="10.0.0.66")
    stranger.post("/teacher/classes/new/", {"name": "Piège", "level": "CP", "names": "Zoé"})
    owner = _signed_up(ip="10.0.0.1")
    assert stranger.get("/teacher/").status_code == 302
    assert "Piège" not in owner.get("/teacher/").content.decode()
    owner.post("/teacher/classes/new/", {"name": "CP", "level": "CP", "names": "Léo"})
    owner.post(_links()[-1], {"password1": PASSWORD, "password2": PASSWORD})
    account = get_user_model().objects.get(email=ADDRESS)
    assert account.is_active and account.username == ADDRESS
    assert list(SchoolClass.objects.values_list("name", flat=True)) == ["CP"]
    assert stranger.get(_links()[0])["Location"] == "/teacher/signup/"


def test_purge_forgets_drafts_whose_link_expired() -> None:
    """An address typed by someone who never proved it is not kept longer
    than its link lives; a recent draft stays."""
    old = _signed_up("vieux@ecole.example")
    old.post("/teacher/classes/new/", {"name": "Oubliée", "level": "CP", "names": "Léo"})
    get_user_model().objects.filter(email="vieux@ecole.example").update(
        date_joined=timezone.now() - timedelta(days=4)
    )
    _signed_up("recent@ecole.example", ip="10.0.0.2")
    call_command("purge", "--older-than", "30")
    assert list(get_user_model().objects.values_list("email", flat=True)) == ["recent@ecole.example"]
    assert not SchoolClass.objects.filter(name="Oubliée").exists()
