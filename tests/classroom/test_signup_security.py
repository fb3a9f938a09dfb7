"""Issue 44, findings 1 and 11: teacher sign-up and account mails, attacked.

Finding 1: an attacker signed up with the victim's address and a password of
their own; the victim's later sign-up kept the attacker's password, the victim
activated and filled the account with pupils, and the attacker logged in.
Finding 11: 20 sign-ups and 20 password resets sent 40 mails to one address.

Every test goes through the pages, as the reviewer did."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from classroom import accounts
from classroom.models import Pupil, RateCounter, SchoolClass
from tests.factories import PASSWORD, TeacherFactory

pytestmark = pytest.mark.django_db

VICTIM = "maitresse@ecole.example"
ATTACKER_PASSWORD = "le-secret-de-l-attaquant-31"
LINK = re.compile(r"http://testserver(/teacher/signup/activate/\S+/)")


def _link(message: mail.EmailMessage) -> str:
    found = LINK.search(str(message.body))
    assert found, message.body
    return found.group(1)


def _can_log_in(email: str, password: str) -> bool:
    response = Client(REMOTE_ADDR="10.9.9.9").post(
        "/teacher/login/", {"username": email, "password": password}
    )
    return response.status_code == 302 and response["Location"] == "/teacher/"


# ------------------------------------------------------------------ finding 1
def test_44_1_an_attackers_early_sign_up_never_lets_them_in() -> None:
    """The attack of finding 1, replayed. Before the fix the attacker's
    password was kept through the victim's sign-up and activation, and the
    attacker's log-in at the end succeeded."""
    attacker = Client(REMOTE_ADDR="10.0.0.66")
    # The attacker signs up first, with the old form's password fields filled.
    attacker.post(
        "/teacher/signup/",
        {
            "email": VICTIM,
            "first_name": "Pirate",
            "password1": ATTACKER_PASSWORD,
            "password2": ATTACKER_PASSWORD,
        },
    )
    pending = get_user_model().objects.get(email=VICTIM)
    assert not pending.is_active and not pending.has_usable_password()
    assert pending.username != VICTIM  # a draft claims no address
    assert attacker.get("/teacher/").status_code == 200  # the attacker's own draft

    # Later the victim signs up with their own address, then opens the link.
    victim = Client(REMOTE_ADDR="10.0.0.1")
    victim.post("/teacher/signup/", {"email": VICTIM, "first_name": "Anne"})
    assert [m.to for m in mail.outbox] == [[VICTIM], [VICTIM]]
    # The victim's sign-up signed the attacker's draft out.
    assert attacker.get("/teacher/").status_code == 302
    first_link, victim_link = _link(mail.outbox[0]), _link(mail.outbox[1])
    page = victim.get(victim_link).content.decode()
    assert 'value="Anne"' in page  # the last sign-up's first name, to confirm
    mine = "mon-vrai-secret-de-maitresse-7"
    done = victim.post(victim_link, {"first_name": "Anne", "password1": mine, "password2": mine})
    assert done["Location"] == "/teacher/"
    # The victim fills the account with a class and pupils.
    victim.post("/teacher/classes/new/", {"name": "CP Les Hiboux", "level": "CP"})
    school_class = SchoolClass.objects.get(teacher__username=VICTIM)
    victim.post(f"/teacher/classes/{school_class.pk}/pupils/add/", {"names": "Léa\nNoé"})
    assert Pupil.objects.filter(school_class=school_class).count() == 2

    # The attacker's password opens nothing; the victim's does.
    assert not _can_log_in(VICTIM, ATTACKER_PASSWORD)
    assert attacker.get(f"/teacher/classes/{school_class.pk}/").status_code == 302
    assert _can_log_in(VICTIM, mine)
    # The link mailed for the attacker's sign-up died with the victim's one.
    assert attacker.get(first_link)["Location"] == "/teacher/signup/"
    assert Client().get(victim_link)["Location"] == "/teacher/signup/"  # used once
    # One account for the proved address: the attacker's draft is gone.
    assert get_user_model().objects.filter(email=VICTIM).count() == 1


