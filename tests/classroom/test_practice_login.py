"""Issue 44, item 9: a solo-practice login outlived the class link's rotation
and the practice hours (``POST /practice/setup/`` still started a game), and
one picture code started any number of games.

The rule now: a practice login holds while the class link it came through is
the class's link, practice is open (switch and hours), and for at most
``MAX_GAMES_PER_LOGIN`` games (the first, then "Rejouer" or "one more game");
then the child taps their two pictures again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from cardgames.models import Table
from classroom.models import Pupil, SchoolClass
from classroom.services.practice import MAX_GAMES_PER_LOGIN
from tests.factories import PupilFactory, SchoolClassFactory

pytestmark = pytest.mark.django_db

SETUP = "/practice/setup/"
ENDED = "Ton entraînement est terminé"


def _class_with_pupil() -> tuple[SchoolClass, Pupil]:
    school_class = SchoolClassFactory(practice_allowed=True)
    return school_class, PupilFactory(school_class=school_class, picture_code=[2, 5])


def _log_in(client: Client, school_class: SchoolClass, pupil: Pupil) -> None:
    url = f"/practice/{school_class.link_token}/pupil/{pupil.pk}/"
    response = client.post(url, {"pick": ["2", "5"]})
    assert response.status_code == 302 and response["Location"] == SETUP


def _start(client: Client) -> Table:
    response = client.post(SETUP, {"bots": "1", "level": "easy"})
    assert response.status_code == 302, response.content.decode()[:300]
    return Table.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def test_rotating_the_class_link_ends_the_practice_login() -> None:
    """The attack: the class link leaked, the teacher rotated it, yet a tablet
    logged in through the old link kept starting games."""
    school_class, pupil = _class_with_pupil()
    client = Client()
    _log_in(client, school_class, pupil)
    table = _start(client)
    teacher = Client()
    teacher.force_login(school_class.teacher)
    teacher.post(reverse("classroom:class_link_rotate", args=[school_class.pk]))
    tables = Table.objects.count()
    response = client.post(SETUP, {"bots": "1", "level": "easy"})
    assert response.status_code == 403 and ENDED in response.content.decode()
    assert client.post(f"/tables/{table.pk}/rematch/").status_code in (403, 404)
    assert Table.objects.count() == tables
    # The login is gone: the next visit is the usual "join" redirect.
    assert client.get(SETUP)["Location"] == "/join"


def test_outside_the_practice_hours_the_login_ends() -> None:
    school_class, pupil = _class_with_pupil()
    client = Client()
    _log_in(client, school_class, pupil)
    now = timezone.localtime()
    # Hours that ended an hour ago (or, just after midnight, start in an hour).
    if now.hour >= 3:
        school_class.practice_from = (now - timedelta(hours=3)).time()
        school_class.practice_until = (now - timedelta(hours=1)).time()
    else:
        school_class.practice_from = (now + timedelta(hours=1)).time()
        school_class.practice_until = (now + timedelta(hours=2)).time()
    school_class.save()
    tables = Table.objects.count()
    response = client.post(SETUP, {"bots": "1", "level": "easy"})
    assert response.status_code == 403 and ENDED in response.content.decode()
    assert Table.objects.count() == tables


def test_switching_practice_off_ends_the_login() -> None:
    school_class, pupil = _class_with_pupil()
    client = Client()
    _log_in(client, school_class, pupil)
    SchoolClass.objects.filter(pk=school_class.pk).update(practice_allowed=False)
    assert client.get(SETUP).status_code == 403


def test_one_login_starts_a_few_games_then_asks_the_pictures_again() -> None:
    """The bug: one picture code started any number of games in a row."""
    school_class, pupil = _class_with_pupil()
    client = Client()
    _log_in(client, school_class, pupil)
    for _ in range(MAX_GAMES_PER_LOGIN):
        _start(client)
    tables = Table.objects.count()
    response = client.post(SETUP, {"bots": "1", "level": "easy"})
    pictures = f"/practice/{school_class.link_token}/pupil/{pupil.pk}/"
    assert response.status_code == 302 and response["Location"] == pictures
    assert Table.objects.count() == tables
    assert client.get(SETUP)["Location"] == "/join"
    # Two taps on their pictures, and the child plays on.
    _log_in(client, school_class, pupil)
    _start(client)


def test_rejouer_counts_as_one_of_the_logins_games() -> None:
    school_class, pupil = _class_with_pupil()
    client = Client()
    _log_in(client, school_class, pupil)
    table = _start(client)
    for _ in range(MAX_GAMES_PER_LOGIN - 1):
        first = client.post(f"/tables/{table.pk}/rematch/")
        # A second tap lands on the same game and costs nothing.
        assert client.post(f"/tables/{table.pk}/rematch/")["Location"] == first["Location"]
        table = Table.objects.get(pk=int(first["Location"].strip("/").split("/")[-1]))
    tables = Table.objects.count()
    response = client.post(f"/tables/{table.pk}/rematch/")
    assert response["Location"] == f"/practice/{school_class.link_token}/pupil/{pupil.pk}/"
    assert Table.objects.count() == tables


def test_a_login_of_another_class_link_does_not_hold(client: Client) -> None:
    """A grant names its class: a tablet cannot carry it to another class."""
    school_class, pupil = _class_with_pupil()
    _log_in(client, school_class, pupil)
    session = client.session
    session["practice_grant"] = {**session["practice_grant"], "class_id": school_class.pk + 1}
    session.save()
    assert client.get(SETUP).status_code == 403


# ------------------------------------------------------------------ issue 44, item 12
def _practice_cookie(client: Client, school_class: SchoolClass) -> str:
    response = client.get(f"/practice/{school_class.link_token}/")
    assert response.status_code == 200
    return response.cookies["practice_class"].output()


@override_settings(SESSION_COOKIE_SECURE=True, DEBUG=False)
def test_the_class_link_cookie_is_secure_in_production() -> None:
    """The attack: on a school wifi, the ``practice_class`` cookie (it holds
    the class link's token) went out in clear over any http request."""
    school_class, _pupil = _class_with_pupil()
    header = _practice_cookie(Client(), school_class)
    assert "; Secure" in header and "HttpOnly" in header and "SameSite=Lax" in header


@override_settings(SESSION_COOKIE_SECURE=False, PRODUCTION=True)
def test_production_alone_makes_the_cookie_secure() -> None:
    school_class, _pupil = _class_with_pupil()
    assert "; Secure" in _practice_cookie(Client(), school_class)


@override_settings(SESSION_COOKIE_SECURE=False, PRODUCTION=False, DEBUG=True)
def test_in_development_over_http_the_cookie_still_comes_back() -> None:
    school_class, _pupil = _class_with_pupil()
    header = _practice_cookie(Client(), school_class)
    assert "Secure" not in header and "HttpOnly" in header and "SameSite=Lax" in header
