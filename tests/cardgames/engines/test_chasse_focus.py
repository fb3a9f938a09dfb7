"""Targeted cards: the Chasse ``focus`` option (issue 18, part 1).

A focused seat takes its targeted cards from the draw pile more often; the
deck, the rules and every other seat stay the sheet's. The rules referee
(``chasse_referee``) replays focused games independently of the engine.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgames.engines import chasse
from cardgames.engines.base import IllegalAction, play_bots
from cardgames.engines.chasse import (
    CARD_TYPES,
    ENGINE,
    FACES,
    FOCUS_DEFAULT_STRENGTH,
    ChasseState,
    focus_weights,
)

from .chasse_referee import RuleBroken, check_discard, check_hands, referee

E = ENGINE
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FOCUS = [{"seat": 0, "facts": [[7, 8], [6, 7]], "crossing": False, "strength": 8}]


def fact_of(card: int) -> tuple[int, int] | None:
    kind, a, b, _, _ = FACES[card % CARD_TYPES]
    if kind != chasse.ADD or a is None or b is None:
        return None
    return (min(a, b), max(a, b))


# --------------------------------------------------------------------------- #
# The option, as a teacher (or the server) gives it.
# --------------------------------------------------------------------------- #


def test_focus_is_normalised_one_entry_per_seat() -> None:
    options = E.validate_options(
        {
            "focus": [
                {"seat": 2, "facts": [[8, 7], [7, 8], [3, 3]]},
                {"seat": 0, "crossing": True, "strength": 4},
            ]
        }
    )
    assert options["focus"] == [
        {"seat": 0, "facts": [], "crossing": True, "strength": 4},
        {
            "seat": 2,
            "facts": [[3, 3], [7, 8]],
            "crossing": False,
            "strength": FOCUS_DEFAULT_STRENGTH,
        },
    ]
    # everything else is the sheet's defaults
    del options["focus"]
    assert options == E.default_options()


@pytest.mark.parametrize("empty", [[], None])
def test_no_focus_leaves_the_sheets_options(empty: Any) -> None:
    assert E.validate_options({"focus": empty}) == E.default_options()
    assert "focus" not in [spec["key"] for spec in E.option_schema()]


@pytest.mark.parametrize(
    ("focus", "sentence"),
    [
        ("7+8", "must be a list"),
        ({"seat": 0}, "must be a list"),
        ([[7, 8]], "names a seat"),
        ([{"facts": [[7, 8]]}], "names a seat"),
        ([{"seat": 0, "facts": [[7, 8]], "colour": "red"}], "names a seat"),
        ([{"seat": -1, "facts": [[7, 8]]}], "seat from 0 to 5"),
        ([{"seat": 6, "facts": [[7, 8]]}], "seat from 0 to 5"),
        ([{"seat": True, "facts": [[7, 8]]}], "seat from 0 to 5"),
        ([{"seat": 0, "facts": [[7, 8]]}, {"seat": 0, "crossing": True}], "only one list"),
        ([{"seat": 0, "facts": "7+8"}], "two numbers from 1 to 10"),
        ([{"seat": 0, "facts": [[7, 11]]}], "two numbers from 1 to 10"),
        ([{"seat": 0, "facts": [[0, 8]]}], "two numbers from 1 to 10"),
        ([{"seat": 0, "facts": [[7, 8, 9]]}], "two numbers from 1 to 10"),
        ([{"seat": 0, "facts": [[True, 8]]}], "two numbers from 1 to 10"),
        ([{"seat": 0, "facts": [["7", 8]]}], "two numbers from 1 to 10"),
        ([{"seat": 0, "facts": [[a, a] for a in range(1, 8)]}], "at most 6 facts"),
        ([{"seat": 0, "facts": []}], "at least one fact"),
        ([{"seat": 0}], "at least one fact"),
        ([{"seat": 0, "crossing": "yes"}], "yes or no"),
        ([{"seat": 0, "crossing": True, "strength": 1}], "from 2 to 10"),
        ([{"seat": 0, "crossing": True, "strength": 11}], "from 2 to 10"),
        ([{"seat": 0, "crossing": True, "strength": True}], "from 2 to 10"),
        ([{"seat": 0, "crossing": True, "strength": 3.0}], "from 2 to 10"),
        ([{"seat": s, "crossing": True} for s in range(20)], "too many entries"),
    ],
)
def test_bad_focus_lists_are_refused_with_a_sentence(focus: Any, sentence: str) -> None:
    with pytest.raises(ValueError, match=sentence) as refused:
        E.validate_options({"focus": focus})
    message = str(refused.value)
    assert message[0].isupper() and message.endswith(".")


def test_a_targeted_fact_must_be_in_the_tables_deck() -> None:
    with pytest.raises(ValueError, match=r"7 \+ 8 is not in the deck.*table of 7 or of 8"):
        E.validate_options({"tables": [2, 3], "focus": [{"seat": 0, "facts": [[8, 7]]}]})
    assert E.validate_options({"tables": [8], "focus": [{"seat": 0, "facts": [[8, 7]]}]})


def test_a_focus_for_a_seat_the_table_does_not_have_is_refused() -> None:
    with pytest.raises(ValueError, match="seat 3, but this table has 3 seats"):
        E.new_game(3, seed=1, options={"focus": [{"seat": 3, "facts": [[7, 8]]}]})
    assert E.new_game(4, seed=1, options={"focus": [{"seat": 3, "facts": [[7, 8]]}]})


# --------------------------------------------------------------------------- #
# Without focus: exactly the sheet's game.
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("players", [2, 4, 6])
def test_an_empty_focus_plays_the_very_same_game(players: int) -> None:
    plain = play_bots(E, players, 11, ["easy", "medium", "hard"])
    empty = play_bots(E, players, 11, ["easy", "medium", "hard"], {"focus": []})
    assert E.to_json(plain.state) == E.to_json(empty.state)
    assert "focus" not in E.to_json(plain.state)["options"]


# --------------------------------------------------------------------------- #
# What a focused seat draws.
# --------------------------------------------------------------------------- #


def test_weights_target_the_fact_and_its_twin_and_crossing_cards() -> None:
    weights = focus_weights(((7, 8),), True, 5)
    by_face = {(a, b): weights[i] for i, (k, a, b, _, _) in enumerate(FACES) if k == chasse.ADD}
    assert by_face[(7, 8)] == by_face[(8, 7)] == 5
    assert by_face[(9, 9)] == chasse.FOCUS_CROSSING_WEIGHT  # 18 ends in 8: crosses often
    assert by_face[(1, 1)] == by_face[(5, 5)] == 1  # 2 and 10 rarely or never cross
    assert all(weights[i] == 1 for i, face in enumerate(FACES) if face[0] != chasse.ADD)
    crossing = sum(w == chasse.FOCUS_CROSSING_WEIGHT for w in focus_weights((), True, 5))
    assert crossing == 40


def test_only_the_focused_seat_is_biased_and_the_others_take_the_top_card() -> None:
    hits = Counter[int]()
    trials = 400
    for seed in range(trials):
        state = E.new_game(3, seed, {"focus": [{"seat": 1, "facts": [[7, 8]], "strength": 10}]})
        pile = list(state.draw_pile)
        # seat 0 (not focused) draws the top card
        top = pile[-1]
        chasse._take(state, 0)
        assert top not in state.draw_pile
        for seat in range(3):
            hits[seat] += sum(fact_of(c) == (7, 8) for c in state.hands[seat])
    # 2 cards of 137 in a hand of 6: 0.09 per hand by chance; seat 1 far more often
    assert hits[1] > 3 * max(hits[0], hits[2], 1)
    assert hits[0] < 0.2 * trials and hits[2] < 0.2 * trials


def test_a_focused_draw_takes_a_targeted_card_with_its_weight() -> None:
    targeted = [i for i, f in enumerate(FACES) if f[0] == chasse.ADD and fact_of(i) == (7, 8)]
    others = [i for i, f in enumerate(FACES) if f[0] == chasse.SUB][:19]
    taken = 0
    for seed in range(3000):
        state = E.new_game(2, seed, {"focus": [{"seat": 0, "facts": [[7, 8]], "strength": 5}]})
        state.draw_pile = [*others, targeted[0]]
        random.Random(seed).shuffle(state.draw_pile)
        card = chasse._take(state, 0)
        taken += card == targeted[0]
        assert card in targeted + others
        assert len(state.draw_pile) == 19
    # 5 / (5 + 19) = 0.208
    assert 0.18 < taken / 3000 < 0.24


def test_a_focused_seat_meets_its_facts_far_more_often() -> None:
    def attempts(focus: bool) -> int:
        count = 0
        for seed in range(60):
            options = {"focus": FOCUS} if focus else {}
            state = play_bots(E, 3, seed, ["medium", "easy", "easy"], options).state
            count += sum(
                1
                for e in state.log
                if e["type"] == "card_played"
                and e["seat"] == 0
                and e["card"]["kind"] == "add"
                and (min(e["card"]["a"], e["card"]["b"]), max(e["card"]["a"], e["card"]["b"]))
                in {(7, 8), (6, 7)}
            )
        return count

    without, with_focus = attempts(False), attempts(True)
    assert with_focus >= 3 * without > 0


def test_views_show_a_seat_only_its_own_focus() -> None:
    options = {
        "focus": [
            {"seat": 0, "facts": [[7, 8]]},
            {"seat": 2, "facts": [[3, 9]], "crossing": True},
        ]
    }
    state = E.new_game(3, seed=5, options=options)
    assert E.view(state, 0)["options"]["focus"] == [
        {"seat": 0, "facts": [[7, 8]], "crossing": False, "strength": FOCUS_DEFAULT_STRENGTH}
    ]
    assert "focus" not in E.view(state, 1)["options"]
    assert E.view(state, 2)["options"]["focus"][0]["facts"] == [[3, 9]]
    assert "focus" not in E.view(state, None)["options"]
    for seat in (None, 0, 1, 2):
        text = json.dumps([E.view(state, seat), E.history(state, seat)])
        assert "[3, 9]" not in text or seat == 2
        assert "[7, 8]" not in text or seat == 0
    # the views are copies: changing one changes nothing in the state
    E.view(state, 0)["options"]["focus"][0]["facts"].append([1, 1])
    assert state.options["focus"][0]["facts"] == [[7, 8]]


# --------------------------------------------------------------------------- #
# The rules referee can fail.
# --------------------------------------------------------------------------- #


def _log() -> tuple[list[dict[str, Any]], int, dict[str, Any]]:
    state = play_bots(E, 3, 4, ["easy"], {"wrong_announcement": "strict", "focus": FOCUS}).state
    return json.loads(json.dumps(state.log)), 3, state.options


@pytest.mark.parametrize(
    "breakage",
    [
        "after",
        "seat",
        "value",
        "drop_token",
        "extra_token",
        "first_seat",
        "correct",
    ],
)
def test_the_referee_catches_a_broken_game(breakage: str) -> None:
    log, players, options = _log()
    assert referee(log, players, options) > 0
    plays = [
        i for i, e in enumerate(log) if e["type"] == "card_played" and e["card"]["kind"] == "add"
    ]
    i = plays[len(plays) // 2]
    if breakage == "after":
        log[i]["after"] += 1
    elif breakage == "seat":
        log[i]["seat"] = (log[i]["seat"] + 1) % players
    elif breakage == "value":
        log[i]["card"]["value"] += 1
    elif breakage == "drop_token":
        lost = next(j for j, e in enumerate(log) if e["type"] == "token_lost")
        del log[lost]
    elif breakage == "extra_token":
        log.insert(
            i + 1,
            {
                "type": "token_lost",
                "seat": log[i]["seat"],
                "reason": "multiple_of_ten",
                "tokens_left": 0,
            },
        )
    elif breakage == "first_seat":
        second = [j for j, e in enumerate(log) if e["type"] == "round_started"][1]
        log[second]["first_seat"] = (log[second]["first_seat"] + 1) % players
    elif breakage == "correct":
        log[i]["correct"] = not log[i]["correct"] if log[i]["correct"] is not None else True
    with pytest.raises(RuleBroken):
        referee(log, players, options)


def test_check_discard_refuses_a_discard_with_a_playable_card() -> None:
    somme_20 = 100 + 20 - 2
    check_discard([somme_20], 12, {"type": "discard", "card": somme_20})
    with pytest.raises(RuleBroken):
        check_discard([somme_20, 0], 12, {"type": "discard", "card": somme_20})


# --------------------------------------------------------------------------- #
# The properties of ENGINE_API.md, on focused games.
# --------------------------------------------------------------------------- #


@st.composite
def focused_options(draw: st.DrawFn, players: int) -> dict[str, Any]:
    seats = draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=players, unique=True))
    entries = []
    numbers: set[int] = set()
    for seat in seats:
        facts = draw(
            st.lists(st.tuples(st.integers(1, 10), st.integers(1, 10)), max_size=6, unique=True)
        )
        crossing = draw(st.booleans()) or not facts
        numbers |= {a for a, _ in facts}
        entry: dict[str, Any] = {
            "seat": seat,
            "facts": [list(f) for f in facts],
            "crossing": crossing,
        }
        if draw(st.booleans()):
            entry["strength"] = draw(st.integers(2, 10))
        entries.append(entry)
    options: dict[str, Any] = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "target": st.sampled_from([20, 50, 100, 200]),
                "tokens": st.integers(1, 5),
                "hand_size": st.integers(3, 8),
                "somme_cards": st.booleans(),
                "special_cards": st.booleans(),
                "announce": st.sampled_from(["typed", "choice", "shown"]),
                "wrong_announcement": st.sampled_from(["coach", "strict"]),
            },
        )
    )
    extra = draw(st.lists(st.integers(1, 10), max_size=4))
    if draw(st.booleans()) and (numbers or extra):
        options["tables"] = sorted(numbers | set(extra))
    options["focus"] = entries
    return options


def new_game_or_none(players: int, seed: int, options: dict[str, Any]) -> ChasseState | None:
    try:
        return E.new_game(players, seed, options)
    except ValueError as error:
        assert "cards" in str(error)  # only a deck too small may be refused
        return None


def random_steps(state: ChasseState, rng: random.Random, steps: int):  # type: ignore[no-untyped-def]
    """Random legal actions, announced wrong one time in five; after each one
    the hands are checked and a discard is proven legal."""
    for _ in range(steps):
        if state.over:
            return
        seat = state.current_seat
        action = dict(rng.choice(E.legal_actions(state, seat)))
        if action.get("announce") == "int":
            true = state.total + chasse.DELTA[action["card"] % CARD_TYPES]
            action["announce"] = true if rng.random() < 0.8 else true + rng.choice((-10, -1, 1, 10))
        hand, total = list(state.hands[seat]), state.total
        events = E.apply(state, seat, action)
        check_discard(hand, total, action)
        check_hands(state)
        yield seat, action, events


PLAYERS = [2, 3, 4, 6]


@pytest.mark.parametrize("players", PLAYERS)
@SETTINGS
@given(seed=st.integers(0, 2**32), data=st.data())
def test_property_focused_games_follow_the_rules(
    players: int, seed: int, data: st.DataObject
) -> None:
    state = new_game_or_none(players, seed, data.draw(focused_options(players)))
    if state is None:
        return
    check_hands(state)
    for _ in random_steps(state, random.Random(seed), 400):
        pass
    referee(state.log, players, state.options)


@pytest.mark.parametrize("players", PLAYERS)
@SETTINGS
@given(seed=st.integers(0, 2**32), data=st.data())
def test_property_focused_games_are_deterministic_and_survive_json(
    players: int, seed: int, data: st.DataObject
) -> None:
    options = data.draw(focused_options(players))
    runs = []
    for _ in range(2):
        state = new_game_or_none(players, seed, options)
        if state is None:
            return
        events = []
        for step, (_, _, produced) in enumerate(random_steps(state, random.Random(seed), 200)):
            events.append(produced)
            if step % 40 == 0:
                data_json = E.to_json(state)
                assert json.loads(json.dumps(data_json)) == data_json
                copy = E.from_json(json.loads(json.dumps(data_json)))
                assert E.to_json(copy) == data_json
                ahead = [e for _, _, e in random_steps(copy, random.Random(step), 30)]
                again = [
                    e for _, _, e in random_steps(E.from_json(data_json), random.Random(step), 30)
                ]
                assert ahead == again
        runs.append((events, E.to_json(state)))
    assert runs[0] == runs[1]


def _card_ids(data: Any) -> set[int]:
    found: set[int] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "kind" in item and "id" in item:
                found.add(item["id"])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


@pytest.mark.parametrize("players", PLAYERS)
@SETTINGS
@given(seed=st.integers(0, 2**32), data=st.data())
def test_property_focused_games_leak_nothing(players: int, seed: int, data: st.DataObject) -> None:
    state = new_game_or_none(players, seed, data.draw(focused_options(players)))
    if state is None:
        return
    for _ in random_steps(state, random.Random(seed), 150):
        for seat in [None, *range(players)]:
            hidden = set(state.draw_pile)
            for other in range(players):
                if other != seat:
                    hidden |= set(state.hands[other])
            view = json.loads(json.dumps(E.view(state, seat)))
            assert not _card_ids(view) & hidden
            assert not _card_ids(E.history(state, seat)) & hidden
            for entry in view["options"].get("focus", []):
                assert entry["seat"] == seat


@pytest.mark.parametrize("players", PLAYERS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_property_focused_games_refuse_cleanly(
    players: int, seed: int, data: st.DataObject
) -> None:
    state = new_game_or_none(players, seed, data.draw(focused_options(players)))
    if state is None:
        return
    for _ in random_steps(state, random.Random(seed), data.draw(st.integers(0, 100))):
        pass
    if state.over:
        return
    before = E.to_json(state)
    current = state.current_seat
    other = (current + 1) % players
    for seat, action in [
        (other, {"type": "play", "card": state.hands[other][0], "announce": 1}),
        (current, {"type": "play", "card": state.hands[other][0], "announce": 1}),
        (
            current,
            {"type": "play", "card": state.draw_pile[0] if state.draw_pile else -1, "announce": 1},
        ),
        (current, {"type": "focus", "facts": [[7, 8]]}),
        (current, {"type": "play", "card": "7+8", "announce": 15}),
    ]:
        with pytest.raises(IllegalAction):
            E.apply(state, seat, action)
        assert E.to_json(state) == before


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_focused_bot_games_end_and_follow_the_rules(players: int, level: str) -> None:
    rng = random.Random(players * 7 + len(level))
    for game in range(4):
        focus = [
            {
                "seat": seat,
                "facts": [[rng.randint(1, 10), rng.randint(1, 10)]],
                "crossing": game % 2 == 1,
            }
            for seat in range(0, players, 2)
        ]
        options = {"focus": focus, "wrong_announcement": "strict", "tokens": rng.randint(1, 5)}
        played = play_bots(
            E,
            players,
            game,
            [level, "easy"],
            options,
            max_actions=10_000,
            on_action=lambda state, *_: check_hands(state),
        )
        assert not played.stalled and E.is_over(played.state)
        referee(played.state.log, players, played.state.options)
