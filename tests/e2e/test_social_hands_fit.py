"""The whole hand on the first screen, for Purrfect, Picktura and Pinocchio
(issue 46, item 7), and a tap that does what the child saw (item 6).

Bugs: at 1024x768 Purrfect's hand sat under the sticky Proposer/Purrfect bar
(portrait alike); in Picktura portrait, "Maintenant, défausse une carte :
touche-la" was written while the whole hand was below the fold. A tablet
cannot be asked to scroll to find out what to do: when it is the child's move,
the hand (and what to do with it) is measured inside the viewport, in portrait
768x1024 and landscape 1024x768. Screenshots: ``artifacts/screenshots/fit-*.png``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.board import join_on
from tests.e2e.test_play_chasse import _join, _session

PORTRAIT = {"width": 768, "height": 1024}
LANDSCAPE = {"width": 1024, "height": 768}

TABLE = """
import json
from cardgames import services
from classroom.models import ClassSession, Pupil
cs = ClassSession.objects.get(pk={session})
me = Pupil.objects.get(pk={pupil})
others = list(cs.school_class.pupils.exclude(pk=me.pk).order_by("-display_name")[:{humans}])
seats = [services.SeatSpec(player_key=me.player_key, display_name=me.display_name, avatar=me.avatar)]
seats += [services.SeatSpec(player_key=p.player_key, display_name=p.display_name, avatar=p.avatar)
          for p in others]
