"""Picktura in a real browser: the teacher starts a Picktura session, two
pupils join on tablets (768x1024 portrait, 1024x768 landscape) and play with
one robot. They take from both piles and discard, exhibit, complete, put a
blank canvas on an exhibit and replace it, open a cartel, play to the end and
add up their own scores (one right, one wrong). The pupil report then shows
the sums as "Addition de scores", and the teacher's reports each pupil's
exhibits, points, sums right and wrong and place as played
(``test_social_reports_after_play.check_reports``).

The teacher picks Picktura on the session form. The deal is set after the
teacher starts the table (the same cards, in an
order chosen so that every action happens), and the table's seed (the
robot's choices) with it: see ``DEAL``.

Screenshots go to ``artifacts/screenshots/picktura-*.png`` for a human to look at.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.e2e.board import groups_make, table_robots
from tests.e2e.test_play_chasse import CLASS_NAME, _join, _teacher
from tests.e2e.test_social_reports_after_play import (
    check_reports,
    choose_game,
    end_screen_places,
    picktura_figures,
    table_log,
)

PORTRAIT = {"width": 768, "height": 1024}
LANDSCAPE = {"width": 1024, "height": 768}

SESSION = """
import json
from classroom.models import ClassSession
s = ClassSession.objects.filter(school_class__name={name!r}, ended_at__isnull=True, practice=False).latest("pk")
p = list(s.school_class.pupils.order_by("display_name").values("pk", "display_name", "picture_code"))
print(json.dumps({{"code": s.join_code, "session": s.pk, "game": s.game, "options": s.options, "pupils": p}}))
"""

# Seat 0: three quarters of work 1, a blank canvas and one of work 2. Seat 1:
# all of work 3 (2 to exhibit, 2 to complete) and one of work 6. The robot:
# single cards. The visible pile starts with work 11; the hidden pile's top is
# work 1's missing quarter (3), then work 12.
DEAL = """
import json
from cardgames.models import GameState, GameEvent, Table
from cardgames.engines.picktura import ENGINE, card_json
table = Table.objects.get(pk={table})
Table.objects.filter(pk=table.pk).update(seed=46)
gs = GameState.objects.get(table=table)
state = ENGINE.from_json(gs.state)
hands = [[0, 1, 2, 4, 48], [8, 9, 10, 11, 20], [12, 16, 24, 28, 32]]
used = {{c for h in hands for c in h}} | {{40, 44, 3}}
import random
rest = [c for c in range(state.deck_size()) if c not in used]
random.Random(5).shuffle(rest)
state.hands = hands
state.visible = [40]
state.hidden = rest + [44, 3]
for event in state.log:
    if event["type"] == "deal":
        event["cards"] = [card_json(c) for c in hands[event["seat"]]]
    if event["type"] == "flip" and event.get("reason") == "setup":
        event["card"] = card_json(40)
        event["visible_top"] = card_json(40)
gs.state = ENGINE.to_json(state)
gs.save(update_fields=["state"])
for row in GameEvent.objects.filter(table=table, kind__in=["deal", "flip"]):
    if row.kind == "deal":
        row.payload["cards"] = [card_json(c) for c in hands[row.payload["seat"]]]
    elif row.payload.get("reason") == "setup":
        row.payload["card"] = card_json(40)
        row.payload["visible_top"] = card_json(40)
    row.save(update_fields=["payload"])
