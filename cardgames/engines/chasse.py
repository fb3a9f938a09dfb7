"""La Chasse aux Souris: the project's central game (``docs/rules/chasse.md``).

Every play moves a running total and the pupil announces the new total, so the
engine is really a mental-arithmetic exercise with a card game around it.

Design choices that are not visible in the rules:

* A physical card is a *type index* into ``FACES`` (0..136). The id a client
  sees is ``generation * 137 + index``, where ``generation`` counts the shuffles
  of the game. Every shuffle hands the shuffled cards fresh ids, so an id that
  was public once (a played card) never names a card that is hidden again after
  a reshuffle: ``view`` and ``history`` can never leak a hidden card, and ids
  stay unique within the game. The index is ``id % 137``, which keeps the hot
  path free of dictionaries. Generations wrap after ``GENERATIONS`` shuffles so
  an id never exceeds the contract's ``MAX_ABS_INT`` (a live id is still unique:
  its index names one physical card).
* Card dicts are only built at the edge (views and events); the state holds ints.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

from .base import (
    MAX_ABS_INT,
    MAX_LIST_LEN,
    Action,
    BaseState,
    Bot,
    Engine,
    Event,
    IllegalAction,
    Options,
    OptionSpec,
    View,
    action_type,
    check_seat,
    copy_log,
    get_int,
    rng_from_json,
    rng_to_json,
)

Card = dict[str, Any]

ADD, SUB, SPECIAL = 0, 1, 2
KIND_NAMES: tuple[str, str, str] = ("add", "sub", "special")
SPECIAL_COUNTS: tuple[tuple[str, int], ...] = (
    ("sleep", 6),
    ("reverse", 4),
    ("skip", 4),
    ("again", 4),
)
ANNOUNCE_MODES: tuple[str, ...] = ("typed", "choice", "shown")
WRONG_ANNOUNCEMENT_MODES: tuple[str, ...] = ("coach", "strict")
# The rule sheet's "players x hand size + 10": enough cards to deal and to keep playing.
SPARE_CARDS = 10


def _build_faces() -> tuple[tuple[int, int | None, int | None, int, str | None], ...]:
    faces: list[tuple[int, int | None, int | None, int, str | None]] = []
    for a in range(1, 11):
        for b in range(1, 11):
            faces.append((ADD, a, b, a + b, None))
    for number in range(2, 21):
        faces.append((SUB, None, None, number, None))
    for effect, count in SPECIAL_COUNTS:
        faces.extend((SPECIAL, None, None, 0, effect) for _ in range(count))
    return tuple(faces)


FACES = _build_faces()
CARD_TYPES = len(FACES)  # 137
GENERATIONS = MAX_ABS_INT // CARD_TYPES
KIND = tuple(face[0] for face in FACES)
VALUE = tuple(face[3] for face in FACES)
DELTA = tuple(v if k == ADD else -v if k == SUB else 0 for k, _, _, v, _ in FACES)
EFFECT = tuple(face[4] for face in FACES)
# One template per face; copying a small dict is about three times cheaper
# than building it, and views build a card dict for every card in a hand.
_FACE_JSON: tuple[Card, ...] = tuple(
    {"id": 0, "kind": KIND_NAMES[k], "a": a, "b": b, "value": v, "effect": e}
    for k, a, b, v, e in FACES
)


def card_json(card_id: int) -> Card:
    """The one card shape used in events and views alike."""
    card = _FACE_JSON[card_id % CARD_TYPES].copy()
    card["id"] = card_id
    return card


def _shuffle(rng: random.Random, cards: list[int]) -> None:
    """Fisher-Yates on ``rng.random()``: about twice as fast as ``rng.shuffle``
    (which draws bits in Python), and still all from the state's RNG."""
    rand = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


