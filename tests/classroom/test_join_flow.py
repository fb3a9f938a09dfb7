"""A pupil's way in, end to end through Django's test client."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from classroom import ratelimit, services
from classroom.models import Attendance, Pupil, TabletLogin
from tests.factories import ClassSessionFactory, PupilFactory

pytestmark = pytest.mark.django_db


def _wrong(code: list[int]) -> list[int]:
    return (
        [(code[0] + 1) % 9, (code[0] + 2) % 9]
        if [(code[0] + 1) % 9, (code[0] + 2) % 9] != code
        else [0, 1]
    )


def _type_code(client: Client, code: str, *, ip: str = "10.0.0.1") -> object:
    return client.post("/join", {"code": code}, REMOTE_ADDR=ip)


def _pictures(client: Client, pupil: Pupil, code: list[int], *, ip: str = "10.0.0.1") -> object:
    return client.post(f"/join/pupil/{pupil.pk}/", {"pick": [str(i) for i in code]}, REMOTE_ADDR=ip)


def _wrong_from_tablets(pupil: Pupil, count: int, *, ip: str = "10.0.0.1") -> None:
    """``count`` wrong picture codes for ``pupil``, each from a tablet of its own."""
    for _ in range(count):
        tablet = Client()
        _type_code(tablet, "482913", ip=ip)
        _pictures(tablet, pupil, _wrong(pupil.picture_code), ip=ip)


@pytest.fixture
def session_and_pupils() -> tuple:
    class_session = ClassSessionFactory(join_code="482913")
    pupils = [
        PupilFactory(
            school_class=class_session.school_class, display_name=name, picture_code=[i, i + 1]
        )
        for i, name in enumerate(["Léo", "Inès", "Maël"])
    ]
    return class_session, pupils


def test_full_join_flow_reaches_the_lobby_and_cycles_the_session_key(
    client: Client, session_and_pupils: tuple
) -> None:
    class_session, (leo, *_rest) = session_and_pupils
    keypad = client.get("/join")
    assert keypad.status_code == 200
    assert "Tape le code du tableau" in keypad.content.decode()

    # Digits are typed one at a time on the keypad; the 6th checks the code.
    code = ""
    response = None
    for digit in "482913":
        response = client.post("/join", {"key": digit})
        code += digit
    assert response is not None and response.status_code == 302
    assert response["Location"] == "/join/names/"

    names = client.get("/join/names/").content.decode()
    for name in ("Léo", "Inès", "Maël"):
        assert name in names
    key_before = client.session.session_key

    first = client.post(f"/join/pupil/{leo.pk}/", {"pick": str(leo.picture_code[0])})
    assert first.status_code == 200  # one picture chosen, waiting for the second
    done = client.post(f"/join/pupil/{leo.pk}/", {"pick": [str(i) for i in leo.picture_code]})
    assert done.status_code == 302 and done["Location"] == "/lobby/"

    assert client.session.session_key != key_before
    assert client.session["player_key"] == f"pupil:{leo.pk}"
    assert client.session["pupil_id"] == leo.pk
    assert client.session["class_session_id"] == class_session.pk
    lobby = client.get("/lobby/").content.decode()
    assert "Attends ta table" in lobby and "Léo" in lobby
    assert 'ws-connect="/ws/lobby/"' in lobby
    assert TabletLogin.objects.filter(pupil=leo, session_key=client.session.session_key).exists()
    assert Attendance.objects.filter(class_session=class_session, pupil=leo).exists()

    # A reload (or a tablet waking up) on any step returns to the lobby.
    assert client.get("/join")["Location"] == "/lobby/"
    assert client.get("/join/names/")["Location"] == "/lobby/"


def test_a_wrong_join_code_gets_a_gentle_message_and_the_keypad_again(
    client: Client, session_and_pupils: tuple
) -> None:
    response = _type_code(client, "111111")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ce code ne marche pas" in html
    assert client.get("/join/names/")["Location"] == "/join"


def test_an_ended_session_code_no_longer_works(client: Client, session_and_pupils: tuple) -> None:
    class_session, _pupils = session_and_pupils
    services.session_end(class_session=class_session)
    assert "Ce code ne marche pas" in _type_code(client, "482913").content.decode()


def test_a_wrong_picture_code_gets_a_gentle_message(
    client: Client, session_and_pupils: tuple
) -> None:
    _session, (leo, *_rest) = session_and_pupils
    _type_code(client, "482913")
    response = _pictures(client, leo, _wrong(leo.picture_code))
    assert response.status_code == 200
    assert "ce ne sont pas tes images" in response.content.decode()
    assert "player_key" not in client.session


def test_five_wrong_picture_codes_lock_the_card_not_the_class(
    client: Client, session_and_pupils: tuple
) -> None:
    class_session, (leo, ines, mael) = session_and_pupils
    _type_code(client, "482913")
    # Five wrong codes from five tablets (one tablet alone can no longer lock
    # a card: issue 44, item 3, see test_join_limits.py).
    _wrong_from_tablets(leo, 5)
    leo.refresh_from_db()
    assert leo.locked_until is not None and leo.locked_until > timezone.now()

    # Even the right code is refused while the card rests.
    locked = _pictures(client, leo, leo.picture_code)
    assert locked.status_code == 200
    assert "Ta carte se repose" in locked.content.decode()
    assert "player_key" not in client.session

    # The rest of the class, on other tablets behind the same school IP, logs in.
    for pupil in (ines, mael):
        tablet = Client()
        _type_code(tablet, "482913", ip="10.0.0.1")
        assert _pictures(tablet, pupil, pupil.picture_code, ip="10.0.0.1")["Location"] == "/lobby/"

    # The teacher sees the lock on the session page and clears it.
    teacher = Client()
    teacher.force_login(class_session.school_class.teacher)
    page = teacher.get(f"/teacher/sessions/{class_session.pk}/").content.decode()
    assert "Cartes bloquées" in page and "Léo" in page
    teacher.post(f"/teacher/pupils/{leo.pk}/unlock/")
    assert _pictures(client, leo, leo.picture_code)["Location"] == "/lobby/"


def test_the_lock_expires_after_a_minute(client: Client, session_and_pupils: tuple) -> None:
    _session, (leo, *_rest) = session_and_pupils
    _type_code(client, "482913")
    _wrong_from_tablets(leo, 5)
    Pupil.objects.filter(pk=leo.pk).update(
        locked_until=timezone.now() - timezone.timedelta(seconds=1)
    )
    assert _pictures(client, leo, leo.picture_code)["Location"] == "/lobby/"


def test_wrong_join_codes_are_limited_per_tablet_but_not_for_the_school(
    client: Client, session_and_pupils: tuple, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ratelimit, "SLOW_LANE_SECONDS", 1)
    client.get("/join")  # the tablet opens the keypad (and gets its cookie)
    for i in range(ratelimit.DEVICE_LIMIT):
        assert "Ce code ne marche pas" in _type_code(client, f"{100000 + i}").content.decode()
    # Now this tablet's wrong codes get the "wait" message, one check at a time…
    assert "Attends un peu" in _type_code(client, "100999").content.decode()
    assert "Un instant" in _type_code(client, "101000").content.decode()
    # …another tablet of the same school IP still gets in at once…
    other = Client()
    assert _type_code(other, "482913")["Location"] == "/join/names/"
    # …and so does this one with the right code, a moment later.
    time.sleep(1.1)
    assert _type_code(client, "482913")["Location"] == "/join/names/"


def test_a_pupil_of_another_class_cannot_be_picked_with_this_code(
    client: Client, session_and_pupils: tuple
) -> None:
    stranger = PupilFactory()
    _type_code(client, "482913")
    assert client.get(f"/join/pupil/{stranger.pk}/").status_code == 404


def test_the_class_link_on_the_cards_leads_to_the_open_session(
    client: Client, session_and_pupils: tuple
) -> None:
    class_session, _pupils = session_and_pupils
    response = client.get(f"/c/{class_session.school_class.link_token}")
    # The keypad: the code on the board is still needed (issue 13, finding 2).
    assert response["Location"] == "/join"
    assert client.get("/join/names/")["Location"] == "/join"


def test_the_class_link_without_an_open_session_says_so(
    client: Client, session_and_pupils: tuple
) -> None:
    class_session, _pupils = session_and_pupils
    services.session_end(class_session=class_session)
    response = client.get(f"/c/{class_session.school_class.link_token}")
    assert response.status_code == 404
    assert "Pas de séance en cours" in response.content.decode()


def test_the_teacher_signs_a_tablet_out(client: Client, session_and_pupils: tuple) -> None:
    class_session, (leo, *_rest) = session_and_pupils
    _type_code(client, "482913")
    _pictures(client, leo, leo.picture_code)
    login = TabletLogin.objects.get(pupil=leo)
    teacher = Client()
    teacher.force_login(class_session.school_class.teacher)
    page = teacher.get(f"/teacher/sessions/{class_session.pk}/").content.decode()
    assert "Déconnecter la tablette de Léo" in page
    teacher.post(f"/teacher/tablets/{login.pk}/sign-out/")
    assert not TabletLogin.objects.filter(pk=login.pk).exists()
    # The tablet is a stranger again: back to the keypad.
    assert client.get("/lobby/")["Location"] == "/join"


def _session_page_and_live_list(class_session: Any) -> tuple[Client, str, str]:
    """The teacher on the session page (CSRF enforced), the token the page
    carries in ``hx-headers``, and the tablets-and-locks list as the page's
    socket draws it (no request there, so no token in its forms)."""
    from classroom.consumers import ProjectorConsumer

    teacher = Client(enforce_csrf_checks=True)
    teacher.force_login(class_session.school_class.teacher)
    page = teacher.get(f"/teacher/sessions/{class_session.pk}/").content.decode()
    token = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', page).group(1)
    live = ProjectorConsumer()
    live.scope = {"user": class_session.school_class.teacher}
    live.session_id, live.teacher_view = class_session.pk, True
    return teacher, token, live._render()


def test_the_live_tablet_list_signs_out_with_the_pages_csrf_header(
    client: Client, session_and_pupils: tuple
) -> None:
    """The teacher's list of tablets is redrawn over a socket, where no CSRF
    token can be drawn into its forms: its button posts through htmx, with
    the token the page carries in ``hx-headers``, and CSRF stays enforced."""
    class_session, (leo, *_rest) = session_and_pupils
    _type_code(client, "482913")
    _pictures(client, leo, leo.picture_code)
    login = TabletLogin.objects.get(pupil=leo)
    teacher, token, drawn = _session_page_and_live_list(class_session)
    assert "csrfmiddlewaretoken" not in drawn  # what the socket draws: no token...
    assert f'hx-post="/teacher/tablets/{login.pk}/sign-out/"' in drawn  # ...so htmx posts it
    url = f"/teacher/tablets/{login.pk}/sign-out/"
    assert teacher.post(url, headers={"HX-Request": "true"}).status_code == 403
    assert TabletLogin.objects.filter(pk=login.pk).exists()
    answer = teacher.post(url, headers={"HX-Request": "true", "X-CSRFToken": token})
    assert answer.status_code == 200
    assert answer["HX-Redirect"] == f"/teacher/sessions/{class_session.pk}/"
    assert not TabletLogin.objects.filter(pk=login.pk).exists()


def test_the_live_lock_list_unlocks_a_card_with_the_pages_csrf_header(
    session_and_pupils: tuple,
) -> None:
    """A card locked during the lesson shows in the session page's live list;
    its "Débloquer" posts through htmx (the socket draws no token) and the
    teacher lands back on the session page."""
    class_session, (leo, *_rest) = session_and_pupils
    Pupil.objects.filter(pk=leo.pk).update(needs_teacher=True)
    teacher, token, drawn = _session_page_and_live_list(class_session)
    url = f"/teacher/pupils/{leo.pk}/unlock/"
    assert f'hx-post="{url}"' in drawn and "csrfmiddlewaretoken" not in drawn
    back = re.search(r'name="next" value="([^"]+)"', drawn).group(1)
    answer = teacher.post(
        url, {"next": back}, headers={"HX-Request": "true", "X-CSRFToken": token}
    )
    assert answer["HX-Redirect"] == f"/teacher/sessions/{class_session.pk}/"
    leo.refresh_from_db()
    assert not leo.needs_teacher
