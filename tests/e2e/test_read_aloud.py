"""Read aloud (issue 50) in a real browser: the 🔊 buttons and the class's
"lire à voix haute automatiquement", with a spy in place of the browser's
speech synthesis (an init script: ``speechSynthesis.speak`` records each
utterance, ``getVoices`` returns the voices the test gives the tablet).

What is checked is what a child hears: tapping 🔊 on a Chasse turn says the
turn line shown, in French, and in German on a German tablet; with the class
option on, the feedback after a wrong announcement is said once, with the
signs of the sum in words ("plus", "égale"), and nothing is said on the first
paint; a tablet with no voice for its language shows no 🔊 at all. The
buttons are shown (a voice given) while the hand is measured on the first
screen, portrait and landscape. The tests use a class of their own, so the
demo class's tablets in other browser tests never land on these tables.
Screenshots: ``artifacts/screenshots/read-aloud-*.png``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.board import join_on
from tests.e2e.conftest import axe_check, small_touch_targets
from tests.e2e.test_social_hands_fit import _inside

PORTRAIT = {"width": 768, "height": 1024}
LANDSCAPE = {"width": 1024, "height": 768}
JOIN_CODE = "505050"
PUPILS = ["Anouk", "Bastien", "Chloé", "Dylan", "Emma", "Farid"]

SPY = """(() => {
  window.__spoken = [];
  const voices = %s;
  if (!("speechSynthesis" in window)) return;
  const synth = window.speechSynthesis;
  synth.getVoices = () => voices;
  synth.speak = (u) => { window.__spoken.push({text: u.text, lang: u.lang}); };
  synth.cancel = () => {};
})();"""

CLASS = """
import json
from django.contrib.auth import get_user_model
from classroom.models import ClassSession, Pupil, SchoolClass
teacher, _ = get_user_model().objects.get_or_create(
    username="lecture50@example.org", defaults={{"email": "lecture50@example.org"}})
school_class, _ = SchoolClass.objects.get_or_create(teacher=teacher, name="CP Lecture")
school_class.read_aloud = {auto}
school_class.save()
pupils = []
for n, name in enumerate({names!r}):
    pupil, _ = Pupil.objects.get_or_create(
        school_class=school_class, display_name=name,
        defaults={{"avatar": "chat", "picture_code": [n, n + 1]}})
    pupils.append({{"pk": pupil.pk, "display_name": name, "picture_code": pupil.picture_code,
                   "player_key": pupil.player_key}})
session = ClassSession.objects.filter(school_class=school_class, ended_at__isnull=True).first()
if session is None:
    session = ClassSession.objects.create(school_class=school_class, game="chasse", options={{}},
                                          join_code="{code}")
print(json.dumps({{"session": session.pk, "group_key": session.group_key, "pupils": pupils}}))
"""

# A Chasse table: the pupil at seat 0 (who plays first) and a robot; no
# special cards, so every card asks for a total on the keypad.
TABLE = """
import json
from cardgames import services
me = services.SeatSpec(player_key="{key}", display_name="{name}", avatar="chat")
table = services.table_create(game="chasse", seats=[me, services.bot_seat(level="easy", number=1)],
    group_key="{group}", number={number}, options={{"special_cards": False, "somme_cards": False}})