def test_44_1_a_pending_account_from_before_the_fix_loses_its_password() -> None:
    """Accounts left pending by the old form still hold the password typed at
    sign-up (maybe an attacker's): the owner's sign-up wipes it."""
    TeacherFactory(email=VICTIM, is_active=False)  # password PASSWORD, as the old form kept it
    Client().post("/teacher/signup/", {"email": VICTIM, "first_name": "Anne"})
    assert not get_user_model().objects.get(username=VICTIM).has_usable_password()
    mine = "mon-vrai-secret-de-maitresse-7"
    Client().post(_link(mail.outbox[0]), {"password1": mine, "password2": mine})
    assert not _can_log_in(VICTIM, PASSWORD)
    assert _can_log_in(VICTIM, mine)


def test_44_1_opening_the_link_alone_opens_nothing() -> None:
    """A mail scanner fetching the link must neither open the account nor spend
    the link; and a weak password is refused with the rules shown before."""
    Client().post("/teacher/signup/", {"email": VICTIM, "first_name": "Anne"})
    link = _link(mail.outbox[0])
    page = Client().get(link).content.decode()
    # The rules come before the first try, and the boxes point at them.
    assert 'id="password-rules"' in page and 'aria-describedby="password-rules"' in page
    assert page.count("<li>") >= 4
    assert not get_user_model().objects.get(email=VICTIM).is_active
    weak = Client().post(
        link, {"first_name": "Anne", "password1": "12345678", "password2": "12345678"}
    )
    assert weak.status_code == 200 and "errorlist" in weak.content.decode()
    assert not get_user_model().objects.get(email=VICTIM).is_active
    good = Client().post(link, {"first_name": "Anne", "password1": PASSWORD, "password2": PASSWORD})
    assert good["Location"] == "/teacher/"


def test_44_1_an_activation_link_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    """Links expire after PASSWORD_RESET_TIMEOUT (3 days): a link found in an
    old mailbox months later must not open the account."""
    Client().post("/teacher/signup/", {"email": VICTIM, "first_name": "Anne"})
    link = _link(mail.outbox[0])
    later = accounts.activation_tokens._now() + timedelta(days=3, minutes=1)
    monkeypatch.setattr(accounts.activation_tokens, "_now", lambda: later)
    response = Client().post(link, {"password1": PASSWORD, "password2": PASSWORD})
    assert response["Location"] == "/teacher/signup/"
    assert not get_user_model().objects.get(email=VICTIM).is_active


def test_44_1_a_password_reset_token_does_not_open_the_activation_page() -> None:
    """Both links used Django's one token generator: a reset token opened the
    activation page. Activation tokens now have a salt of their own."""
    teacher = TeacherFactory(email=VICTIM, is_active=False)
    uid = urlsafe_base64_encode(force_bytes(teacher.pk))
    token = default_token_generator.make_token(teacher)
    response = Client().get(f"/teacher/signup/activate/{uid}/{token}/")
    assert response["Location"] == "/teacher/signup/"


@pytest.mark.parametrize(
    "path",
    [
        "/teacher/signup/activate/zzzz/abc-def/",
        "/teacher/signup/activate/OTk5OTk5OTk5OTk5OTk5OTk5OTk5/abc-def/",
        "/teacher/signup/activate/YWJj/abc-def/",
    ],
)
def test_44_1_a_forged_activation_link_gets_a_readable_answer(path: str) -> None:
    """Garbage, a huge id and a non-numeric id: a message, never a 500."""
    client = Client()
    response = client.post(path, {"password1": PASSWORD, "password2": PASSWORD}, follow=True)
    assert response.status_code == 200
    assert "ne marche plus" in response.content.decode()


