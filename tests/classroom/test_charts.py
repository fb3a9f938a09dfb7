"""The report charts: inert SVG with a text alternative, never colour alone."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.utils import translation

from classroom import charts
from classroom.insights import PupilSummary, SessionPoint


def plain(value: Any) -> Any:
    """Numbers and units are glued by a no-break space (test_number_wraps.py);
    the expectations below read it as the reader does, a space."""
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    return value.replace("\u00a0", " ")


def point(i: int, accuracy: float | None, ms: int | None, rate: float | None) -> SessionPoint:
    return SessionPoint(
        session_id=i,
        started_at=datetime(2025, 3, 3 + i, 9, tzinfo=UTC),
        date=date(2025, 3, 3 + i),
        plays=40,
        announcements=35,
        correct=30,
        accuracy=accuracy,
        median_compute_ms=ms,
        avoidable_mult10=2,
        mult10_rate=rate,
        timeouts=0,
    )


SERIES = [point(0, 62.5, 7200, 5.0), point(1, 80.0, 5100, 2.5), point(2, 91.0, 3000, 0.0)]


def summary(acc: float, cross: float | None, flat: float) -> PupilSummary:
    return PupilSummary(
        plays=50, announcements=40, correct=30, accuracy=acc, crossing_announcements=10,
        crossing_correct=5, accuracy_crossing=cross, non_crossing_announcements=30,
        non_crossing_correct=25, accuracy_non_crossing=flat, avoidable_mult10=1,
        mult10_rate=2.0, median_compute_ms=3000, timeouts=0, sessions=3,
        add_crossing_announcements=10, add_crossing_correct=5, accuracy_add_crossing=cross,
    )  # fmt: skip


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_pupil_charts_have_text_alternatives_and_no_script() -> None:
    for chart in charts.pupil_charts(series=SERIES):
        root = parse(chart.svg)
        assert root.get("role") == "img"
        ns = "{http://www.w3.org/2000/svg}"
        title = root.find(f"{ns}title")
        desc = root.find(f"{ns}desc")
        assert title is not None and title.text == chart.title
        assert desc is not None and desc.text == chart.description
        assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
        assert "<script" not in chart.svg and "http" not in chart.svg.replace(
            "http://www.w3.org", ""
        ).replace("http://pygal.org", "").replace("http://github.com/Kozea/pygal", "")
        assert "<?xml" not in chart.svg
        assert root.get("width") is None and root.get("viewBox")  # scales to its box
        assert len(chart.rows) == 3 and all(len(r) == len(chart.columns) for r in chart.rows)


def test_accuracy_chart_table_and_words() -> None:
    chart = charts.accuracy_chart(series=SERIES)
    assert plain(chart.rows)[0] == ("03/03/2025", "62,5 %", "35", "40")
    assert "62,5 %" in plain(chart.description) and "91 %" in plain(chart.description)
    assert "Seuil d'alerte : 70 %" in plain(chart.svg)


def test_a_long_series_is_summed_up_by_averages_not_by_two_noisy_sessions() -> None:
    """A child at about 97 % whose last session dipped to 92 % is not "slipping"."""
    values = [100.0, 96.0, 98.0, 97.0, 99.0, 96.0, 97.0, 98.0, 100.0, 92.0]
    chart = charts.accuracy_chart(series=[point(i, v, 3000, 1.0) for i, v in enumerate(values)])
    assert "En moyenne 98 % sur les 5 premières séances, 96,6 % sur les 5 dernières" in (
        plain(chart.description)
    )
    assert "100 % à la première" not in chart.description


@pytest.mark.parametrize(
    ("language", "row", "axis_label", "words"),
    [
        ("fr", ("14/03/2025", "62,5 %", "35", "40"), "14/03", "Calculs annoncés"),
        ("de", ("14.03.2025", "62,5 %", "35", "40"), "14.03.", "Angesagte Rechnungen"),
        ("en", ("14 Mar 2025", "62.5%", "35", "40"), "14 Mar", "Calculations announced"),
    ],
)
def test_numbers_and_dates_are_written_the_readers_way(
    language: str, row: tuple[str, ...], axis_label: str, words: str
) -> None:
    day = point(11, 62.5, 7200, 5.0)
    with translation.override(language):
        chart = charts.accuracy_chart(series=[day, point(12, 80.0, 5100, 2.5)])
    assert plain(chart.rows)[0] == row
    assert f">{axis_label}<" in chart.svg
    assert words in chart.columns


def test_the_parents_chart_shows_a_landmark_not_an_alert() -> None:
    chart = charts.accuracy_chart(series=SERIES, phone=True, parents=True)
    assert "Repère : 70 %" in plain(chart.svg) and "alerte" not in plain(chart.svg)


def test_each_measure_has_its_own_line_and_marker() -> None:
    acc, time_, tens = charts.pupil_charts(series=SERIES)
    assert "data-marker" not in acc.svg  # circles, pygal's own
    assert acc.svg.count('data-marker="square"') == 0
    assert time_.svg.count('data-marker="square"') == 3
    assert tens.svg.count('data-marker="triangle"') == 3
    # Line styles are CSS rules (the CSP refuses style attributes), one class each.
    assert all(' style="' not in c.svg for c in (acc, time_, tens))
    dashes = [
        re.findall(r"\.st\d+\{[^}]*stroke-dasharray:([0-9, ]+?) !important", c.svg)
        for c in (acc, time_, tens)
    ]
    # accuracy: solid data line + dashed threshold; time: dashed; rate: dotted.
    assert dashes[0] == ["14,8"]
    assert charts.DASHES[1] in dashes[1] and charts.DASHES[2] in dashes[2]
    assert charts.DASHES[1] != charts.DASHES[2]


def test_missing_sessions_do_not_crash() -> None:
    chart = charts.compute_time_chart(series=[point(0, None, None, None)])
    assert chart.rows[0][1] == "—"
    empty = charts.accuracy_chart(series=[])
    assert "Pas encore de données" in empty.svg and empty.rows == ()


def test_class_chart_hatches_the_carry_bars_and_prints_values() -> None:
    rows = [
        charts.ClassRow("Léa", summary(80.0, 50.0, 90.0)),
        charts.ClassRow("Nour", summary(95.0, None, 95.0)),
    ]
    chart = charts.class_accuracy_chart(rows=rows)
    root = parse(chart.svg)
    assert root.get("role") == "img"
    hatch = re.search(r'<pattern id="(hatch-[0-9a-f]+)"', chart.svg)
    assert hatch is not None
    assert chart.svg.count(f"fill:url(#{hatch.group(1)})") == 1  # Léa's carry bar
    assert "Léa (50 %)" in plain(chart.description)
    assert plain(chart.rows) == (
        ("Léa", "80 %", "90 %", "50 %", "40"),
        ("Nour", "95 %", "95 %", "—", "40"),
    )
    assert "(hachuré)" in chart.svg and "(plein)" in chart.svg


def test_one_session_is_said_as_one_and_draws_no_unseen_landmark() -> None:
    """A parent with one session read "De 60 % à la première séance à 60 % à la
    dernière (1 séances)" and a legend "Repère : 70 %" naming a line that one
    point cannot draw."""
    chart = charts.accuracy_chart(series=[point(0, 60.0, 4000, 0.0)], parents=True)
    assert "Une seule séance pour l'instant : 60 %." in plain(chart.svg).replace(
        "&#x27;", "'"
    ).replace("&#39;", "'")
    assert "1 séances" not in chart.svg and "Repère" not in chart.svg
    two = charts.accuracy_chart(series=SERIES[:2], parents=True)
    assert "Repère : 70 %" in plain(two.svg)


def test_only_pupils_who_struggle_with_carrying_are_named_weakest() -> None:
    """"Plus faibles avec retenue : Anne-Charlotte (100 %), Jean-Baptiste (100 %),
    Léo (100 %)" named a class that carries perfectly as its weakest."""
    strong = [
        charts.ClassRow(name, summary(100.0, 100.0, 100.0))
        for name in ("Anne-Charlotte", "Jean-Baptiste", "Léo")
    ]
    assert "Plus faibles" not in charts.class_accuracy_chart(rows=strong).description
    mixed = [*strong, charts.ClassRow("Nour", summary(60.0, 40.0, 70.0))]
    assert "Plus faibles avec retenue : Nour (40 %)." in plain(
        charts.class_accuracy_chart(rows=mixed).description
    )
