"""The reports after a real lesson, on the teacher's 1280x800 laptop.

What a teacher stumbled on, each measured on the rendered page: a pupil absent
from the chosen session read "✓ RAS"; the last column ("À surveiller") was cut
at 1280 px; a fluency cell could read "★ su"; the pupil report's header
counted one session more than its chart; the class chart listed the pupils in
reverse alphabetical order; the trend column stayed "—" until a range was
chosen.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from classroom.names import name_sort_key
from tests.e2e.test_report_screenshots import _demo_class, _login

LAPTOP = {"width": 1280, "height": 800}

# A finished lesson in which only Léo and Inès played: the others were absent.
SMALL_LESSON = """
import json
from datetime import timedelta
from django.utils import timezone
from classroom.models import ClassSession, LearningRecord, SchoolClass
from tests.classroom.reportdata import record
c = SchoolClass.objects.get(pk={class_id})
s = ClassSession.objects.create(school_class=c, game="chasse")
now = timezone.now() - timedelta(minutes=30)
ClassSession.objects.filter(pk=s.pk).update(started_at=now, ended_at=now + timedelta(minutes=20))
rows = []
for i, name in enumerate(["Léo", "Inès"]):
    pupil = c.pupils.get(display_name=name)
    for n in range(6):
        rows.append(record(pupil, s, 10 * i + n, table_id=900_000_000 + s.pk,
                           created_at=now + timedelta(minutes=n)))
LearningRecord.objects.bulk_create(rows)
print(json.dumps(s.pk))
"""

CUT_CELLS = """(sel) => [...document.querySelectorAll(sel)]
    .filter(el => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
    .map(el => el.textContent.trim())"""


def test_class_and_pupil_reports_read_right_after_a_lesson(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    class_id, names = _demo_class(server)
    page = browser.new_page(viewport=LAPTOP)
    _login(page, server)

    # The whole history, no range chosen.
    page.goto(f"{server.url}/teacher/classes/{class_id}/report/")
    page.screenshot(path=str(screenshots / "report-class-1280x800.png"), full_page=True)
    # The last column is on screen, not cut and not scrolled away.
    scroll = page.evaluate(
        "() => { const s = document.querySelector('.rp-scroll');"
        " return [s.scrollWidth, s.clientWidth, s.getBoundingClientRect().right]; }"
    )
    assert scroll[0] <= scroll[1] + 1, scroll
    last = page.locator(".rp-class-table thead th").last
    box = last.bounding_box()
    assert box is not None and box["x"] + box["width"] <= LAPTOP["width"], box
    assert "surveiller" in last.inner_text()
    # The trend says something without choosing a range.
    trends = page.locator(".rp-class-table tbody .rp-trend").all_inner_texts()
    assert len(trends) == len(names)
    assert sum(t.strip() != "—" for t in trends) >= len(names) // 2, trends
    # The class chart lists the pupils A → Z, like the table.
    # Read from the top of the screen down, as the teacher reads it.
    chart_names = page.evaluate(
        "() => [...document.querySelectorAll('.rp-chart svg .axis text')]"
        ".map(t => [t.getBoundingClientRect().top, t.textContent.trim()])"
        ".filter(([_, t]) => t && !/^[0-9 %,.]+$/.test(t))"
        ".sort((a, b) => a[0] - b[0]).map(([_, t]) => t)"
    )
    shown = [n for n in chart_names if n in names]
    # The reader's order: Léo among the L's, before Lina (issue 48).
    assert shown == sorted(shown, key=name_sort_key) and len(shown) == len(names), chart_names

    # One session in which most pupils were absent.
    session_id = json.loads(server.shell(SMALL_LESSON.format(class_id=class_id)).splitlines()[-1])
    page.goto(f"{server.url}/teacher/classes/{class_id}/report/?session={session_id}")
    page.screenshot(path=str(screenshots / "report-class-session-1280x800.png"), full_page=True)
    rows = {
        row.locator("th").inner_text().strip(): row.inner_text()
        for row in page.locator(".rp-class-table tbody tr").all()
    }
    assert "RAS" in rows["Léo"] or "⚠" in rows["Léo"]
    absent = rows["Noah"]
    assert "RAS" not in absent and "pas joué" in absent, absent

    # A pupil's report: the header's count of sessions is the chart's.
    page.goto(f"{server.url}/teacher/classes/{class_id}/report/")
    page.get_by_role("link", name="Léo", exact=True).first.click()
    page.wait_for_url("**/report/")
    header = page.locator(".rp-kpis").first.inner_text()
    counted = int(re.search(r"(\d+)\s+séances?", header).group(1))  # type: ignore[union-attr]
    points = page.locator(".rp-chart svg").first.locator(".serie-0 .dot").count()
    assert counted == points, (counted, points, header)
    # A "★ su" cell never sits next to an all-time "50 %": it shows the recent
    # attempts that make it known; and every cell's text fits its box.
    fluent = page.locator(".rp-fluency .rp-cell.is-fluent").all_inner_texts()
    assert fluent, "the demo pupil knows some facts"
    assert all("%" not in text and "✓" in text for text in fluent), fluent
    cut = page.evaluate(CUT_CELLS, ".rp-fluency .rp-cell")
    assert cut == [], cut
    page.screenshot(path=str(screenshots / "report-pupil-1280x800.png"), full_page=True)
    page.close()
