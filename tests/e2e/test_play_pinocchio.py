"""Pinocchio in a real browser: a French class practising German words.

The teacher opens a Pinocchio session with ``words_language = de`` (interface
in French), three pupils join on tablets (two portrait 768x1024, one landscape
1024x768) and are grouped with one robot. They play to the end by tapping:
a forced lie, a chosen lie, a right doubt, a wrong doubt, beliefs; a greyed
announcement tapped says why. The noses on screen match the engine's, and
the teacher's reports show each pupil's doubts, right doubts, bluffs, bluffs
found out and noses as the table's log has them
(``test_social_reports_after_play.check_reports``).

The deal is seeded after the teacher starts the table (``RESEED``): with the
robot's choices drawn from the table's seed, the whole game is the same each run.

Screenshots go to ``artifacts/screenshots/pinocchio-*.png`` for a human to look at.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from tests.e2e.board import groups_make, table_robots
from tests.e2e.test_play_chasse import CLASS_NAME, _class_id, _join, _session, _teacher
from tests.e2e.test_social_reports_after_play import (
    check_reports,
    choose_game,
    pinocchio_figures,
    table_log,
)

PORTRAIT = {"width": 768, "height": 1024}
LANDSCAPE = {"width": 1024, "height": 768}
GERMAN = re.compile(
    r"\b(eine?|rote[rs]?|blaue[rs]?|gelbe[rs]?|Mütze|Fliege|Hemd|Hose|Holzschuhe)\b"
)

START = """
from classroom import services
from classroom.models import SchoolClass
c = SchoolClass.objects.get(name={name!r})
s = services.session_start(school_class=c, game="pinocchio", options={{"words_language": "de"}})
print(s.pk)
"""


# The table's seed, and a new deal from it, before anyone has moved (seat 0,
# a pupil, plays first): the robot's choices come from the table's seed too.
SEED = 46
RESEED = """
from cardgames import engines
from cardgames.models import GameEvent, GameState, Table
from cardgames.services.turns import events_record
t = Table.objects.get(pk={table})
engine = engines.get(t.game)
gs = GameState.objects.get(table=t)
assert gs.version == 0, gs.version
state = engine.new_game(t.seats.count(), {seed}, t.options)
Table.objects.filter(pk=t.pk).update(seed={seed})
gs.state = engine.to_json(state)
gs.next_seq = len(state.log)
gs.save(update_fields=["state", "next_seq"])
GameEvent.objects.filter(table=t).delete()
events_record(table_id=t.pk, first_seq=0, version=0, events=state.log)
print("ok")
"""


def _start_session(page: Any, server: Any, class_id: int) -> None:
    """Through the session form when it offers Pinocchio; until then, through
    the service layer (the form is the platform issue's)."""
    page.goto(f"{server.url}/teacher/classes/{class_id}/sessions/new/")
    choice = page.locator('input[name="game"][value="pinocchio"]')
    if choice.count():
        choose_game(page, "pinocchio")
        page.locator('input[name="words_language"][value="de"]').check()
        page.locator("form button[type=submit]").last.click()
        page.wait_for_url(re.compile(r".*/teacher/sessions/\d+/$"))
    else:
        session_id = server.shell(START.format(name=CLASS_NAME)).splitlines()[-1]
        page.goto(f"{server.url}/teacher/sessions/{session_id}/")


class Player:
    """One tablet and what the test remembers of its own last announcement."""

    def __init__(self, page: Any, name: str, seat: int) -> None:
        self.page = page
        self.name = name
        self.seat = seat
        self.last_lied: bool | None = None


def _shot(player: Player, shots: Path, what: str, taken: set[str]) -> None:
    key = f"{what}-{player.name}"
    if key in taken:
        return
    taken.add(key)
    player.page.screenshot(path=str(shots / f"pinocchio-{key}.png"))


def test_three_pupils_and_a_robot_play_pinocchio_with_german_words(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    teacher, page = _teacher(browser, server)
    class_id = _class_id(server)
    _start_session(page, server, class_id)
    demo = _session(server)
    assert demo["options"]["words_language"] == "de"

    # Three pupils join; seats follow the order they joined in.
    pupils = demo["pupils"][3:6]
    views = [("768x1024", PORTRAIT), ("1024x768", LANDSCAPE), ("768x1024-b", PORTRAIT)]
    players = [
        Player(_join(browser, server, demo["code"], pupil, viewport), name, seat)
        for seat, (pupil, (name, viewport)) in enumerate(zip(pupils, views, strict=True))
    ]
    page.reload()
    # One table of four places: the three pupils and a robot.
    groups_make(page, 4)
    table_robots(page, level="easy", places=4)
    page.get_by_role("button", name=re.compile("Lancer 1 table")).click()
    for player in players:
        player.page.wait_for_url("**/table/**", timeout=15_000)
        player.page.locator(".pn-players").wait_for(timeout=10_000)
    assert players[0].page.locator(".pn-player").count() == 4
    # The robot's seat (its emoji, or since the players strip changed, its name).
    strip = players[0].page.locator(".pn-players").inner_text()
    assert "🤖" in strip or "Robot" in strip, strip
    table_id = int(re.search(r"/table/(\d+)/", players[0].page.url).group(1))
    assert server.shell(RESEED.format(table=table_id, seed=SEED)).splitlines()[-1] == "ok"
    for player in players:
        player.page.reload()
        player.page.locator(".pn-players").wait_for(timeout=10_000)
    # Interface in French, words in German, on the very first screen.
    first = players[0].page.locator("#table-main").inner_text()
    assert "C'est ton tour" in first and "Ta carte" in first
    assert GERMAN.search(players[0].page.locator(".pn-drawn .pn-words").inner_text())
    _speaks_only_when_tapped(players[0].page)

    done: set[str] = set()
    taken: set[str] = set()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if players[0].page.locator(".pn-ranking").count():
            break
        moved = False
        for index, player in enumerate(players):
            previous = players[index - 1] if index > 0 else None
            if _judge(player, previous, done, screenshots, taken) or _announce(
                player, done, screenshots, taken
            ):
                moved = True
        if not moved:
            players[0].page.wait_for_timeout(150)
        for player in players:
            if player.page.locator(".pn-reveal.is-lie, .pn-reveal.is-true").count():
                _shot(player, screenshots, "reveal", taken)
    assert players[0].page.locator(".pn-ranking").count(), "the game never ended"
    assert {"forced_lie", "chosen_lie", "right_doubt", "wrong_doubt", "believe", "why"} <= done, (
        done
    )

    # The noses on every screen are the engine's.
    noses = json.loads(
        server.shell(
            "import json; from cardgames.models import GameState; from cardgames import engines;"
            f"g = GameState.objects.get(table_id={table_id}); e = engines.get('pinocchio');"
            "s = e.from_json(g.state); print(json.dumps([s.noses, e.result(s)['winners']]))"
        ).splitlines()[-1]
    )[0]
    for player in players:
        player.page.locator(".pn-ranking").wait_for()
        for seat, count in enumerate(noses):
            strip = player.page.locator(f'.pn-player[data-seat="{seat}"]')
            assert strip.get_attribute("data-noses") == str(count)
            assert strip.locator(".pn-nose-count").inner_text().strip() == str(count)
            row = player.page.locator(f'.pn-ranking .cg-rank[data-seat="{seat}"]')
            assert f"{count} nez" in row.inner_text()
        _shot(player, screenshots, "end", taken)
        player.page.screenshot(
            path=str(screenshots / f"pinocchio-end-full-{player.name}.png"), full_page=True
        )

    # The teacher: the table's public view (projector) and the monitor.
    watch = teacher.new_page()
    watch.goto(f"{server.url}/table/{table_id}/")
    watch.locator(".pn-public").wait_for()
    assert "Rejouer" in watch.locator("#table-main").inner_text()
    watch.screenshot(path=str(screenshots / "pinocchio-teacher-table-1280x800.png"), full_page=True)
    projector = teacher.new_page()
    projector.goto(f"{server.url}/table/{table_id}/projector/")
    projector.locator(".pn-public").wait_for()
    assert projector.locator(".pn-revealed-item").count() > 0
    projector.screenshot(path=str(screenshots / "pinocchio-projector-1280x800.png"), full_page=True)
    monitor = teacher.new_page()
    monitor.goto(f"{server.url}/teacher/sessions/{demo['session']}/monitor/")
    monitor.wait_for_load_state("networkidle")
    assert "Nez" in monitor.locator("body").inner_text()
    monitor.screenshot(path=str(screenshots / "pinocchio-monitor-1280x800.png"), full_page=True)
    # The teacher's reports: Pinocchio's own figures, counted here from the
    # table's log, the German words included.
    log = table_log(server, table_id)
    expected = pinocchio_figures(log, language="allemand")
    print("pinocchio, expected:", json.dumps(expected, ensure_ascii=False))
    names = {p["pk"]: p["display_name"] for p in pupils}
    assert {int(f["Nez"][0]) for f in expected.values()} <= set(noses)
    # The doubts the test made on purpose (a right one, a wrong one) are counted.
    assert sum(int(f["Doutes"][0]) for f in expected.values()) >= 2
    assert sum(int(f["Doutes justes"][0]) for f in expected.values()) >= 1
    assert sum(int(f["Bluffs"][0]) for f in expected.values()) >= 2
    check_reports(
        browser=browser,
        teacher=teacher,
        server=server,
        game="pinocchio",
        session_id=demo["session"],
        class_id=class_id,
        table_id=table_id,
        expected=expected,
        names=names,
        screenshots=screenshots,
    )
    for player in players:
        player.page.context.close()
    teacher.close()


def _judge(
    player: Player, previous: Player | None, done: set[str], shots: Path, taken: set[str]
) -> bool:
    """Doubt or believe, on purpose: the test knows the truth of a pupil's
    announcement it made itself, so it doubts a lie (right) and a truth (wrong)
    once each, and believes otherwise."""
    page = player.page
    main = page.locator("#table-main")
    if main.locator(".pn-doubt").count() == 0:
        return False
    version = page.locator("#table-state").get_attribute("data-version")
    assert "Tu crois" in main.locator(".cg-myturn").inner_text()
    _shot(player, shots, "judge", taken)
    lied = previous.last_lied if previous is not None else None
    if lied is True and "right_doubt" not in done:
        move, done_as = "doubt", "right_doubt"
    elif lied is False and "wrong_doubt" not in done:
        move, done_as = "doubt", "wrong_doubt"
    else:
        move, done_as = "believe", "believe"
    main.locator(f".pn-{move}").click()
    page.wait_for_function(
        "v => document.querySelector('#table-state').dataset.version !== v",
        arg=version,
        timeout=10_000,
    )
    if move == "doubt":
        reveal = page.locator(".pn-reveal")
        reveal.wait_for(timeout=5_000)
        verdict = reveal.locator(".pn-verdict").inner_text()
        if done_as == "right_doubt":
            assert "a menti et prend un nez" in verdict, verdict
        else:
            assert "C'était bien" in verdict and "tu prends un nez" in verdict, verdict
        assert GERMAN.search(verdict), verdict
        _shot(player, shots, f"reveal-{done_as}", taken)
    done.add(done_as)
    return True


def _announce(player: Player, done: set[str], shots: Path, taken: set[str]) -> bool:
    page = player.page
    main = page.locator("#table-main")
    if main.locator(".pn-grid").count() == 0:
        return False
    version = page.locator("#table-state").get_attribute("data-version")
    mine = main.locator(".pn-tile.is-mine")
    forced = main.locator(".pn-forced").count() > 0
    forbidden = main.locator(".pn-tile.is-forbidden")
    if forbidden.count() and "why" not in done:
        # A greyed choice says why when tapped.
        forbidden.first.click(force=True)  # aria-disabled: Playwright waits, a finger does not
        hint = main.locator("[data-pn-hint]")
        page.wait_for_function(
            "() => document.querySelector('[data-pn-hint]').textContent.length > 0"
        )
        assert "Tu dois garder le vêtement ou la couleur" in hint.inner_text()
        assert GERMAN.search(hint.inner_text())
        _shot(player, shots, "why", taken)
        done.add("why")
    _shot(player, shots, "announce", taken)
    allowed = main.locator(".pn-tile:not(.is-forbidden)")
    assert allowed.count() in (7, 15)
    if forced:
        assert mine.evaluate("el => el.classList.contains('is-forbidden')")
        _shot(player, shots, "forced", taken)
        choice, done_as, lied = allowed.first, "forced_lie", True
    elif "chosen_lie" not in done:
        choice = main.locator(".pn-tile:not(.is-forbidden):not(.is-mine)").first
        done_as, lied = "chosen_lie", True
    else:
        choice, done_as, lied = mine, "truth", False
    # A free announcement after a doubt cannot be judged: the test learns nothing from it.
    free_and_safe = "Personne ne pourra en douter" in main.inner_text()
    choice.click()
    page.wait_for_function(
        "v => document.querySelector('#table-state').dataset.version !== v",
        arg=version,
        timeout=10_000,
    )
    player.last_lied = None if free_and_safe else lied
    done.add(done_as)
    return True


SIX = """
import json
from cardgames import services
from classroom.models import ClassSession
s = ClassSession.objects.get(pk={session})
names = {names!r}
seats = [services.SeatSpec(player_key=f"pupil:{{9900 + i}}", display_name=n, avatar="fox")
         for i, n in enumerate(names[:3])]
seats += [services.bot_seat(level="easy", number=i + 1) for i in range(3)]
table = services.table_create(game="pinocchio", seats=seats, group_key=s.group_key, number=9,
    options={{"words_language": "en"}})
services.table_start(table=table)
print(json.dumps(table.pk))
"""
LONG_NAMES = ["Maximilienne", "Jean-Baptiste", "Anne-Charlotte"]
# Every word of the name on one line (a word split over two lines has two
# boxes), and nothing hidden behind an ellipsis.
WHOLE_WORDS = """el => {
    if (el.scrollWidth > el.clientWidth + 1) return false;
    const text = el.querySelector('bdi').firstChild;
    const range = document.createRange();
    let start = 0;
    for (const word of text.textContent.split(/([ -])/)) {
        if (word.trim() && word !== '-') {
            range.setStart(text, start); range.setEnd(text, start + word.length);
            if (range.getClientRects().length > 1) return false;
        }
        start += word.length;
    }
    return true;
}"""


def test_six_names_stay_whole_on_a_portrait_tablet(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    """Six seats, long names: every name is written whole (it wraps, never "…")."""
    server = live_server_url
    teacher, page = _teacher(browser, server)
    class_id = _class_id(server)
    _start_session(page, server, class_id)
    demo = _session(server)
    table_id = json.loads(
        server.shell(SIX.format(session=demo["session"], names=LONG_NAMES)).splitlines()[-1]
    )
    for name, viewport in (("768x1024", PORTRAIT), ("1024x768", LANDSCAPE)):
        tablet = teacher.browser.new_context(
            viewport=viewport,
            locale="fr-FR",
            reduced_motion="reduce",
            storage_state=teacher.storage_state(),
        ).new_page()
        tablet.goto(f"{server.url}/table/{table_id}/")
        tablet.locator(".pn-players").wait_for()
        names = tablet.locator(".pn-player-name")
        assert names.count() == 6
        for i in range(6):
            box = names.nth(i)
            assert box.evaluate(WHOLE_WORDS), f"{box.inner_text()!r} is cut or broken in {name}"
        text = tablet.locator(".pn-players").inner_text()
        for full in LONG_NAMES:
            assert full in text
        tablet.screenshot(path=str(screenshots / f"pinocchio-six-seats-{name}.png"))
        tablet.context.close()
    teacher.close()


RECORD_SPEECH = """() => {
    window.__said = [];
    window.speechSynthesis.speak = (u) => window.__said.push([u.text, u.lang]);
    window.speechSynthesis.cancel = () => {};
}"""


def _speaks_only_when_tapped(page: Any) -> None:
    """The 🔊 button says the card's words with a German voice, and only when tapped."""
    assert page.evaluate("'speechSynthesis' in window")
    page.evaluate(RECORD_SPEECH)
    page.wait_for_timeout(300)
    assert page.evaluate("window.__said") == []
    words = page.locator(".pn-drawn .pn-words").inner_text().strip()
    page.locator(".pn-drawn .pn-speak").click()
    assert page.evaluate("window.__said") == [[words, "de-DE"]]
