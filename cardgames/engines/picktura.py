"""Picktura: collect the quarters of twelve artworks and exhibit them.

Rules: ``docs/rules/picktura.md``. Where the sheet leaves
room, this module decides:

* **Card ids** are fixed: ``0..47`` are the artwork cards (``artwork = id // 4 + 1``,
  ``quarter = id % 4``), ``48..48+players-1`` the blank canvases. The four cards of
  an artwork are interchangeable for the rules, so ``legal_actions`` lists one
  entry per artwork (the lowest ids) and ``apply`` accepts any of them.
* **When the pile rules act.** The sheet's pile rules make sure every draw
  offers both piles, so they are applied just before each single card is taken
  (a collect, or each card of a draw) and again at the end of every turn, so the
  next player is always offered both piles. They are not applied between a
  collect and its discard: the discard refills the visible pile anyway.
  "Turned over" means what it says: a rebuilt hidden pile is the visible pile
  upside down, unshuffled, so its order can be worked out from the public log
  (the seed's own advice is to watch and remember the piles).
* **A draw takes what there is.** The number of cards an action draws is known
  before it starts: the nominal count (back up to 5 after an exhibit, 2 after a
  completion, 1 after a blank canvas, 1 after a replacement) capped by the cards
  in both piles, counting the blank canvas that a replacement puts on the
  visible pile first. ``draw_from`` must hold exactly that many entries, each
  ``"visible"`` or ``"hidden"``, taken in order (an empty list when nothing can
  be drawn). An entry that a pile rule makes moot (the hidden pile is empty
  and the only card left is visible) is still accepted; the card comes from
  where it is. The sheet says "draw 2" after a completion and "draw 1" after a
  blank canvas, so those counts do not depend on the hand size.
* **Strict actions.** A field an action type does not use is malformed, and so
  is an ``exhibit`` index the acting seat does not have: indices count the
  acting seat's own exhibits only, which is how actions 3 to 5 stay on one's own
  exhibits. ``legal_actions`` lists one ``draw_from`` per distinct outcome
  (visible draws first); ``apply`` accepts any order.
* **Actions 3 to 5 use real cards.** Completing a 2-card exhibit takes the two
  missing real cards; a blank canvas only goes onto a 3-card exhibit (action 4).
  With ``complete_three_with_one``, the missing real card completes a 3-card
  exhibit the same way, with ``{"type": "complete", "cards": [id]}``.
* **A replaced blank canvas** goes on top of the visible pile before the draw,
  so the player may draw it straight back: the sheet says nothing against it.
* **Collecting needs both piles.** With fewer than 2 cards left in the piles,
  the seed's "always a choice between the 2 piles" cannot hold, and a collect
  would only pass the last card round the table for ever (the end rules could
  never fire). So collecting needs 2 cards in the piles; below that, players
  can only lay, and the game ends once nobody can.
* **Turns and the end.** A seat that cannot act (no collect and nothing to lay)
  is skipped, and the skip counts as its turn. The game ends when no seat can
  act, or at the first end of a round (after the last seat's turn) once the
  hidden pile has been rebuilt twice.
* **Results.** Scores follow ``SCORING``; the ranking breaks ties by fewer cards
  in hand then by the lowest seat, so there is always exactly one winner. Cards
  are never shown at the end: the scores and the number of blank canvases in
  each hand are enough to check them.
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any, ClassVar

from .base import (
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
    adopt_log,
    check_seat,
    copy_log,
    get_int,
    get_int_list,
    get_str,
    malformed,
    rng_from_json,
    rng_to_json,
)

ARTWORKS = 12
QUARTERS = 4
REAL_CARDS = ARTWORKS * QUARTERS  # 48
BLANK_BASE = REAL_CARDS  # blank canvases are 48, 49, ...
HAND_SIZE = 5
REBUILD_LIMIT = 2
# A collect is a choice between the two piles (the seed: "une joueuse doit
# toujours avoir le choix entre les 2 pioches"), so it needs a card in each.
COLLECT_MIN_CARDS = 2

# Points of an exhibit by its number of cards (a blank canvas counts as a card).
EXHIBIT_POINTS: dict[int, int] = {2: 2, 3: 3, 4: 6}
BLANK_IN_HAND_POINTS = 1
# The scoring table, JSON-ready, for the UI to show when the game starts.
SCORING: tuple[dict[str, Any], ...] = (
    {"item": "exhibit", "cards": 2, "points": EXHIBIT_POINTS[2]},
    {"item": "exhibit", "cards": 3, "points": EXHIBIT_POINTS[3]},
    {"item": "exhibit", "cards": 4, "points": EXHIBIT_POINTS[4]},
    {"item": "blank_in_hand", "cards": 1, "points": BLANK_IN_HAND_POINTS},
    {"item": "card_in_hand", "cards": 1, "points": 0},
)
TIE_BREAKS: tuple[str, ...] = ("fewer_cards_in_hand", "lowest_seat")

VISIBLE = "visible"
HIDDEN = "hidden"
PILES: tuple[str, str] = (VISIBLE, HIDDEN)

PLAY = "play"
DISCARD = "discard"
OVER = "over"

ACTION_FIELDS: dict[str, frozenset[str]] = {
    "collect": frozenset({"type", "from"}),
    "discard": frozenset({"type", "card"}),
    "exhibit": frozenset({"type", "cards", "draw_from"}),
    "complete": frozenset({"type", "exhibit", "cards", "draw_from"}),
    "blank": frozenset({"type", "exhibit", "card", "draw_from"}),
    "replace_blank": frozenset({"type", "exhibit", "card", "draw_from"}),
}
LAYING_ACTIONS: tuple[str, ...] = ("exhibit", "complete", "blank", "replace_blank")


# --------------------------------------------------------------------------- #
# Cards
# --------------------------------------------------------------------------- #


# Artwork number by card id, 0 for a blank canvas (room for 4 of them).
_ARTWORK_INDEX: tuple[int, ...] = tuple(
    card // QUARTERS + 1 if card < BLANK_BASE else 0 for card in range(BLANK_BASE + 4)
)
_CARD_JSON: tuple[dict[str, Any], ...] = tuple(
    {"id": card, "artwork": None, "quarter": None, "blank": True}
    if card >= BLANK_BASE
    else {"id": card, "artwork": card // QUARTERS + 1, "quarter": card % QUARTERS, "blank": False}
    for card in range(BLANK_BASE + 4)
)


def is_blank(card: int) -> bool:
    return card >= BLANK_BASE


def artwork_of(card: int) -> int | None:
    """The artwork number (1..12), or ``None`` for a blank canvas."""
    return None if card >= BLANK_BASE else card // QUARTERS + 1


def card_json(card: int) -> dict[str, Any]:
    """The one card shape of views and events, so leak checks find ids
    structurally. A fresh dict each time: callers may keep or change it."""
    return dict(_CARD_JSON[card])


def _groups(hand: Sequence[int]) -> dict[int, list[int]]:
    """Real cards of a hand by artwork, lowest ids first."""
    groups: dict[int, list[int]] = {}
    for card in sorted(hand):
        if card < BLANK_BASE:
            groups.setdefault(card // QUARTERS + 1, []).append(card)
    return groups


# --------------------------------------------------------------------------- #
# Piles, as plain lists (bottom first, top last). The engine and the hard bot's
# simulations share these, so a bot predicts draws exactly as the engine does.
# --------------------------------------------------------------------------- #

PileCard = int | None  # None: a hidden card whose face a bot does not know


def settle_piles(visible: list[PileCard], hidden: list[PileCard]) -> list[tuple[str, PileCard]]:
    """Apply the sheet's pile rules in place; return the steps, ``("flip", card)``
    and ``("rebuild", None)``, in the order they happened."""
    steps: list[tuple[str, PileCard]] = []
    if not visible and hidden:
        card = hidden.pop()
        visible.append(card)
        steps.append(("flip", card))
    if not hidden and len(visible) >= 2:
        hidden.extend(reversed(visible))
        visible.clear()
        steps.append(("rebuild", None))
        card = hidden.pop()
        visible.append(card)
        steps.append(("flip", card))
    return steps


def take_from_piles(
    visible: list[PileCard], hidden: list[PileCard], choice: str
) -> tuple[str, PileCard]:
    """Take the top card of the chosen pile (the other one when the choice is
    moot); the piles must hold a card. Returns the real source and the card."""
    source = choice
    if source == HIDDEN and not hidden:
        source = VISIBLE
    elif source == VISIBLE and not visible:
        source = HIDDEN
    pile = visible if source == VISIBLE else hidden
    return source, pile.pop()


def simulate_draws(
    visible: Sequence[PileCard], hidden: Sequence[PileCard], choices: Sequence[str]
) -> tuple[list[tuple[str, PileCard]], list[PileCard], list[PileCard], int]:
    """Play ``choices`` on copies of the piles: ``(drawn as (source, card),
    visible, hidden, rebuilds)``. Stops early when the piles run out."""
    v = list(visible)
    h = list(hidden)
    drawn: list[tuple[str, PileCard]] = []
    rebuilds = 0
    for choice in choices:
        rebuilds += sum(1 for step, _ in settle_piles(v, h) if step == "rebuild")
        if not v and not h:
            break
        drawn.append(take_from_piles(v, h, choice))
    return drawn, v, h, rebuilds


def draw_options(visible: Sequence[int], hidden: Sequence[int], count: int) -> list[list[str]]:
    """One ``draw_from`` per distinct outcome (cards drawn, which of them were
    seen by all, piles left): visible-first sequences are the representatives."""
    if count <= 0:
        return [[]]
    if len(visible) >= count and len(hidden) >= count:
        # No pile can run out before the last draw: only the number of visible
        # draws matters, not their order.
        return [[VISIBLE] * k + [HIDDEN] * (count - k) for k in range(count, -1, -1)]
    seen: set[tuple[Any, ...]] = set()
    options: list[list[str]] = []
    for combo in product(PILES, repeat=count):
        drawn, v, h, rebuilds = simulate_draws(visible, hidden, combo)
        outcome = (
            tuple(sorted(c for _, c in drawn if c is not None)),
            tuple(sorted(c for s, c in drawn if s == VISIBLE and c is not None)),
            tuple(v),
            tuple(h),
            rebuilds,
        )
        if outcome not in seen:
            seen.add(outcome)
            options.append(list(combo))
    return options


# --------------------------------------------------------------------------- #
# State
# --------------------------------------------------------------------------- #


@dataclass
class Exhibit:
    artwork: int
    cards: list[int]

    @property
    def has_blank(self) -> bool:
        return any(card >= BLANK_BASE for card in self.cards)

    @property
    def points(self) -> int:
        return EXHIBIT_POINTS[len(self.cards)]

    def to_json(self) -> dict[str, Any]:
        return {"artwork": self.artwork, "cards": list(self.cards)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Exhibit:
        return cls(artwork=data["artwork"], cards=list(data["cards"]))


@dataclass
class PickturaState(BaseState):
    hands: list[list[int]] = field(default_factory=list)
    exhibits: list[list[Exhibit]] = field(default_factory=list)
    visible: list[int] = field(default_factory=list)  # bottom first, top last
    hidden: list[int] = field(default_factory=list)  # bottom first, top last
    current: int = 0
    phase: str = PLAY
    taken: int | None = None  # the card just collected, during the discard step
    rebuilds: int = 0
    turns: list[int] = field(default_factory=list)  # turns each seat has had
    end_reason: str | None = None

    def blank_count(self) -> int:
        return self.players if self.options["blank_canvases"] else 0

    def deck_size(self) -> int:
        return REAL_CARDS + self.blank_count()

    def pile_total(self) -> int:
        return len(self.visible) + len(self.hidden)


@dataclass(frozen=True)
class Move:
    """A parsed action: what the client asked for, before any rule is checked."""

    kind: str
    pile: str = VISIBLE
    cards: tuple[int, ...] = ()
    exhibit: int | None = None
    draw_from: tuple[str, ...] = ()


# --------------------------------------------------------------------------- #
# Engine
# --------------------------------------------------------------------------- #


class PickturaEngine(Engine[PickturaState]):
    name: ClassVar[str] = "picktura"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    simultaneous: ClassVar[bool] = False
    stat_ratios: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("complete exhibits", "complete", "exhibits"),
        ("draws from the hidden pile", "hidden_draws", "draws"),
        ("blank canvases played", "blanks_used", "blanks_seen"),
    )

    # ----------------------------------------------------------- options
    def option_schema(self) -> list[OptionSpec]:
        return [
            {"key": "blank_canvases", "type": "bool", "default": True},
            {"key": "complete_three_with_one", "type": "bool", "default": False},
            # Not a rule: the table's screen reads it (after the game, each pupil
            # adds up their own score before it is shown). The engine ignores it.
            {"key": "score_sums", "type": "bool", "default": True},
        ]

    # ----------------------------------------------------------- game
    def new_game(self, players: int, seed: int, options: Options | None = None) -> PickturaState:
        self.check_players(players)
        opts = self.validate_options(options)
        rng = random.Random(seed)
        state = PickturaState(players=players, options=opts, rng=rng)
        deck = list(range(state.deck_size()))
        rng.shuffle(deck)
        state.hands = [sorted(deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(players)]
        state.hidden = deck[players * HAND_SIZE :]
        state.exhibits = [[] for _ in range(players)]
        state.turns = [0] * players
        events: list[Event] = []
        state.emit(
            events,
            {
                "type": "game_start",
                "players": players,
                "options": dict(opts),
                "scoring": [dict(row) for row in SCORING],
                "tie_breaks": list(TIE_BREAKS),
                "hand_size": HAND_SIZE,
                "rebuild_limit": REBUILD_LIMIT,
                "blank_canvases": state.blank_count(),
            },
        )
        for seat in range(players):
            state.emit(
                events,
                {
                    "type": "deal",
                    "to": [seat],
                    "seat": seat,
                    "cards": [card_json(c) for c in state.hands[seat]],
                },
            )
        card = state.hidden.pop()
        state.visible.append(card)
        state.emit(
            events,
            {"type": "flip", "card": card_json(card), "reason": "setup"}
            | self._piles_public(state),
        )
        self._start_turn(state, 0, events)
        return state

    def legal_actions(self, state: PickturaState, seat: int) -> list[Action]:
        if state.phase == OVER or seat != state.current:
            return []
        if state.phase == DISCARD:
            hand = state.hands[seat]
            canonical = [cards[0] for cards in _groups(hand).values()]
            blanks = [c for c in hand if is_blank(c)]
            canonical += blanks[:1]
            return [{"type": "discard", "card": c} for c in sorted(canonical)]
        actions: list[Action] = []
        if state.pile_total() >= COLLECT_MIN_CARDS:
            actions.append({"type": "collect", "from": VISIBLE})
            actions.append({"type": "collect", "from": HIDDEN})
        for kind, cards, exhibit in self._laying_moves(state, seat):
            count, visible, hidden = self._draw_plan(state, seat, kind, cards, exhibit)
            for draw in draw_options(visible, hidden, count):
                action: Action = {"type": kind}
                if exhibit is not None:
                    action["exhibit"] = exhibit
                if kind in ("exhibit", "complete"):
                    action["cards"] = list(cards)
                else:
                    action["card"] = cards[0]
                action["draw_from"] = draw
                actions.append(action)
        return actions

    def apply(self, state: PickturaState, seat: int, action: Action) -> list[Event]:
        seat = check_seat(seat, state.players)
        kind, data = action_type(action, ACTION_FIELDS)
        move = self._parse(state, kind, data)
        if state.phase == OVER:
            raise IllegalAction("game_over", "The game is over.")
        if seat != state.current:
            raise IllegalAction("not_your_turn", "It is not your turn.")
        self._check(state, seat, move)
        events: list[Event] = []
        if move.kind == "collect":
            state.taken = self._take(state, seat, move.pile, "collect", events)
            state.phase = DISCARD
        elif move.kind == "discard":
            self._discard(state, seat, move.cards[0], events)
            self._end_turn(state, seat, events)
        else:
            nominal = self._nominal_draws(state, seat, move.kind, len(move.cards))
            self._lay(state, seat, move, events)
            for choice in move.draw_from:
                self._take(state, seat, choice, move.kind, events)
            missing = nominal - len(move.draw_from)
            if missing > 0:
                state.emit(events, {"type": "draw_skipped", "seat": seat, "missing": missing})
            self._end_turn(state, seat, events)
        return events

    # ----------------------------------------------------------- parsing
    def _parse(self, state: PickturaState, kind: str, data: dict[str, Any]) -> Move:
        """Shape-only checks, all before any rule: anything wrong here is malformed."""
        if set(data) - ACTION_FIELDS[kind]:
            raise malformed("This action has fields it does not need.")
        deck = state.deck_size()
        if kind == "collect":
            return Move(kind, pile=get_str(data, "from", PILES))
        if kind == "discard":
            return Move(kind, cards=(self._card_id(data, "card", deck),))
        if kind in ("exhibit", "complete"):
            cards = get_int_list(data, "cards", min_len=1, max_len=MAX_LIST_LEN)
            for card in cards:
                if not 0 <= card < deck:
                    raise malformed("There is no such card in this game.")
        else:
            cards = [self._card_id(data, "card", deck)]
        exhibit: int | None = None
        if kind != "exhibit":
            exhibit = get_int(data, "exhibit")
            assert exhibit is not None
            if exhibit < 0:
                raise malformed("There is no such exhibit.")
        raw = data.get("draw_from")
        if not isinstance(raw, list) or len(raw) > MAX_LIST_LEN:
            raise malformed("The field 'draw_from' must be a short list of piles.")
        for choice in raw:
            if not isinstance(choice, str) or choice not in PILES:
                raise malformed("Each pile in 'draw_from' must be 'visible' or 'hidden'.")
        return Move(kind, cards=tuple(cards), exhibit=exhibit, draw_from=tuple(raw))

    @staticmethod
    def _card_id(data: dict[str, Any], key: str, deck: int) -> int:
        card = get_int(data, key)
        assert card is not None
        if not 0 <= card < deck:
            raise malformed("There is no such card in this game.")
        return card

    # ----------------------------------------------------------- rules
    def _check(self, state: PickturaState, seat: int, move: Move) -> None:
        """Every rule of the sheet, checked before anything changes."""
        hand = state.hands[seat]
        if state.phase == DISCARD and move.kind != "discard":
            raise IllegalAction("discard_required", "Discard a card to finish collecting.")
        if move.kind == "discard":
            if state.phase != DISCARD:
                raise IllegalAction("collect_first", "Discard only after collecting a card.")
            if move.cards[0] not in hand:
                raise IllegalAction("card_not_in_hand", "That card is not in your hand.")
            return
        if move.kind == "collect":
            if state.pile_total() < COLLECT_MIN_CARDS:
                raise IllegalAction("cannot_collect", "Collecting needs a card in each pile.")
            return
        for card in move.cards:
            if card not in hand:
                raise IllegalAction("card_not_in_hand", "That card is not in your hand.")
        exhibit: Exhibit | None = None
        if move.exhibit is not None:
            own = state.exhibits[seat]
            if move.exhibit >= len(own):
                raise malformed("There is no such exhibit.")
            exhibit = own[move.exhibit]
        if move.kind == "exhibit":
            if not 2 <= len(move.cards) <= 4:
                raise IllegalAction("wrong_card_count", "An exhibit holds 2, 3 or 4 cards.")
            if any(is_blank(c) for c in move.cards):
                raise IllegalAction(
                    "blank_not_allowed", "A new exhibit cannot hold a blank canvas."
                )
            if len({artwork_of(c) for c in move.cards}) != 1:
                raise IllegalAction("not_same_artwork", "The cards must be of one artwork.")
        elif move.kind == "complete":
            assert exhibit is not None
            size = len(exhibit.cards)
            if size == 4:
                raise IllegalAction("exhibit_complete", "This exhibit is already complete.")
            if size == 3 and not state.options["complete_three_with_one"]:
                raise IllegalAction(
                    "complete_three_not_allowed",
                    "A 3-card exhibit is completed with a blank canvas.",
                )
            if len(move.cards) != 4 - size:
                raise IllegalAction("wrong_card_count", "Add exactly the missing cards.")
            if any(is_blank(c) for c in move.cards):
                raise IllegalAction("blank_not_allowed", "Use the blank canvas action instead.")
            if any(artwork_of(c) != exhibit.artwork for c in move.cards):
                raise IllegalAction(
                    "not_same_artwork", "The cards must be of the exhibit's artwork."
                )
        elif move.kind == "blank":
            assert exhibit is not None
            if not state.blank_count():
                raise IllegalAction("no_blank_canvases", "This game has no blank canvases.")
            if not is_blank(move.cards[0]):
                raise IllegalAction("not_a_blank", "That card is not a blank canvas.")
            if len(exhibit.cards) != 3:
                raise IllegalAction(
                    "needs_three_cards", "A blank canvas completes a 3-card exhibit only."
                )
        else:  # replace_blank
            assert exhibit is not None
            if not state.blank_count():
                raise IllegalAction("no_blank_canvases", "This game has no blank canvases.")
            if not exhibit.has_blank:
                raise IllegalAction("no_blank_in_exhibit", "This exhibit has no blank canvas.")
            if is_blank(move.cards[0]):
                raise IllegalAction("blank_not_allowed", "Put a real card on the blank canvas.")
            if artwork_of(move.cards[0]) != exhibit.artwork:
                raise IllegalAction(
                    "not_same_artwork", "The card must be of the exhibit's artwork."
                )
        count, _, _ = self._draw_plan(state, seat, move.kind, move.cards, move.exhibit)
        if len(move.draw_from) != count:
            raise IllegalAction(
                "wrong_draw_count", f"Choose a pile for each of the {count} cards to draw."
            )

    def _laying_moves(
        self, state: PickturaState, seat: int
    ) -> list[tuple[str, tuple[int, ...], int | None]]:
        """Actions 2 to 5 open to ``seat``: one canonical set of cards for each."""
        hand = state.hands[seat]
        groups = _groups(hand)
        blanks = [c for c in hand if is_blank(c)]
        moves: list[tuple[str, tuple[int, ...], int | None]] = []
        for cards in groups.values():
            for size in range(2, min(4, len(cards)) + 1):
                moves.append(("exhibit", tuple(cards[:size]), None))
        for index, exhibit in enumerate(state.exhibits[seat]):
            have = groups.get(exhibit.artwork, [])
            size = len(exhibit.cards)
            if size == 2 and len(have) >= 2:
                moves.append(("complete", tuple(have[:2]), index))
            if size == 3 and have and state.options["complete_three_with_one"]:
                moves.append(("complete", (have[0],), index))
            if size == 3 and blanks:
                moves.append(("blank", (blanks[0],), index))
            if exhibit.has_blank and have:
                moves.append(("replace_blank", (have[0],), index))
        return moves

    def _can_act(self, state: PickturaState, seat: int) -> bool:
        return state.pile_total() >= COLLECT_MIN_CARDS or bool(self._laying_moves(state, seat))

    def _nominal_draws(self, state: PickturaState, seat: int, kind: str, laid: int) -> int:
        """Cards the sheet says to draw, before the ``laid`` cards leave the hand."""
        if kind == "exhibit":
            return max(0, HAND_SIZE - (len(state.hands[seat]) - laid))
        if kind == "complete":
            return laid
        return 1

    def _draw_plan(
        self,
        state: PickturaState,
        seat: int,
        kind: str,
        cards: Sequence[int],
        exhibit: int | None,
    ) -> tuple[int, list[int], list[int]]:
        """How many cards the action will draw, and the piles it will draw from
        (with the blank canvas a replacement puts on the visible pile first)."""
        visible = list(state.visible)
        if kind == "replace_blank":
            assert exhibit is not None
            visible.extend(c for c in state.exhibits[seat][exhibit].cards if is_blank(c))
        nominal = self._nominal_draws(state, seat, kind, len(cards))
        return min(nominal, len(visible) + len(state.hidden)), visible, list(state.hidden)

    # ----------------------------------------------------------- changes
    def _piles_public(self, state: PickturaState) -> dict[str, Any]:
        return {
            "visible_top": card_json(state.visible[-1]) if state.visible else None,
            "visible_count": len(state.visible),
            "hidden_count": len(state.hidden),
        }

    def _settle(self, state: PickturaState, events: list[Event]) -> None:
        visible: list[PileCard] = list(state.visible)
        hidden: list[PileCard] = list(state.hidden)
        steps = settle_piles(visible, hidden)
        if not steps:
            return
        reason = "visible_empty"
        state.visible = [c for c in visible if c is not None]
        state.hidden = [c for c in hidden if c is not None]
        # Replay the steps for the log, in order, with the counts after each one.
        for step, card in steps:
            if step == "rebuild":
                state.rebuilds += 1
                reason = "rebuild"
                state.emit(
                    events,
                    {
                        "type": "rebuild",
                        "rebuilds": state.rebuilds,
                        "limit": REBUILD_LIMIT,
                        "hidden_count": len(state.hidden) + 1,
                    },
                )
            else:
                assert card is not None
                state.emit(
                    events,
                    {"type": "flip", "card": card_json(card), "reason": reason}
                    | self._piles_public(state),
                )

    def _take(
        self, state: PickturaState, seat: int, choice: str, kind: str, events: list[Event]
    ) -> int:
        self._settle(state, events)
        visible: list[PileCard] = list(state.visible)
        hidden: list[PileCard] = list(state.hidden)
        source, card = take_from_piles(visible, hidden, choice)
        assert card is not None
        if source == VISIBLE:
            state.visible.pop()
        else:
            state.hidden.pop()
        insort(state.hands[seat], card)
        public: Event = {
            "type": "draw",
            "seat": seat,
            "action": kind,
            "from": source,
            "hand_count": len(state.hands[seat]),
        }
        if source == VISIBLE:
            public["card"] = card_json(card)
        state.emit(events, public | self._piles_public(state))
        if source == HIDDEN:
            state.emit(
                events, {"type": "hidden_card", "to": [seat], "seat": seat, "card": card_json(card)}
            )
        return card

    def _discard(self, state: PickturaState, seat: int, card: int, events: list[Event]) -> None:
        state.hands[seat].remove(card)
        state.visible.append(card)
        state.emit(
            events,
            {
                "type": "discard",
                "seat": seat,
                "card": card_json(card),
                "hand_count": len(state.hands[seat]),
            }
            | self._piles_public(state),
        )

    def _lay(self, state: PickturaState, seat: int, move: Move, events: list[Event]) -> None:
        hand = state.hands[seat]
        for card in move.cards:
            hand.remove(card)
        base: Event = {"type": move.kind, "seat": seat}
        if move.kind == "exhibit":
            art = artwork_of(move.cards[0])
            assert art is not None
            exhibit = Exhibit(art, sorted(move.cards))
            state.exhibits[seat].append(exhibit)
            base |= {
                "exhibit": len(state.exhibits[seat]) - 1,
                "cards": [card_json(c) for c in exhibit.cards],
            }
        else:
            assert move.exhibit is not None
            exhibit = state.exhibits[seat][move.exhibit]
            base["exhibit"] = move.exhibit
            if move.kind == "replace_blank":
                blank = next(c for c in exhibit.cards if is_blank(c))
                exhibit.cards.remove(blank)
                state.visible.append(blank)
                base["blank"] = card_json(blank)
            exhibit.cards.extend(move.cards)
            if move.kind == "complete":
                base["cards"] = [card_json(c) for c in move.cards]
            else:
                base["card"] = card_json(move.cards[0])
        event = base | {
            "artwork": exhibit.artwork,
            "exhibit_cards": [card_json(c) for c in exhibit.cards],
            "size": len(exhibit.cards),
            "points": exhibit.points,
            "picktura": len(exhibit.cards) == 4,
            "hand_count": len(hand),
        }
        if move.kind == "replace_blank":
            event |= self._piles_public(state)
        state.emit(events, event)

    def _start_turn(self, state: PickturaState, seat: int, events: list[Event]) -> None:
        state.current = seat
        state.phase = PLAY
        state.taken = None
        state.emit(
            events,
            {
                "type": "turn",
                "seat": seat,
                "turn": state.turns[seat] + 1,
                "hand_counts": [len(h) for h in state.hands],
                "rebuilds": state.rebuilds,
            }
            | self._piles_public(state),
        )

    def _end_turn(self, state: PickturaState, seat: int, events: list[Event]) -> None:
        state.turns[seat] += 1
        state.taken = None
        self._settle(state, events)
        if not any(self._can_act(state, s) for s in range(state.players)):
            self._finish(state, "no_action", events)
            return
        following = seat
        for _ in range(state.players):
            following = (following + 1) % state.players
            if following == 0 and state.rebuilds >= REBUILD_LIMIT:
                self._finish(state, "rebuilds", events)
                return
            if self._can_act(state, following):
                self._start_turn(state, following, events)
                return
            state.turns[following] += 1
            state.emit(events, {"type": "turn_skipped", "seat": following})
        raise AssertionError("some seat can act")  # pragma: no cover

    def _finish(self, state: PickturaState, reason: str, events: list[Event]) -> None:
        state.phase = OVER
        state.end_reason = reason
        state.taken = None
        result = self.result(state)
        state.emit(
            events,
            {
                "type": "game_over",
                "reason": reason,
                "winners": result["winners"],
                "ranking": result["ranking"],
                "scores": result["scores"],
                "breakdown": self._breakdown(state),
            },
        )

    # ----------------------------------------------------------- views
    def _scores(self, state: PickturaState) -> list[int]:
        return [
            sum(ex.points for ex in state.exhibits[s])
            + BLANK_IN_HAND_POINTS * sum(1 for c in state.hands[s] if is_blank(c))
            for s in range(state.players)
        ]

    def _breakdown(self, state: PickturaState) -> list[dict[str, Any]]:
        """Each seat's score, item by item, for pupils to add up themselves."""
        scores = self._scores(state)
        return [
            {
                "exhibits": [ex.points for ex in state.exhibits[s]],
                "blanks_in_hand": sum(1 for c in state.hands[s] if is_blank(c)),
                "hand_count": len(state.hands[s]),
                "total": scores[s],
            }
            for s in range(state.players)
        ]

    def view(self, state: PickturaState, seat: int | None) -> View:
        over = state.phase == OVER
        public_scores = [sum(ex.points for ex in state.exhibits[s]) for s in range(state.players)]
        mine = seat is not None and 0 <= seat < state.players
        hand = [card_json(c) for c in state.hands[seat]] if mine and seat is not None else None
        taken = None
        if mine and seat == state.current and state.phase == DISCARD and state.taken is not None:
            taken = card_json(state.taken)
        return {
            "game": self.name,
            "seat": seat,
            "players": state.players,
            "current_seat": None if over else state.current,
            "over": over,
            "phase": state.phase,
            "hand": hand,
            "just_taken": taken,
            "hand_counts": [len(h) for h in state.hands],
            "exhibits": [
                [
                    {
                        "artwork": ex.artwork,
                        "cards": [card_json(c) for c in ex.cards],
                        "size": len(ex.cards),
                        "complete": len(ex.cards) == 4,
                        "has_blank": ex.has_blank,
                        "points": ex.points,
                    }
                    for ex in state.exhibits[s]
                ]
                for s in range(state.players)
            ],
            "exhibit_scores": public_scores,
            "my_score": self._scores(state)[seat] if mine and seat is not None else None,
            "rebuilds": state.rebuilds,
            "rebuild_limit": REBUILD_LIMIT,
            "turns": list(state.turns),
            "hand_size": HAND_SIZE,
            "blank_canvases": state.blank_count(),
            "options": dict(state.options),
            "scoring": [dict(row) for row in SCORING],
            "tie_breaks": list(TIE_BREAKS),
            "end_reason": state.end_reason,
            "result": self.result(state) if over else None,
        } | self._piles_public(state)

    # ----------------------------------------------------------- persistence
    def to_json(self, state: PickturaState) -> dict[str, Any]:
        return {
            "players": state.players,
            "options": dict(state.options),
            "rng": rng_to_json(state.rng),
            "log": copy_log(state.log),
            "hands": [list(hand) for hand in state.hands],
            "exhibits": [[ex.to_json() for ex in row] for row in state.exhibits],
            "visible": list(state.visible),
            "hidden": list(state.hidden),
            "current": state.current,
            "phase": state.phase,
            "taken": state.taken,
            "rebuilds": state.rebuilds,
            "turns": list(state.turns),
            "end_reason": state.end_reason,
        }

    def from_json(self, data: dict[str, Any]) -> PickturaState:
        return PickturaState(
            players=data["players"],
            options=dict(data["options"]),
            rng=rng_from_json(data["rng"]),
            log=adopt_log(data["log"]),
            hands=[list(hand) for hand in data["hands"]],
            exhibits=[[Exhibit.from_json(ex) for ex in row] for row in data["exhibits"]],
            visible=list(data["visible"]),
            hidden=list(data["hidden"]),
            current=data["current"],
            phase=data["phase"],
            taken=data["taken"],
            rebuilds=data["rebuilds"],
            turns=list(data["turns"]),
            end_reason=data["end_reason"],
        )

    # ----------------------------------------------------------- outcome
    def is_over(self, state: PickturaState) -> bool:
        return state.phase == OVER

    def result(self, state: PickturaState) -> dict[str, Any]:
        scores = self._scores(state)
        ranking = sorted(range(state.players), key=lambda s: (-scores[s], len(state.hands[s]), s))
        winners = ranking[:1] if state.phase == OVER else []
        return {"winners": winners, "ranking": ranking, "scores": scores}

    def game_stats(self, state: PickturaState) -> dict[str, Any]:
        seats = range(state.players)
        exhibits = [len(state.exhibits[s]) for s in seats]
        complete = [sum(1 for ex in state.exhibits[s] if len(ex.cards) == 4) for s in seats]
        blanks_used = [0 for _ in seats]
        hidden_draws = [0 for _ in seats]
        draws = [0 for _ in seats]
        for event in state.log:
            if event["type"] == "blank":
                blanks_used[event["seat"]] += 1
            elif event["type"] == "draw":
                draws[event["seat"]] += 1
                hidden_draws[event["seat"]] += event["from"] == HIDDEN
        blanks_in_hand = [sum(1 for c in state.hands[s] if is_blank(c)) for s in seats]
        return {
            "game": {
                "turns": sum(state.turns),
                "rebuilds": state.rebuilds,
                "ended_by_rebuilds": int(state.end_reason == "rebuilds"),
                "exhibits": sum(exhibits),
                "complete_exhibits": sum(complete),
            },
            "seat": {
                "score": self._scores(state),
                "exhibits": exhibits,
                "complete": complete,
                "blanks_used": blanks_used,
                "blanks_in_hand": blanks_in_hand,
                # Every blank canvas a seat had its hands on: played, or kept.
                "blanks_seen": [u + k for u, k in zip(blanks_used, blanks_in_hand, strict=True)],
                "hidden_draws": hidden_draws,
                "draws": draws,
            },
        }

    # ----------------------------------------------------------- bots
    def bot(self, level: str) -> Bot:
        self.check_level(level)
        return PickturaBot(level)


