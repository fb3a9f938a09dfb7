"""Purrfect: everybody trades hidden cat cards at the same time to collect nine of one cat.

The rules are ``docs/rules/purrfect.md`` (French and German rule books plus the
house rules). The game has no turns, so the engine answers ``legal_actions`` for
any seat at any moment and the table is kept honest by three devices instead of
a clock: one open offer per seat, locked offered cards, and the ``round_actions``
cap that ends a round nobody manages to finish.

Card ids are stable identities, ``cat * 9 + pose``, so a card's cat is
``card_cat(id)``. Secrecy therefore rests on never showing a seat an id it has
not held: offers are announced by their meow only, and the cards of a trade go
to the two traders in private events.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import (
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
    malformed,
    rng_from_json,
    rng_to_json,
)

# --------------------------------------------------------------------------- #
# Material
# --------------------------------------------------------------------------- #

# House names: seven cats whose initials all differ, as the rule book requires.
CAT_NAMES: tuple[str, ...] = (
    "Anchois",
    "Biscotte",
    "Caramel",
    "Domino",
    "Esquimau",
    "Filou",
    "Grisou",
)
POSES = 9
HAND_SIZE = 9
MAX_OFFER = 4
CARD_IDS = range(len(CAT_NAMES) * POSES)

# The 29 meow cards (house list): the word and the languages that say it so.
MEOWS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Miaou", ("fr",)),
    ("Miau", ("de", "es", "pt", "ro", "pl")),
    ("Meow", ("en",)),
    ("Nyaa", ("ja",)),
    ("Mjau", ("sv", "no", "sq")),
    ("Miao", ("it",)),
    ("Yaong", ("ko",)),
    ("Miyav", ("tr",)),
    ("Mijau", ("hr", "sr", "bs")),
    ("Mňau", ("cs", "sk")),
    ("Miav", ("da",)),
    ("Miaú", ("hu",)),
    ("Mjá", ("is",)),
    ("Ngiyaw", ("tl",)),
    ("Meo", ("vi",)),
    ("Meong", ("id", "ms")),
    ("Näu", ("et",)),
    ("Ņau", ("lv",)),
    ("Myau", ("ru",)),
    ("Nyav", ("uk",)),
    ("Niaou", ("el",)),
    ("Miyaw", ("ar",)),
    ("Myaon", ("hi",)),
    ("Nyau", ("sw",)),
    ("Miaŭ", ("eo",)),
    ("Miauw", ("nl",)),
    ("Mijav", ("sl",)),
    ("Nyan", ("ja",)),
    ("Miu", ("bn",)),
)
NUMBER_CARDS: tuple[int, ...] = (1, 2, 3, 4)

ACTION_TYPES = ("offer", "withdraw", "accept", "claim")

# Why an offer id that once existed is no longer open (``closed_offers``).
TAKEN = "taken"
WITHDRAWN = "withdrawn"


def card_cat(card: int) -> int:
    return card // POSES


def cat_counts(cards: Iterable[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for card in cards:
        cat = card_cat(card)
        counts[cat] = counts.get(cat, 0) + 1
    return counts


def best_count(cards: Iterable[int]) -> int:
    return max(cat_counts(cards).values(), default=0)


def is_purrfect(cards: Sequence[int]) -> bool:
    return len(cards) == HAND_SIZE and len({card_cat(card) for card in cards}) == 1


# --------------------------------------------------------------------------- #
# State
# --------------------------------------------------------------------------- #


@dataclass
class Offer:
    id: int
    seat: int
    cards: list[int]


@dataclass
class PurrfectState(BaseState):
    cats: list[int] = field(default_factory=list)
    meows: list[int] = field(default_factory=list)  # meow index for the counts 1..4
    hands: list[list[int]] = field(default_factory=list)  # each kept sorted
    offers: list[Offer] = field(default_factory=list)  # open offers, oldest first
    next_offer_id: int = 1
    # Offers of earlier rounds are refused as a whole ("offer_closed"); only this
    # round's closed offers are remembered, so the state does not grow all game.
    round_first_offer_id: int = 1
    closed_offers: dict[int, str] = field(default_factory=dict)
    round: int = 0
    round_action_count: int = 0
    claim_blocked: list[bool] = field(default_factory=list)
    paws: list[int] = field(default_factory=list)
    over: bool = False
    winners: list[int] = field(default_factory=list)

    def offer_of(self, seat: int) -> Offer | None:
        for offer in self.offers:
            if offer.seat == seat:
                return offer
        return None

    def find_offer(self, offer_id: int) -> Offer | None:
        for offer in self.offers:
            if offer.id == offer_id:
                return offer
        return None


# --------------------------------------------------------------------------- #
# Engine
# --------------------------------------------------------------------------- #


class PurrfectEngine(Engine[PurrfectState]):
    name = "purrfect"
    min_players = 4
    max_players = 7
    simultaneous = True
    stat_ratios = (
        ("rounds won by a Purrfect! claim", "claims", "rounds"),
        ("rounds that brought a paw", "scoring_rounds", "rounds"),
    )

    # ----------------------------------------------------------- options
    def option_schema(self) -> list[OptionSpec]:
        return [
            {"key": "paws_to_win", "type": "int", "default": 5, "min": 1, "max": 15},
            {"key": "round_actions", "type": "int", "default": 400, "min": 100, "max": 2000},
            {"key": "new_meows_each_round", "type": "bool", "default": False},
        ]

    # ----------------------------------------------------------- game
    def new_game(self, players: int, seed: int, options: Options | None = None) -> PurrfectState:
        self.check_players(players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("The seed must be a whole number.")
        opts = self.validate_options(options)
        rng = random.Random(seed)
        state = PurrfectState(players=players, options=opts, rng=rng)
        state.meows = rng.sample(range(len(MEOWS)), len(NUMBER_CARDS))
        state.cats = sorted(rng.sample(range(len(CAT_NAMES)), players))
        state.paws = [0] * players
        events: list[Event] = []
        state.emit(
            events,
            {
                "type": "game_started",
                "players": players,
                "cats": _cats_json(state.cats),
                "paws_to_win": opts["paws_to_win"],
            },
        )
        self._start_round(state, events)
        return state

    def _start_round(self, state: PurrfectState, events: list[Event]) -> None:
        """Deal a fresh round; the meows are redrawn only under the option, since
        pupils learn the mapping once and keep it on screen all game."""
        state.round += 1
        state.round_action_count = 0
        state.offers = []
        state.closed_offers = {}
        state.round_first_offer_id = state.next_offer_id
        state.claim_blocked = [False] * state.players
        if state.round > 1 and state.options["new_meows_each_round"]:
            state.meows = state.rng.sample(range(len(MEOWS)), len(NUMBER_CARDS))
        deck = [cat * POSES + pose for cat in state.cats for pose in range(POSES)]
        state.rng.shuffle(deck)
        state.hands = [
            sorted(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(state.players)
        ]
        state.emit(
            events, {"type": "round_started", "round": state.round, "meows": _meows_json(state)}
        )
        for seat, hand in enumerate(state.hands):
            state.emit(
                events,
                {"type": "hand_dealt", "to": [seat], "round": state.round, "cards": list(hand)},
            )

    def legal_actions(self, state: PurrfectState, seat: int) -> list[Action]:
        # Hot path: the driver asks every seat after every action, hence the plain loops.
        if state.over or isinstance(seat, bool) or not isinstance(seat, int):
            return []
        if not 0 <= seat < state.players:
            return []
        own = state.offer_of(seat)
        free = _free_by_cat(state.hands[seat], own)
        actions: list[Action] = []
        if own is None:
            for cards in free.values():
                for count in range(1, min(MAX_OFFER, len(cards)) + 1):
                    actions.append({"type": "offer", "cards": cards[:count]})
        for offer in state.offers:
            if offer.seat == seat:
                continue
            count = len(offer.cards)
            for cards in free.values():
                if len(cards) >= count:
                    actions.append({"type": "accept", "offer": offer.id, "cards": cards[:count]})
        if own is not None:
            actions.append({"type": "withdraw"})
        if not state.claim_blocked[seat]:
            actions.append({"type": "claim"})
        return actions

    def apply(self, state: PurrfectState, seat: int, action: Action) -> list[Event]:
        seat = check_seat(seat, state.players)
        kind, data = action_type(action, ACTION_TYPES)
        cards: list[int] = []
        offer_id = 0
        if kind in ("offer", "accept"):
            cards = get_int_list(data, "cards", min_len=1, max_len=MAX_OFFER)
            if any(card not in CARD_IDS for card in cards):
                raise malformed("There is no such card.")
        if kind == "accept":
            offer_id = get_int(data, "offer") or 0
            if not 1 <= offer_id < state.next_offer_id:
                raise malformed("There is no such offer.")
        if state.over:
            raise IllegalAction("game_over", "The game is over.")

        events: list[Event] = []
        if kind == "offer":
            self._check_offer(state, seat, cards)
            self._do_offer(state, seat, cards, events)
        elif kind == "withdraw":
            if state.offer_of(seat) is None:
                raise IllegalAction("no_open_offer", "You have no open offer to withdraw.")
            self._do_withdraw(state, seat, events)
        elif kind == "accept":
            offer = self._check_accept(state, seat, offer_id, cards)
            self._do_accept(state, seat, offer, cards, events)
        else:
            if state.claim_blocked[seat]:
                raise IllegalAction(
                    "claim_blocked", "You cannot claim again until your hand has changed."
                )
            if self._do_claim(state, seat, events):
                return events
        state.round_action_count += 1
        if state.round_action_count >= state.options["round_actions"]:
            self._end_round(state, None, events)
        return events

    # ----------------------------------------------------------- checks
    def _check_owned(self, state: PurrfectState, seat: int, cards: list[int]) -> None:
        hand = state.hands[seat]
        if any(card not in hand for card in cards):
            raise IllegalAction("card_not_in_hand", "That card is not in your hand.")
        if len({card_cat(card) for card in cards}) != 1:
            raise IllegalAction("not_same_cat", "All the cards you trade must show the same cat.")

    def _check_offer(self, state: PurrfectState, seat: int, cards: list[int]) -> None:
        if state.offer_of(seat) is not None:
            raise IllegalAction(
                "offer_already_open", "You already have an open offer: withdraw it first."
            )
        self._check_owned(state, seat, cards)

    def _check_accept(
        self, state: PurrfectState, seat: int, offer_id: int, cards: list[int]
    ) -> Offer:
        offer = state.find_offer(offer_id)
        if offer is None:
            if offer_id < state.round_first_offer_id:
                raise IllegalAction("offer_closed", "This offer ended with its round.")
            if state.closed_offers.get(offer_id) == TAKEN:
                raise IllegalAction("offer_taken", "Someone else has already accepted this offer.")
            raise IllegalAction("offer_withdrawn", "This offer has been withdrawn.")
        if offer.seat == seat:
            raise IllegalAction("own_offer", "You cannot accept your own offer.")
        if len(cards) != len(offer.cards):
            raise IllegalAction("wrong_count", "Give exactly as many cards as the offer holds.")
        self._check_owned(state, seat, cards)
        own = state.offer_of(seat)
        if own is not None and any(card in own.cards for card in cards):
            raise IllegalAction("card_locked", "That card is locked in your own open offer.")
        return offer

    # ----------------------------------------------------------- moves
    def _do_offer(
        self, state: PurrfectState, seat: int, cards: list[int], events: list[Event]
    ) -> None:
        offer = Offer(state.next_offer_id, seat, sorted(cards))
        state.next_offer_id += 1
        state.offers.append(offer)
        state.emit(
            events,
            {
                "type": "offer_made",
                "offer": offer.id,
                "seat": seat,
                "meow": MEOWS[state.meows[len(cards) - 1]][0],
            },
        )

    def _do_withdraw(self, state: PurrfectState, seat: int, events: list[Event]) -> None:
        offer = state.offer_of(seat)
        assert offer is not None
        state.offers.remove(offer)
        state.closed_offers[offer.id] = WITHDRAWN
        state.emit(events, {"type": "offer_withdrawn", "offer": offer.id, "seat": seat})

    def _do_accept(
        self,
        state: PurrfectState,
        seat: int,
        offer: Offer,
        cards: list[int],
        events: list[Event],
    ) -> None:
        offered = list(offer.cards)
        paid = sorted(cards)
        state.offers.remove(offer)
        state.closed_offers[offer.id] = TAKEN
        giver, taker = state.hands[offer.seat], state.hands[seat]
        state.hands[offer.seat] = sorted([c for c in giver if c not in offered] + paid)
        state.hands[seat] = sorted([c for c in taker if c not in paid] + offered)
        # A changed hand may claim again (house rule against repeated presses).
        state.claim_blocked[offer.seat] = False
        state.claim_blocked[seat] = False
        state.emit(
            events,
            {
                "type": "trade_done",
                "offer": offer.id,
                "seats": [offer.seat, seat],
                "count": len(offered),
            },
        )
        for receiver, sender, got, gave in (
            (offer.seat, seat, paid, offered),
            (seat, offer.seat, offered, paid),
        ):
            state.emit(
                events,
                {
                    "type": "cards_received",
                    "to": [receiver],
                    "offer": offer.id,
                    "from": sender,
                    "cards": list(got),
                    "gave": list(gave),
                },
            )

    def _do_claim(self, state: PurrfectState, seat: int, events: list[Event]) -> bool:
        """True when the claim ended the round (then the round counter is moot)."""
        if is_purrfect(state.hands[seat]):
            state.emit(
                events,
                {"type": "claim_succeeded", "seat": seat, "cat": card_cat(state.hands[seat][0])},
            )
            self._end_round(state, seat, events)
            return True
        state.claim_blocked[seat] = True
        state.emit(events, {"type": "claim_failed", "seat": seat})
        return False

    def _end_round(self, state: PurrfectState, claimant: int | None, events: list[Event]) -> None:
        best = [best_count(hand) for hand in state.hands]
        others = [seat for seat in range(state.players) if seat != claimant]
        top = max(best[seat] for seat in others)
        gained = [0] * state.players
        for seat in others:
            if best[seat] == top:
                gained[seat] = 1
        if claimant is not None:
            gained[claimant] = 2
        state.paws = [paws + gain for paws, gain in zip(state.paws, gained, strict=True)]
        state.offers = []
        state.emit(
            events,
            {
                "type": "round_over",
                "round": state.round,
                "claimant": claimant,
                "stalled": claimant is None,
                "best_counts": best,
                "paws_gained": gained,
                "paws": list(state.paws),
            },
        )
        target = state.options["paws_to_win"]
        reached = [seat for seat in range(state.players) if state.paws[seat] >= target]
        if not reached:
            self._start_round(state, events)
            return
        if len(reached) > 1 and claimant is not None:
            # German rule: the claimant wins a simultaneous finish, even below the target.
            state.winners = [claimant]
        else:
            state.winners = reached
        state.over = True
        state.emit(
            events,
            {
                "type": "game_over",
                "winners": list(state.winners),
                "paws": list(state.paws),
                "ranking": self._ranking(state),
            },
        )

    def _ranking(self, state: PurrfectState) -> list[int]:
        rest = [seat for seat in range(state.players) if seat not in state.winners]
        rest.sort(key=lambda seat: (-state.paws[seat], seat))
        return sorted(state.winners) + rest

    # ----------------------------------------------------------- views
    def view(self, state: PurrfectState, seat: int | None) -> View:
        if seat is not None:
            seat = check_seat(seat, state.players)
        view: View = {
            "game": self.name,
            "players": state.players,
            "current_seat": None,
            "over": state.over,
            "round": state.round,
            "cats": _cats_json(state.cats),
            "meows": _meows_json(state),
            "offers": [
                {
                    "id": offer.id,
                    "seat": offer.seat,
                    "meow": MEOWS[state.meows[len(offer.cards) - 1]][0],
                }
                for offer in state.offers
            ],
            "paws": list(state.paws),
            "paws_to_win": state.options["paws_to_win"],
            "hand_counts": [len(hand) for hand in state.hands],
            "round_actions": state.round_action_count,
            "round_actions_limit": state.options["round_actions"],
            "winners": list(state.winners),
        }
        if seat is None:
            return view
        own = state.offer_of(seat)
        hand = state.hands[seat]
        view["seat"] = seat
        view["hand"] = list(hand)
        view["hand_cats"] = [card_cat(card) for card in hand]
        view["own_offer"] = None if own is None else {"id": own.id, "cards": list(own.cards)}
        view["locked"] = [] if own is None else list(own.cards)
        view["can_claim"] = not state.over and not state.claim_blocked[seat]
        return view

    # ----------------------------------------------------------- persistence
    def to_json(self, state: PurrfectState) -> dict[str, Any]:
        return {
            "players": state.players,
            "options": dict(state.options),
            "rng": rng_to_json(state.rng),
            "log": copy_log(state.log),
            "cats": list(state.cats),
            "meows": list(state.meows),
            "hands": [list(hand) for hand in state.hands],
            "offers": [
                {"id": offer.id, "seat": offer.seat, "cards": list(offer.cards)}
                for offer in state.offers
            ],
            "next_offer_id": state.next_offer_id,
            "round_first_offer_id": state.round_first_offer_id,
            "closed_offers": [
                [offer_id, why] for offer_id, why in sorted(state.closed_offers.items())
            ],
            "round": state.round,
            "round_action_count": state.round_action_count,
            "claim_blocked": list(state.claim_blocked),
            "paws": list(state.paws),
            "over": state.over,
            "winners": list(state.winners),
        }

    def from_json(self, data: dict[str, Any]) -> PurrfectState:
        return PurrfectState(
            players=data["players"],
            options=dict(data["options"]),
            rng=rng_from_json(data["rng"]),
            log=adopt_log(data["log"]),
            cats=list(data["cats"]),
            meows=list(data["meows"]),
            hands=[list(hand) for hand in data["hands"]],
            offers=[Offer(o["id"], o["seat"], list(o["cards"])) for o in data["offers"]],
            next_offer_id=data["next_offer_id"],
            round_first_offer_id=data["round_first_offer_id"],
            closed_offers={offer_id: why for offer_id, why in data["closed_offers"]},
            round=data["round"],
            round_action_count=data["round_action_count"],
            claim_blocked=list(data["claim_blocked"]),
            paws=list(data["paws"]),
            over=data["over"],
            winners=list(data["winners"]),
        )

    # ----------------------------------------------------------- results
    def is_over(self, state: PurrfectState) -> bool:
        return state.over

    def result(self, state: PurrfectState) -> dict[str, Any]:
        return {
            "winners": list(state.winners),
            "ranking": self._ranking(state),
            "scores": list(state.paws),
        }

    def game_stats(self, state: PurrfectState) -> dict[str, Any]:
        """Counted from the log, which is the game's full record anyway."""
        players = state.players
        claims = [0] * players
        scoring = [0] * players
        trades = [0] * players
        withdrawals = [0] * players
        failed_claims = [0] * players
        failed = 0
        stalled = 0
        rounds = 0
        actions = 0
        for event in state.log:
            kind = event["type"]
            if kind in ("offer_made", "offer_withdrawn", "trade_done", "claim_failed"):
                actions += 1
            if kind == "trade_done":
                for seat in event["seats"]:
                    trades[seat] += 1
            elif kind == "claim_failed":
                failed += 1
                failed_claims[event["seat"]] += 1
            elif kind == "offer_withdrawn":
                withdrawals[event["seat"]] += 1
            elif kind == "claim_succeeded":
                claims[event["seat"]] += 1
                actions += 1
            elif kind == "round_over":
                rounds += 1
                stalled += bool(event["stalled"])
                for seat, gained in enumerate(event["paws_gained"]):
                    scoring[seat] += gained > 0
        return {
            "game": {
                "rounds": rounds,
                "stalled rounds": stalled,
                "actions per round": actions / max(rounds, 1),
                "trades": sum(trades) // 2,
                "failed claims": failed,
            },
            "seat": {
                "claims": claims,
                "rounds": [rounds] * players,
                "scoring_rounds": scoring,
                "paws": list(state.paws),
                "trades": trades,
                "withdrawals": withdrawals,
                "failed_claims": failed_claims,
            },
        }

    # ----------------------------------------------------------- bots
    def bot(self, level: str) -> Bot:
        """Trades are blind, so skill shows mostly in how many offers a player
        seizes and in not feeding rivals: ``easy`` is a beginner who notices
        about half of the offers it could take; ``medium`` takes every useful
        offer and regroups its own; ``hard`` also remembers this round's trades
        to choose its cat and to avoid paying a rival with the cat it keeps."""
        self.check_level(level)

        def play(
            view: View, legal: list[Action], rng: random.Random, history: list[Event]
        ) -> Action | None:
            return _bot_move(level, view, legal, rng, history)

        return play