print(json.dumps([[s.index, s.player_key] for s in table.seats.order_by("index")]))
"""


def _shell_json(server: Any, code: str) -> Any:
    return json.loads(server.shell(code).splitlines()[-1])


def _wait_turn(page: Any, timeout: float = 20) -> None:
    page.locator(".pk-piles.is-my-turn").wait_for(timeout=timeout * 1000)


def _version(page: Any) -> int:
    return int(page.locator("#table-state").get_attribute("data-version") or 0)


def _wait_after(page: Any, version: int, timeout: float = 10) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('#table-state').dataset.version) > v",
        arg=version,
        timeout=timeout * 1000,
    )


def _tap_card(page: Any, card: int) -> None:
    """A finger on the middle of the card (its number in the corner opens the cartel)."""
    page.locator(f'.pk-hand-card:has(input.pk-pick[value="{card}"])').click()
    assert page.locator(f'input.pk-pick[value="{card}"]').is_checked()


def _draws(page: Any, piles: list[str]) -> None:
    for pile in piles:
        page.locator(".pk-drawbar:not([hidden])").wait_for()
        page.locator(f'[data-pile-button="{pile}"]').click()


def _shot(page: Any, shots: Path, name: str, size: str) -> None:
    page.wait_for_timeout(250)
    page.screenshot(path=str(shots / f"picktura-{name}-{size}.png"), full_page=True)


def _collect_and_discard(page: Any, pile: str) -> None:
    version = _version(page)
    page.locator(f'[data-pile-button="{pile}"]').click()
    _wait_after(page, version)
    page.locator(".pk-hand-form.is-discard").wait_for()
    new = page.locator(".pk-hand-card.is-new")
    target = new.first if new.count() else page.locator(".pk-hand-card").first
    target.click()
    version = _version(page)
    page.locator(".pk-discard").click()
    _wait_after(page, version)


def test_a_class_plays_picktura_to_the_end_and_adds_up(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    teacher, page = _teacher(browser, server)
    # The teacher starts a Picktura session from the form; the score sums are on by default.
    class_id = _shell_json(
        server,
        "import json; from classroom.models import SchoolClass;"
        f"print(json.dumps(SchoolClass.objects.get(name='{CLASS_NAME}').pk))",
    )
    page.goto(f"{server.url}/teacher/classes/{class_id}/sessions/new/")
    choose_game(page, "picktura")
    assert page.locator('input[name="score_sums"]').is_checked()
    page.screenshot(path=str(screenshots / "picktura-session-form-1280x800.png"), full_page=True)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r".*/teacher/sessions/\d+/$"))
    demo = _shell_json(server, SESSION.format(name=CLASS_NAME))
    assert demo["game"] == "picktura" and demo["options"]["score_sums"] is True
    pupils = demo["pupils"][:2]
    tablets = [
        _join(browser, server, demo["code"], pupils[0], PORTRAIT),
        _join(browser, server, demo["code"], pupils[1], LANDSCAPE),
    ]
    sizes = ["768x1024", "1024x768"]
    # Under the strict CSP, nothing on the tablets may be refused.
    violations: list[str] = []
    for tablet in tablets:
        tablet.on(
            "console",
            lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None,
        )
    # The teacher groups the two pupils with one robot and starts the table.
    page.goto(f"{server.url}/teacher/sessions/{demo['session']}/")
    groups_make(page, 3)
    table_robots(page, level="easy", places=3)  # the robots fill the places
    # The board is swapped in by htmx: wait for it, not for a fixed time.
    expect(page.locator(".table-card").first).to_contain_text("1 robot", timeout=15_000)
    page.get_by_role("button", name=re.compile("Lancer 1 table")).click()
    for tablet in tablets:
        tablet.wait_for_url("**/table/**", timeout=15_000)
    table_id = int(re.search(r"/table/(\d+)/", tablets[0].url).group(1))
    seats = _shell_json(server, DEAL.format(table=table_id))
    by_key = {f"pupil:{p['pk']}": i for i, p in enumerate(pupils)}
    order = [by_key[key] for _index, key in seats if key in by_key]  # tablet of seat 0, seat 1
    a, b = tablets[order[0]], tablets[order[1]]
    size_a, size_b = sizes[order[0]], sizes[order[1]]
    for tablet in tablets:
        tablet.reload()
        tablet.locator(".pk-seat").wait_for()

    # At the start: the scoring table is open; names are whole.
    for tablet, size in ((a, size_a), (b, size_b)):
        assert tablet.locator(".pk-scoring[open]").count() == 1
        assert "Exposition complète" in tablet.locator(".pk-scoring").inner_text()
        _shot(tablet, screenshots, "start", size)
    for tablet in (a, b):
        for p in pupils:  # every name whole, one's own above one's exhibits
            assert p["display_name"] in tablet.locator(".pk-players, .pk-mine").all_inner_texts()[0] + tablet.locator(".pk-mine").inner_text()

    # Seat 0 exhibits three quarters of work 1, then draws hidden, hidden, visible
    # (the hidden pile's top is work 1's missing quarter).
    _wait_turn(a)
    for card in (0, 1, 2):
        _tap_card(a, card)
    assert a.locator(".pk-exhibit-button.is-ready").count() == 1
    _shot(a, screenshots, "chosen", size_a)
    version = _version(a)
    a.locator(".pk-exhibit-button").click()
    a.locator(".pk-drawbar:not([hidden])").wait_for()
    assert "1 sur 3" in a.locator("[data-draw-ask]").inner_text()
    a.locator('[data-pile-button="hidden"]').click()
    assert "2 sur 3" in a.locator("[data-draw-ask]").inner_text()
    _shot(a, screenshots, "draws", size_a)
    _draws(a, ["hidden", "visible"])
    _wait_after(a, version)
    # The hidden draws are this tablet's alone: work 1's last quarter is new.
    assert a.locator(".pk-hand-card.is-new").count() == 3
    assert "toi seul" in a.locator("#table-log").inner_text()
    assert "n° 1 " not in b.locator("#table-log").inner_text().replace("n° 1 (", "")

    # Seat 1 exhibits two quarters of work 3 and draws from the hidden pile twice.
    _wait_turn(b)
    _tap_card(b, 8)
    _tap_card(b, 9)
    version = _version(b)
    b.locator(".pk-exhibit-button").click()
    _draws(b, ["hidden", "hidden"])
    _wait_after(b, version)

    # Seat 0: the blank canvas completes the 3-card exhibit; draw 1.
    _wait_turn(a)
    version = _version(a)
    a.locator(".pk-lay-blank").click()
    _draws(a, ["visible"])
    _wait_after(a, version)
    assert a.locator(".pk-player.is-me .pk-slot-blank").count() == 1
    _shot(a, screenshots, "blank", size_a)

    # Seat 1 completes work 3; draw 2.
    _wait_turn(b)
    version = _version(b)
    b.locator(".pk-lay-complete").click()
    _draws(b, ["visible", "hidden"])
    _wait_after(b, version)
    assert b.locator(".pk-player.is-me .pk-exhibit.is-complete").count() == 1

    # Seat 0 replaces the blank canvas with the real quarter; the canvas lands on
    # the visible pile, and seat 0 draws it straight back.
    _wait_turn(a)
    version = _version(a)
    a.locator(".pk-lay-replace_blank").click()
    a.locator(".pk-drawbar:not([hidden])").wait_for()
    assert a.locator("[data-stack-blank]").is_visible()
    _shot(a, screenshots, "replace", size_a)
    _draws(a, ["visible"])
    _wait_after(a, version)
    assert a.locator(".pk-player.is-me .pk-exhibit.is-complete").count() == 1
    assert a.locator(".pk-hand-card.is-blank").count() >= 1

    # Seat 1 takes from the visible pile and discards; a cartel on the way.
    _wait_turn(b)
    b.locator(".pk-player.is-me .pk-exhibit-art").first.click()
    cartel = b.locator("dialog.pk-cartel[open]")
    cartel.wait_for()
    assert "Dessin du jeu d'après" in cartel.inner_text()
    _shot(b, screenshots, "cartel", size_b)
    cartel.get_by_role("button", name=re.compile("Fermer")).click()
    _collect_and_discard(b, "visible")
    _wait_turn(a)
    _collect_and_discard(a, "hidden")
    _shot(a, screenshots, "after-collect", size_a)

    # Then both play on, taking from the hidden pile, until the game ends.
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if a.locator(".pk-end").count() and b.locator(".pk-end").count():
            break
        moved = False
        for tablet in (a, b):
            if tablet.locator(".pk-piles.is-my-turn").count():
                if tablet.locator(".pk-hand-form.is-discard").count():
                    tablet.locator(".pk-hand-card").first.click()
                    version = _version(tablet)
                    tablet.locator(".pk-discard").click()
                    _wait_after(tablet, version)
                elif tablet.locator('[data-pile-button="hidden"]:not([disabled])').count():
                    _collect_and_discard(tablet, "hidden")
                else:
                    # Nothing to collect: exhibit whatever can be laid.
                    lay = tablet.locator(".pk-lay").first
                    version = _version(tablet)
                    lay.click()
                    if tablet.locator(".pk-drawbar:not([hidden])").count():
                        while tablet.locator(".pk-drawbar:not([hidden])").count():
                            tablet.locator('[data-pile-button="visible"]').click()
                    _wait_after(tablet, version)
                moved = True
        if not moved:
            a.wait_for_timeout(150)
    for tablet in (a, b):
        tablet.locator(".pk-end").wait_for(timeout=10_000)

    # The end: the reason, then "Combien de points as-tu ?", no ranking yet.
    for tablet, size in ((a, size_a), (b, size_b)):
        end = tablet.locator(".pk-end")
        assert "Combien de points as-tu ?" in end.inner_text()
        assert tablet.locator(".pk-ranking").count() == 0
        assert "refaite deux fois" in end.inner_text() or "Plus personne" in end.inner_text()
        _shot(tablet, screenshots, "sum", size)
    scores = _shell_json(
        server,
        "import json; from cardgames.models import GameState; from cardgames.engines.picktura import ENGINE;"
        f"s = ENGINE.from_json(GameState.objects.get(table_id={table_id}).state);"
        "print(json.dumps(ENGINE.result(s)['scores']))",
    )
    # Seat 0 counts right, seat 1 one too few.
    answers = [scores[0], max(0, scores[1] - 1)]
    for tablet, answer in ((a, answers[0]), (b, answers[1])):
        for digit in str(answer):
            tablet.locator(f'.pk-keypad [data-sum-key="{digit}"]').click()
        assert tablet.locator(".pk-answer").input_value() == str(answer)
        tablet.locator(".pk-keypad .cg-key-ok").click()
        tablet.locator(".pk-sum-result, .cg-notice.is-shown").first.wait_for()
        assert tablet.locator(".pk-sum-result").count(), tablet.locator("#table-notice").inner_text()
        tablet.locator(".pk-ranking").wait_for()
    assert "Bravo" in a.locator(".pk-sum-result").inner_text()
    assert "Recompte" in b.locator(".pk-sum-result").inner_text()
    assert str(scores[1]) in b.locator(".pk-sum-written").inner_text()
    for tablet, size in ((a, size_a), (b, size_b)):
        _shot(tablet, screenshots, "result", size)

    # The records, and the teacher's pupil report.
    records = _shell_json(
        server,
        "import json; from classroom.models import ScoreSumRecord;"
        f"print(json.dumps(sorted([r.answer, r.sum, r.correct] for r in ScoreSumRecord.objects.filter(table_id={table_id}))))",
    )
    assert sorted(records) == sorted([[answers[0], scores[0], True], [answers[1], scores[1], False]])
    seat0_pupil = pupils[order[0]]
    report = teacher.new_page()
    report.goto(f"{server.url}/teacher/pupils/{seat0_pupil['pk']}/report/")
    section = report.locator(".rp-score-sums")
    section.wait_for()
    assert "Addition de scores" in section.inner_text()
    assert "1 juste sur 1 addition" in section.inner_text()
    report.screenshot(path=str(screenshots / "picktura-report-1280x800.png"), full_page=True)
    # The teacher's reports: exhibits counted from the table's log, points from
    # the engine's final state, the sums as typed, the places as each tablet's
    # end screen showed its own row.
    places = {}
    for seat, tablet in enumerate((a, b)):
        mine = [row for row in end_screen_places(tablet, ".pk-ranking") if row["me"]]
        assert len(mine) == 1, mine
        places[seat] = mine[0]["place"]
    log = table_log(server, table_id)
    expected = picktura_figures(log, scores=scores, sums={0: True, 1: False}, places=places)
    print("picktura, expected:", json.dumps(expected, ensure_ascii=False))
    assert all(int(f["Œuvres exposées"][0]) >= 1 for f in expected.values())  # both exhibited
    check_reports(
        browser=browser,
        teacher=teacher,
        server=server,
        game="picktura",
        session_id=demo["session"],
        class_id=class_id,
        table_id=table_id,
        expected=expected,
        names={p["pk"]: p["display_name"] for p in pupils},
        screenshots=screenshots,
    )

    # The projector: exhibits as art with their titles, never a hand.
    projector = teacher.new_page()
    projector.set_viewport_size(LANDSCAPE)
    projector.goto(f"{server.url}/table/{table_id}/")
    projector.locator(".pk").wait_for()
    projector.screenshot(path=str(screenshots / "picktura-teacher-1024x768.png"), full_page=True)
    # The class's big screen: the table's public view in the mosaic, no hand.
    projector.set_viewport_size({"width": 1280, "height": 800})
    projector.goto(f"{server.url}/teacher/sessions/{demo['session']}/projector/")
    projector.locator(".pk-public").wait_for()
    assert projector.locator(".pk-public .pk-hand, .pk-public input").count() == 0
    assert projector.locator(".pk-public .pk-exhibit").count() >= 2
    projector.screenshot(path=str(screenshots / "picktura-projector-1280x800.png"), full_page=True)
    assert not violations, violations
    for tablet in tablets:
        tablet.context.close()
    teacher.close()