seats += [services.bot_seat(level="easy", number=n + 1) for n in range({bots})]
table = services.table_create(game="{game}", seats=seats, group_key=cs.group_key, number={number})
services.table_start(table=table)
print(json.dumps(table.pk))
"""

# Every element matched, its box against the viewport (a hidden one is skipped).
BOXES = """(selector) => [...document.querySelectorAll(selector)]
    .filter((el) => el.getClientRects().length)
    .map((el) => { const r = el.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                vh: window.innerHeight, vw: window.innerWidth}; })"""

# Whether a sticky bar (or anything) covers an element: its top, middle and bottom.
COVERED = """(selector) => [...document.querySelectorAll(selector)]
    .filter((el) => el.getClientRects().length)
    .some((el) => { const r = el.getBoundingClientRect();
        const x = Math.min(Math.max(r.left + r.width / 2, 0), window.innerWidth - 1);
        return [r.top + 3, r.top + r.height / 2, r.bottom - 3].some((at) => {
            const y = Math.min(Math.max(at, 0), window.innerHeight - 1);
            const top = document.elementFromPoint(x, y);
            return !(top && (el === top || el.contains(top) || top.contains(el))); }); })"""


def _table(server: Any, demo: dict[str, Any], pupil: dict[str, Any], game: str, humans: int, bots: int) -> int:
    code = TABLE.format(
        session=demo["session"], pupil=pupil["pk"], humans=humans, bots=bots, game=game,
        number=70 + len(game),
    )
    return int(json.loads(server.shell(code).splitlines()[-1]))


def _inside(page: Any, selector: str, what: str) -> None:
    boxes = page.evaluate(BOXES, selector)
    assert boxes, f"{what}: nothing matches {selector}"
    for box in boxes:
        assert box["top"] >= -1 and box["bottom"] <= box["vh"] + 1, (what, selector, box)
        assert box["left"] >= -1 and box["right"] <= box["vw"] + 1, (what, selector, box)
    assert not page.evaluate(COVERED, selector), f"{what}: {selector} is covered by something"


@pytest.fixture(scope="module")
def seated(live_server_url: Any, browser: Any) -> Any:
    server = live_server_url
    demo = _session(server)
    pupil = next(p for p in demo["pupils"] if p["display_name"] == "Lina") if any(
        p["display_name"] == "Lina" for p in demo["pupils"]
    ) else demo["pupils"][-1]
    page = _join(browser, server, demo["code"], pupil, PORTRAIT)
    yield server, demo, pupil, page
    page.context.close()


def _join_anywhere(browser: Any, server: Any, code: str, pupil: dict[str, Any]) -> Any:
    """A pupil signs in (as ``_join``); one already seated is sent straight to
    a table rather than the lobby, which is as good here."""
    context = browser.new_context(viewport=LANDSCAPE, has_touch=True, locale="fr-FR", reduced_motion="reduce")
    page = context.new_page()
    join_on(page, server.url, code, pupil)
    page.wait_for_url(re.compile(r".*/(lobby|table/\d+)/$"))
    return page


def _each_size(page: Any, screenshots: Path, name: str, check: Any) -> None:
    for viewport in (PORTRAIT, LANDSCAPE):
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(250)
        size = f"{viewport['width']}x{viewport['height']}"
        page.screenshot(path=str(screenshots / f"fit-{name}-{size}.png"))
        check(size)


def test_purrfect_hand_and_buttons_fit_the_first_screen(seated: Any, screenshots: Path) -> None:
    server, demo, pupil, page = seated
    table_id = _table(server, demo, pupil, "purrfect", humans=0, bots=3)
    page.goto(f"{server.url}/table/{table_id}/")
    page.locator(".pf-hand").wait_for()

    def check(size: str) -> None:
        _inside(page, ".pf-hand .pf-card", f"purrfect {size}")
        _inside(page, "[data-send]", f"purrfect {size}")

    _each_size(page, screenshots, "purrfect", check)


def test_picktura_hand_fits_when_collecting_and_discarding(seated: Any, screenshots: Path) -> None:
    server, demo, pupil, page = seated
    table_id = _table(server, demo, pupil, "picktura", humans=0, bots=2)
    page.goto(f"{server.url}/table/{table_id}/")
    page.locator("#pk-whose.is-mine").wait_for()

    def check_collect(size: str) -> None:
        _inside(page, "#pk-hand .pk-hand-card", f"picktura {size}")
        _inside(page, "#pk-whose", f"picktura {size}")

    _each_size(page, screenshots, "picktura", check_collect)
    page.set_viewport_size(PORTRAIT)
    page.locator(".pk-pile-visible").click()
    page.locator(".pk-hand-form.is-discard").wait_for()

    def check_discard(size: str) -> None:
        _inside(page, "#pk-hand .pk-hand-card", f"picktura discard {size}")
        _inside(page, "#pk-whose", f"picktura discard {size}")
        _inside(page, ".pk-discard", f"picktura discard {size}")

    _each_size(page, screenshots, "picktura-discard", check_discard)


def test_pinocchio_card_and_choices_fit_the_first_screen(seated: Any, screenshots: Path) -> None:
    server, demo, pupil, page = seated
    table_id = _table(server, demo, pupil, "pinocchio", humans=0, bots=2)
    page.goto(f"{server.url}/table/{table_id}/")
    page.locator(".cg-myturn").wait_for(timeout=20_000)

    def check(size: str) -> None:
        mine = ".pn-drawn, .pn-grid" if page.locator(".pn-announce").count() else ".pn-judge button"
        _inside(page, mine, f"pinocchio {size}")
        _inside(page, ".cg-myturn", f"pinocchio {size}")

    _each_size(page, screenshots, "pinocchio", check)


def test_a_withdrawn_offer_disables_the_button_with_its_reason(
    seated: Any, browser: Any, screenshots: Path
) -> None:
    """Bug (item 6): when the offer a child had chosen was withdrawn, the big
    button silently turned from "Échanger" into "Proposer", and the next tap
    made an offer nobody meant. Now it stays "Échanger", disabled, with the
    reason shown, until the child taps a card or an offer again."""
    server, demo, pupil, page = seated
    other = next(p for p in sorted(demo["pupils"], key=lambda p: p["display_name"], reverse=True) if p["pk"] != pupil["pk"])
    table_id = _table(server, demo, pupil, "purrfect", humans=3, bots=0)
    page.set_viewport_size(PORTRAIT)
    page.goto(f"{server.url}/table/{table_id}/")
    page.locator(".pf-hand").wait_for()
    offerer = _join_anywhere(browser, server, demo["code"], other)
    offerer.goto(f"{server.url}/table/{table_id}/")
    offerer.locator(".pf-hand .pf-card").first.click()
    offerer.locator("[data-send]").click()
    offerer.locator(".pf-withdraw").wait_for()

    page.locator("label.pf-offer").first.click()
    page.locator(".pf-hand .pf-card").first.click()
    send = page.locator("[data-send]")
    assert "Échanger" in send.inner_text()
    offerer.locator(".pf-withdraw").click()
    page.locator("label.pf-offer").wait_for(state="detached")
    page.wait_for_timeout(200)
    page.screenshot(path=str(screenshots / "fit-purrfect-offer-gone-768x1024.png"))
    assert send.is_disabled(), "the button would now make an offer"
    assert "Échanger" in send.inner_text()
    assert "Cette offre n'est plus là" in page.locator("[data-lost-why]").inner_text()
    # A new tap, on purpose: the button may act again, and says what it does.
    page.locator(".pf-hand .pf-card").nth(1).click()
    assert send.is_enabled()
    assert "Proposer" in send.inner_text()
    offerer.context.close()