# --------------------------------------------------------------------------- #
# Helpers
# --------------------------------------------------------------------------- #


def _cats_json(cats: Sequence[int]) -> list[dict[str, Any]]:
    return [{"cat": cat, "name": CAT_NAMES[cat]} for cat in cats]


def _meows_json(state: PurrfectState) -> list[dict[str, Any]]:
    return [
        {"count": count, "meow": MEOWS[index][0], "langs": list(MEOWS[index][1])}
        for count, index in enumerate(state.meows, 1)
    ]


def _free_by_cat(hand: Sequence[int], own: Offer | None) -> dict[int, list[int]]:
    """The seat's unlocked cards grouped by cat, lowest ids first (the canonical
    choice). Hands are kept sorted, so the cats come out in order too."""
    locked: Sequence[int] = own.cards if own is not None else ()
    grouped: dict[int, list[int]] = {}
    for card in hand:
        if card in locked:
            continue
        cat = card // POSES
        cards = grouped.get(cat)
        if cards is None:
            grouped[cat] = [card]
        else:
            cards.append(card)
    return grouped


# --------------------------------------------------------------------------- #
# Bots
# --------------------------------------------------------------------------- #


@dataclass
class _Table:
    """What a bot reads from its own view and legal actions, nothing more."""

    counts: dict[int, int]  # cat -> cards of it in hand
    own_offer: tuple[int, int, int] | None  # (offer id, cat, count)
    others: dict[int, tuple[int, int]]  # offer id -> (seat, count), others' open offers
    oldest: bool  # the bot's own offer is the oldest one open at the table
    offers: dict[int, dict[int, Action]]  # cat -> count -> canonical offer
    accepts: dict[int, dict[int, Action]]  # offer id -> paying cat -> canonical acceptance
    withdraw: Action | None
    claim: Action | None


