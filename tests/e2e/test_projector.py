"""The projector during a lesson.

Before tables start, the session projector shows the join code. Once they
start, it switches by itself to a mosaic of the tables' public views (the code
stays small in a corner for late pupils). Each table's own projector view is
one click away on the session page, and no projector view ever shows a
teacher's button ("Rejouer", pause, end).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.e2e.test_play_chasse import _teacher
from tests.e2e.test_session_end import NEW_SESSION

PROJECTOR = {"width": 1280, "height": 800}

TABLES = """
import json
from cardgames.models import Table
from classroom import services
from classroom.models import Attendance, ClassSession
cs = ClassSession.objects.get(pk={session})
for pupil in cs.school_class.pupils.order_by("display_name")[:4]:
    Attendance.objects.get_or_create(class_session=cs, pupil=pupil)
services.groups_make(class_session=cs, size=2)
services.tables_start(class_session=cs)
print(json.dumps(list(Table.objects.filter(group_key=cs.group_key).order_by("number")
                      .values_list("pk", flat=True))))
"""

# Every table's game ends at once: the end screen is where "Rejouer" lives.
FINISH = """
from cardgames.models import Table
from cardgames import services
for table in Table.objects.filter(pk__in={ids}):
    services.table_end(table=table)
print("ok")
"""

TEACHER_BUTTONS = re.compile(r"Rejouer|Pause|Reprendre|Terminer|Mettre un robot")


def test_the_projector_switches_to_the_tables_and_never_shows_teacher_buttons(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    demo = json.loads(server.shell(NEW_SESSION).splitlines()[-1])
    teacher, page = _teacher(browser, server)
    projector = teacher.new_page()
    projector.set_viewport_size(PROJECTOR)
    projector.goto(f"{server.url}/teacher/sessions/{demo['session']}/projector/")
    assert demo["code"][:3] in projector.locator(".projector-code").inner_text()

    ids = json.loads(server.shell(TABLES.format(session=demo["session"])).splitlines()[-1])
    # The projector switches by itself (nobody touches it) to the tables.
    mosaic = projector.locator(".projector-mosaic")
    mosaic.wait_for(timeout=15_000)
    assert mosaic.locator(".mosaic-table").count() == 2
    assert mosaic.locator(".cg-total-value").count() == 2
    text = mosaic.inner_text()
    assert not TEACHER_BUTTONS.search(text), text
    # The code stays on screen, small, for a pupil who arrives late.
    assert demo["code"][:3] in projector.locator(".projector-corner").inner_text()
    projector.screenshot(path=str(screenshots / "projector-mosaic-1280x800.png"))

    # Each table's projector view is one click away on the session page.
    page.goto(f"{server.url}/teacher/sessions/{demo['session']}/")
    link = page.get_by_role("link", name=re.compile("Projeter la table 1"))
    page.screenshot(path=str(screenshots / "session-page-tables-1280x800.png"), full_page=True)
    assert link.get_attribute("href") == f"/table/{ids[0]}/projector/"
    single = teacher.new_page()
    single.set_viewport_size(PROJECTOR)
    single.goto(f"{server.url}{link.get_attribute('href')}")
    single.locator(".cg-total-value").wait_for()

    server.shell(FINISH.format(ids=ids))
    # Finished games: the projectors follow, still without "Rejouer".
    single.wait_for_timeout(2_500)
    projector.wait_for_timeout(2_500)
    for view in (single, projector):
        assert view.get_by_role("button", name=re.compile("Rejouer")).count() == 0
        assert not TEACHER_BUTTONS.search(view.locator("main").inner_text())
    single.reload()
    single.locator("#table-main").wait_for()
    assert single.get_by_role("button", name=re.compile("Rejouer")).count() == 0
    single.screenshot(path=str(screenshots / "projector-table-finished-1280x800.png"))
    projector.screenshot(path=str(screenshots / "projector-mosaic-finished-1280x800.png"))
    teacher.close()