# --------------------------------------------------------------------------- #
# Bots: they read only their own view, their legal actions and their history.
# --------------------------------------------------------------------------- #

# How much a card group in hand is worth, in points to come, by its size
# (index) when the player has no exhibit of that artwork: a base, plus a bonus
# for each other card of the artwork still within reach.
GROUP_BASE: tuple[float, ...] = (0.0, 0.3, 1.6, 3.0, 5.8)
GROUP_BONUS: tuple[float, ...] = (0.0, 0.15, 0.3, 1.2, 0.0)
# The worth of a card that fits one of the player's own exhibits.
FITS_TWO_BOTH = 3.2  # both missing cards of a 2-card exhibit: +4 on the next turn
FITS_TWO_ONE = 1.2  # one of them, the other still within reach
FITS_THREE = 2.8  # the missing card of a 3-card exhibit (complete_three_with_one)
FITS_BLANKED = 1.5  # the card a blank canvas stands for: replace it, draw it back
# An exhibit's own promise: a 2-card exhibit whose missing cards are both within
# reach; a 3-card exhibit that a blank canvas (or the option) can still complete.
OPEN_TWO = 0.6
OPEN_THREE = 1.0
BLANK_TARGET = 1.5  # a blank canvas in hand with a 3-card exhibit or trio to finish
# What a card discarded onto the visible pile would give the next player. These
# only break ties between discards: measured over seeded games, any real weight
# makes the bot hoard cards it cannot use, which costs more than it denies.
FEED_NEEDED = 0.1
FEED_BLANK = 0.05
FEED_INTEREST = 0.05
PILE_HORIZON = 2.0  # cards per seat left in the piles below which hands lose their promise