def _read_table(view: View, legal: list[Action]) -> _Table:
    counts = cat_counts(view["hand"])
    meow_count = {entry["meow"]: entry["count"] for entry in view["meows"]}
    own = view["own_offer"]
    own_offer = None
    if own is not None:
        own_offer = (own["id"], card_cat(own["cards"][0]), len(own["cards"]))
    others = {
        offer["id"]: (offer["seat"], meow_count[offer["meow"]])
        for offer in view["offers"]
        if offer["seat"] != view["seat"]
    }
    oldest = own is not None and all(offer["id"] >= own["id"] for offer in view["offers"])
    table = _Table(counts, own_offer, others, oldest, {}, {}, None, None)
    for action in legal:
        kind = action["type"]
        if kind == "offer":
            cards = action["cards"]
            table.offers.setdefault(card_cat(cards[0]), {})[len(cards)] = action
        elif kind == "accept":
            table.accepts.setdefault(action["offer"], {})[card_cat(action["cards"][0])] = action
        elif kind == "withdraw":
            table.withdraw = action
        else:
            table.claim = action
    return table


# A beginner notices only some of the offers on the table; the share matters
# more than any cleverness, because trades are blind and the race goes to the
# player who trades most.
EASY_ATTENTION = 0.5


@dataclass
class _Intel:
    """What the hard bot remembers of this round, from its own history only:
    the cats each rival gave it (a rival gives away what it does not collect)
    and the cats it gave each rival (never feed a rival the cat it keeps)."""

    dumped: dict[int, dict[int, int]] = field(default_factory=dict)  # rival -> cat -> cards
    fed: dict[int, dict[int, int]] = field(default_factory=dict)  # rival -> cat -> cards

    @classmethod
    def read(cls, history: list[Event]) -> _Intel:
        intel = cls()
        for event in reversed(history):
            kind = event["type"]
            if kind == "round_started":
                break
            if kind == "cards_received":
                rival = event["from"]
                _add_cats(intel.dumped.setdefault(rival, {}), event["cards"])
                _add_cats(intel.fed.setdefault(rival, {}), event["gave"])
        return intel

    def dumpers(self, cat: int) -> int:
        return sum(1 for cats in self.dumped.values() if cats.get(cat))

    def may_collect(self, rival: int, cat: int) -> bool:
        return not self.dumped.get(rival, {}).get(cat)

    def keeps(self, rival: int, cat: int) -> bool:
        """It received this cat from us and never gave any back: it collects it."""
        return self.may_collect(rival, cat) and bool(self.fed.get(rival, {}).get(cat))


