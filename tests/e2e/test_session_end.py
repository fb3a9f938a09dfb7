"""Ending a lesson from the session page: one stray tap must not end it, and
once the teacher confirms, every tablet is told the lesson is over.

A pupil waits in the lobby, another plays at a table. The teacher taps
"Terminer la séance" on the session page: a confirmation step comes first and
the session is still open. After "Oui, terminer", the lobby tablet and the
table tablet both show that the lesson is over instead of staying as they were.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.e2e.test_play_chasse import CLASS_NAME, PORTRAIT, _join, _teacher

TABLET_LANDSCAPE = {"width": 1024, "height": 768}

NEW_SESSION = f"""
import json
from classroom import services
from classroom.models import SchoolClass
c = SchoolClass.objects.get(name='{CLASS_NAME}')
s = services.session_start(school_class=c, game="chasse", options={{}})
p = list(c.pupils.order_by('display_name').values('pk', 'display_name', 'picture_code'))
print(json.dumps({{'code': s.join_code, 'session': s.pk, 'pupils': p}}))
"""

TABLE_FOR = """
import json
from cardgames import services
from classroom.models import ClassSession, Pupil
cs = ClassSession.objects.get(pk={session})
me = Pupil.objects.get(pk={pupil})
seats = [services.SeatSpec(player_key=me.player_key, display_name=me.display_name, avatar=me.avatar),
         services.bot_seat(level="easy", number=1)]
table = services.table_create(game="chasse", seats=seats, group_key=cs.group_key, number=1)
services.table_start(table=table)
print(json.dumps(table.pk))
"""

IS_OPEN = "from classroom.models import ClassSession; print(ClassSession.objects.get(pk={pk}).is_open)"


def test_ending_the_session_asks_first_then_tells_the_tablets(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    demo = json.loads(server.shell(NEW_SESSION).splitlines()[-1])
    by_name = {p["display_name"]: p for p in demo["pupils"]}
    waiting = _join(browser, server, demo["code"], by_name["Jules"], PORTRAIT)
    playing = _join(browser, server, demo["code"], by_name["Hugo"], TABLET_LANDSCAPE)
    table_id = json.loads(
        server.shell(
            TABLE_FOR.format(session=demo["session"], pupil=by_name["Hugo"]["pk"])
        ).splitlines()[-1]
    )
    playing.goto(f"{server.url}/table/{table_id}/")
    playing.locator(".cg-total-value").wait_for()
    playing.wait_for_timeout(500)  # the socket is open

    teacher, page = _teacher(browser, server)
    page.goto(f"{server.url}/teacher/sessions/{demo['session']}/")
    page.get_by_role("link", name=re.compile("Terminer la séance")).click()
    # A confirmation first: one tap does not end the lesson.
    page.wait_for_load_state("networkidle")
    confirm = page.get_by_role("button", name=re.compile("Oui, terminer la séance"))
    confirm.wait_for()
    assert server.shell(IS_OPEN.format(pk=demo["session"])).splitlines()[-1] == "True"
    assert "tablette" in page.locator("main").inner_text()
    page.screenshot(path=str(screenshots / "session-end-confirm-1280x800.png"), full_page=True)
    confirm.click()
    page.wait_for_url(re.compile(r".*/teacher/classes/\d+/$"))
    assert server.shell(IS_OPEN.format(pk=demo["session"])).splitlines()[-1] == "False"

    # Both tablets are told, without anyone touching them.
    playing.locator(".cg-closed").wait_for(timeout=10_000)
    assert "La séance est terminée" in playing.locator("main").inner_text()
    playing.wait_for_timeout(1_500)  # the socket has closed by now
    assert not playing.get_by_text("Connexion perdue").is_visible()
    playing.screenshot(path=str(screenshots / "session-ended-table-1024x768.png"))
    waiting.locator(".lobby-ended").wait_for(timeout=10_000)
    assert "La séance est terminée" in waiting.locator("main").inner_text()
    waiting.screenshot(path=str(screenshots / "session-ended-lobby-768x1024.png"))
    # And a reload does not bring the lesson back.
    waiting.reload()
    assert "/lobby/" not in waiting.url or "Attends ta table" not in waiting.content()

    for tablet in (waiting, playing):
        tablet.context.close()
    teacher.close()
    # Later browser tests expect the demo class to have an open session.
    server.shell(NEW_SESSION)


def test_a_tablet_signed_out_from_the_session_page_says_goodbye_in_the_lobby(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    """The teacher signs out a tablet whose child waits in the lobby (the wrong
    child picked a name, say): that tablet says goodbye at once, in its own
    language, instead of waiting on for a table."""
    server = live_server_url
    demo = json.loads(server.shell(NEW_SESSION).splitlines()[-1])
    by_name = {p["display_name"]: p for p in demo["pupils"]}
    waiting = _join(browser, server, demo["code"], by_name["Jules"], PORTRAIT)
    waiting.get_by_text("Attends ta table").wait_for()
    waiting.wait_for_timeout(500)  # the lobby's socket is open

    teacher, page = _teacher(browser, server)
    page.goto(f"{server.url}/teacher/sessions/{demo['session']}/")
    page.get_by_role("button", name="Déconnecter la tablette de Jules").click()
    page.wait_for_load_state("networkidle")
    # The teacher's list is redrawn live over a socket; its button still works.
    page.get_by_text("La tablette de Jules est déconnectée.").wait_for()

    waiting.locator(".lobby-ended").wait_for(timeout=10_000)
    said = waiting.locator("main").inner_text()
    assert "Cette tablette a été déconnectée" in said and "Attends ta table" not in said
    waiting.wait_for_timeout(1_500)  # the socket has closed by now
    assert not waiting.get_by_text("Connexion perdue").is_visible()
    waiting.screenshot(path=str(screenshots / "signed-out-lobby-768x1024.png"))
    # The button goes home, where the next child starts again.
    waiting.get_by_role("link", name="Retour à l'accueil").click()
    waiting.wait_for_load_state("networkidle")
    assert "/lobby/" not in waiting.url
    waiting.context.close()
    teacher.close()
    # Later browser tests expect the demo class to have an open session.
    server.shell(NEW_SESSION)
