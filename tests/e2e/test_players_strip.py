"""The players strip at a full table, on the tablets of a real classroom.

With 4 to 6 seats on a 768x1024 portrait tablet, every name (a pupil's or a
robot's) must be read whole: the strip wraps or shrinks the avatar before it
cuts a name. The test measures each rendered name against its box.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_play_chasse import _join, _session

PORTRAIT = {"width": 768, "height": 1024}
TABLET_LANDSCAPE = {"width": 1024, "height": 768}

FULL_TABLE = """
import json
from cardgames import services
from classroom.models import ClassSession, Pupil
cs = ClassSession.objects.get(pk={session})
me = Pupil.objects.get(pk={pupil})
others = list(cs.school_class.pupils.exclude(pk=me.pk).order_by("display_name")[:{humans}])
seats = [services.SeatSpec(player_key=me.player_key, display_name=me.display_name, avatar=me.avatar)]
seats += [services.SeatSpec(player_key=p.player_key, display_name=p.display_name, avatar=p.avatar)
          for p in others]
seats += [services.bot_seat(level=level, number=n + 1)
          for n, level in enumerate(["medium", "hard", "easy"][:{bots}])]
table = services.table_create(game="chasse", seats=seats, group_key=cs.group_key, number=90 + {seats})
services.table_start(table=table)
print(json.dumps(table.pk))
"""

NAMES_FIT = """() => [...document.querySelectorAll('#table-main .cg-player-name')].map(el => ({
    name: el.textContent.trim(), scroll: el.scrollWidth, client: el.clientWidth,
    right: el.getBoundingClientRect().right,
    box: el.closest('.cg-player').getBoundingClientRect().right,
}))"""


@pytest.mark.parametrize("seats", [4, 5, 6])
def test_every_name_is_read_whole_at_a_full_table(
    live_server_url: Any, browser: Any, screenshots: Path, seats: int
) -> None:
    server = live_server_url
    demo = _session(server)
    # Pupils whose names start alike (Adam, Ambre, Anna): the initials alone
    # would not tell them apart.
    # (one pupil per test: a pupil already seated is sent to their table.)
    name = {4: "Zoé", 5: "Sacha", 6: "Rose"}[seats]
    pupil = next(p for p in demo["pupils"] if p["display_name"] == name)
    page = _join(browser, server, demo["code"], pupil, PORTRAIT)
    humans, bots = (2, 1) if seats == 4 else (seats - 4, 3)
    table_id = json.loads(
        server.shell(
            FULL_TABLE.format(
                session=demo["session"], pupil=pupil["pk"], humans=humans, bots=bots, seats=seats
            )
        ).splitlines()[-1]
    )
    page.goto(f"{server.url}/table/{table_id}/")
    page.locator(".cg-total-value").wait_for()
    for viewport in (PORTRAIT, TABLET_LANDSCAPE):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        size = f"{viewport['width']}x{viewport['height']}"
        page.screenshot(path=str(screenshots / f"chasse-players-{seats}-{size}.png"))
        names = page.evaluate(NAMES_FIT)
        assert len(names) == seats
        assert any(n["name"].startswith("Robot") for n in names)
        for n in names:
            # Not cut with "…": the text is no wider than its box, and the box
            # stays inside the player's card.
            assert n["scroll"] <= n["client"] + 1, (viewport, n)
            assert n["right"] <= n["box"] + 1, (viewport, n)
    page.context.close()
