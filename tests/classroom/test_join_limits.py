"""Issue 44, items 2, 3, 4, 7 and part of 14: the join limits, replayed.

Each test is an attack of the review, through the real entry points (the
views via Django's test client, the table socket through the ASGI app); each
failed before its fix. The docstrings name the attack."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from cardgames import revocation
from classroom import ratelimit
from classroom.models import Pupil, RateCounter
from classroom.services import pupils as pupil_rules
from tests.classroom.test_readme_limits import network_guesses_per_day
from tests.factories import ClassSessionFactory, PupilFactory

pytestmark = pytest.mark.django_db

CODE = "482913"
SCHOOL = "203.0.113.7"


def _code(client: Client, code: str, ip: str = SCHOOL) -> Any:
    return client.post("/join", {"code": code}, REMOTE_ADDR=ip)


def _in(response: Any) -> bool:
    return response.status_code == 302 and response["Location"] == "/join/names/"


def _pictures(client: Client, pupil: Pupil, code: list[int], ip: str = SCHOOL) -> Any:
    return client.post(
        f"/join/pupil/{pupil.pk}/", {"pick": [str(i) for i in code]}, REMOTE_ADDR=ip
    )


def _tablet(ip: str = SCHOOL) -> Client:
    """A tablet that typed the lesson's code."""
    tablet = Client()
    assert _in(_code(tablet, CODE, ip))
    return tablet


def _wrong(code: list[int], n: int) -> list[int]:
    """The ``n``-th wrong code for a card (never the right one)."""
    pairs = [[a, b] for a in range(9) for b in range(9) if a != b and [a, b] != list(code)]
    return pairs[n % len(pairs)]


def _expire(prefix: str) -> None:
    """Time passes: the slots (or counters) starting with ``prefix`` run out."""
    RateCounter.objects.filter(key__startswith=prefix).delete()


@pytest.fixture
def lesson() -> Any:
    return ClassSessionFactory(join_code=CODE)


@pytest.fixture
def class_of_24(lesson: Any) -> list[Pupil]:
    return [
        PupilFactory(school_class=lesson.school_class, display_name=f"Enfant {i}")
        for i in range(24)
    ]


# ------------------------------------------------------------------ item 2
def test_a_cross_site_image_flood_of_get_join_checks_nothing(lesson: Any) -> None:
    """Attack 2: a page on another site loops ``new Image().src =
    "/join?code=…"``. Before, each GET checked a code and spent the school IP's
    budget, and the tablet typing the right code was told "Un instant" 25 of 25
    times. Now a GET checks, counts and stores nothing."""
    sessions = Session.objects.count()
    for i in range(400):
        image = Client()  # an <img> request: no cookie, no CSRF token
        page = image.get(f"/join?code={100000 + i}", REMOTE_ADDR=SCHOOL)
        assert page.status_code == 200 and "Ce code ne marche pas" not in page.content.decode()
    assert not RateCounter.objects.exists()
    assert Session.objects.count() == sessions
    tablet = Client()
    assert _in(_code(tablet, CODE))  # at once, on the first tap


def test_get_join_with_the_right_code_prefills_and_never_checks(lesson: Any) -> None:
    """Item 14: every anonymous ``GET /join`` created a session row, and ``GET
    /join?code=`` logged a tablet past the code without a CSRF token. Now the
    QR's link fills the keypad and one "Entrer" tap (a POST) checks it."""
    sessions = Session.objects.count()
    tablet = Client(enforce_csrf_checks=True)
    page = tablet.get(f"/join?code={CODE}", REMOTE_ADDR=SCHOOL)
    html = page.content.decode()
    assert page.status_code == 200 and "Entrer" in html
    assert f'name="code" value="{CODE}"' in html
    assert Session.objects.count() == sessions and not RateCounter.objects.exists()
    assert tablet.get("/join/names/")["Location"] == "/join"  # not past the code
    # Without the token (another site's form), the POST is refused…
    assert tablet.post("/join", {"code": CODE, "key": "enter"}).status_code == 403
    # …with the page's token, the tap gets in.
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    response = tablet.post(
        "/join", {"code": CODE, "key": "enter", "csrfmiddlewaretoken": token}, REMOTE_ADDR=SCHOOL
    )
    assert _in(response)


