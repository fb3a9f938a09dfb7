"""Issue 48: a lesson's whole life, seen on the projector, the monitor, the
session page and a tablet at each step.

Two pupils join (a third and fourth, with long names, sit on tablets too). The
teacher groups and starts one table on the session page; its game is played
to the end (moves through the move service, as robots would: playing a Chasse
by taps is ``test_play_chasse``'s job); every screen says the table finished
and who won, the session page without a reload. "Rejouer" from the monitor
deals a new game and both tablets follow by themselves; then "Terminer la
séance" from the monitor (it asks first), and every screen says the lesson is
over: the monitor no longer offers to end it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.e2e.test_play_chasse import CLASS_NAME, PORTRAIT, _join, _play_turn, _teacher

NEW_SESSION = f"""
import json
from classroom import services
from classroom.models import SchoolClass, TabletLogin
c = SchoolClass.objects.get(name='{CLASS_NAME}')
s = services.session_start(school_class=c, game="chasse", options={{"tokens": 1, "target": 20}})
long_names = []
for name in ("Maximilienne", "Anne-Charlotte"):
    p, _ = c.pupils.get_or_create(display_name=name, defaults={{"picture_code": [3, 4]}})
    TabletLogin.objects.create(class_session=s, pupil=p, session_key="e2e-" + name)
p = list(c.pupils.order_by('display_name').values('pk', 'display_name', 'picture_code'))
print(json.dumps({{'code': s.join_code, 'session': s.pk, 'pupils': p}}))
"""

FORGET_LONG_NAMES = f"""
from classroom.models import SchoolClass
SchoolClass.objects.get(name='{CLASS_NAME}').pupils.filter(
    display_name__in=["Maximilienne", "Anne-Charlotte"]).delete()
