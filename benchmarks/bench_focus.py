"""Do targeted cards work? A seeded simulation of the ``focus`` option.

A synthetic pupil with 4 planted weak facts (7 + 8, 6 + 7, 4 + 9, 3 + 8: wrong
4 times out of 5, right 95 % of the time otherwise) plays solo practice games
against two easy robots, as the practice screen sets them up: once without
``focus`` and once with ``focus`` on its seat naming the 4 facts. The figure is
the pupil's attempts on the planted facts (announcements of 7 + 8, 8 + 7, …):
targeted practice must raise it at least 3 times. Every game, focused or not,
is replayed by the rules referee of the tests (the sheet's rules, written
independently of the engine).

Run: ``.venv/bin/python benchmarks/bench_focus.py [games] [--seeds N]``
(default 20 games, seed block 1; ``--seeds N`` also prints the pooled ratio
over N blocks of 20 games, to show how much one block of 20 varies).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgames.engines.base import bot_seat_rng
from cardgames.engines.chasse import (
    ADD,
    CARD_TYPES,
    ENGINE,
    FACES,
    FOCUS_CROSSING_UNITS,
    FOCUS_DEFAULT_STRENGTH,
    ChasseState,
)
from tests.cardgames.engines.chasse_referee import check_hands, referee

PLANTED = ((7, 8), (6, 7), (4, 9), (3, 8))
WRONG_ON_PLANTED = 0.8
WRONG_OTHERWISE = 0.05
BOTS = ("easy", "easy")
TARGET_RATIO = 3.0
# Issue 47: with crossing targeted, crossing cards (units digit 6..9) must be
# at least this share of the additions the pupil draws (the deal and draws).
TARGET_CROSSING_SHARE = 0.55
MAX_ACTIONS = 20_000


def _pupil(rng: random.Random):  # type: ignore[no-untyped-def]
    """The medium robot's choice of card (it avoids penalties), with the
    announcement of a pupil who does not know the planted facts."""
    medium = ENGINE.bot("medium")

    def play(view: Any, legal: Any, bot_rng: random.Random, history: Any) -> Any:
        action = medium(view, legal, bot_rng, history)
        if action is None or action.get("announce") is None:
            return action
        card = next(c for c in view["hand"] if c["id"] == action["card"])
        planted = (
            card["kind"] == "add"
            and (min(card["a"], card["b"]), max(card["a"], card["b"])) in PLANTED
        )
        wrong = rng.random() < (WRONG_ON_PLANTED if planted else WRONG_OTHERWISE)
        if wrong:
            action = dict(action, announce=action["announce"] + rng.choice((-10, -1, 1, 10)))
        return action

    return play


def _play(seed: int, options: dict[str, Any]) -> ChasseState:
    """One game to the end: the pupil in seat 0, the robots after, each with
    its own view and random numbers; hands checked after every action."""
    players = 1 + len(BOTS)
    state = ENGINE.new_game(players, seed, options)
    policies = [_pupil(random.Random(seed ^ 0xC0FFEE))] + [ENGINE.bot(b) for b in BOTS]
    rngs = [bot_seat_rng(seed, seat) for seat in range(players)]
    for _ in range(MAX_ACTIONS):
        if state.over:
            return state
        seat = state.current_seat
        legal = ENGINE.legal_actions(state, seat)
        action = policies[seat](ENGINE.view(state, seat), legal, rngs[seat], [])
        ENGINE.apply(state, seat, action)
        check_hands(state)
    raise RuntimeError(f"game {seed} did not end within {MAX_ACTIONS} actions")


def play_block(block: int, games: int, *, focus: bool, strength: int) -> dict[str, int]:
    """``games`` seeded practice games; the pupil's figures."""
    attempts = wrong = additions = plays = 0
    for game in range(games):
        seed = block * 10_000 + game
        options: dict[str, Any] = {}
        if focus:
            options["focus"] = [
                {"seat": 0, "facts": [list(f) for f in PLANTED], "strength": strength}
            ]
        state = _play(seed, options)
        referee(state.log, state.players, state.options)
        for event in state.log:
            if event["type"] != "card_played" or event["seat"] != 0:
                continue
            plays += 1
            card = event["card"]
            if card["kind"] != "add":
                continue
            additions += 1
            if (min(card["a"], card["b"]), max(card["a"], card["b"])) in PLANTED:
                attempts += 1
                wrong += event["correct"] is False
    return {"attempts": attempts, "wrong": wrong, "additions": additions, "plays": plays}


