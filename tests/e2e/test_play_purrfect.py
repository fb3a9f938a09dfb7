"""Purrfect in a real browser: a teacher starts a Purrfect session, four pupils
join on four tablets (two portrait 768x1024, one landscape 1024x768, one
1280x800), are grouped with one robot (five seats), and trade: an offer, an
acceptance with the wrong number of cards then the right one, a withdrawal, a
mistaken "Purrfect!", and on until the round (here: the game) ends with paws
shown. The teacher's reports then show the game as it was played: each
pupil's trades, withdrawals, early claims, misread meows, paws and place
(``test_social_reports_after_play.check_reports``).

Screenshots go to ``artifacts/screenshots/purrfect-*.png`` for a human to look at.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.e2e.board import groups_make, table_robots
from tests.e2e.test_play_chasse import _class_id, _join, _session, _teacher
from tests.e2e.test_social_reports_after_play import (
    check_reports,
    choose_game,
    count_wrong_counts,
    end_screen_places,
    pupil_seats,
    purrfect_figures,
    table_log,
)

PORTRAIT = {"width": 768, "height": 1024}
LANDSCAPE = {"width": 1024, "height": 768}
WIDE = {"width": 1280, "height": 800}


def _over(page: Any) -> bool:
    return page.locator("#table-main .pf-ranking").count() > 0


def _wait_render(page: Any, before: str, timeout: float = 8) -> None:
    """Wait until the table has been drawn again (its version changed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("#table-state").get_attribute("data-version") != before:
            return
        page.wait_for_timeout(60)


def _version(page: Any) -> str:
    return page.locator("#table-state").get_attribute("data-version") or ""


def _notice(page: Any) -> str:
    return page.locator("#table-notice").inner_text().strip()


def _meow_counts(page: Any) -> dict[str, int]:
    """What a child reads on the meow board: word → number of cards."""
    out = {}
    for tile in page.locator(".pf-meow").all():
        out[tile.locator(".pf-meow-word").inner_text().strip()] = int(
            tile.locator(".pf-meow-count").inner_text().strip()
        )
    return out


def _group_with(page: Any, count: int) -> Any | None:
    for group in page.locator(".pf-group").all():
        if group.locator(".pf-card:not(.is-locked)").count() >= count:
            return group
    return None


def _offer(page: Any, count: int = 1) -> bool:
    group = _group_with(page, count)
    if group is None or page.locator(".pf-own-offer").count():
        return False
    for card in group.locator(".pf-card:not(.is-locked)").all()[:count]:
        card.click()
    page.locator("[data-send]").click()
    try:
        page.locator(".pf-own-offer").wait_for(timeout=8_000)
    except Exception:
        return False
    return True


def _accept_any(page: Any) -> bool:
    """Take the first open offer, paying with as many cards as its meow says."""
    # Read the offer in one go: the board is redrawn live, and an offer seen
    # a moment ago may be taken or withdrawn by the time a second read comes.
    meow = page.evaluate(
        "() => document.querySelector('label.pf-offer:not(.is-off) .pf-offer-meow')?.textContent ?? null"
    )
    if meow is None:
        return False
    offer = page.locator("label.pf-offer:not(.is-off)").first
    counts = _meow_counts(page)
    count = counts.get(meow.strip().strip("«» "))
    group = _group_with(page, count or 99)
    if not count or group is None:
        return False
    offer.click()
    for card in group.locator(".pf-card:not(.is-locked)").all()[:count]:
        card.click()
    before = _version(page)
    page.locator("[data-send]").click()
    _wait_render(page, before, timeout=3)
    return True


def _withdraw(page: Any) -> bool:
    button = page.locator(".pf-withdraw")
    if button.count() == 0:
        return False
    button.click()
    page.locator(".pf-own-offer").wait_for(state="detached", timeout=8_000)
    return True


def _trade_step(page: Any) -> bool:
    """One free trading step (withdraw, else accept, else offer). Four tablets
    and a robot trade at once, so what a tablet just saw can be gone a moment
    later (an offer taken, a board redrawn): such a step simply did nothing,
    as for a child whose tap came too late, and the loop goes on."""
    page.set_default_timeout(3_000)
    try:
        return _withdraw(page) or _accept_any(page) or _offer(page, 1)
    except PlaywrightError:
        return False
    finally:
        page.set_default_timeout(30_000)



def _element_screenshot(page: Any, selector: str, path: Path) -> None:
    """A picture of one part of a live screen, for a human to look at. The robots
    trade meanwhile, and an update may swap the part out while it is being
    photographed ("not attached to the DOM", seen once in CI; "not visible or not
    an HTMLElement" when the swap comes while Playwright waits for it to be
    stable, seen once in a fresh clone): take it again."""
    swapped = ("not attached", "not visible or not an HTMLElement")
    for attempt in range(5):
        try:
            page.locator(selector).screenshot(path=str(path))
            return
        except PlaywrightError as exc:
            if not any(text in str(exc) for text in swapped) or attempt == 4:
                raise

def test_four_pupils_and_a_robot_trade_until_paws_are_won(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    teacher, page = _teacher(browser, server)
    class_id = _class_id(server)
    # 1. The session form offers the four games; the teacher picks Purrfect.
    page.goto(f"{server.url}/teacher/classes/{class_id}/sessions/new/")
    for game in ("chasse", "purrfect", "pinocchio", "picktura"):
        assert page.locator(f'input[name="game"][value="{game}"]').count() == 1, game
    page.screenshot(path=str(screenshots / "purrfect-session-form-1280x800.png"), full_page=True)
    choose_game(page, "purrfect")
    page.fill('input[name="paws_to_win"]', "1")
    page.fill('input[name="round_actions"]', "100")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r".*/teacher/sessions/\d+/$"))
    demo = _session(server)
    assert demo["options"]["paws_to_win"] == 1

    # 2. Four pupils join on four tablets.
    pupils = demo["pupils"][:4]
    sizes = [PORTRAIT, LANDSCAPE, WIDE, PORTRAIT]
    names = ["768x1024", "1024x768", "1280x800", "768x1024-b"]
    tablets = [
        _join(browser, server, demo["code"], pupil, size)
        for pupil, size in zip(pupils, sizes, strict=True)
    ]
    # The meows misread, as the server answered each tablet (for the records).
    misread = [count_wrong_counts(tablet) for tablet in tablets]
    # 3. One table of five: the four pupils and a robot.
    page.reload()
    groups_make(page, 5)
    table_robots(page, level="easy", places=5)  # the robots fill the places
    # The board is swapped in by htmx: wait for the new one, not a fixed time.
    expect(page.locator(".table-card").first).to_contain_text("1 robot", timeout=15_000)
    page.get_by_role("button", name=re.compile("Lancer 1 table")).click()
    for tablet in tablets:
        tablet.wait_for_url("**/table/**", timeout=15_000)
        tablet.locator(".pf-hand").wait_for(timeout=10_000)
    a, b, c, d = tablets
    table_id = int(re.search(r"/table/(\d+)/", a.url).group(1))
    # Before the first move, "how to play" is open; names are whole at 5 seats.
    for tablet, name in zip(tablets, names, strict=True):
        assert tablet.locator("details.cg-howto[open]").count() == 1
        for pupil in pupils:
            assert pupil["display_name"] in tablet.locator(".pf-players").inner_text()
        tablet.screenshot(path=str(screenshots / f"purrfect-start-{name}.png"))
    for tablet in tablets:
        tablet.locator("details.cg-howto > summary").click()
    # Colour is never the only signal: the hand in greyscale, for a human to check.
    a.evaluate("document.documentElement.style.filter = 'grayscale(1)'")
    _element_screenshot(a, ".pf-hand", screenshots / "purrfect-hand-greyscale-768x1024.png")
    a.evaluate("document.documentElement.style.filter = ''")

    # 4. A offers one card: everyone sees the meow, nobody the count.
    assert _offer(a, 1)
    a.screenshot(path=str(screenshots / "purrfect-offer-768x1024.png"))
    b.locator("label.pf-offer").first.wait_for(timeout=8_000)
    b_misread = False
    # 5. B answers with two cards (the meow misread): a sentence that teaches,
    #    without the number; then with one card, and the trade happens.
    group = _group_with(b, 2)
    assert group is not None  # nine cards, five cats: some cat twice
    a_name = pupils[0]["display_name"]
    offer = b.locator("label.pf-offer", has_text=a_name)
    answering = offer.count() > 0
    if answering:
        offer.first.click()
        cards = group.locator(".pf-card:not(.is-locked)").all()[:2]
        for card in cards:
            card.click()
        if not b.locator("[data-send]").inner_text().strip().endswith("Échanger"):
            # The robot took A's offer between B's taps: gone from B's screen
            # (an offer still shown but let go of would be a bug).
            expect(offer).to_have_count(0, timeout=3_000)
            answering = False
    if answering:
        b.locator("[data-send]").click()
        b.locator("#table-notice .cg-notice-text").wait_for(timeout=5_000)
        text = _notice(b)
        if "Regarde le tableau des miaous" in text:
            assert not re.search(r"\d", text), text
            b_misread = True
            b.screenshot(path=str(screenshots / "purrfect-wrong-count-1024x768.png"))
            cards[1].click()  # one card now
            before = _version(b)
            b.locator("[data-send]").click()
            _wait_render(b, before)
            b.screenshot(path=str(screenshots / "purrfect-trade-1024x768.png"))
        else:
            assert text.startswith("Trop tard"), text  # the robot was faster
    # 6. C offers, sees its cards locked, and withdraws. A robot may take the
    # offer at once (seen once in CI): then C's offer and its locks are gone
    # together; an offer still shown with no card locked would be a bug.
    assert _offer(c, 1)
    offers, locked = c.evaluate(
        "() => [document.querySelectorAll('.pf-own-offer').length,"
        " document.querySelectorAll('.pf-card.is-locked').length]"
    )  # one look at the page: both counts from the same screen
    if offers:
        assert locked >= 1
        c.screenshot(path=str(screenshots / "purrfect-locked-1280x800.png"))
        _withdraw(c)
    expect(c.locator(".pf-own-offer")).to_have_count(0, timeout=8_000)
    expect(c.locator(".pf-card.is-locked")).to_have_count(0, timeout=8_000)
    # 7. D claims "Purrfect!" too early: shown to the table, button disabled.
    before = _version(d)
    d.locator(".pf-claim").click()
    _wait_render(d, before)
    d.locator(".pf-claim-why").wait_for(timeout=5_000)
    assert d.locator(".pf-claim").is_disabled()
    d.screenshot(path=str(screenshots / "purrfect-claim-768x1024-b.png"))
    a.locator(".pf-recent", has_text="trop tôt").wait_for(timeout=5_000)

    # 8. Everybody trades on until the round (and, with one paw to win, the game) ends.
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not _over(a):
        for tablet in tablets:
            if _over(tablet):
                break
            if not _trade_step(tablet):
                tablet.wait_for_timeout(100)
    assert _over(a), "the round never ended"
    for tablet, name in zip(tablets, names, strict=True):
        tablet.locator(".pf-ranking").wait_for(timeout=10_000)
        tablet.locator(".pf-round").wait_for()
        paws = tablet.locator(".pf-players .pf-paw:not(.is-none)")
        assert paws.count() >= 1, "no paw shown"
        tablet.screenshot(path=str(screenshots / f"purrfect-round-over-{name}.png"), full_page=True)

    # 9. The monitor and the projector show the table's public side.
    monitor = teacher.new_page()
    monitor.goto(f"{server.url}/teacher/sessions/{demo['session']}/monitor/")
    monitor.wait_for_load_state("networkidle")
    assert "Pattes" in monitor.locator("body").inner_text()
    monitor.screenshot(path=str(screenshots / "purrfect-monitor-1280x800.png"), full_page=True)
    watch = teacher.new_page()
    watch.goto(a.url.rstrip("/") + "/projector/")
    watch.locator(".pf-public").wait_for()
    watch.wait_for_timeout(1_500)  # the socket's first live render has come
    # Public information only: no hand, no form, no teacher button.
    controls = watch.locator("#table-main :is(.pf-hand, .pf-trade, form, button:not(.pf-speak))")
    assert controls.count() == 0, [c.evaluate("e => e.outerHTML.slice(0, 200)") for c in controls.all()]
    assert "Rejouer" not in watch.locator("#table-main").inner_text()
    watch.screenshot(path=str(screenshots / "purrfect-projector-1280x800.png"), full_page=True)
    # The teacher's own view of the table offers "Rejouer".
    table_view = teacher.new_page()
    table_view.goto(a.url)
    table_view.locator(".pf-ranking").get_by_role("button", name=re.compile("Rejouer")).wait_for()

    # 10. The teacher's reports: the figures of the game as it was played,
    # counted here from the table's log, the places as the end screen showed them.
    log = table_log(server, table_id)
    seats = pupil_seats(log)
    names = {p["pk"]: p["display_name"] for p in pupils}
    shown = {row["name"]: row["place"] for row in end_screen_places(a, ".pf-ranking")}
    by_pk = {p["pk"]: i for i, p in enumerate(pupils)}
    expected = purrfect_figures(
        log,
        wrong_counts={seat: misread[by_pk[pk]][0] for seat, pk in seats.items()},
        places={seat: shown[names[pk]] for seat, pk in seats.items()},
    )
    print("purrfect, expected:", json.dumps(expected, ensure_ascii=False))
    # What the test did is counted: D's early claim, B's misread meow.
    of = {pk: expected[pk] for pk in names}
    assert int(of[pupils[3]["pk"]]["« Purrfect! » trop tôt"][0]) >= 1
    if b_misread:
        assert int(of[pupils[1]["pk"]]["Miaous mal lus"][0]) >= 1
    check_reports(
        browser=browser,
        teacher=teacher,
        server=server,
        game="purrfect",
        session_id=demo["session"],
        class_id=class_id,
        table_id=table_id,
        expected=expected,
        names=names,
        screenshots=screenshots,
    )
    for tablet in tablets:
        tablet.context.close()
    teacher.close()