def _add_cats(tally: dict[int, int], cards: list[int]) -> None:
    for card in cards:
        tally[card_cat(card)] = tally.get(card_cat(card), 0) + 1


def _bot_move(
    level: str, view: View, legal: list[Action], rng: random.Random, history: list[Event]
) -> Action | None:
    """Every level heads for nine of one target cat and never gives that cat away.

    Bot-only games never stall because of two duties no level skips: a bot
    without an open offer always acts (it offers), and the owner of the oldest
    open offer always acts (it trades or withdraws). So whenever every seat has
    an offer out, somebody still moves, and ``round_actions`` bounds the round.
    """
    if not legal or view["over"]:
        return None
    table = _read_table(view, legal)
    if table.claim is not None and max(table.counts.values()) == HAND_SIZE:
        return table.claim
    intel = _Intel.read(history) if level == "hard" else None
    target = _target(table, intel)
    if table.own_offer is not None and table.withdraw is not None:
        _, offered_cat, offered = table.own_offer
        if offered_cat == target:
            return table.withdraw
        if level != "easy" and offered < min(MAX_OFFER, table.counts.get(offered_cat, 0)):
            return table.withdraw  # more of that cat arrived: offer them together
    if level != "easy" or rng.random() < EASY_ATTENTION:
        acceptance = _choose_accept(level, table, target, intel, rng)
        if acceptance is not None:
            return acceptance
    if table.own_offer is None:
        return _choose_offer(table, target, intel)
    if table.oldest:
        return table.withdraw
    return None