def _hand_ids(view: View) -> list[int]:
    return [card["id"] for card in view["hand"] or []]


@dataclass
class PileMemory:
    """What a seat can know from its history: the whole visible pile (every card
    on it was seen), the hidden pile's cards once it has been rebuilt from the
    visible pile, and the cards the others were seen to take."""

    players: int = 0
    visible: list[int] = field(default_factory=list)
    hidden: list[int | None] = field(default_factory=list)
    known_hands: list[set[int]] = field(default_factory=list)
    interest: list[Counter[int]] = field(default_factory=list)
    last_discard: list[int | None] = field(default_factory=list)

    @classmethod
    def from_view(cls, view: View) -> PileMemory:
        players = view["players"]
        top = view["visible_top"]
        return cls(
            players=players,
            visible=[top["id"]] if top is not None else [],
            hidden=[None] * view["hidden_count"],
            known_hands=[set() for _ in range(players)],
            interest=[Counter() for _ in range(players)],
            last_discard=[None] * players,
        )

    def matches(self, view: View) -> bool:
        top = view["visible_top"]
        return (
            self.players == view["players"]
            and len(self.visible) == view["visible_count"]
            and len(self.hidden) == view["hidden_count"]
            and (self.visible[-1] if self.visible else None) == (top["id"] if top else None)
        )

    def update(self, event: Event) -> None:
        kind = event["type"]
        if kind == "game_start":
            self.players = event["players"]
            self.visible = []
            self.hidden = []
            self.known_hands = [set() for _ in range(self.players)]
            self.interest = [Counter() for _ in range(self.players)]
            self.last_discard = [None] * self.players
        elif kind == "flip":
            if event["reason"] == "setup":
                self.hidden = [None] * event["hidden_count"]
            elif self.hidden:
                self.hidden.pop()
            self.visible.append(event["card"]["id"])
        elif kind == "rebuild":
            self.hidden = list(reversed(self.visible))
            self.visible = []
        elif kind == "draw":
            seat = event["seat"]
            if event["from"] == VISIBLE:
                card = self.visible.pop() if self.visible else event["card"]["id"]
                self.known_hands[seat].add(card)
                art = artwork_of(card)
                if art is not None and event["action"] == "collect":
                    self.interest[seat][art] += 1
            else:
                hidden_card = self.hidden.pop() if self.hidden else None
                if hidden_card is not None:
                    self.known_hands[seat].add(hidden_card)
        elif kind == "hidden_card":
            self.known_hands[event["seat"]].add(event["card"]["id"])
        elif kind == "discard":
            seat = event["seat"]
            card = event["card"]["id"]
            self.known_hands[seat].discard(card)
            self.visible.append(card)
            self.last_discard[seat] = card
            art = artwork_of(card)
            if art is not None and self.interest[seat][art] > 0:
                self.interest[seat][art] -= 1
        elif kind in LAYING_ACTIONS:
            seat = event["seat"]
            laid = event.get("cards") or [event["card"]]
            for card in laid:
                self.known_hands[seat].discard(card["id"])
            if kind == "replace_blank":
                self.visible.append(event["blank"]["id"])


