"""Cutting a screen into units: a unit cut short or too long would swap the
wrong part of a tablet's page after a move."""

from __future__ import annotations

from cardgames import screen_units


def units_of(html: str) -> dict[str, str]:
    """The units a screen is cut into, as the live path cuts it (``Screen.of``)."""
    return screen_units.Screen.of(html, version=0, status="").units


def test_a_unit_ends_at_its_own_closing_tag_past_nested_ones_of_its_name() -> None:
    html = (
        '<div id="a" data-unit class="x"><div><div>1</div></div><img src="i.svg"><div>2</div></div>'
        '<p id="b" data-unit>text <path d="M0"></path> more</p>'
        '<i id="c" data-unit><input name="n"><i>x</i></i>'
    )
    units = units_of(html)
    assert units == {
        "a": '<div id="a" data-unit class="x"><div><div>1</div></div><img src="i.svg"><div>2</div></div>',
        "b": '<p id="b" data-unit>text <path d="M0"></path> more</p>',
        "c": '<i id="c" data-unit><input name="n"><i>x</i></i>',
    }


def test_a_unit_inside_a_unit_is_part_of_it_and_a_mark_outside_a_tag_is_text() -> None:
    html = (
        '<p>the word data-unit in a sentence</p>'
        '<section id="outer" data-unit><p id="inner" data-unit>in</p></section>'
        '<span title="a data-unit" id="t">not a unit</span>'
        '<ol id="after" data-unit data-items><li data-line="l1">1</li></ol>'
    )
    assert list(units_of(html)) == ["outer", "after"]
    screen = screen_units.Screen.of(html, version=1, status="playing")
    assert screen.lists == frozenset({"after"})


def test_a_changed_unit_is_all_a_socket_is_sent() -> None:
    before = '<section id="table-main"><p id="a" data-unit>1</p><p id="b" data-unit>2</p></section>'
    after = before.replace(">2<", ">3<")
    shown = screen_units.Shown()
    screen_units.Screen.of(before, version=1, status="playing").update(shown)
    message = screen_units.Screen.of(after, version=2, status="playing").update(shown)
    assert message == '<p id="b" data-unit hx-swap-oob="true">3</p>'
    assert screen_units.apply_update(before, message) == after
