"""``seed_demo``: the demo teacher, class and open session, plus ~3 months of
history where pupils differ; idempotent."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command

from classroom import selectors
from classroom.models import ClassSession, LearningRecord, Pupil, SchoolClass

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
    school_class = SchoolClass.objects.get(name="CE1 Les Chats")
    records = LearningRecord.objects.filter(pupil__school_class=school_class).count()
    sessions = ClassSession.objects.filter(school_class=school_class).count()
    assert records > 10_000

    second = _run()

    assert f"join code: {code.group(1)}" in second
    assert "Demo history" not in second
    assert Pupil.objects.filter(school_class=school_class).count() == 24
    assert (
        ClassSession.objects.filter(school_class=school_class, ended_at__isnull=True).count() == 1
    )
    # The second run added nothing.
    assert ClassSession.objects.filter(school_class=school_class).count() == sessions
    assert LearningRecord.objects.filter(pupil__school_class=school_class).count() == records


def test_seed_demo_history_spans_three_months_with_pupils_who_differ() -> None:
    _run()
    school_class = SchoolClass.objects.get(name="CE1 Les Chats")
    ended = list(school_class.sessions.filter(ended_at__isnull=False).order_by("started_at"))
    assert len(ended) >= 25
    assert (ended[-1].started_at - ended[0].started_at).days >= 75
    rows = {r.pupil.display_name: r for r in selectors.class_report(school_class=school_class).rows}
    # Every pupil has a history.
    assert all(r.summary.announcements >= 300 for r in rows.values())
    steady, improver, carries, facts, tens = (
        rows["Léo"], rows["Inès"], rows["Maël"], rows["Noah"], rows["Louise"]
    )  # fmt: skip
    # The improver gets better: early sessions worse than late ones.
    points = improver.series
    early = sum(p.correct for p in points[:8]) / sum(p.announcements for p in points[:8])
    late = sum(p.correct for p in points[-8:]) / sum(p.announcements for p in points[-8:])
    # 0.13-0.25 in the runs seen (the demo's calendar ends yesterday, so its
    # school days, and which plays fall in the first and last 8, change by the day).
    assert late - early > 0.1
    # The carries pupil fails plays that cross a ten much more than the others.
    assert carries.summary.accuracy_crossing is not None
    assert steady.summary.accuracy_crossing is not None
    assert carries.summary.accuracy_crossing < steady.summary.accuracy_crossing - 15
    # The "tens" pupil often lands on multiples of ten and is flagged for it.
    assert tens.summary.mult10_rate is not None and steady.summary.mult10_rate is not None
    assert tens.summary.mult10_rate > 2 * steady.summary.mult10_rate
    assert any(f.code.startswith("mult10") for f in tens.flags)
    # The "facts" pupil's report proposes particular facts to practise.
    practise = selectors.pupil_report(pupil=facts.pupil).figures.practise
    assert any(item.code in {"fact:7+8", "fact:6+7", "fact:6+8"} for item in practise)
