"""Helpers shared by the four engines' property tests (not collected: the file
name does not start with ``test_``). The properties themselves are listed in
``docs/engine-contract.md``; each engine's test file keeps its own positions and
random moves, and reaches for these for what is the same in every game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from cardgames.engines.base import IllegalAction

Step = tuple[int, dict[str, Any], list[dict[str, Any]]]


def property_settings(max_examples: int) -> settings:
    """Few, slow examples: a whole random game is one example."""
    return settings(
        max_examples=max_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


def refused(engine: Any, state: Any, seat: Any, action: Any) -> str:
    """The code of the refusal of ``action``: it must be refused, with a message,
    and leave the state exactly as it was."""
    before = json.dumps(engine.to_json(state))
    with pytest.raises(IllegalAction) as error:
        engine.apply(state, seat, action)
    assert json.dumps(engine.to_json(state)) == before
    assert error.value.message
    return error.value.code


def random_game(
    engine: Any,
    state: Any,
    rng: random.Random,
    steps: int,
    random_action: Callable[[Any, random.Random], tuple[int, dict[str, Any]]],
) -> Iterator[Step]:
    """Yield after each random action, for at most ``steps`` actions."""
    for _ in range(steps):
        if engine.is_over(state):
            return
        seat, action = random_action(state, rng)
        yield seat, action, engine.apply(state, seat, action)


def card_ids(data: Any, is_card: Callable[[dict[str, Any]], bool]) -> set[int]:
    """Every id of a card dict (``is_card``) anywhere in a JSON-ready structure."""
    found: set[int] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if is_card(item):
                found.add(item["id"])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


# Any JSON value a forged message could carry in a field.
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
)
# An action with more fields than any game accepts.
OVERSIZED = st.dictionaries(st.text(max_size=4), JUNK, min_size=17, max_size=20)
