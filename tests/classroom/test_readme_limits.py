"""The README's limits table says what the code does (issue 44).

The table is what a school reads to trust the logins; a constant changed
without the table would make it lie. This test reads the **bold** numbers of
each row of "Limits that protect the children's logins" and checks them
against the constants and the arithmetic computed from them."""

from __future__ import annotations

import math
import re
from pathlib import Path

from classroom import ratelimit
from classroom.pictures import CODE_LENGTH, PICTURES
from classroom.services import pupils

README = Path(__file__).resolve().parents[2] / "README.md"
DAY = 8 * 3600  # a school day


def _rows() -> dict[str, list[float]]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Limits that protect the children's logins", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, list[float]] = {}
    for line in section.splitlines():
        if line.startswith("| ") and not line.startswith("| what"):
            label, _, rest = line[2:].partition(" | ")
            numbers = re.findall(r"\*\*([\d.,]+)\*\*", rest)
            rows[label] = [float(n.replace(",", "")) for n in numbers]
    return rows


def _codes() -> int:
    return math.perm(len(PICTURES), CODE_LENGTH)


def network_guesses_per_day() -> int:
    """Wrong picture codes one network can have checked in any 8 hours: two
    free budgets (fixed windows may straddle the day) plus the slow lane."""
    return 2 * pupils.NET_FREE + DAY // pupils.NET_SLOW_SECONDS + 1


def tablet_guesses_per_day() -> int:
    return 2 * pupils.DEVICE_STOP


def test_the_join_code_rows_match_the_constants() -> None:
    rows = _rows()
    assert rows["wrong join codes, per network"] == [
        ratelimit.IP_LIMIT,
        ratelimit.IP_WINDOW / 60,
        ratelimit.SLOW_LANE_SECONDS,
    ]
    assert rows["wrong join codes, per tablet"] == [
        ratelimit.DEVICE_LIMIT,
        ratelimit.DEVICE_WINDOW / 60,
    ]
    assert rows["join codes one network can test"] == [ratelimit.guesses_per_hour()]
    hours = ratelimit.hours_to_find_an_open_code(open_lessons=50)
    assert rows["guessing some open join code, 50 lessons open"] == [round(hours, 1)]


def test_the_picture_code_rows_match_the_constants_and_the_arithmetic() -> None:
    rows = _rows()
    assert rows["wrong picture codes, per tablet"] == [
        pupils.DEVICE_FREE,
        pupils.DEVICE_SLOW_SECONDS,
        pupils.DEVICE_STOP,
        pupils.PICTURE_WINDOW / 3600,
    ]
    assert rows["wrong picture codes, per network and class"] == [
        pupils.NET_FREE,
        pupils.NET_SLOW_SECONDS / 3600,
    ]
    assert rows["wrong picture codes, per card"] == [pupils.NET_FREE // pupils.PICTURE_MAX_FAILURES]
    # One tablet can never lock a card on its own.
    assert pupils.DEVICE_FREE < pupils.PICTURE_MAX_FAILURES
    # …nor slow down the other tablets of its network.
    assert pupils.DEVICE_STOP < pupils.NET_FREE
    codes = _codes()
    net, tablet = network_guesses_per_day(), tablet_guesses_per_day()
    average_guesses = (codes + 1) / 2
    assert rows["getting into some child of a class (30 or any size)"] == [
        net,
        tablet,
        average_guesses,
        round(average_guesses / net * DAY / 3600),
        round(100 * net / (codes + 1 - net)),
    ]
    # The promise of issue 44: longer than a school day, from one network or one tablet.
    assert average_guesses / net * DAY > DAY
    assert average_guesses / tablet * DAY > DAY
    assert rows["teacher"] == [pupils.UNLOCK_SPARE]