def test_the_right_code_gets_in_after_hundreds_of_wrong_codes_from_the_school_ip(
    lesson: Any,
) -> None:
    """Attack 2, second half: 300 wrong codes from the school's one public IP,
    then the class joins. Before, 35 of 36 right codes were refused. Now the
    first right code gets in at its network's next slot, and every other
    tablet of the school at once, while the wrong codes go on."""
    for i in range(ratelimit.IP_LIMIT + 100):
        _code(Client(), f"{100000 + i}")
    assert ratelimit.over_budget(device="", net=SCHOOL)
    first = Client()
    if not _in(_code(first, CODE)):
        _expire("joincode:slot:")  # the slot's few seconds pass
        assert _in(_code(first, CODE))
    refused = 0
    for i in range(35):
        _code(Client(), f"{300000 + i}")  # someone keeps mistyping, or guessing
        refused += not _in(_code(Client(), CODE))
    assert refused == 0


def test_the_first_tablet_gets_in_at_once_when_the_teacher_opened_the_lesson_here(
    lesson: Any,
) -> None:
    """Attack 2 again: the school's public IP is over its budget before the
    first tablet joins. The teacher's session page, opened from the school's
    network, makes it the lesson's home: the very first right code gets in at
    once. A stranger's network, equally over budget, still waits its turn."""
    teacher = Client()
    teacher.force_login(lesson.school_class.teacher)
    assert teacher.get(f"/teacher/sessions/{lesson.pk}/", REMOTE_ADDR=SCHOOL).status_code == 200
    stranger = "198.51.100.9"
    for ip in (SCHOOL, stranger):
        for i in range(ratelimit.IP_LIMIT + 5):
            _code(Client(), f"{100000 + i}", ip)
        _code(Client(), "100001", ip)  # takes the network's slot
    assert all(_in(_code(Client(), CODE)) for _ in range(5))
    assert not _in(_code(Client(), CODE, stranger))