def test_44_1_signing_up_an_open_account_changes_nothing() -> None:
    """An attacker's sign-up for an open account only mails its owner a note."""
    teacher = TeacherFactory(email=VICTIM, first_name="Anne")
    Client().post("/teacher/signup/", {"email": VICTIM, "first_name": "Pirate"})
    teacher.refresh_from_db()
    assert teacher.is_active and teacher.first_name == "Anne"
    assert teacher.check_password(PASSWORD)
    assert "activate" not in mail.outbox[0].body


# ------------------------------------------------------------------ finding 11
def test_44_11_forty_requests_for_one_address_send_three_mails() -> None:
    """20 sign-ups and 20 password resets for one address sent 40 mails before
    the fix. Now at most 3 an hour reach it, every answer reads the same, and
    another address from another IP still gets its mail."""
    TeacherFactory(email=VICTIM)
    pages = set()
    for _ in range(20):
        browser = Client(REMOTE_ADDR="10.0.0.66")
        response = browser.post("/teacher/signup/", {"email": VICTIM, "first_name": ""})
        assert response["Location"] == "/teacher/"
        html = re.sub(
            r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+',
            "",
            browser.get("/teacher/").content.decode(),
        )
        pages.add(html)
        reset = Client(REMOTE_ADDR="10.0.0.66").post("/teacher/password-reset/", {"email": VICTIM})
        assert reset["Location"] == "/teacher/password-reset/sent/"
    assert len(pages) == 1  # no page tells the budget is spent
    assert len(mail.outbox) == 3
    # The owner, elsewhere, still gets a reset link: a stranger cannot spend it.
    Client(REMOTE_ADDR="10.0.0.1").post("/teacher/password-reset/", {"email": VICTIM})
    assert len(mail.outbox) == 4 and mail.outbox[-1].to == [VICTIM]
    # Spread over many IPs, the mailbox still gets at most 10 an hour.
    for n in range(20):
        Client(REMOTE_ADDR=f"10.0.1.{n}").post("/teacher/password-reset/", {"email": VICTIM})
    assert len(mail.outbox) == 10
    # Someone else, elsewhere, is not affected.
    Client(REMOTE_ADDR="10.0.0.2").post(
        "/teacher/signup/", {"email": "collegue@ecole.example", "first_name": "Paul"}
    )
    assert mail.outbox[-1].to == ["collegue@ecole.example"]
    # The counters never hold an address.
    keys = list(RateCounter.objects.values_list("key", flat=True))
    assert keys and not any("@" in key or "ecole" in key for key in keys)


def test_44_11_one_ip_cannot_mail_many_addresses() -> None:
    """One IP spraying sign-ups over many addresses gets 10 mails an hour."""
    for n in range(15):
        Client(REMOTE_ADDR="10.0.0.66").post(
            "/teacher/signup/", {"email": f"cible{n}@ecole.example", "first_name": ""}
        )
    assert len(mail.outbox) == 10


def test_44_11_a_sign_up_over_budget_leaves_the_pending_link_alive() -> None:
    """Over the budget nothing changes: a fourth sign-up from the same place
    must not renew the pending account and so kill the latest link."""
    for _ in range(3):
        Client(REMOTE_ADDR="10.0.0.1").post("/teacher/signup/", {"email": VICTIM})
    link = _link(mail.outbox[-1])
    Client(REMOTE_ADDR="10.0.0.1").post("/teacher/signup/", {"email": VICTIM})
    assert len(mail.outbox) == 3
    response = Client().post(link, {"password1": PASSWORD, "password2": PASSWORD})
    assert response["Location"] == "/teacher/"


def test_the_activation_page_and_mail_speak_german() -> None:
    """A teacher reading German gets the page and its rules in German (needs
    the merged catalogues: the rules come from Django's, the rest from ours)."""
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    sent = client.post("/teacher/signup/", {"email": VICTIM, "first_name": "Anne"}, follow=True)
    assert "Spam" in sent.content.decode()
    assert "nur einmal" in mail.outbox[0].body
    page = client.get(_link(mail.outbox[0])).content.decode()
    assert "Wählen Sie Ihr Passwort" in page and "Konto öffnen" in page
