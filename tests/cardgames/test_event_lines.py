"""The lines that explain a move, as a tablet reads them."""

from __future__ import annotations

import re

from cardgames.templatetags.event_lines import event_lines


def _line(number: int, new: bool, text: str = "Léa joue 5 + 4.") -> dict[str, object]:
    return {"id": f"{number}-0", "kind": "info", "icon": "🎴", "text": text, "new": new}


def test_the_separator_follows_the_newest_moves_lines() -> None:
    html = event_lines([_line(3, True), _line(3, True), _line(2, False)], "table-log", 3)
    names = re.findall(r'data-line="([^"]+)"', html)
    assert names == ["table-log-3-0", "table-log-3-0", "table-log-sep-3", "table-log-2-0"]
    # Only the separator says which lines are new; the lines never change.
    assert "is-new" not in html


def test_with_no_new_line_the_separator_comes_first_and_when_all_are_new_last() -> None:
    assert re.findall(r'data-line="([^"]+)"', event_lines([_line(1, False)], "h", 2)) == [
        "h-sep-2",
        "h-1-0",
    ]
    assert re.findall(r'data-line="([^"]+)"', event_lines([_line(2, True)], "h", 2)) == [
        "h-2-0",
        "h-sep-2",
    ]
    assert event_lines([], "h", 2) == ""


def test_a_list_sent_whole_marks_its_new_lines_and_escapes_names() -> None:
    html = event_lines([_line(1, True, text="<b>Zoé</b> joue")])
    assert "data-line" not in html and "cg-sep" not in html
    assert 'class="cg-event cg-event-info is-new"' in html
    assert "&lt;b&gt;Zoé&lt;/b&gt; joue" in html and "<b>" not in html