class PickturaBot:
    """``easy`` lays whatever it can and otherwise collects at random; ``medium``
    lays greedily (biggest first) and collects cards that match its hand;
    ``hard`` weighs every legal action by the points it brings and the promise of
    the hand it leaves, remembers both piles, and between equally good discards
    avoids feeding the next player.

    The hard bot keeps its pile memory between calls when it is handed the same,
    growing history list (as ``play_bots`` does) and rebuilds it otherwise, so it
    stays fast and still depends on nothing but its arguments."""

    def __init__(self, level: str) -> None:
        self.level = level
        self._memory = PileMemory()
        self._history: list[Event] | None = None
        self._seen = 0
        self._last: Event | None = None

    def __call__(
        self, view: View, legal: list[Action], rng: random.Random, history: list[Event]
    ) -> Action | None:
        if not legal:
            return None
        if self.level == "easy":
            return _easy_choice(view, legal, rng)
        if self.level == "medium":
            return _medium_choice(view, legal, rng)
        memory = self._remember(history)
        if not memory.matches(view):
            # A history that does not tell the whole game (cut short, say):
            # play on what the view alone shows.
            memory = PileMemory.from_view(view)
        return _HardTurn(view, memory, rng).choose(legal)

    def _remember(self, history: list[Event]) -> PileMemory:
        fresh = (
            history is not self._history
            or len(history) < self._seen
            or (self._seen > 0 and history[self._seen - 1] is not self._last)
        )
        if fresh:
            self._memory = PileMemory()
            self._history = history
            self._seen = 0
        for event in history[self._seen :]:
            self._memory.update(event)
        self._seen = len(history)
        self._last = history[-1] if history else None
        return self._memory


