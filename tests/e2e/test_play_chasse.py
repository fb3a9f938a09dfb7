"""Chasse aux Souris in a real browser: a teacher starts a session, two pupils
join on tablets (one portrait, one landscape) by code, name and picture code,
and they play with one robot until a round ends, by tapping cards and typing
totals on the keypad. The teacher's monitor shows the table.

Screenshots go to ``artifacts/screenshots/`` for a human to look at.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.e2e.board import choose_game, groups_make, join_on, table_robots
from tests.e2e.conftest import axe_check, small_touch_targets

PORTRAIT = {"width": 768, "height": 1024}
LANDSCAPE = {"width": 1280, "height": 800}
# A tablet held sideways (an iPad in landscape): the short screen.
TABLET_LANDSCAPE = {"width": 1024, "height": 768}
CLASS_NAME = "CE1 Les Chats"
# Everything a pupil taps on a table screen (WCAG 2.2 target size: 44 x 44).
PUPIL_TARGETS = "main button, main a, main input:not([type=hidden]), main .cg-card"


def _teacher(browser: Any, server: Any) -> tuple[Any, Any]:
    context = browser.new_context(viewport=LANDSCAPE, locale="fr-FR", reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{server.url}/teacher/login/")
    page.fill('input[name="username"]', "demo@example.org")
    page.fill('input[name="password"]', "souris-demo-2026")
    page.get_by_role("button", name="Se connecter").last.click()
    page.wait_for_url("**/teacher/")
    return context, page


def _class_id(server: Any) -> int:
    """The demo class's id, read as the teacher's pages would find it."""
    return int(
        json.loads(
            server.shell(
                "import json; from classroom.models import SchoolClass;"
                f"print(json.dumps(SchoolClass.objects.get(name='{CLASS_NAME}').pk))"
            ).splitlines()[-1]
        )
    )


def _session(server: Any) -> dict[str, Any]:
    code = (
        "import json; from classroom.models import ClassSession;"
        f"s = ClassSession.objects.filter(school_class__name='{CLASS_NAME}', ended_at__isnull=True,"
        " practice=False).order_by('-id').first();"
        "p = list(s.school_class.pupils.order_by('display_name').values('pk', 'display_name', 'picture_code'));"
        "print(json.dumps({'code': s.join_code, 'session': s.pk, 'class': s.school_class_id,"
        " 'options': s.options, 'pupils': p}))"
    )
    return json.loads(server.shell(code).splitlines()[-1])


def _join(browser: Any, server: Any, code: str, pupil: dict[str, Any], viewport: dict) -> Any:
    # Reduced motion: the screenshots never catch a fade-in halfway.
    context = browser.new_context(
        viewport=viewport, has_touch=True, locale="fr-FR", reduced_motion="reduce"
    )
    page = context.new_page()
    join_on(page, server.url, code, pupil)
    page.wait_for_url("**/lobby/")
    return page


def _round_over(page: Any) -> bool:
    text = page.locator("#table-main").inner_text()
    return "Fin de la manche" in text or "Manche 2" in text or "Partie terminée" in text


def _play_turn(page: Any, shots: Path, name: str, taken: set[str]) -> bool:
    """If it is this tablet's turn: tap a card, then type the total. Returns
    whether a move was made."""
    main = page.locator("#table-main")
    if main.locator(".cg-myturn").count() == 0:
        return False
    total = int(main.locator(".cg-total-value").inner_text().strip())
    cards = main.locator(".cg-hand button.cg-card:not([disabled])")
    if cards.count() == 0:
        return False
    if name == "1024x768":
        # Sideways, "your turn" and the whole hand are on one screen with no
        # scrolling, "how to play" still open on a first turn included.
        page.evaluate("window.scrollTo(0, 0)")
        assert _in_view(page, ".cg-myturn, .cg-hand"), (name, _rects(page, ".cg-myturn, .cg-hand"))
    card = cards.first
    kind, value = card.get_attribute("data-kind"), int(card.get_attribute("data-value") or 0)
    card_id = card.get_attribute("data-card")
    card.click()  # step 1: the server learns which card (think time)
    panel = main.locator(".cg-panel")
    panel.wait_for(timeout=10_000)
    if f"chosen-{name}" not in taken:
        # The tap re-sent the chosen card and the panel only: the page still
        # reads as a fresh load of the table would (card chosen, panel open).
        taken.add(f"chosen-{name}")
        _same_as_a_fresh_load(page)
    if panel.locator(".cg-keypad").count():
        assert "Combien ça fait ?" in panel.inner_text()
        # The total and the keypad on one screen, no scrolling (the hand sits
        # right below; a pinned explanation may push it past the fold).
        assert _in_view(page, ".cg-total-value, .cg-keypad"), name
        if f"keypad-{name}" not in taken:
            taken.add(f"keypad-{name}")
            page.screenshot(path=str(shots / f"chasse-keypad-{name}.png"))
            axe_check(page, f"chasse-keypad-{name}")
            assert small_touch_targets(page, PUPIL_TARGETS) == [], name
        answer = total + value if kind == "add" else total - value
        for digit in str(answer):
            panel.locator(f'.cg-key[data-key="{digit}"]').click()
        assert panel.locator(".cg-announce-input").input_value() == str(answer)
        panel.locator('.cg-key[data-key="ok"]').click()  # step 2: announce (compute time)
    else:
        panel.locator(".cg-play").click()
    # The move is applied: the card leaves the hand.
    page.locator(f'.cg-hand [data-card="{card_id}"]').wait_for(state="detached", timeout=10_000)
    if kind in ("add", "sub") and f"tick-{name}" not in taken:
        feedback = page.locator(".cg-feedback")
        try:
            feedback.wait_for(timeout=3_000)
            taken.add(f"tick-{name}")
            assert "juste" in feedback.inner_text()
            page.screenshot(path=str(shots / f"chasse-feedback-{name}.png"))
        except Exception:
            pass
    return True


# What a pupil sees of the table, read off the page: the log and the short
# history line by line ("|" the separator above which lines are the newest
# move's), whose turn is marked, the hand (each card usable or not, chosen or
# not), whether the announcing panel is open, the total and the version shown.
READING = """() => {
  const lines = (sel) => [...document.querySelectorAll(sel + ' > li')].map(
      (li) => li.classList.contains('cg-sep') ? '|' : li.textContent.trim());
  const marked = [...document.querySelectorAll('.cg-player')].filter((p) => {
      const tag = p.querySelector('.cg-turn-tag');
      return tag && getComputedStyle(tag).display !== 'none'; }).map((p) => p.dataset.seat);
  const state = document.querySelector('#table-state');
  const hand = [...document.querySelectorAll('#cg-hand .cg-card')].map(
      (c) => c.dataset.card + (c.disabled ? '-' : '+') + c.getAttribute('aria-pressed'));
  const panel = document.querySelector('.cg-mode.is-panel') ? 'open' : 'closed';
  return {version: state && state.dataset.version, log: lines('#table-log-list'), hand, panel,
          history: lines('#cg-history-list'), marked,
          total: (document.querySelector('.cg-total-value') || {}).textContent};
}"""


def _same_as_a_fresh_load(tablet: Any) -> None:
    """The screen a tablet built from the live updates (new lines put on top,
    old ones dropped, the turn marked by the state line) reads exactly as the
    same table loaded afresh: htmx did with each update what the server meant."""
    fresh = tablet.context.new_page()
    fresh.goto(tablet.url)
    fresh.locator(".cg-total-value").wait_for()
    live = again = None
    for _ in range(40):  # a robot may move meanwhile: compare at one version
        fresh.wait_for_timeout(250)
        live, again = tablet.evaluate(READING), fresh.evaluate(READING)
        if live == again:
            break
    fresh.close()
    assert live == again
    assert not live["log"] or "|" in live["log"]  # the newest move's lines marked
    assert len(live["marked"]) <= 1


def test_two_pupils_and_a_robot_play_a_round_on_tablets(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    teacher, page = _teacher(browser, server)
    # 1. The teacher starts a session of Chasse with a short target.
    class_id = _class_id(server)
    page.goto(f"{server.url}/teacher/classes/{class_id}/sessions/new/")
    choose_game(page, "chasse")
    page.fill('input[name="target"]', "30")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r".*/teacher/sessions/\d+/$"))
    demo = _session(server)
    assert demo["options"]["target"] == 30

    # 2. Two pupils join, each on their own tablet.
    pupils = demo["pupils"][:2]
    tablets = [
        _join(browser, server, demo["code"], pupils[0], PORTRAIT),
        _join(browser, server, demo["code"], pupils[1], TABLET_LANDSCAPE),
    ]
    # 3. One table: the two pupils and one robot.
    page.reload()
    groups_make(page, 3)
    table_robots(page, level="easy", places=3)
    # The board is swapped in by htmx: wait for it, not for a fixed time.
    expect(page.locator(".table-card").first).to_contain_text("1 robot", timeout=15_000)
    page.get_by_role("button", name=re.compile("Lancer 1 table")).click()
    for tablet in tablets:
        tablet.wait_for_url("**/table/**", timeout=15_000)
        tablet.locator(".cg-total-value").wait_for(timeout=10_000)
    table_url = tablets[0].url
    for tablet, name in zip(tablets, ("768x1024", "1024x768"), strict=True):
        axe_check(tablet, f"chasse-table-{name}")
        assert small_touch_targets(tablet, PUPIL_TARGETS) == [], name
    # 4. The teacher follows the tables on the monitor.
    monitor = teacher.new_page()
    monitor.goto(f"{server.url}/teacher/sessions/{demo['session']}/monitor/")

    # 5. Play until the round ends, by tapping cards and typing totals.
    names = ["768x1024", "1024x768"]
    taken: set[str] = set()
    moves = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline and not _round_over(tablets[0]):
        played = False
        for tablet, name in zip(tablets, names, strict=True):
            if _play_turn(tablet, screenshots, name, taken):
                moves += 1
                played = True
                if moves == 2:
                    for each in tablets:
                        _same_as_a_fresh_load(each)
                    _network_lost_and_back(tablets[0], tablets[1])
        if not played:
            tablets[0].wait_for_timeout(150)
    assert _round_over(tablets[0]), "the round never ended"
    assert moves >= 2
    for tablet in tablets:
        _same_as_a_fresh_load(tablet)
    assert {"keypad-768x1024", "keypad-1024x768"} <= taken or moves >= 2
    for tablet, name in zip(tablets, names, strict=True):
        tablet.wait_for_timeout(400)
        tablet.screenshot(path=str(screenshots / f"chasse-round-over-{name}.png"), full_page=True)
        axe_check(tablet, f"chasse-round-over-{name}")
    # Each announcement became a learning record, and the robot left none.
    records = json.loads(
        server.shell(
            "import json; from classroom.models import LearningRecord;"
            f"rs = LearningRecord.objects.filter(class_session_id={demo['session']});"
            "print(json.dumps([[r.pupil_id, r.correct] for r in rs]))"
        ).splitlines()[-1]
    )
    assert records and {pupil_id for pupil_id, _ok in records} <= {p["pk"] for p in pupils}
    assert all(ok for _pid, ok in records), "the test typed every total right"
    # The teacher's monitor shows the table, and so does the projector view.
    monitor.reload()
    monitor.wait_for_load_state("networkidle")
    assert pupils[0]["display_name"] in monitor.locator("body").inner_text()
    monitor.screenshot(path=str(screenshots / "chasse-monitor-1280x800.png"), full_page=True)
    axe_check(monitor, "monitor")
    watch = teacher.new_page()
    watch.goto(table_url)
    watch.locator(".cg-total-value").wait_for()
    # The history explains the moves in words, on the first paint already.
    assert watch.locator("#table-log .cg-event").count() > 0
    watch.screenshot(path=str(screenshots / "chasse-teacher-table-1280x800.png"), full_page=True)
    axe_check(watch, "chasse-teacher-table")
    for tablet in tablets:
        tablet.context.close()
    teacher.close()


def _network_lost_and_back(tablet: Any, other: Any) -> None:
    """A tablet whose Wi-Fi drops says so at once; back online, it shows the
    table as it is now (another tablet's screen), not a frozen one."""
    tablet.context.set_offline(True)
    expect(tablet.locator(".cg-connection")).to_be_visible(timeout=5_000)
    tablet.context.set_offline(False)
    tablet.wait_for_load_state("load")
    expect(tablet.locator(".cg-connection")).to_be_hidden(timeout=10_000)
    expect(tablet.locator(".cg-total-value")).to_have_text(
        other.locator(".cg-total-value").inner_text(), timeout=10_000
    )


def _rects(page: Any, selector: str) -> list[dict[str, float]]:
    """Where the elements matching ``selector`` are, and the viewport (a failure's story)."""
    return list(
        page.evaluate(
            """sel => [...document.querySelectorAll(sel)].map(el => {
                const r = el.getBoundingClientRect();
                return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                        height: window.innerHeight, width: window.innerWidth, scrollY: window.scrollY};
            })""",
            selector,
        )
    )


def _in_view(page: Any, selector: str) -> bool:
    """Whether every element matching ``selector`` lies inside the viewport
    (nothing to scroll to see it)."""
    return bool(
        page.evaluate(
            """sel => [...document.querySelectorAll(sel)].every(el => {
                const r = el.getBoundingClientRect();
                return r.top >= 0 && r.bottom <= window.innerHeight
                    && r.left >= 0 && r.right <= window.innerWidth;
            })""",
            selector,
        )
    )


CHOICE_TABLE = """
import json
from cardgames import services
from classroom.models import ClassSession
cs = ClassSession.objects.filter(practice=True, attendances__pupil_id={pk}).latest("pk")
seat = cs.attendances.get().pupil
seats = [services.SeatSpec(player_key=seat.player_key, display_name=seat.display_name,
    avatar=seat.avatar), services.bot_seat(level="easy", number=1)]
table = services.table_create(game="chasse", seats=seats, group_key=cs.group_key, number=2,
    options={{"announce": "choice", "tokens": 1, "target": 50}})
services.table_start(table=table)
print(json.dumps(table.pk))
"""


def test_practice_in_choice_mode_until_the_ranking(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    """Solo practice: the setup page, then a game in 3-button mode with one
    white card each, so the first round ends the game: ranking and "Rejouer"."""
    server = live_server_url
    info = json.loads(
        server.shell(
            "import json; from classroom.models import SchoolClass;"
            f"c = SchoolClass.objects.get(name='{CLASS_NAME}');"
            "p = c.pupils.order_by('display_name')[2];"
            "print(json.dumps({'token': c.link_token, 'pk': p.pk, 'name': p.display_name,"
            " 'code': p.picture_code}))"
        ).splitlines()[-1]
    )
    context = browser.new_context(
        viewport=PORTRAIT, has_touch=True, locale="fr-FR", reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{server.url}/practice/{info['token']}/")
    page.get_by_role("link", name=info["name"], exact=True).click()
    page.wait_for_url("**/pupil/**")
    first, second = info["code"]
    page.locator(f'button[name="pick"][value="{first}"]').click()
    page.locator(".pick-slot.filled").first.wait_for()
    page.locator(f'button[name="pick"][value="{second}"]').click()
    page.wait_for_url("**/practice/setup/")
    page.screenshot(path=str(screenshots / "practice-setup-768x1024.png"), full_page=True)
    axe_check(page, "practice-setup")
    assert small_touch_targets(page, PUPIL_TARGETS) == []
    page.get_by_role("button", name=re.compile("C'est parti")).click()
    page.wait_for_url("**/table/**")
    # The same practice session, at a second table in 3-button mode with one
    # white card each (the teacher's options form is tested elsewhere).

    table_id = json.loads(server.shell(CHOICE_TABLE.format(pk=info["pk"])).splitlines()[-1])
    page.goto(f"{server.url}/table/{table_id}/")
    page.locator(".cg-total-value").wait_for()
    main = page.locator("#table-main")
    chose = False
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and "Partie terminée" not in main.inner_text():
        cards = main.locator(".cg-hand button.cg-card:not([disabled])")
        if main.locator(".cg-myturn").count() == 0 or cards.count() == 0:
            page.wait_for_timeout(150)
            continue
        total = int(main.locator(".cg-total-value").inner_text().strip())
        numbers = main.locator(
            '.cg-hand button.cg-card:not([disabled]):is([data-kind="add"], [data-kind="sub"])'
        )
        card = numbers.first if numbers.count() else cards.first
        kind, value = card.get_attribute("data-kind"), int(card.get_attribute("data-value") or 0)
        card_id = card.get_attribute("data-card")
        card.click()
        panel = main.locator(".cg-panel")
        panel.wait_for(timeout=10_000)
        if panel.locator(".cg-choices").count():
            buttons = panel.locator(".cg-choice")
            assert buttons.count() == 3
            # Total, chosen card, the three answers and the hand: one screen.
            assert _in_view(page, ".cg-total-value, .cg-choices, .cg-hand .cg-card")
            if not chose:
                chose = True
                page.screenshot(path=str(screenshots / "chasse-choice-768x1024.png"))
                axe_check(page, "chasse-choice")
                assert small_touch_targets(page, PUPIL_TARGETS) == []
            answer = total + value if kind == "add" else total - value
            panel.get_by_role("button", name=str(answer), exact=True).click()
        else:
            panel.locator(".cg-play").click()
        page.locator(f'.cg-hand [data-card="{card_id}"]').wait_for(state="detached", timeout=10_000)
    assert "Partie terminée" in main.inner_text(), "the game never ended"
    assert chose, "never saw the 3-button choice"
    ranking = main.locator(".cg-ranking")
    ranking.wait_for()
    assert ranking.locator(".cg-rank").count() == 2
    # A practising pupil steers their own table: "Rejouer", also on a fresh load.
    page.reload()
    page.locator(".cg-ranking").get_by_role("button", name=re.compile("Rejouer")).wait_for()
    page.screenshot(path=str(screenshots / "chasse-game-over-768x1024.png"), full_page=True)
    axe_check(page, "practice-game-over-768x1024")
    page.set_viewport_size(LANDSCAPE)
    page.screenshot(path=str(screenshots / "chasse-game-over-1280x800.png"), full_page=True)
    axe_check(page, "practice-game-over-1280x800")
    context.close()