def test_ipv6_addresses_of_one_64_share_one_budget(
    lesson: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 14: the budget was keyed on the exact IPv6 address, and one /64
    gives a guesser 2⁶⁴ of them. Now a /64 is one network."""
    monkeypatch.setattr(ratelimit, "IP_LIMIT", 5)
    for i in range(5):
        answer = _code(Client(), f"{100000 + i}", f"2001:db8:7:1::{i + 1:x}").content.decode()
        assert "Ce code ne marche pas" in answer
    # A fresh address of the same /64 is over budget: one answer per slot.
    answers = [
        _code(Client(), f"{200000 + i}", f"2001:db8:7:1:ffff::{i + 1:x}").content.decode()
        for i in range(3)
    ]
    assert "Attends un peu" in answers[0] and all("Un instant" in a for a in answers[1:])
    # Another /64 is another network.
    assert "Ce code ne marche pas" in _code(Client(), "999999", "2001:db8:7:2::1").content.decode()
    assert ratelimit.client_net("2001:db8:7:1:abcd::9") == "2001:db8:7:1::/64"
    assert ratelimit.client_net("::ffff:192.0.2.4") == "192.0.2.4"


# ------------------------------------------------------------------ item 4
def test_flooding_the_cache_does_not_reset_the_join_budget(
    lesson: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack 4: 400 refused table sockets evicted the per-IP counter from the
    300-entry local-memory cache, and wrong codes were counted afresh. The
    counters are database rows now: a thousand other cache keys change nothing."""
    monkeypatch.setattr(ratelimit, "IP_LIMIT", 5)
    for i in range(5):
        _code(Client(), f"{100000 + i}")
    for i in range(1000):
        cache.set(f"flood:{i}", i)
    answers = [_code(Client(), f"{200000 + i}").content.decode() for i in range(3)]
    assert not any("Ce code ne marche pas" in a for a in answers)
    assert ratelimit.over_budget(device="", net=SCHOOL)


# ------------------------------------------------------------------ item 3
def test_one_tablet_sweeping_the_class_is_stopped_and_locks_no_card(
    lesson: Any, class_of_24: list[Pupil]
) -> None:
    """Attack 3: 5 wrong codes on each of 24 cards from one device (120
    requests, one burst) locked all 24 cards, and no child could get in. Now
    the tablet is slowed after 4 wrong codes and stopped at 5; its failures
    never lock a card; the children, on other tablets of the same school
    network, all get in straight afterwards."""
    attacker = _tablet()
    for _round in range(3):  # the burst, then twice more once the tablet's slot has run out
        for n in range(5):
            for pupil in class_of_24:
                _pictures(attacker, pupil, _wrong(pupil.picture_code, n))
        _expire("pic:devslot:")
    answer = _pictures(attacker, class_of_24[0], _wrong(class_of_24[0].picture_code, 9))
    assert "Demande à ton maître ou ta maîtresse" in answer.content.decode()
    assert not Pupil.objects.filter(needs_teacher=True).exists()
    assert not Pupil.objects.filter(locked_until__isnull=False).exists()
    for pupil in class_of_24:
        child = _tablet()
        assert _pictures(child, pupil, pupil.picture_code)["Location"] == "/lobby/"


def test_a_sweep_from_one_network_with_fresh_tablets_is_bounded_as_the_readme_says(
    lesson: Any, class_of_24: list[Pupil]
) -> None:
    """Attack 3: sweeping 5 guesses over 24 cards got into a child in 1 of 2
    runs (1 - (67/72)^24 ≈ 82 %). Now, even with a fresh tablet for every
    guess, one network gets ``NET_FREE`` answers at once and then one per slot:
    over a simulated school day (4 slots of 2 hours), at most the README's 17
    guesses are checked, and at most one card is ever locked."""
    checked, guesses = 0, 0
    for _slot in range(8 * 3600 // pupil_rules.NET_SLOW_SECONDS):
        for n in range(5):
            for pupil in class_of_24:
                guesses += 1
                html = _pictures(_tablet(), pupil, _wrong(pupil.picture_code, n)).content.decode()
                checked += "ce ne sont pas tes images" in html or "se repose" in html
        _expire("pic:netslot:")  # two hours pass
    assert guesses == 480
    assert checked <= network_guesses_per_day()
    assert checked == pupil_rules.NET_FREE + 8 * 3600 // pupil_rules.NET_SLOW_SECONDS
    locked = Pupil.objects.filter(locked_until__isnull=False).count()
    assert locked <= pupil_rules.NET_FREE // pupil_rules.PICTURE_MAX_FAILURES
    # The teacher sees the sweep.
    teacher = Client()
    teacher.force_login(lesson.school_class.teacher)
    page = teacher.get(reverse("classroom:class_detail", args=[lesson.school_class_id]))
    assert "cartes attaquées" in page.content.decode()


def test_the_teacher_unlocks_every_card_in_one_click_and_gives_a_guesser_one_try(
    lesson: Any, class_of_24: list[Pupil]
) -> None:
    """Attack 3, the unlock: each teacher unlock gave the attacker 5 tries at
    once. Now "Débloquer" under "cartes attaquées" unlocks every card in one
    POST (CSRF, the teacher's own class only), and leaves each one wrong code
    from the teacher-only lock."""
    victims = class_of_24[:3]
    Pupil.objects.filter(pk__in=[p.pk for p in victims]).update(
        needs_teacher=True, lock_level=4, failed_attempts=5
    )
    stranger = Client()
    stranger.force_login(ClassSessionFactory().school_class.teacher)
    url = reverse("classroom:pupils_unlock_all", args=[lesson.school_class_id])
    assert stranger.post(url).status_code == 404
    assert Pupil.objects.filter(needs_teacher=True).count() == 3
    teacher = Client(enforce_csrf_checks=True)
    teacher.force_login(lesson.school_class.teacher)
    page = teacher.get(reverse("classroom:class_detail", args=[lesson.school_class_id]))
    html = page.content.decode()
    assert "3 cartes attaquées" in html and "Débloquer les 3 cartes bloquées" in html
    assert teacher.post(url).status_code == 403  # no token, no unlock
    assert teacher.get(url).status_code == 405
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    response = teacher.post(url, {"csrfmiddlewaretoken": token})
    assert response["Location"] == reverse("classroom:class_detail", args=[lesson.school_class_id])
    assert not Pupil.objects.filter(needs_teacher=True).exists()
    # One wrong code (from anywhere) and the card waits for the teacher again…
    _pictures(_tablet("192.0.2.50"), victims[0], _wrong(victims[0].picture_code, 0), "192.0.2.50")
    assert Pupil.objects.get(pk=victims[0].pk).needs_teacher
    # …while the child's right code gets in.
    assert _pictures(_tablet(), victims[1], victims[1].picture_code)["Location"] == "/lobby/"


# ------------------------------------------------------------------ item 7
@pytest.mark.django_db(transaction=True)
async def test_deleting_a_pupil_closes_their_tablet_socket_and_ends_their_session() -> None:
    """Attack 7: deleting a pupil left their tablet in: its socket stayed open,
    ``sync`` still returned the seat's hand, and the Django session naming the
    pupil remained. Now the deletion signs every tablet of the pupil out."""
    from tests.classroom.test_consumers import _communicator
    from tests.classroom.test_signout_sockets import _closed, _table_for_two

    _session, teacher, tablets, table = await database_sync_to_async(_table_for_two)()
    leo = _communicator(f"/ws/table/{table.pk}/", tablets[0])
    assert (await leo.connect())[0]
    await leo.receive_from(timeout=5)
    key = tablets[0].cookies["sessionid"].value
    pupil_id = await database_sync_to_async(
        lambda: Pupil.objects.get(display_name="Léo").pk
    )()
    await database_sync_to_async(teacher.post)(f"/teacher/pupils/{pupil_id}/delete/")
    _text, code = await _closed(leo)
    assert code == 4000
    assert not await database_sync_to_async(Session.objects.filter(session_key=key).exists)()


@pytest.mark.django_db(transaction=True)
async def test_a_sync_after_the_pupil_is_deleted_is_refused_even_if_the_close_was_missed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Attack 7, the socket in another worker that missed the close: its next
    ``sync`` finds the session's generation bumped and is refused."""
    from tests.classroom.test_consumers import _communicator
    from tests.classroom.test_signout_sockets import _closed, _table_for_two

    _session, teacher, tablets, table = await database_sync_to_async(_table_for_two)()
    leo = _communicator(f"/ws/table/{table.pk}/", tablets[0])
    assert (await leo.connect())[0]
    await leo.receive_from(timeout=5)
    pupil_id = await database_sync_to_async(
        lambda: Pupil.objects.get(display_name="Léo").pk
    )()
    monkeypatch.setattr(revocation, "get_channel_layer", lambda: None)  # the close is lost
    await database_sync_to_async(teacher.post)(f"/teacher/pupils/{pupil_id}/delete/")
    await leo.send_to(text_data=json.dumps({"kind": "sync"}))
    text, code = await _closed(leo)
    assert code == 4002 and "Mes cartes" not in text


def test_a_class_arriving_at_once_is_never_held_up_by_its_own_slips(
    lesson: Any, class_of_24: list[Pupil]
) -> None:
    """Review of the fix: with the network's budget counted over every tablet
    that has not got in yet, a class of six-year-olds tapping at once could
    run it out with its own slips, and every child (right code included) then
    waited two hours. Eight children slip first; every child still gets in.
    And should slips ever run the budget out, the teacher's one click lets
    the children in front of them in at once."""
    tablets = [_tablet() for _ in class_of_24]
    for tablet, pupil in list(zip(tablets, class_of_24, strict=True))[:8]:
        _pictures(tablet, pupil, _wrong(pupil.picture_code, 0))
    for tablet, pupil in zip(tablets, class_of_24, strict=True):
        response = _pictures(tablet, pupil, pupil.picture_code)
        assert response.status_code == 302, pupil.display_name
    # A network run out by slips (or a guesser), then the teacher's unlock.
    others = class_of_24[:3]
    for n in range(pupil_rules.NET_FREE + 1):
        _pictures(_tablet(), others[n % 3], _wrong(others[n % 3].picture_code, n // 3))
    late = class_of_24[-1]
    waiting = _pictures(_tablet(), late, late.picture_code)
    assert waiting.status_code == 200  # told to wait, whatever the code
    teacher = Client()
    teacher.force_login(lesson.school_class.teacher)
    teacher.post(reverse("classroom:pupils_unlock_all", args=[lesson.school_class_id]))
    assert _pictures(_tablet(), late, late.picture_code).status_code == 302