def _easy_choice(view: View, legal: list[Action], rng: random.Random) -> Action:
    laying = [a for a in legal if a["type"] in LAYING_ACTIONS]
    return rng.choice(laying or legal)


def _medium_choice(view: View, legal: list[Action], rng: random.Random) -> Action:
    hand = _hand_ids(view)
    arts = Counter(artwork_of(c) for c in hand if not is_blank(c))
    if view["phase"] == DISCARD:
        # Drop a card of the artwork held least often, never a blank canvas.
        return min(
            legal,
            key=lambda a: (
                is_blank(a["card"]),
                arts[artwork_of(a["card"])],
                rng.random(),
            ),
        )
    rank = {"complete": 0, "blank": 1, "replace_blank": 2, "exhibit": 3}
    laying = [a for a in legal if a["type"] in rank]
    top = view["visible_top"]
    top_useful = top is not None and (top["blank"] or arts[top["artwork"]] > 0)
    if laying:
        best = min(
            laying,
            key=lambda a: (rank[a["type"]], -len(a.get("cards", [0]))),
        )
        variants = [
            a
            for a in laying
            if {k: v for k, v in a.items() if k != "draw_from"}
            == {k: v for k, v in best.items() if k != "draw_from"}
        ]

        def draw_key(action: Action) -> tuple[int, int]:
            draws = action["draw_from"]
            first_visible = bool(draws) and draws[0] == VISIBLE
            return (int(first_visible != top_useful), draws.count(VISIBLE))

        return min(variants, key=draw_key)
    collects = {a["from"]: a for a in legal if a["type"] == "collect"}
    if top_useful and VISIBLE in collects:
        return collects[VISIBLE]
    return collects.get(HIDDEN) or collects[VISIBLE]


