"""Parent links: one child only; revoked, expired and wrong links give the same 404."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom.insights.rewards import _previous_school_day, _school_day_on_or_before
from classroom.models import LearningRecord, ParentLink
from classroom.services.parents import parent_link_create, parent_link_revoke, token_hash
from tests.classroom.reportdata import ended_session, record
from tests.factories import ClassSessionFactory, PupilFactory, TabletLoginFactory


def _open(token: str) -> tuple[Client, int]:
    client = Client()
    response = client.get(reverse("classroom:parent_open", args=[token]))
    return client, response.status_code


@pytest.mark.django_db
def test_link_swaps_the_token_for_a_cookie_and_shows_one_child() -> None:
    child = PupilFactory(display_name="Lina")
    sibling = PupilFactory(display_name="Maëlys", school_class=child.school_class)
    session = ended_session(child.school_class, 0)
    LearningRecord.objects.bulk_create([record(child, session, 1), record(sibling, session, 1)])
    link, token = parent_link_create(pupil=child, expires_in_days=30)
    assert (
        len(token) >= 22 and link.token_hash == token_hash(token) and token not in link.token_hash
    )
    client = Client()
    response = client.get(reverse("classroom:parent_open", args=[token]))
    assert response.status_code == 302 and response["Location"] == reverse("classroom:parent_page")
    assert token not in response["Location"]
    page = client.get(response["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert "Lina" in html and "Maëlys" not in html
    assert "effacement" in html  # the privacy notice


@pytest.mark.django_db
def test_revoked_expired_and_wrong_links_all_give_the_same_404() -> None:
    child = PupilFactory()
    _link, wrong_token = parent_link_create(pupil=child, expires_in_days=30)
    ParentLink.objects.all().delete()
    _client, status = _open(wrong_token)
    assert status == 404
    wrong = Client().get(reverse("classroom:parent_open", args=[wrong_token])).content

    revoked, token = parent_link_create(pupil=child, expires_in_days=30)
    client, status = _open(token)
    assert status == 302
    parent_link_revoke(link=revoked)
    again = Client().get(reverse("classroom:parent_open", args=[token]))
    assert again.status_code == 404 and again.content == wrong
    # The cookie given before the revocation no longer opens the page either.
    assert client.get(reverse("classroom:parent_page")).status_code == 404

    expired, token = parent_link_create(pupil=child, expires_in_days=30)
    client, status = _open(token)
    ParentLink.objects.filter(pk=expired.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    late = Client().get(reverse("classroom:parent_open", args=[token]))
    assert late.status_code == 404 and late.content == wrong
    assert client.get(reverse("classroom:parent_page")).status_code == 404
    assert Client().get(reverse("classroom:parent_page")).status_code == 404


@pytest.mark.django_db
def test_teacher_creates_prints_and_revokes() -> None:
    child = PupilFactory()
    teacher = Client()
    teacher.force_login(child.school_class.teacher)
    response = teacher.post(
        reverse("classroom:parent_link_create", args=[child.pk]), {"expires_in_days": "90"}
    )
    link = ParentLink.objects.get(pupil=child)
    assert response["Location"] == reverse("classroom:parent_letter", args=[link.pk])
    assert 89 <= (link.expires_at - timezone.now()).days <= 90
    letter = teacher.get(response["Location"]).content.decode()
    assert "<svg" in letter and "/p/" in letter  # the QR code and the link
    teacher.post(reverse("classroom:parent_link_revoke", args=[link.pk]))
    link.refresh_from_db()
    assert link.revoked_at is not None


def _tablet(pupil: Any, class_session: Any) -> Client:
    """A tablet signed in as ``pupil`` (what the join flow leaves in the session)."""
    client = Client()
    session = client.session
    session.update(
        {
            "player_key": pupil.player_key,
            "pupil_id": pupil.pk,
            "class_session_id": class_session.pk,
            "join_session_id": class_session.pk,
        }
    )
    session.save()
    TabletLoginFactory(class_session=class_session, pupil=pupil, session_key=session.session_key)
    return client


@pytest.mark.django_db
def test_pupil_own_page_shows_stars_streak_and_grid_of_that_child_only() -> None:
    child = PupilFactory(display_name="Capucine")
    classmate = PupilFactory(display_name="Barnabé", school_class=child.school_class)
    today = timezone.localdate()
    day0 = _school_day_on_or_before(today)
    day1 = _previous_school_day(day0)
    tz = timezone.get_current_timezone()
    earlier = ended_session(child.school_class, 0)
    live = ClassSessionFactory(school_class=child.school_class)
    noon = time(12, 0)
    rows = [
        # 12 quick right answers to 1 + 2 on the last two school days: fluent,
        # one star for 10 right answers, one star for the fluent fact.
        record(
            child,
            live if i % 2 else earlier,
            i,
            created_at=datetime.combine(day0 if i % 2 else day1, noon, tz) + timedelta(minutes=i),
        )
        for i in range(12)
    ]
    # 7 + 8 answered wrong twice: tried, not fluent.
    rows += [
        record(
            child,
            live,
            20 + i,
            card_a=7,
            card_b=8,
            card_value=15,
            total_after=35,
            announced=25,
            correct=False,
            error_kind="tens",
            created_at=datetime.combine(day0, noon, tz) + timedelta(minutes=30 + i),
        )
        for i in range(2)
    ]
    # The classmate did much better: nothing of it may show.
    rows += [record(classmate, live, 100 + i, card_a=5, card_b=5) for i in range(40)]
    LearningRecord.objects.bulk_create(rows)

    page = _tablet(child, live).get(reverse("classroom:pupil_page"))

    assert page.status_code == 200
    html = page.content.decode()
    text = " ".join(html.split())
    assert "Capucine" in html and "Barnabé" not in html
    # The star and the flame are the app's pictures (no emoji font on a school PC).
    assert 'data-icon="star"> 2</span><span>étoiles' in text  # 1 for answers + 1 fluent fact
    assert 'data-icon="streak"> 2</span><span>jours de suite' in text  # two school days in a row
    assert "★</span> 1</span><span>calculs que tu sais par cœur" in text
    assert "1 + 2 : su" in text
    assert "7 + 8 : à retravailler" in text
    assert "5 + 5 : pas encore essayé" in text  # the classmate's fact is not the child's
    # The reports' "swipe the table" line speaks to an adult ("Faites glisser"):
    # not on a child's own page (the grid fits a tablet).
    assert "rp-scroll-hint" not in html


@pytest.mark.django_db
def test_pupil_own_page_needs_a_signed_in_tablet() -> None:
    assert Client().get(reverse("classroom:pupil_page")).status_code == 404


CONFUSABLE = set("0Oo1lIi")


@pytest.mark.django_db
def test_parent_links_are_printed_without_confusable_characters(
    client: Client, settings: Any
) -> None:
    """Parents type the printed link: no l/I/1 or O/0 to mistake, groups of
    five to keep their place, and still at least 192 bits of randomness.
    Typed in capitals or without the dashes, it opens the same page."""
    import math

    from classroom.models import PARENT_TOKEN_ALPHABET, new_parent_token

    assert not CONFUSABLE & set(PARENT_TOKEN_ALPHABET)
    assert len(set(PARENT_TOKEN_ALPHABET)) == len(PARENT_TOKEN_ALPHABET)
    tokens = [new_parent_token() for _ in range(200)]
    for token in tokens:
        assert not CONFUSABLE & set(token), token
        symbols = token.replace("-", "")
        assert set(symbols) <= set(PARENT_TOKEN_ALPHABET)
        assert len(symbols) * math.log2(len(PARENT_TOKEN_ALPHABET)) >= 192
        assert all(len(group) == 5 for group in token.split("-")), token
    assert len(set(tokens)) == 200

    child = PupilFactory(display_name="Lina")
    teacher = child.school_class.teacher
    client.force_login(teacher)
    response = client.post(
        reverse("classroom:parent_link_create", args=[child.pk]), {"expires_in_days": 30}
    )
    link = ParentLink.objects.get(pupil=child)
    letter = client.get(reverse("classroom:parent_letter", args=[link.pk])).content.decode()
    assert response.status_code in (200, 302)
    printed = letter.split("/p/", 1)[1].split("<", 1)[0].strip()
    assert not CONFUSABLE & set(printed), printed
    for typed in (printed, printed.upper(), printed.replace("-", ""), f" {printed} "):
        _client, status = _open(typed.strip() if typed.startswith(" ") else typed)
        assert status == 302, typed
    # Links printed before keep working, exactly as they were issued.
    import hashlib

    legacy = "Ab_1-lO0xYz9QwErTyUiOpAsDfGhJkLz"
    ParentLink.objects.create(
        pupil=child, token_hash=hashlib.sha256(legacy.encode()).hexdigest()
    )
    assert _open(legacy)[1] == 302
    assert _open(legacy.lower())[1] == 404


@pytest.mark.django_db
def test_the_parent_page_says_until_when_the_link_works() -> None:
    link, token = parent_link_create(pupil=PupilFactory(), expires_in_days=30)
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.get(reverse("classroom:parent_open", args=[token]))
    html = client.get(reverse("classroom:parent_page")).content.decode()
    day = timezone.localtime(link.expires_at)
    assert f"Il est valable jusqu'au {day.day} " in html.replace("&#x27;", "'")
    assert "demandez-en un nouveau" in html


@pytest.mark.django_db
def test_a_new_childs_page_says_how_to_earn_stars_and_never_zero_days() -> None:
    """'🔥 0 jours de suite' stood right under 'Tu as joué aujourd'hui : super !'
    (a weekend's game does not make a school-day streak), and '0 étoiles' came
    with no hint of how to earn one."""
    child = PupilFactory(display_name="Capucine")
    live = ClassSessionFactory(school_class=child.school_class)
    html = _tablet(child, live).get(reverse("classroom:pupil_page")).content.decode()
    text = " ".join(html.split())
    assert "0</span><span>jours de suite" not in text and "jour de suite" not in text
    assert "Tu gagnes une étoile toutes les 10 bonnes réponses" in text


@pytest.mark.django_db
def test_the_parent_cookies_are_secure_in_production(settings: Any) -> None:
    """The parent link's cookie carries its token: behind a proxy that forgot
    X-Forwarded-Proto it went out without ``Secure`` (issue 44, finding 12)."""
    from classroom.services.parents import parent_link_create

    settings.SESSION_COOKIE_SECURE = True
    _link, token = parent_link_create(pupil=PupilFactory(), expires_in_days=30)
    response = Client().get(f"/p/{token}")
    cookie = response.cookies["parent_link"]
    assert cookie["secure"] and cookie["httponly"]


@pytest.mark.django_db
def test_sessions_all_on_one_day_are_not_a_range() -> None:
    """"2 séances, du 5 décembre au 5 décembre": two lessons on one day."""
    child = PupilFactory(display_name="Lina")
    morning, afternoon = ended_session(child.school_class, 0), ended_session(child.school_class, 0)
    LearningRecord.objects.bulk_create(
        [record(child, morning, 1), record(child, afternoon, 2, table_id=5000)]
    )
    _link, token = parent_link_create(pupil=child, expires_in_days=30)
    client, _status = _open(token)
    text = " ".join(client.get(reverse("classroom:parent_page")).content.decode().split())
    assert "2 séances, le 3 mars." in text
    assert " du 3 mars au 3 mars" not in text