@lru_cache(maxsize=64)
def deck_indices(
    tables: tuple[int, ...], somme_cards: bool, special_cards: bool
) -> tuple[int, ...]:
    """The physical cards a table plays with: the options only ever remove cards."""
    keep = set(tables)
    out: list[int] = []
    for index, (kind, a, b, _, _) in enumerate(FACES):
        if kind == ADD:
            if a in keep or b in keep:
                out.append(index)
        elif kind == SUB:
            if somme_cards:
                out.append(index)
        elif special_cards:
            out.append(index)
    return tuple(out)


def _deck_for(options: Options) -> tuple[int, ...]:
    return deck_indices(
        tuple(options["tables"]), bool(options["somme_cards"]), bool(options["special_cards"])
    )


# --------------------------------------------------------------------------- #
# Pure helpers shared with the learning records and the UI.
# --------------------------------------------------------------------------- #


def total_after(before: int, card: Card) -> int:
    kind = card["kind"]
    if kind == "add":
        return before + int(card["value"])
    if kind == "sub":
        return before - int(card["value"])
    return before


def crossed_ten(before: int, card: Card) -> bool:
    """Whether the units step needs a carry or a borrow: the classic difficulty
    of mental arithmetic, so accuracy is reported with and without it."""
    kind = card["kind"]
    value = int(card["value"])
    if kind == "add":
        return (before % 10) + (value % 10) >= 10
    if kind == "sub":
        return (before % 10) < (value % 10)
    return False


def error_kind(true_total: int, announced: int) -> str | None:
    """Classify a wrong announcement so reports can tell a forgotten carry
    (``tens``) from a slip in the units (``units``)."""
    if announced == true_total:
        return None
    if abs(announced - true_total) == 10:
        return "tens"
    if announced // 10 == true_total // 10:
        return "units"
    return "other"


def position_penalty(before: int, card: Card, target: int) -> str | None:
    """The token a play costs by where it puts the total (rules 4 and 5)."""
    if card["kind"] == "special":
        return None
    after = total_after(before, card)
    if after >= target:
        return "reached_target"
    if after % 10 == 0:
        return "multiple_of_ten"
    return None


def playable(before: int, card: Card) -> bool:
    return card["kind"] != "sub" or int(card["value"]) < before


def avoidable(
    before: int, played_card: Card, hand_before_play: Sequence[Card], target: int
) -> bool:
    """Reports count a planning error only when the pupil had a way out: another
    card in the hand that was playable and would have cost no position penalty."""
    if position_penalty(before, played_card, target) is None:
        return False
    return any(
        card["id"] != played_card["id"]
        and playable(before, card)
        and position_penalty(before, card, target) is None
        for card in hand_before_play
    )


def announce_choices(before: int, card: Card, seed_or_rng: int | random.Random) -> list[int]:
    """Three candidate totals for the ``choice`` announce mode: the true one, one
    off by ten (the forgotten or extra carry) and one with the units wrong, so a
    wrong pick tells the teacher which mistake the pupil makes (``error_kind``
    files them as ``tens`` and ``units``). Specials have no number to announce,
    hence no choices. Raises ``ValueError`` for a somme that cannot be played."""
    if card["kind"] == "special":
        return []
    true_total = total_after(before, card)
    if true_total < 0:
        raise ValueError("This card cannot be played on this total.")
    rng = seed_or_rng if isinstance(seed_or_rng, random.Random) else random.Random(seed_or_rng)
    # The tens distractor follows the likely slip: a forgotten carry gives a
    # total ten too small, a forgotten borrow one ten too large.
    if crossed_ten(before, card):
        tens = true_total - 10 if card["kind"] == "add" else true_total + 10
    else:
        tens = true_total + rng.choice((-10, 10))
    if tens < 0:
        tens = true_total + 10
    # The units distractor keeps the tens digit; never negative since the
    # units digit itself stays within 0..9.
    units_digit = true_total % 10
    units = true_total + rng.choice(
        [step for step in (-2, -1, 1, 2) if 0 <= units_digit + step <= 9]
    )
    choices = [true_total, tens, units]
    rng.shuffle(choices)
    return choices


