from __future__ import annotations

import pytest

from cardgames.parsing import whole_number


@pytest.mark.parametrize(
    ("value", "expected"),
    [(7, 7), (0, 0), ("42", 42), (" 12 ", 12), ("007", 7), ("123456789", 123456789)],
)
def test_whole_numbers_are_read(value: object, expected: int) -> None:
    assert whole_number(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        True,
        False,
        None,
        3.0,
        "",
        "  ",
        "-1",
        "+1",
        "1.5",
        "1e3",
        "12a",
        "٣",
        "²",
        "1234567890",
        [1],
    ],
)
def test_anything_else_is_none(value: object) -> None:
    assert whole_number(value) is None


def test_the_digit_limit_is_the_callers() -> None:
    assert whole_number("12345", max_digits=4) is None
    assert whole_number("1234", max_digits=4) == 1234
    assert whole_number("123456789012", max_digits=12) == 123456789012
