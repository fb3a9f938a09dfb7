"""``seed_demo``: the demo teacher, class and open session, idempotent."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command

from classroom.models import ClassSession, Pupil, SchoolClass

pytestmark = pytest.mark.django_db


def _run() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_seed_demo_prints_the_login_and_code_and_is_idempotent() -> None:
    first = _run()
    assert "demo@example.org / souris-demo-2026" in first
    code = re.search(r"join code: (\d{6})", first)
    assert code
    second = _run()
    assert f"join code: {code.group(1)}" in second
    school_class = SchoolClass.objects.get(name="CE1 Les Chats")
    assert Pupil.objects.filter(school_class=school_class).count() == 24
    assert (
        ClassSession.objects.filter(school_class=school_class, ended_at__isnull=True).count() == 1
    )