# --------------------------------------------------------------------------- #
# State.
# --------------------------------------------------------------------------- #


@dataclass
class ChasseState(BaseState):
    hands: list[list[int]] = field(default_factory=list)
    draw_pile: list[int] = field(default_factory=list)  # top = last
    played: list[int] = field(default_factory=list)  # top = last
    total: int = 0
    tokens: list[int] = field(default_factory=list)
    current_seat: int = 0
    direction: int = 1
    round: int = 0
    generation: int = 0
    round_turns: int = 0  # cards played or discarded in this round
    over: bool = False
    last_round: dict[str, int] | None = None
    # Derived from the options (never serialised): read on every action, so
    # looked up once.
    deck: tuple[int, ...] = ()
    target: int = 100
    announce_needed: bool = True
    strict: bool = False


def _derive(state: ChasseState) -> None:
    options = state.options
    state.deck = _deck_for(options)
    state.target = int(options["target"])
    state.announce_needed = options["announce"] != "shown"
    state.strict = options["wrong_announcement"] == "strict"


def _copy_options(options: Options) -> Options:
    copied = dict(options)
    copied["tables"] = list(options["tables"])
    return copied


_ACTION_TYPES = frozenset(("play", "discard"))


class ChasseEngine(Engine[ChasseState]):
    name: ClassVar[str] = "chasse"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    stat_ratios: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("landed on a multiple of ten", "mult10", "plays"),
    )

    # ----------------------------------------------------------- options
    def option_schema(self) -> list[OptionSpec]:
        return [
            {"key": "target", "type": "int", "default": 100, "min": 20, "max": 200, "step": 10},
            {"key": "tokens", "type": "int", "default": 3, "min": 1, "max": 5},
            {"key": "hand_size", "type": "int", "default": 6, "min": 3, "max": 8},
            {
                "key": "tables",
                "type": "int_set",
                "default": list(range(1, 11)),
                "min": 1,
                "max": 10,
            },
            {"key": "somme_cards", "type": "bool", "default": True},
            {"key": "special_cards", "type": "bool", "default": True},
            {
                "key": "announce",
                "type": "choice",
                "default": "typed",
                "choices": list(ANNOUNCE_MODES),
            },
            {
                "key": "wrong_announcement",
                "type": "choice",
                "default": "coach",
                "choices": list(WRONG_ANNOUNCEMENT_MODES),
            },
            {
                "key": "turn_seconds",
                "type": "int",
                "default": None,
                "min": 10,
                "max": 120,
                "nullable": True,
            },
        ]

    # ----------------------------------------------------------- game
    def new_game(self, players: int, seed: int, options: Options | None = None) -> ChasseState:
        self.check_players(players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("The seed must be a whole number.")
        opts = self.validate_options(options)
        deck_size = len(_deck_for(opts))
        needed = players * int(opts["hand_size"]) + SPARE_CARDS
        if deck_size < needed:
            raise ValueError(
                f"These options leave {deck_size} cards, but {players} players with "
                f"{opts['hand_size']} cards each need at least {needed}. "
                "Choose more tables, add the somme or special cards, or deal fewer cards."
            )
        state = ChasseState(
            players=players,
            options=opts,
            rng=random.Random(seed),
            tokens=[int(opts["tokens"])] * players,
        )
        _derive(state)
        events: list[Event] = []
        self._start_round(state, events, 0)
        return state

    def _start_round(self, state: ChasseState, events: list[Event], first_seat: int) -> None:
        """Collect every card, shuffle, deal one at a time from the first seat."""
        base = state.generation % GENERATIONS * CARD_TYPES
        state.generation += 1
        pile = [base + index for index in state.deck]
        _shuffle(state.rng, pile)
        players = state.players
        hands: list[list[int]] = [[] for _ in range(players)]
        for _ in range(int(state.options["hand_size"])):
            for offset in range(players):
                hands[(first_seat + offset) % players].append(pile.pop())
        state.hands = hands
        state.draw_pile = pile
        state.played = []
        state.total = 0
        state.direction = 1
        state.current_seat = first_seat
        state.round += 1
        state.round_turns = 0
        state.emit(
            events, {"type": "round_started", "round": state.round, "first_seat": first_seat}
        )

    def _draw(self, state: ChasseState, seat: int) -> None:
        pile = state.draw_pile
        if not pile:
            played = state.played
            if len(played) < 2:
                return  # cannot happen with the deck-size rule; never crash
            # Keep the top card; the rest come back with fresh ids (see module doc).
            top = played[-1]
            base = state.generation % GENERATIONS * CARD_TYPES
            state.generation += 1
            pile = [base + card % CARD_TYPES for card in played[:-1]]
            _shuffle(state.rng, pile)
            state.draw_pile = pile
            state.played = [top]
        state.hands[seat].append(pile.pop())

    def legal_actions(self, state: ChasseState, seat: int) -> list[Action]:
        if state.over or seat != state.current_seat:
            return []
        total = state.total
        hand = state.hands[seat]
        plays: list[Action] = []
        seen_specials: list[str | None] = []
        number = "int" if state.announce_needed else None
        for card in hand:
            index = card % CARD_TYPES
            kind = KIND[index]
            if kind == ADD:
                plays.append({"type": "play", "card": card, "announce": number})
            elif kind == SUB:
                if VALUE[index] < total:
                    plays.append({"type": "play", "card": card, "announce": number})
            else:
                # Specials of one effect are interchangeable: one canonical entry.
                effect = EFFECT[index]
                if effect in seen_specials:
                    continue
                seen_specials.append(effect)
                plays.append({"type": "play", "card": card, "announce": None})
        if plays:
            return plays
        return [{"type": "discard", "card": card} for card in hand]

    def _missing_card(self, state: ChasseState, card: int) -> IllegalAction:
        """An id that names no card in the game is malformed; one that exists
        elsewhere is simply not in the hand. Ids only encode public facts (see
        the module doc), so the distinction leaks nothing."""
        if card >= 0 and (
            card in state.played or card in state.draw_pile or any(card in h for h in state.hands)
        ):
            return IllegalAction("card_not_in_hand", "This card is not in your hand.")
        return IllegalAction("malformed", "There is no such card in this game.")

    def apply(self, state: ChasseState, seat: int, action: Action) -> list[Event]:
        # Fast path for well-formed input; anything unusual goes through the
        # base helpers, which produce the precise "malformed" message.
        if action.__class__ is dict and len(action) <= MAX_LIST_LEN:
            kind = action.get("type")
            if kind != "play" and kind != "discard":
                action_type(action, _ACTION_TYPES)
        else:
            action_type(action, _ACTION_TYPES)
            kind = action["type"]
        if seat.__class__ is not int or not 0 <= seat < state.players:
            seat = check_seat(seat, state.players)
        card = action.get("card")
        if card.__class__ is not int or not 0 <= card <= MAX_ABS_INT:
            card = get_int(action, "card")
            assert card is not None
        announced = action.get("announce") if kind == "play" else None
        if announced is not None and (
            announced.__class__ is not int or not -MAX_ABS_INT <= announced <= MAX_ABS_INT
        ):
            announced = get_int(action, "announce", required=False)
        if state.over:
            raise IllegalAction("game_over", "The game is over.")
        if seat != state.current_seat:
            raise IllegalAction("not_your_turn", "It is not your turn.")
        hand = state.hands[seat]
        if card not in hand:
            raise self._missing_card(state, card)
        index = card % CARD_TYPES
        total = state.total
        if kind == "discard":
            for other in hand:
                other_index = other % CARD_TYPES
                if KIND[other_index] != SUB or VALUE[other_index] < total:
                    raise IllegalAction(
                        "discard_not_allowed", "You can play a card, so you may not discard."
                    )
            return self._discard(state, seat, card)
        card_kind = KIND[index]
        if card_kind == SUB and VALUE[index] >= total:
            raise IllegalAction("card_not_playable", "A somme card must be smaller than the total.")
        if card_kind == SPECIAL or not state.announce_needed:
            announced = None
        elif announced is None:
            raise IllegalAction("announce_required", "Announce the new total.")
        return self._play(state, seat, card, announced)

    def _discard(self, state: ChasseState, seat: int, card: int) -> list[Event]:
        events: list[Event] = []
        state.hands[seat].remove(card)
        state.played.append(card)
        state.emit(events, {"type": "card_discarded", "seat": seat, "card": card_json(card)})
        self._draw(state, seat)
        state.current_seat = (seat + state.direction) % state.players
        state.round_turns += 1
        return events

    def _play(self, state: ChasseState, seat: int, card: int, announced: int | None) -> list[Event]:
        index = card % CARD_TYPES
        hand = state.hands[seat]
        hand.remove(card)
        state.played.append(card)
        before = state.total
        after = before + DELTA[index]
        state.total = after
        correct = None if announced is None else announced == after
        played_event: Event = {
            "type": "card_played",
            "seat": seat,
            "card": card_json(card),
            "before": before,
            "after": after,
            "announced": announced,
            "correct": correct,
        }
        state.log.append(played_event)
        events: list[Event] = [played_event]
        players = state.players
        step = state.direction
        next_seat = (seat + step) % players
        round_ended = False
        penalised = False
        kind = KIND[index]
        if kind == SPECIAL:
            effect = EFFECT[index]
            if effect == "reverse":
                state.direction = step = -step
                next_seat = (seat + step) % players
                state.emit(events, {"type": "direction_changed", "direction": step})
            elif effect == "skip":
                state.emit(events, {"type": "turn_skipped", "seat": next_seat})
                next_seat = (seat + 2 * step) % players
            elif effect == "again":
                next_seat = seat
        else:
            # Rule 7: the position penalty first, then the announcement.
            if after >= state.target:
                round_ended = penalised = True
                self._lose_token(state, events, seat, "reached_target")
            elif after % 10 == 0:
                penalised = True
                self._lose_token(state, events, seat, "multiple_of_ten")
            if correct is False and state.strict:
                penalised = True
                self._lose_token(state, events, seat, "wrong_announcement")
        if round_ended:
            state.last_round = {"round": state.round, "loser": seat, "total": after}
            state.emit(
                events, {"type": "round_over", "round": state.round, "loser": seat, "total": after}
            )
        if penalised and 0 in state.tokens:
            state.over = True
            state.emit(
                events,
                {
                    "type": "game_over",
                    "winners": self._winners(state),
                    "tokens": list(state.tokens),
                },
            )
        elif round_ended:
            self._start_round(state, events, seat)
        else:
            pile = state.draw_pile
            if pile:
                hand.append(pile.pop())
            else:
                self._draw(state, seat)
            state.current_seat = next_seat
            state.round_turns += 1
        return events

    def _lose_token(self, state: ChasseState, events: list[Event], seat: int, reason: str) -> None:
        left = state.tokens[seat]
        if left <= 0:
            return  # rule 7: the floor
        state.tokens[seat] = left - 1
        state.emit(
            events, {"type": "token_lost", "seat": seat, "reason": reason, "tokens_left": left - 1}
        )

    @staticmethod
    def _winners(state: ChasseState) -> list[int]:
        best = max(state.tokens)
        return [seat for seat, tokens in enumerate(state.tokens) if tokens == best]

    # ----------------------------------------------------------- views
    def view(self, state: ChasseState, seat: int | None) -> View:
        # Called twice per action by the bot driver: kept lean on purpose.
        hand: list[Card] = []
        if seat is not None:
            if seat.__class__ is not int or not 0 <= seat < state.players:
                seat = check_seat(seat, state.players)
            faces = _FACE_JSON
            for card in state.hands[seat]:
                shown = faces[card % CARD_TYPES].copy()
                shown["id"] = card
                hand.append(shown)
        played = state.played
        over = state.over
        options = state.options.copy()
        options["tables"] = list(options["tables"])
        last_round = state.last_round
        return {
            "seat": seat,
            "hand": hand,
            "hand_counts": list(map(len, state.hands)),
            "total": state.total,
            "tokens": state.tokens.copy(),
            "current_seat": None if over else state.current_seat,
            "direction": state.direction,
            "round": state.round,
            "round_turns": state.round_turns,
            "draw_pile_count": len(state.draw_pile),
            "played_count": len(played),
            "last_card": card_json(played[-1]) if played else None,
            "target": state.target,
            "players": state.players,
            "options": options,
            "last_round": last_round.copy() if last_round else None,
            "winners": self._winners(state) if over else None,
            "over": over,
        }

    # ----------------------------------------------------------- persistence
    def to_json(self, state: ChasseState) -> dict[str, Any]:
        return {
            "players": state.players,
            "options": _copy_options(state.options),
            "rng": rng_to_json(state.rng),
            "log": copy_log(state.log),
            "hands": [list(hand) for hand in state.hands],
            "draw_pile": list(state.draw_pile),
            "played": list(state.played),
            "total": state.total,
            "tokens": list(state.tokens),
            "current_seat": state.current_seat,
            "direction": state.direction,
            "round": state.round,
            "generation": state.generation,
            "round_turns": state.round_turns,
            "over": state.over,
            "last_round": dict(state.last_round) if state.last_round else None,
        }

    def from_json(self, data: dict[str, Any]) -> ChasseState:
        last_round = data["last_round"]
        state = ChasseState(
            players=int(data["players"]),
            options=_copy_options(data["options"]),
            rng=rng_from_json(data["rng"]),
            log=copy_log(data["log"]),
            hands=[list(hand) for hand in data["hands"]],
            draw_pile=list(data["draw_pile"]),
            played=list(data["played"]),
            total=data["total"],
            tokens=list(data["tokens"]),
            current_seat=data["current_seat"],
            direction=data["direction"],
            round=data["round"],
            generation=data["generation"],
            round_turns=data["round_turns"],
            over=data["over"],
            last_round=dict(last_round) if last_round else None,
        )
        _derive(state)
        return state

    def is_over(self, state: ChasseState) -> bool:
        return state.over

    def result(self, state: ChasseState) -> dict[str, Any]:
        tokens = list(state.tokens)
        ranking = sorted(range(state.players), key=lambda seat: (-tokens[seat], seat))
        return {"winners": self._winners(state), "ranking": ranking, "scores": tokens}

    def game_stats(self, state: ChasseState) -> dict[str, Any]:
        plays = [0] * state.players
        mult10 = [0] * state.players
        target = state.target
        for event in state.log:
            if event["type"] != "card_played":
                continue
            plays[event["seat"]] += 1
            after = event["after"]
            if event["card"]["kind"] != "special" and after < target and after % 10 == 0:
                mult10[event["seat"]] += 1
        return {
            "game": {"rounds": state.round, "plays": sum(plays)},
            "seat": {"plays": plays, "mult10": mult10},
        }

    # ----------------------------------------------------------- bots
    def bot(self, level: str) -> Bot:
        self.check_level(level)
        return _BOTS[level]


# --------------------------------------------------------------------------- #
# Bots: they see only their view, the legal actions, their rng and their
# history, and always announce the true total (they model strategy, not
# arithmetic slips).
# --------------------------------------------------------------------------- #


# With a few tables and the somme cards, or with the special cards and no
# somme cards, careful players can always find a safe card and the total never
# reaches the target: a round could last for ever. After this many turns in one
# round the medium and hard bots lose patience and play like easy ones, whose
# slips end the round. Normal rounds stay far below it: with all the cards, at
# most about 55 turns with the default target and 70 with a target of 200.
PATIENCE_TURNS = 200


def _answer(action: Action, after: int) -> Action:
    if action["type"] == "play" and action["announce"] == "int":
        return {"type": "play", "card": action["card"], "announce": after}
    return dict(action)


def _outcomes(view: View, legal: list[Action]) -> list[tuple[Action, Card, int, bool]]:
    """(action, card, total after, safe) for every play; safe = no position penalty."""
    total = view["total"]
    target = view["target"]
    cards = {card["id"]: card for card in view["hand"]}
    out: list[tuple[Action, Card, int, bool]] = []
    for action in legal:
        card = cards[action["card"]]
        kind = card["kind"]
        if kind == "special":
            out.append((action, card, total, True))
            continue
        after = total + card["value"] if kind == "add" else total - card["value"]
        out.append((action, card, after, after < target and after % 10 != 0))
    return out


def _easy(
    view: View, legal: list[Action], rng: random.Random, history: list[Event]
) -> Action | None:
    """A random legal card: it plays the game without planning."""
    if not legal:
        return None
    action, _, after, _ = rng.choice(_outcomes(view, legal))
    return _answer(action, after)


def _medium(
    view: View, legal: list[Action], rng: random.Random, history: list[Event]
) -> Action | None:
    """Never pays a token it could avoid, otherwise random."""
    if not legal:
        return None
    if view["round_turns"] >= PATIENCE_TURNS:
        return _easy(view, legal, rng, history)
    if legal[0]["type"] == "discard":
        return dict(rng.choice(legal))
    # The tightest loop of the bot-only benchmark: it walks the hand directly
    # (any id of an interchangeable card is accepted) and calls no helper.
    total = view["total"]
    target = view["target"]
    safe: list[tuple[int, int | None]] = []
    risky: list[tuple[int, int | None]] = []
    for card in view["hand"]:
        kind = card["kind"]
        if kind == "add":
            after = total + card["value"]
        elif kind == "sub":
            if card["value"] >= total:
                continue
            after = total - card["value"]
        else:
            safe.append((card["id"], None))
            continue
        if after < target and after % 10:
            safe.append((card["id"], after))
        else:
            risky.append((card["id"], after))
    card_id, after = rng.choice(safe or risky)
    if view["options"]["announce"] == "shown":
        after = None
    return {"type": "play", "card": card_id, "announce": after}


@lru_cache(maxsize=64)
def _safe_share(target: int, deck: tuple[int, ...]) -> tuple[float, ...]:
    """For each total, the share of the deck a player could play without a
    penalty: the hard bot's estimate of how cornered an unknown hand is."""
    shares: list[float] = []
    size = len(deck) or 1
    for total in range(target + 1):
        safe = 0
        for index in deck:
            kind = KIND[index]
            if kind == SPECIAL:
                safe += 1
                continue
            if kind == SUB and VALUE[index] >= total:
                continue
            after = total + DELTA[index]
            if after < target and after % 10:
                safe += 1
        shares.append(safe / size)
    return tuple(shares)


@lru_cache(maxsize=64)
def _keep_values(target: int) -> dict[tuple[str, int], float]:
    """How much a card is worth keeping for the dangerous end of a round: the
    share of the last twenty totals before the target where it is still safe."""
    zone = range(max(1, target - 20), target)
    values: dict[tuple[str, int], float] = {("special", 0): 1.0}
    for kind, numbers in (("add", range(2, 21)), ("sub", range(2, 21))):
        for number in numbers:
            card = {"kind": kind, "value": number}
            safe = sum(1 for total in zone if _safe_card(card, total, target))
            values[(kind, number)] = safe / len(zone)
    return values


def _safe_card(card: Card, total: int, target: int) -> bool:
    kind = card["kind"]
    if kind == "special":
        return True
    value = int(card["value"])
    if kind == "sub":
        if value >= total:
            return False
        after = total - value
    else:
        after = total + value
    return after < target and after % 10 != 0


# Weights of the hard bot's score, tuned over 1,000 seeded 4-player games with
# rotated seats. Keeping escape cards is what wins (without it hard falls to
# about 28% against three medium bots); the pressure term adds a couple of
# points, mostly by not knocking out the weakest player while hard is behind.
HARD_PRESSURE = 1.0
HARD_KEEP = 1.0
HARD_AGAIN_RISK = 2.0


def _loss_value(tokens: list[int], me: int, victim: int) -> float:
    """What another seat losing a token is worth to me: the winners are the
    players with the most tokens, so knocking out the weakest player while I am
    not ahead hands the win to someone else."""
    if tokens[victim] <= 1:  # that loss ends the game
        best_other = max(
            count - (seat == victim) for seat, count in enumerate(tokens) if seat != me
        )
        return 2.0 if tokens[me] > best_other else 0.5 if tokens[me] == best_other else -2.0
    return 1.0 if tokens[victim] >= tokens[me] else 0.5


def _hard(
    view: View, legal: list[Action], rng: random.Random, history: list[Event]
) -> Action | None:
    """Keeps its escape cards (sommes, specials, small additions) for the end of
    the round, and prefers plays that leave the next player cornered."""
    if not legal:
        return None
    if view["round_turns"] >= PATIENCE_TURNS:
        return _easy(view, legal, rng, history)
    outcomes = _outcomes(view, legal)
    if legal[0]["type"] == "discard":
        # Only sommes too big for the total can be in the hand: the biggest is
        # the last one to become playable.
        action, _, after, _ = max(outcomes, key=lambda o: (o[1]["value"], rng.random()))
        return _answer(action, after)
    target = view["target"]
    safe = [outcome for outcome in outcomes if outcome[3]]
    if not safe:
        # Forced to pay: ending the round at least resets the danger.
        action, _, after, _ = max(outcomes, key=lambda o: (o[2] >= target, o[2], rng.random()))
        return _answer(action, after)
    options = view["options"]
    shares = _safe_share(target, _deck_for(options))
    keep = _keep_values(target)
    hand_size = int(options["hand_size"])
    players = view["players"]
    hand = view["hand"]
    me = view["seat"]
    step = view["direction"]
    tokens = view["tokens"]
    best: tuple[float, float] | None = None
    choice = safe[0]
    for outcome in safe:
        _, card, after, _ = outcome
        effect = card["effect"]
        if effect == "again" or (effect == "skip" and players == 2):
            # I play next: dangerous unless another card of mine is safe there.
            rest_safe = any(
                other["id"] != card["id"] and _safe_card(other, after, target) for other in hand
            )
            pressure = 0.0 if rest_safe else -HARD_AGAIN_RISK * (1.0 - shares[after])
        else:
            if effect == "reverse":
                victim = (me - step) % players
            elif effect == "skip":
                victim = (me + 2 * step) % players
            else:
                victim = (me + step) % players
            pressure = (1.0 - shares[after]) ** hand_size * _loss_value(tokens, me, victim)
        score = HARD_PRESSURE * pressure - HARD_KEEP * keep[(card["kind"], card["value"])]
        key = (score, rng.random())
        if best is None or key > best:
            best = key
            choice = outcome
    return _answer(choice[0], choice[2])


_BOTS: dict[str, Callable[[View, list[Action], random.Random, list[Event]], Action | None]] = {
    "easy": _easy,
    "medium": _medium,
    "hard": _hard,
}

ENGINE = ChasseEngine()