"""


def _play_to_the_end(tablets: list[Any]) -> None:
    """The pupils play their turns by taps until the game is over."""
    quiet = {"chosen-play", "keypad-play", "tick-play"}  # no per-turn checks here
    for _ in range(400):
        if any(t.locator('[data-over="1"]').count() for t in tablets):
            return
        if not any(_play_turn(t, Path("."), "play", quiet) for t in tablets):
            tablets[0].wait_for_timeout(200)
    raise AssertionError("the game did not end")


def _shot(page: Any, screenshots: Path, name: str, seen: list[str]) -> None:
    page.wait_for_timeout(300)
    page.screenshot(path=str(screenshots / name), full_page=True)
    seen.append(name)


def _text(page: Any) -> str:
    return page.locator("main").inner_text()


def test_a_lesson_from_open_to_end(live_server_url: Any, browser: Any, screenshots: Path) -> None:
    server = live_server_url
    demo = json.loads(server.shell(NEW_SESSION).splitlines()[-1])
    session = demo["session"]
    by_name = {p["display_name"]: p for p in demo["pupils"]}
    seen: list[str] = []

    # ------------------------------------------------ waiting: open, join
    teacher, page = _teacher(browser, server)
    projector = teacher.new_page()
    projector.goto(f"{server.url}/teacher/sessions/{session}/projector/")
    jules = _join(browser, server, demo["code"], by_name["Jules"], PORTRAIT)
    hugo = _join(browser, server, demo["code"], by_name["Hugo"], PORTRAIT)
    jules.get_by_text("Attends ta table").wait_for()
    page.goto(f"{server.url}/teacher/sessions/{session}/")
    page.get_by_text("Déconnecter").first.wait_for()
    # The tablets' panel at 1280x800: no button sticks out, long names or not.
    panel = page.locator("#tablets").bounding_box()
    for button in page.locator("#tablets button").all():
        box = button.bounding_box()
        assert box["x"] + box["width"] <= panel["x"] + panel["width"] + 1, "a button sticks out"
    _shot(page, screenshots, "lesson-1-waiting-session-1280x800.png", seen)
    projector.get_by_text("Jules").wait_for()
    _shot(projector, screenshots, "lesson-1-waiting-projector.png", seen)

    # ------------------------------------------------ playing: group, start
    page.locator('button[name="size"][value="2"]').first.click()
    page.wait_for_load_state("networkidle")
    page.locator("#board").get_by_role("button", name=re.compile(r"Lancer 1 table")).click()
    page.wait_for_load_state("networkidle")
    jules.wait_for_url("**/table/**", timeout=10_000)
    hugo.wait_for_url("**/table/**", timeout=10_000)
    first_table = jules.url
    assert "lancée" in page.locator("#board").inner_text()
    monitor = teacher.new_page()
    monitor.goto(f"{server.url}/teacher/sessions/{session}/monitor/")
    monitor.locator(".mon-table").first.wait_for()
    assert "En cours" in monitor.locator(".mon-table").first.inner_text()
    projector.locator(".projector-mosaic").wait_for(timeout=10_000)
    _shot(monitor, screenshots, "lesson-2-playing-monitor.png", seen)
    _shot(projector, screenshots, "lesson-2-playing-projector.png", seen)
    _shot(jules, screenshots, "lesson-2-playing-tablet.png", seen)

    # ------------------------------------------------ one table finished
    _play_to_the_end([jules, hugo])
    card = monitor.locator(".mon-table").first
    card.locator(".mon-status-finished").wait_for(timeout=10_000)
    assert "Partie terminée" in card.locator(".mon-status").inner_text()
    assert re.search(r"A gagné|Ont gagné", card.inner_text())
    assert "⏳" not in card.inner_text()
    # The session page is told without a reload.
    board = page.locator("#board")
    board.locator(".table-card.is-finished").wait_for(timeout=10_000)
    assert "Partie terminée" in board.locator(".table-card.is-finished").inner_text()
    said = board.inner_text()
    assert "lancée" not in said and "Toutes les tables jouent" not in said
    assert board.get_by_role("button", name=re.compile("Rejouer")).is_visible()
    assert board.get_by_role("button", name=re.compile("Regrouper")).is_visible()
    projector.locator(".mosaic-table.is-finished").wait_for(timeout=10_000)
    jules.locator('#table-main[data-over="1"]').wait_for(timeout=10_000)
    _shot(page, screenshots, "lesson-3-finished-session-1280x800.png", seen)
    _shot(monitor, screenshots, "lesson-3-finished-monitor.png", seen)
    _shot(projector, screenshots, "lesson-3-finished-projector.png", seen)
    _shot(jules, screenshots, "lesson-3-finished-tablet.png", seen)

    # ------------------------------------------------ "Rejouer" from the monitor
    card.get_by_role("button", name=re.compile("Rejouer")).click()
    jules.wait_for_url(lambda url: "/table/" in url and url != first_table, timeout=10_000)
    hugo.wait_for_url(lambda url: "/table/" in url and url != first_table, timeout=10_000)
    jules.locator(".cg-total-value").wait_for(timeout=10_000)
    monitor.locator(".mon-status-playing").first.wait_for(timeout=10_000)
    assert monitor.locator(".mon-table").count() == 1  # the new game only, not both
    board.locator(".table-card.is-started:not(.is-finished)").wait_for(timeout=10_000)
    assert "Partie terminée" not in board.inner_text()
    projector.wait_for_timeout(3_500)  # the projector asks every 3 s
    assert projector.locator(".mosaic-table").count() == 1
    assert projector.locator(".mosaic-table.is-finished").count() == 0
    _shot(monitor, screenshots, "lesson-4-rematch-monitor.png", seen)
    _shot(jules, screenshots, "lesson-4-rematch-tablet.png", seen)
    _shot(page, screenshots, "lesson-4-rematch-session-1280x800.png", seen)

    # ------------------------------------------------ end the lesson from the monitor
    asked: list[str] = []

    def accept(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    monitor.on("dialog", accept)
    monitor.get_by_role("button", name=re.compile("Terminer la séance")).click()
    monitor.get_by_text("Cette séance est terminée").wait_for(timeout=10_000)
    assert asked and "Terminer la séance" in asked[0]
    assert monitor.get_by_role("button", name=re.compile("Terminer la séance")).count() == 0
    assert "⏳" not in _text(monitor)
    jules.locator(".cg-closed").wait_for(timeout=10_000)
    assert "La séance est terminée" in _text(jules)
    projector.get_by_text("Séance terminée").wait_for(timeout=10_000)
    page.reload()
    assert "terminée" in _text(page)
    _shot(monitor, screenshots, "lesson-5-ended-monitor.png", seen)
    _shot(projector, screenshots, "lesson-5-ended-projector.png", seen)
    _shot(jules, screenshots, "lesson-5-ended-tablet.png", seen)
    _shot(page, screenshots, "lesson-5-ended-session-1280x800.png", seen)

    for tablet in (jules, hugo):
        tablet.context.close()
    teacher.close()
    server.shell(FORGET_LONG_NAMES)
    # Later browser tests expect the demo class to have an open session.
    server.shell(NEW_SESSION.replace('("Maximilienne", "Anne-Charlotte")', "()"))
    assert len(seen) == 16