def _target(table: _Table, intel: _Intel | None) -> int:
    """The most-held cat; the hard bot leans towards cats the rivals throw away,
    since nobody competes for them and more of them will come its way."""
    counts = table.counts
    if intel is None:
        return max(sorted(counts), key=lambda cat: counts[cat])
    return max(sorted(counts), key=lambda cat: counts[cat] + 0.75 * intel.dumpers(cat))


def _choose_accept(
    level: str, table: _Table, target: int, intel: _Intel | None, rng: random.Random
) -> Action | None:
    counts = table.counts
    missing = HAND_SIZE - counts[target]
    best: tuple[float, Action] | None = None
    for offer_id, by_cat in table.accepts.items():
        rival, count = table.others[offer_id]
        for cat, action in by_cat.items():
            if cat == target:
                continue
            if level == "easy":
                value = -counts[cat] + rng.random()
            else:
                # Bigger trades mix faster; paying with a whole cat tidies the hand.
                value = count - 0.5 * counts[cat] + (2.0 if counts[cat] == count else 0.0)
                if intel is not None:
                    if intel.keeps(rival, cat):
                        continue
                    if count <= missing:  # counting: only then can it hold our cat
                        value += 2.0
                    value += 1.5 * intel.dumped.get(rival, {}).get(target, 0)
                    if intel.may_collect(rival, cat):
                        value -= 1.0
                value += 0.1 * rng.random()
            if best is None or value > best[0]:
                best = (value, action)
    return None if best is None else best[1]


def _choose_offer(table: _Table, target: int, intel: _Intel | None) -> Action | None:
    """All the cards (up to four) of the weakest cat other than the target."""
    counts = table.counts
    junk = [cat for cat in sorted(counts) if cat != target and cat in table.offers]
    if not junk:
        return None
    if intel is None:
        cat = min(junk, key=lambda c: counts[c])
    else:  # give away first what the rivals already throw away: it feeds nobody
        cat = min(junk, key=lambda c: (counts[c] - 0.5 * intel.dumpers(c), c))
    by_count = table.offers[cat]
    return by_count[max(by_count)]


ENGINE = PurrfectEngine()