def crossing_share(games: int, *, facts: bool) -> tuple[float, float]:
    """The crossing cards' share of the additions seat 0 draws (dealt or
    drawn), with ``crossing`` targeted (and the planted facts when ``facts``),
    and without focus, over ``games`` seeded games."""
    shares = []
    for focused in (True, False):
        additions = crossing = 0
        for game in range(games):
            seed = 77_000 + game
            options: dict[str, Any] = {}
            if focused:
                planted = [list(f) for f in PLANTED] if facts else []
                options["focus"] = [{"seat": 0, "facts": planted, "crossing": True}]
            state = ENGINE.new_game(3, seed, options)
            policies = [ENGINE.bot("medium")] + [ENGINE.bot(b) for b in BOTS]
            rngs = [bot_seat_rng(seed, seat) for seat in range(3)]
            seen: set[int] = set()
            while not state.over:
                for card in set(state.hands[0]) - seen:
                    face = FACES[card % CARD_TYPES]
                    if face[0] == ADD:
                        additions += 1
                        crossing += face[3] % 10 >= FOCUS_CROSSING_UNITS
                seen = set(state.hands[0])
                seat = state.current_seat
                legal = ENGINE.legal_actions(state, seat)
                ENGINE.apply(
                    state, seat, policies[seat](ENGINE.view(state, seat), legal, rngs[seat], [])
                )
        shares.append(crossing / max(1, additions))
    return shares[0], shares[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=20)
    parser.add_argument("--seeds", type=int, default=0, help="also pool N blocks of games")
    args = parser.parse_args()
    games, seeds = args.games, args.seeds
    print(
        f"focus benchmark: a pupil with 4 planted weak facts "
        f"({', '.join(f'{a} + {b}' for a, b in PLANTED)}) plays {games} practice games "
        f"against {len(BOTS)} easy robots; every game checked by the rules referee"
    )
    ok = True
    for strength in (3, FOCUS_DEFAULT_STRENGTH):
        base = play_block(1, games, focus=False, strength=strength)
        focused = play_block(1, games, focus=True, strength=strength)
        ratio = focused["attempts"] / max(1, base["attempts"])
        default = " (the default)" if strength == FOCUS_DEFAULT_STRENGTH else ""
        print(
            f"strength {strength}{default}: attempts on the planted facts "
            f"{base['attempts']} without focus ({base['attempts'] / max(1, base['additions']):.0%} "
            f"of {base['additions']} additions) -> {focused['attempts']} with focus "
            f"({focused['attempts'] / max(1, focused['additions']):.0%} of "
            f"{focused['additions']}): x{ratio:.2f}"
        )
        if strength == FOCUS_DEFAULT_STRENGTH:
            ok = ratio >= TARGET_RATIO
    if seeds:
        for strength in (3, FOCUS_DEFAULT_STRENGTH):
            base_total = focus_total = 0
            ratios = []
            for block in range(1, seeds + 1):
                b = play_block(block, games, focus=False, strength=strength)["attempts"]
                f = play_block(block, games, focus=True, strength=strength)["attempts"]
                base_total += b
                focus_total += f
                ratios.append(f / max(1, b))
            print(
                f"strength {strength}, {seeds} blocks of {games} games: pooled "
                f"x{focus_total / max(1, base_total):.2f} ({base_total} -> {focus_total}), "
                f"blocks from x{min(ratios):.2f} to x{max(ratios):.2f}"
            )
    print(
        f"target: x{TARGET_RATIO:.0f} or more with the default strength: {'met' if ok else 'MISSED'}"
    )
    for facts in (False, True):
        focused, ordinary = crossing_share(200, facts=facts)
        met = focused >= TARGET_CROSSING_SHARE
        ok = ok and met
        print(
            f"crossing targeted{' with the 4 facts' if facts else ''}: crossing cards are "
            f"{focused:.1%} of the additions the pupil draws (ordinary deck {ordinary:.1%}; "
            f"target {TARGET_CROSSING_SHARE:.0%} or more: {'met' if met else 'MISSED'})"
        )
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