class _HardTurn:
    """One decision of the hard bot: a one-move look-ahead on a value function."""

    def __init__(self, view: View, memory: PileMemory, rng: random.Random) -> None:
        self.view = view
        self.memory = memory
        self.rng = rng
        self.seat: int = view["seat"]
        self.players: int = view["players"]
        self.hand = _hand_ids(view)
        self.option_three: bool = view["options"]["complete_three_with_one"]
        exhibits: list[list[dict[str, Any]]] = view["exhibits"]
        self.mine = [(ex["artwork"], ex["size"], ex["has_blank"]) for ex in exhibits[self.seat]]
        # Cards out of reach: on display anywhere, or seen going into another hand.
        out: Counter[int] = Counter()
        for row in exhibits:
            for ex in row:
                for card in ex["cards"]:
                    if not card["blank"]:
                        out[card["artwork"]] += 1
        for seat, cards in enumerate(memory.known_hands):
            if seat != self.seat:
                for card in cards:
                    art = artwork_of(card)
                    if art is not None:
                        out[art] += 1
        held = Counter(artwork_of(c) for c in self.hand if not is_blank(c))
        self.reach = {
            art: max(0, QUARTERS - out[art] - held[art]) for art in range(1, ARTWORKS + 1)
        }
        self.future = self._future()
        self._shown: dict[tuple[tuple[int, int, bool], ...], dict[int, tuple[int, bool]]] = {}
        # The cards whose place this seat cannot tell: a hidden draw is one of them.
        known: set[int] = set(self.hand) | set(memory.visible)
        known |= {c for c in memory.hidden if c is not None}
        for row in exhibits:
            for ex in row:
                known |= {card["id"] for card in ex["cards"]}
        for seat, cards in enumerate(memory.known_hands):
            if seat != self.seat:
                known |= cards
        deck = REAL_CARDS + view["blank_canvases"]
        self.unknown = [c for c in range(deck) if c not in known]

    def _future(self) -> float:
        """How much cards to come are still worth: nothing once the hidden pile
        has been rebuilt twice (this is the seat's last turn of the game)."""
        rebuilds = self.view["rebuilds"]
        if rebuilds >= REBUILD_LIMIT:
            return 0.0
        # The game also ends when the piles run dry and nobody can lay.
        in_piles = float(self.view["hidden_count"] + self.view["visible_count"])
        factor = min(1.0, in_piles / (PILE_HORIZON * self.players))
        if rebuilds == REBUILD_LIMIT - 1:
            my_turns_left = float(self.view["hidden_count"]) / (0.8 * self.players)
            factor = min(factor, my_turns_left / 3.0)
        return factor

    # ------------------------------------------------------------ values
    def shown(self, mine: Sequence[tuple[int, int, bool]]) -> dict[int, tuple[int, bool]]:
        """The seat's exhibits by artwork; when two show one artwork, the bigger."""
        key = tuple(mine)
        cached = self._shown.get(key)
        if cached is None:
            cached = {}
            for art, size, has_blank in mine:
                if art not in cached or size > cached[art][0]:
                    cached[art] = (size, has_blank)
            self._shown[key] = cached
        return cached

    def value(self, hand: Sequence[int], mine: Sequence[tuple[int, int, bool]]) -> float:
        """Points-to-come of a hand next to the seat's exhibits (blank canvases in
        hand also count their sure point). The hot path of the hard bot."""
        counts = [0] * (ARTWORKS + 1)  # index 0 counts the blank canvases
        for card in hand:
            counts[_ARTWORK_INDEX[card]] += 1
        blanks = counts[0]
        by_art = self.shown(mine)
        reach = self.reach
        total = 0.0
        target = False
        for art in range(1, ARTWORKS + 1):
            k = counts[art]
            if not k:
                continue
            shown = by_art.get(art)
            if shown is None:
                size = k if k < 4 else 4
                total += GROUP_BASE[size] + GROUP_BONUS[size] * min(reach[art], 4 - size)
                target = target or k == 3
            elif shown[0] == 2:
                total += FITS_TWO_BOTH if k >= 2 else (FITS_TWO_ONE if reach[art] else 0.0)
            elif shown[0] == 3 and self.option_three:
                total += FITS_THREE
            elif shown[1]:
                total += FITS_BLANKED
        for art, (size, _) in by_art.items():
            if size == 2 and not counts[art] and reach[art] >= 2:
                total += OPEN_TWO
            elif size == 3:
                target = True
                if blanks or (self.option_three and reach[art]):
                    total += OPEN_THREE
        if blanks and target:
            total += BLANK_TARGET
        return blanks * BLANK_IN_HAND_POINTS + self.future * total

    def unknown_card_worth(
        self, hand: Sequence[int], mine: Sequence[tuple[int, int, bool]]
    ) -> float:
        """The mean gain of one card drawn blind (bucketed by artwork)."""
        if not self.unknown:
            return 0.0
        base = self.value(hand, mine)
        buckets = Counter(artwork_of(c) for c in self.unknown)
        sample = {art: next(c for c in self.unknown if artwork_of(c) == art) for art in buckets}
        gain = 0.0
        for art, count in buckets.items():
            gain += count * (self.value([*hand, sample[art]], mine) - base)
        return gain / len(self.unknown)

    def feed(self, card: int) -> float:
        """What a card on top of the visible pile would give the next seat."""
        following = (self.seat + 1) % self.players
        if is_blank(card):
            return FEED_BLANK
        art = artwork_of(card)
        for ex in self.view["exhibits"][following]:
            if ex["artwork"] != art:
                continue
            if ex["size"] == 2 or ex["has_blank"] or (ex["size"] == 3 and self.option_three):
                return FEED_NEEDED
        if art is not None and self.memory.interest[following][art] > 0:
            return FEED_INTEREST
        return 0.0

    def best_discard(self, hand: list[int]) -> tuple[float, int]:
        options = []
        seen: set[int | None] = set()
        for card in sorted(hand):
            key = artwork_of(card) if not is_blank(card) else -1
            if key in seen:
                continue
            seen.add(key)
            rest = list(hand)
            rest.remove(card)
            options.append((self.value(rest, self.mine) - self.future * self.feed(card), card))
        return max(options)

    # ------------------------------------------------------------ choice
    def choose(self, legal: list[Action]) -> Action:
        if self.view["phase"] == DISCARD:
            _, card = self.best_discard(self.hand)
            allowed = {a["card"] for a in legal}
            if card in allowed:
                return {"type": "discard", "card": card}
            same = [c for c in allowed if artwork_of(c) == artwork_of(card)]
            return {"type": "discard", "card": same[0] if same else sorted(allowed)[0]}
        scored = [
            (self.score(action) + self.rng.random() * 1e-6, i) for i, action in enumerate(legal)
        ]
        return legal[max(scored)[1]]

    def score(self, action: Action) -> float:
        kind = action["type"]
        if kind == "collect":
            return self.collect_worth(action["from"])
        hand = list(self.hand)
        mine = list(self.mine)
        points = 0.0
        visible: list[PileCard] = list(self.memory.visible)
        laid = action.get("cards") or [action["card"]]
        for card in laid:
            hand.remove(card)
        if kind == "exhibit":
            art = artwork_of(laid[0])
            assert art is not None
            mine.append((art, len(laid), False))
            points = EXHIBIT_POINTS[len(laid)]
        else:
            index = action["exhibit"]
            art, size, _ = mine[index]
            if kind == "replace_blank":
                mine[index] = (art, size, False)
                blank = next(
                    c["id"] for c in self.view["exhibits"][self.seat][index]["cards"] if c["blank"]
                )
                visible.append(blank)
            else:
                mine[index] = (art, size + len(laid), kind == "blank")
                points = EXHIBIT_POINTS[size + len(laid)] - EXHIBIT_POINTS[size]
        drawn, _, _, _ = simulate_draws(visible, self.memory.hidden, action["draw_from"])
        blind = 0
        for _, card in drawn:
            if card is None:
                blind += 1
            else:
                hand.append(card)
        worth = self.value(hand, mine)
        if blind:
            worth += blind * self.unknown_card_worth(hand, mine)
        return points + worth

    def collect_worth(self, pile: str) -> float:
        visible = self.memory.visible
        hidden = self.memory.hidden
        if pile == VISIBLE and visible:
            top = visible[-1]
            if top == self.memory.last_discard[self.seat]:
                return -1e9  # taking one's own discard back only wastes the turn
            return self.best_discard([*self.hand, top])[0]
        if hidden and hidden[-1] is not None:
            return self.best_discard([*self.hand, hidden[-1]])[0]
        if not self.unknown:
            return self.best_discard(list(self.hand))[0]
        buckets = Counter(artwork_of(c) if not is_blank(c) else -1 for c in self.unknown)
        total = 0.0
        for key, count in buckets.items():
            card = next(
                c for c in self.unknown if (artwork_of(c) if not is_blank(c) else -1) == key
            )
            total += count * self.best_discard([*self.hand, card])[0]
        return total / len(self.unknown)


ENGINE = PickturaEngine()
