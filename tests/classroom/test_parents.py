"""Parent links: one child only; revoked, expired and wrong links give the same 404."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom.models import LearningRecord, ParentLink
from classroom.parents import parent_link_create, parent_link_revoke, token_hash
from tests.classroom.reportdata import ended_session, record
from tests.factories import PupilFactory


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