services.table_start(table=table)
print(json.dumps(table.pk))
"""

# Picktura or Pinocchio: the pupil and two robots.
SOCIAL = """
import json
from cardgames import services
me = services.SeatSpec(player_key="{key}", display_name="{name}", avatar="chat")
seats = [me] + [services.bot_seat(level="easy", number=n + 1) for n in range(2)]
table = services.table_create(game="{game}", seats=seats, group_key="{group}", number={number})
services.table_start(table=table)
print(json.dumps(table.pk))
"""

SHOWN_SPEAK = "() => [...document.querySelectorAll('button.speak')].filter((b) => b.getClientRects().length).length"


def _class(server: Any, *, auto: bool) -> dict[str, Any]:
    code = CLASS.format(auto=auto, names=PUPILS, code=JOIN_CODE)
    return json.loads(server.shell(code).splitlines()[-1])


@pytest.fixture(scope="module")
def lecture(live_server_url: Any) -> Iterator[dict[str, Any]]:
    demo = _class(live_server_url, auto=False)
    yield demo
    live_server_url.shell(
        "from classroom.models import ClassSession; from django.utils import timezone;"
        f"ClassSession.objects.filter(pk={demo['session']}).update(ended_at=timezone.now())"
    )


def _tablet(
    browser: Any, server: Any, pupil: dict[str, Any], *, locale: str, voices: list[dict[str, Any]]
) -> Any:
    """A tablet with the speech spy, signed in by code, name and pictures."""
    context = browser.new_context(
        viewport=PORTRAIT, has_touch=True, locale=locale, reduced_motion="reduce"
    )
    context.add_init_script(SPY % json.dumps(voices))
    page = context.new_page()
    join_on(page, server.url, JOIN_CODE, pupil)
    page.wait_for_url("**/lobby/")
    return page


def _seat(server: Any, demo: dict[str, Any], pupil: dict[str, Any], page: Any, number: int) -> None:
    code = TABLE.format(
        key=pupil["player_key"], name=pupil["display_name"], group=demo["group_key"], number=number
    )
    table_id = int(json.loads(server.shell(code).splitlines()[-1]))
    page.goto(f"{server.url}/table/{table_id}/")
    page.locator("#cg-whose.cg-myturn").wait_for()


def _spoken(page: Any) -> list[dict[str, str]]:
    return list(page.evaluate("() => window.__spoken"))


def _pupil(demo: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in demo["pupils"] if p["display_name"] == name)


def test_tapping_the_speaker_says_the_turn_line_in_french(
    live_server_url: Any, browser: Any, lecture: dict[str, Any], screenshots: Path
) -> None:
    server = live_server_url
    page = _tablet(
        browser,
        server,
        _pupil(lecture, "Anouk"),
        locale="fr-FR",
        voices=[{"lang": "fr-FR", "name": "Amélie"}],
    )
    # The lobby's line, one tap.
    page.locator('button.speak[data-speak-for="lobby-status"]').click()
    assert _spoken(page)[-1] == {"text": "Attends ta table", "lang": "fr"}
    _seat(server, lecture, _pupil(lecture, "Anouk"), page, number=51)
    page.wait_for_timeout(400)
    assert _spoken(page) == []  # the class does not read by itself: silence until a tap
    button = page.locator('#cg-whose button.speak[data-speak-for="cg-whose"]')
    assert button.get_attribute("aria-label") == "Écouter"
    button.click()
    assert _spoken(page) == [{"text": "C'est ton tour ! Touche une carte.", "lang": "fr"}]
    # "Comment jouer": one button says every step, in order.
    page.locator('button.speak[data-speak-for="table-howto-steps"]').click()
    steps = page.locator("#table-howto-steps .cg-howto-text").all_inner_texts()
    said = _spoken(page)[-1]["text"]
    assert steps and all(step.strip().rstrip(".") in said for step in steps), (steps, said)
    # The buttons shown (a voice is there): the hand still on the first screen.
    for viewport in (PORTRAIT, LANDSCAPE):
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(250)
        size = f"{viewport['width']}x{viewport['height']}"
        page.screenshot(path=str(screenshots / f"read-aloud-chasse-{size}.png"))
        assert page.evaluate(SHOWN_SPEAK) >= 2, size
        _inside(page, ".cg-hand .cg-card", f"chasse {size}")
        assert small_touch_targets(page, "button.speak", minimum=48) == [], size
    axe_check(page, "read-aloud-chasse")
    page.context.close()


def test_a_german_tablet_hears_the_turn_line_in_german(
    live_server_url: Any, browser: Any, lecture: dict[str, Any], screenshots: Path
) -> None:
    server = live_server_url
    pupil = _pupil(lecture, "Bastien")
    page = _tablet(
        browser, server, pupil, locale="de-DE", voices=[{"lang": "de-DE", "name": "Anna"}]
    )
    _seat(server, lecture, pupil, page, number=52)
    assert page.locator("html").get_attribute("lang") == "de"
    page.locator('button.speak[data-speak-for="cg-whose"]').click()
    spoken = _spoken(page)
    shown = page.locator("#cg-whose").inner_text().strip()
    assert spoken == [{"text": shown, "lang": "de"}], (spoken, shown)
    assert "Du bist dran" in shown or "dran" in shown, shown
    page.screenshot(path=str(screenshots / "read-aloud-chasse-de.png"))
    page.context.close()


def test_with_the_class_option_the_wrong_announcement_s_feedback_is_said_once(
    live_server_url: Any, browser: Any, lecture: dict[str, Any], screenshots: Path
) -> None:
    server = live_server_url
    _class(server, auto=True)  # the teacher ticks "lire à voix haute automatiquement"
    page = None
    try:
        pupil = _pupil(lecture, "Chloé")
        page = _tablet(
            browser, server, pupil, locale="fr-FR", voices=[{"lang": "fr-FR", "name": "Amélie"}]
        )
        _seat(server, lecture, pupil, page, number=53)
        page.wait_for_timeout(600)
        assert _spoken(page) == []  # never on the first paint
        main = page.locator("#table-main")
        total = int(main.locator(".cg-total-value").inner_text().strip())
        card = main.locator(".cg-hand button.cg-card:not([disabled])").first
        kind, value = card.get_attribute("data-kind"), int(card.get_attribute("data-value") or 0)
        card.click()
        page.locator(".cg-keypad").wait_for()
        right = total + value if kind == "add" else total - value
        for digit in str(right + 1):  # a wrong total
            page.locator(f'.cg-key[data-key="{digit}"]').click()
        page.locator('.cg-key[data-key="ok"]').click()
        feedback = page.locator("#cg-feedback.is-wrong")
        feedback.wait_for(timeout=10_000)
        page.wait_for_timeout(2_500)  # the robot plays meanwhile: more lines change
        page.screenshot(path=str(screenshots / "read-aloud-feedback.png"))
        texts = [u["text"] for u in _spoken(page)]
        said = [t for t in texts if t.startswith("Tu as dit")]
        assert len(said) == 1, texts
        sign = "plus" if kind == "add" else "moins"
        assert (
            said[0] == f"Tu as dit {right + 1}. Le bon total : {total} {sign} {value} égale {right}"
        ), said
        assert all(u["lang"] == "fr" for u in _spoken(page))
        # The turn line was said as it changed ("C'est ton tour !" alone, its
        # hint gone once the card was chosen, is no news and is not said).
        assert "C'est ton tour !" not in texts, texts
    finally:
        _class(server, auto=False)
        if page is not None:
            page.context.close()


def test_no_speaker_without_a_voice_for_the_language(
    live_server_url: Any, browser: Any, lecture: dict[str, Any]
) -> None:
    server = live_server_url
    context = browser.new_context(viewport=PORTRAIT, locale="fr-FR")
    context.add_init_script(SPY % "[]")
    page = context.new_page()
    page.goto(f"{server.url}/join")
    page.wait_for_load_state("networkidle")
    assert page.locator('button.speak[data-speak-for="join-say"]').count() == 1
    assert page.evaluate(SHOWN_SPEAK) == 0
    context.close()
    # A voice, but only an English one: a French page shows no 🔊 either.
    pupil = _pupil(lecture, "Dylan")
    page = _tablet(
        browser, server, pupil, locale="fr-FR", voices=[{"lang": "en-US", "name": "Sam"}]
    )
    _seat(server, lecture, pupil, page, number=54)
    assert page.locator("button.speak").count() >= 2
    assert page.evaluate(SHOWN_SPEAK) == 0
    page.context.close()


@pytest.mark.parametrize(
    ("game", "name", "line", "mine"),
    [
        ("picktura", "Emma", "#pk-whose.is-mine", "#pk-hand .pk-hand-card"),
        ("pinocchio", "Farid", "#pn-whose.cg-myturn", ".pn-drawn, .pn-grid, .pn-judge button"),
    ],
)
def test_the_other_games_turn_lines_are_read_and_still_fit(
    live_server_url: Any,
    browser: Any,
    lecture: dict[str, Any],
    screenshots: Path,
    game: str,
    name: str,
    line: str,
    mine: str,
) -> None:
    """Picktura's and Pinocchio's turn lines: 🔊 says the line shown, and with
    the buttons shown the child's move is still on the first screen."""
    server = live_server_url
    pupil = _pupil(lecture, name)
    page = _tablet(
        browser, server, pupil, locale="fr-FR", voices=[{"lang": "fr-FR", "name": "Amélie"}]
    )
    code = SOCIAL.format(
        key=pupil["player_key"],
        name=name,
        group=lecture["group_key"],
        game=game,
        number=55 + len(game),
    )
    table_id = int(json.loads(server.shell(code).splitlines()[-1]))
    page.goto(f"{server.url}/table/{table_id}/")
    page.locator(line).wait_for(timeout=20_000)
    target = line.split(".")[0][1:]
    page.locator(f'button.speak[data-speak-for="{target}"]').click()
    shown = " ".join(page.locator(line).inner_text().split())
    assert _spoken(page)[-1] == {"text": shown, "lang": "fr"}, (_spoken(page), shown)
    for viewport in (PORTRAIT, LANDSCAPE):
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(250)
        size = f"{viewport['width']}x{viewport['height']}"
        page.screenshot(path=str(screenshots / f"read-aloud-{game}-{size}.png"))
        _inside(page, mine, f"{game} {size}")
        _inside(page, line, f"{game} {size}")
    page.context.close()
