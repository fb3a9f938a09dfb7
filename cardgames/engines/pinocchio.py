"""Pinocchio: a bluffing game where every lie may cost you a nose.

Rules: ``docs/rules/pinocchio.md``. The points where the
sheet is silent and this module decides:

* **Card ids are assigned before the shuffle** (``id = garment * 9 + colour * 3
  + copy``), so an id says which garment it is, never where it lay in a pile.
  Ids only ever appear together with their face, and only to a seat that has
  seen that face: the drawer, or everybody once a doubt reveals the card.
* **Piles are never shown**, only their sizes. Not even the owner learns the
  order, so no view or history carries a pile's contents.
* **A player whose pile is empty while other piles are not** (impossible with
  the even deal and strict rotation, but the engine must say what happens if it
  ever arises) still doubts or believes the pending announcement, then is
  skipped for laying: the next seat holding cards draws straight away, with no
  step 1 (the announcement has just been judged). That seat follows the last
  announcement, or announces freely and undoubtably when the skipped seat
  doubted: the seed says the announcement *after* a doubt is free, not that it
  belongs to the doubter.
* **The end**: once every pile is empty and nobody holds a drawn card, the next
  player may still doubt or believe the last announcement, then the game ends.
  If that last announcement cannot be doubted (it followed a doubt), the game
  ends at once.
* **The first announcement** of the game is free (nothing to follow) but can be
  doubted, like any announcement not made right after a doubt.
* **Scores** are noses (fewer is better); the ranking breaks ties by seat only
  for ordering, the win is shared.
* **``card_laid``** carries the seat and the announcement, plus two public
  flags the UI needs: ``free`` (nothing to follow) and ``doubtable``.

Bots: ``easy`` doubts at random (30%) and tells the truth whenever it can;
``medium`` doubts when Bayes over the copies it cannot account for says the
announcement is more likely a lie; ``hard`` weighs a doubt against what it
costs and what the free, undoubtable announcement it earns is worth, judges a
rival's nose by that rival's standing, lies with plausible faces, picks faces
the next player can hardly follow, and now and then bluffs a trusting judge.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

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
    get_str,
    rng_from_json,
    rng_to_json,
)

GARMENTS: tuple[str, ...] = ("bonnet", "noeud_papillon", "chemise", "pantalon", "sabots")
COLOURS: tuple[str, ...] = ("rouge", "bleu", "jaune")
COPIES = 3
DECK_SIZE = len(GARMENTS) * len(COLOURS) * COPIES
LANGUAGES: tuple[str, ...] = ("fr", "de", "en")

Face = tuple[str, str]
ALL_FACES: tuple[Face, ...] = tuple((g, c) for g in GARMENTS for c in COLOURS)

RESPOND = "respond"
ANNOUNCE = "announce"
OVER = "over"


def card_face(card: int) -> Face:
    """The face is a pure function of the id: ids carry no deal information."""
    return GARMENTS[card // (len(COLOURS) * COPIES)], COLOURS[(card // COPIES) % len(COLOURS)]


def card_json(card: int) -> dict[str, Any]:
    """Every card in views and events has this one shape, so leak checks can
    find card ids structurally."""
    garment, colour = card_face(card)
    return {"id": card, "garment": garment, "colour": colour}


def follows(face: Face, previous: Face) -> bool:
    """An announcement must share the garment or the colour with the previous one."""
    return face[0] == previous[0] or face[1] == previous[1]


FOLLOWERS: dict[Face, tuple[Face, ...]] = {
    previous: tuple(face for face in ALL_FACES if follows(face, previous)) for previous in ALL_FACES
}


def allowed_faces(previous: Face | None) -> tuple[Face, ...]:
    """The 7 faces that follow ``previous``, or all 15 when the announcement is free."""
    return ALL_FACES if previous is None else FOLLOWERS[previous]


@dataclass
class Laid:
    """A card on the rangement pile, with what its layer claimed it was."""

    card: int
    seat: int
    garment: str
    colour: str
    doubtable: bool
    revealed: bool = False
    doubted_by: int | None = None

    @property
    def face(self) -> Face:
        return (self.garment, self.colour)

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "seat": self.seat,
            "garment": self.garment,
            "colour": self.colour,
            "doubtable": self.doubtable,
            "revealed": self.revealed,
            "doubted_by": self.doubted_by,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Laid:
        return cls(
            card=data["card"],
            seat=data["seat"],
            garment=data["garment"],
            colour=data["colour"],
            doubtable=data["doubtable"],
            revealed=data["revealed"],
            doubted_by=data["doubted_by"],
        )


@dataclass
class PinocchioState(BaseState):
    piles: list[list[int]] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    drawn: int | None = None
    rangement: list[Laid] = field(default_factory=list)
    current: int = 0
    phase: str = ANNOUNCE
    noses: list[int] = field(default_factory=list)
    # Whether the next announcement is free (first of the game, or after a
    # doubt) and whether it may be doubted (not after a doubt).
    next_free: bool = True
    next_doubtable: bool = True

    def last_announcement(self) -> Laid | None:
        return self.rangement[-1] if self.rangement else None


class PinocchioEngine(Engine[PinocchioState]):
    name: ClassVar[str] = "pinocchio"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    simultaneous: ClassVar[bool] = False
    stat_ratios: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("doubt rate", "doubts", "judgements"),
        ("doubt accuracy", "good_doubts", "doubts"),
        ("lie rate when doubtable", "lies", "doubtable_lays"),
        ("lies caught", "caught", "lies"),
    )

    # ----------------------------------------------------------- options
    def option_schema(self) -> list[OptionSpec]:
        # The language only tells the UI which words to show and speak.
        return [
            {"key": "words_language", "type": "choice", "default": "fr", "choices": list(LANGUAGES)}
        ]

    # ----------------------------------------------------------- game
    def new_game(self, players: int, seed: int, options: Options | None = None) -> PinocchioState:
        self.check_players(players)
        opts = self.validate_options(options)
        rng = random.Random(seed)
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        per_pile = DECK_SIZE // players
        state = PinocchioState(
            players=players,
            options=opts,
            rng=rng,
            piles=[deck[s * per_pile : (s + 1) * per_pile] for s in range(players)],
            removed=deck[players * per_pile :],
            noses=[0] * players,
        )
        events: list[Event] = []
        self._draw(state, 0, events)
        return state

    def legal_actions(self, state: PinocchioState, seat: int) -> list[Action]:
        if state.phase == OVER or seat != state.current:
            return []
        if state.phase == RESPOND:
            return [{"type": "doubt"}, {"type": "believe"}]
        return [
            {"type": "announce", "garment": g, "colour": c}
            for g, c in allowed_faces(self._to_follow(state))
        ]

    def apply(self, state: PinocchioState, seat: int, action: Action) -> list[Event]:
        seat = check_seat(seat, state.players)
        kind, data = action_type(action, ("doubt", "believe", "announce"))
        face = (
            (get_str(data, "garment", GARMENTS), get_str(data, "colour", COLOURS))
            if kind == "announce"
            else None
        )
        if state.phase == OVER:
            raise IllegalAction("game_over", "The game is over.")
        if seat != state.current:
            raise IllegalAction("not_your_turn", "It is not your turn.")
        events: list[Event] = []
        if face is None:
            if state.phase != RESPOND:
                raise IllegalAction(
                    "cannot_doubt", "There is no announcement to doubt or believe now."
                )
            self._respond(state, seat, kind == "doubt", events)
            return events
        if state.phase == RESPOND:
            raise IllegalAction(
                "respond_first", "Doubt or believe the previous announcement first."
            )
        previous = self._to_follow(state)
        if previous is not None and not follows(face, previous):
            raise IllegalAction(
                "must_follow",
                "The announcement must share the garment or the colour of the previous one.",
            )
        self._lay(state, seat, face, events)
        return events

    # ----------------------------------------------------------- rules
    def _to_follow(self, state: PinocchioState) -> Face | None:
        last = state.last_announcement()
        if state.next_free or last is None:
            return None
        return last.face

    def _draw(self, state: PinocchioState, seat: int, events: list[Event]) -> None:
        card = state.piles[seat].pop()
        state.drawn = card
        state.current = seat
        state.phase = ANNOUNCE
        state.emit(
            events, {"type": "card_seen", "to": [seat], "seat": seat, "card": card_json(card)}
        )

    def _lay(self, state: PinocchioState, seat: int, face: Face, events: list[Event]) -> None:
        assert state.drawn is not None
        doubtable = state.next_doubtable
        free = state.next_free
        state.rangement.append(Laid(state.drawn, seat, face[0], face[1], doubtable))
        state.drawn = None
        state.next_free = False
        state.next_doubtable = True
        state.emit(
            events,
            {
                "type": "card_laid",
                "seat": seat,
                "garment": face[0],
                "colour": face[1],
                "free": free,
                "doubtable": doubtable,
            },
        )
        following = (seat + 1) % state.players
        if doubtable:
            state.current = following
            state.phase = RESPOND
        else:
            self._next_layer(state, following, events)

    def _respond(self, state: PinocchioState, seat: int, doubt: bool, events: list[Event]) -> None:
        last = state.last_announcement()
        assert last is not None
        if doubt:
            last.revealed = True
            last.doubted_by = seat
            truthful = card_face(last.card) == last.face
            state.emit(
                events,
                {
                    "type": "doubted",
                    "seat": seat,
                    "target": last.seat,
                    "card": card_json(last.card),
                    "announced": {"garment": last.garment, "colour": last.colour},
                    "truthful": truthful,
                },
            )
            loser = seat if truthful else last.seat
            state.noses[loser] += 1
            state.emit(
                events,
                {
                    "type": "nose_taken",
                    "seat": loser,
                    "noses": state.noses[loser],
                    "reason": "wrong_doubt" if truthful else "caught_lying",
                },
            )
            state.next_free = True
            state.next_doubtable = False
        else:
            state.emit(events, {"type": "believed", "seat": seat, "target": last.seat})
        self._next_layer(state, seat, events)

    def _next_layer(self, state: PinocchioState, start: int, events: list[Event]) -> None:
        """The first seat from ``start`` on that still holds cards draws; when no
        pile has cards left the game ends."""
        for offset in range(state.players):
            seat = (start + offset) % state.players
            if state.piles[seat]:
                self._draw(state, seat, events)
                return
        self._finish(state, events)

    def _finish(self, state: PinocchioState, events: list[Event]) -> None:
        state.phase = OVER
        result = self.result(state)
        state.emit(
            events,
            {
                "type": "game_over",
                "winners": result["winners"],
                "ranking": result["ranking"],
                "noses": list(state.noses),
            },
        )

    # ----------------------------------------------------------- views
    def view(self, state: PinocchioState, seat: int | None) -> View:
        """Public facts plus the seat's own two secrets (``drawn_card`` and
        ``my_last_laid``). ``can_doubt`` says whether the current seat may judge
        now; ``last_announcement.doubtable`` whether it was laid open to doubt."""
        last = state.last_announcement()
        over = state.phase == OVER
        drawn_card = None
        my_last_laid = None
        if seat is not None:
            if state.drawn is not None and state.current == seat and not over:
                drawn_card = card_json(state.drawn)
            mine = [laid for laid in state.rangement if laid.seat == seat]
            if mine and not mine[-1].revealed:
                my_last_laid = card_json(mine[-1].card)
        return {
            "seat": seat,
            "players": state.players,
            "current_seat": None if over else state.current,
            "over": over,
            "phase": state.phase,
            "pile_sizes": [len(pile) for pile in state.piles],
            "removed_count": len(state.removed),
            "rangement_count": len(state.rangement),
            "last_announcement": None
            if last is None
            else {
                "seat": last.seat,
                "garment": last.garment,
                "colour": last.colour,
                "doubtable": last.doubtable,
            },
            "can_doubt": state.phase == RESPOND,
            "announcement_free": state.phase == ANNOUNCE and self._to_follow(state) is None,
            "announcement_doubtable": state.phase == ANNOUNCE and state.next_doubtable,
            "noses": list(state.noses),
            "revealed": [
                {
                    "seat": laid.seat,
                    "card": card_json(laid.card),
                    "announced": {"garment": laid.garment, "colour": laid.colour},
                    "doubted_by": laid.doubted_by,
                }
                for laid in state.rangement
                if laid.revealed
            ],
            "drawn_card": drawn_card,
            "my_last_laid": my_last_laid,
            "words_language": state.options["words_language"],
        }

    # ----------------------------------------------------------- persistence
    def to_json(self, state: PinocchioState) -> dict[str, Any]:
        return {
            "players": state.players,
            "options": dict(state.options),
            "rng": rng_to_json(state.rng),
            "log": copy_log(state.log),
            "piles": [list(pile) for pile in state.piles],
            "removed": list(state.removed),
            "drawn": state.drawn,
            "rangement": [laid.to_json() for laid in state.rangement],
            "current": state.current,
            "phase": state.phase,
            "noses": list(state.noses),
            "next_free": state.next_free,
            "next_doubtable": state.next_doubtable,
        }

    def from_json(self, data: dict[str, Any]) -> PinocchioState:
        return PinocchioState(
            players=data["players"],
            options=dict(data["options"]),
            rng=rng_from_json(data["rng"]),
            log=adopt_log(data["log"]),
            piles=[list(pile) for pile in data["piles"]],
            removed=list(data["removed"]),
            drawn=data["drawn"],
            rangement=[Laid.from_json(item) for item in data["rangement"]],
            current=data["current"],
            phase=data["phase"],
            noses=list(data["noses"]),
            next_free=data["next_free"],
            next_doubtable=data["next_doubtable"],
        )

    # ----------------------------------------------------------- outcome
    def is_over(self, state: PinocchioState) -> bool:
        return state.phase == OVER

    def result(self, state: PinocchioState) -> dict[str, Any]:
        ranking = sorted(range(state.players), key=lambda s: (state.noses[s], s))
        fewest = min(state.noses)
        winners = (
            [s for s in range(state.players) if state.noses[s] == fewest]
            if state.phase == OVER
            else []
        )
        return {"winners": winners, "ranking": ranking, "scores": list(state.noses)}

    def game_stats(self, state: PinocchioState) -> dict[str, Any]:
        """Lies are counted only where they could be doubted: a free announcement
        after a doubt is safe, so calling it a lie would say nothing of a bot."""
        players = range(state.players)
        lays = [0 for _ in players]
        doubtable_lays = [0 for _ in players]
        lies = [0 for _ in players]
        # Every announcement that differed from its card, free ones included:
        # what a teacher calls a bluff (``lies`` keeps only the risky ones).
        bluffs = [0 for _ in players]
        caught = [0 for _ in players]
        doubts = [0 for _ in players]
        good_doubts = [0 for _ in players]
        for laid in state.rangement:
            lays[laid.seat] += 1
            doubtable_lays[laid.seat] += laid.doubtable
            differs = card_face(laid.card) != laid.face
            bluffs[laid.seat] += differs
            lie = laid.doubtable and differs
            lies[laid.seat] += lie
            if laid.doubted_by is not None:
                doubts[laid.doubted_by] += 1
                good_doubts[laid.doubted_by] += lie
                caught[laid.seat] += lie
        judgements = [0 for _ in players]
        for event in state.log:
            if event["type"] in ("doubted", "believed"):
                judgements[event["seat"]] += 1
        return {
            "game": {
                "lays": sum(lays),
                "doubts": sum(doubts),
                "lies": sum(lies),
                "noses": sum(state.noses),
            },
            "seat": {
                "lays": lays,
                "doubtable_lays": doubtable_lays,
                "lies": lies,
                "bluffs": bluffs,
                "caught": caught,
                "doubts": doubts,
                "good_doubts": good_doubts,
                "judgements": judgements,
            },
        }

    # ----------------------------------------------------------- bots
    def bot(self, level: str) -> Bot:
        self.check_level(level)
        return PinocchioBot(level)


# --------------------------------------------------------------------------- #
# Bots. They read only their own view and history: the faces they know are the
# revealed cards and the cards they drew themselves (their ``card_seen``).
# --------------------------------------------------------------------------- #

EASY_DOUBT_RATE = 0.3
MEDIUM_DOUBT_BELOW = 0.5
# How much a hard bot expects liars to pick plausible faces rather than any.
HARD_PLAUSIBLE_LIARS = 0.5
HARD_BLUFF_RATE = 0.15
BLUFF_WHEN_JUDGE_DOUBTS_BELOW = 0.25
# What a rival's nose is worth to a hard bot (its own nose being 1), by that
# rival's standing among the others: tuned on seeded 3-, 4- and 6-player games.
NOSE_WORTH_LEADER = 0.7
NOSE_WORTH_TIED = 0.4
NOSE_WORTH_TRAILING = 0.15


@dataclass
class Knowledge:
    """What a bot can count: copies of each face not yet accounted for."""

    unknown: dict[Face, int]
    public_unknown: dict[Face, int]
    total_unknown: int

    @classmethod
    def gather(cls, view: View, history: list[Event], seat: int) -> Knowledge:
        public: set[int] = {item["card"]["id"] for item in view["revealed"]}
        known = set(public)
        for event in history:
            if event.get("type") == "card_seen" and event.get("seat") == seat:
                known.add(event["card"]["id"])
        # Cards this seat drew (held, laid, revealed or not) cannot be anywhere
        # else, so they leave the unknown pool.
        unknown = {face: COPIES for face in ALL_FACES}
        public_unknown = {face: COPIES for face in ALL_FACES}
        for card in known:
            unknown[card_face(card)] -= 1
        for card in public:
            public_unknown[card_face(card)] -= 1
        return cls(unknown, public_unknown, sum(unknown.values()))

    def fit_chance(self, face: Face) -> float:
        """Chance that an unknown card may be announced truthfully after ``face``."""
        if self.total_unknown <= 0:
            return 0.5
        return sum(self.unknown[f] for f in FOLLOWERS[face]) / self.total_unknown


def _previous_lays(history: list[Event], count: int) -> list[Event]:
    """The last ``count`` ``card_laid`` events, most recent first."""
    found: list[Event] = []
    for event in reversed(history):
        if event.get("type") == "card_laid":
            found.append(event)
            if len(found) == count:
                break
    return found


def _judge_rate(history: list[Event], seat: int, prior: float = 0.4) -> float:
    """How often ``seat`` has doubted so far, smoothed towards ``prior``."""
    doubts = believes = 0
    for event in history:
        if event.get("seat") != seat:
            continue
        if event.get("type") == "doubted":
            doubts += 1
        elif event.get("type") == "believed":
            believes += 1
    return (doubts + 3 * prior) / (doubts + believes + 3)


def _bluff_rate(history: list[Event], seat: int) -> float:
    """How often ``seat`` lied although its card could have been announced
    truthfully, as far as doubts have revealed it: every bot can count this."""
    lays: list[Event] = []
    fits = bluffs = 0
    for event in history:
        kind = event.get("type")
        if kind == "card_laid":
            lays.append(event)
        elif kind == "doubted" and event.get("target") == seat and lays:
            card = event["card"]
            face: Face = (card["garment"], card["colour"])
            constraint = lays[-2] if len(lays) > 1 and not lays[-1].get("free") else None
            if constraint is None or follows(face, (constraint["garment"], constraint["colour"])):
                fits += 1
                announced = event["announced"]
                bluffs += (announced["garment"], announced["colour"]) != face
    return (bluffs + 0.2) / (fits + 4)


def truth_chance(
    knowledge: Knowledge,
    announced: Face,
    constraint: Face | None,
    bluff_rate: float,
    plausible_liars: float,
) -> float:
    """The chance that the card under ``announced`` really is ``announced``.

    Bayes over the cards the layer might have drawn: a card it may announce
    truthfully is announced (bar a bluff), any other card forces a lie spread
    over the allowed faces, evenly or towards the most plausible ones.
    """
    options = allowed_faces(constraint)
    counts = knowledge.unknown
    if knowledge.total_unknown <= 0 or counts[announced] <= 0:
        return 0.0
    public_weight = sum(knowledge.public_unknown[f] for f in options) or 1
    lie_share = (1 - plausible_liars) / len(options) + plausible_liars * knowledge.public_unknown[
        announced
    ] / public_weight
    could_tell_truth = sum(counts[f] for f in options)
    true_mass = counts[announced] * (1 - bluff_rate)
    forced = (knowledge.total_unknown - could_tell_truth) * lie_share
    bluffed = (could_tell_truth - counts[announced]) * bluff_rate / max(len(options) - 1, 1)
    return true_mass / (true_mass + forced + bluffed)


class PinocchioBot:
    """One bot per level; the level decides how much of its knowledge it uses."""

    def __init__(self, level: str) -> None:
        self.level = level

    def __call__(
        self, view: View, legal: list[Action], rng: random.Random, history: list[Event]
    ) -> Action | None:
        if not legal:
            return None
        if legal[0]["type"] in ("doubt", "believe"):
            return {"type": "doubt" if self._doubts(view, rng, history) else "believe"}
        return self._announce(view, legal, rng, history)

    # ------------------------------------------------------------ step 1
    def _doubts(self, view: View, rng: random.Random, history: list[Event]) -> bool:
        if self.level == "easy":
            return rng.random() < EASY_DOUBT_RATE
        seat: int = view["seat"]
        last = view["last_announcement"]
        announced: Face = (last["garment"], last["colour"])
        knowledge = Knowledge.gather(view, history, seat)
        lays = _previous_lays(history, 2)
        constraint: Face | None = None
        if lays and not lays[0].get("free") and len(lays) > 1:
            constraint = (lays[1]["garment"], lays[1]["colour"])
        if self.level == "medium":
            chance = truth_chance(knowledge, announced, constraint, 0.0, 0.0)
            return chance < MEDIUM_DOUBT_BELOW
        layer: int = last["seat"]
        chance = truth_chance(
            knowledge, announced, constraint, _bluff_rate(history, layer), HARD_PLAUSIBLE_LIARS
        )
        players: int = view["players"]
        opponent_nose = _nose_worth(view["noses"], seat, layer)
        # Doubting makes my own announcement free and safe: worth the risk I
        # would otherwise run when forced to lie to the next judge.
        safety = 0.0
        if view["pile_sizes"][seat] > 0:
            fit = knowledge.fit_chance(announced)
            judge = _judge_rate(history, (seat + 1) % players)
            safety = (1 - fit) * judge - fit * judge * opponent_nose
            if players == 2:
                safety += 0.05
        cost_of_doubting = chance - (1 - chance) * opponent_nose - safety
        return cost_of_doubting < 0

    # ------------------------------------------------------------ step 3
    def _announce(
        self, view: View, legal: list[Action], rng: random.Random, history: list[Event]
    ) -> Action:
        card = view["drawn_card"]
        truth: Face = (card["garment"], card["colour"])
        options: list[Face] = [(a["garment"], a["colour"]) for a in legal]
        free_and_safe = not view["announcement_doubtable"]
        if self.level == "easy":
            choice = truth if truth in options else rng.choice(options)
            return _announcement(choice)
        seat: int = view["seat"]
        knowledge = Knowledge.gather(view, history, seat)
        if self.level == "medium":
            if truth in options:
                return _announcement(truth)
            best = max(knowledge.public_unknown[f] for f in options)
            return _announcement(
                rng.choice([f for f in options if knowledge.public_unknown[f] == best])
            )
        players: int = view["players"]
        next_seat = (seat + 1) % players
        opponent_nose = _nose_worth(view["noses"], seat, next_seat)
        # Forcing the next player to lie pays most when I am their judge.
        hinder = 0.4 if players == 2 else 0.1
        constraint = None if view["announcement_free"] else self._constraint(view)
        # A bot that never lies when it could tell the truth is read like a
        # book by a judge that counts. Against a judge that rarely doubts, an
        # occasional plausible lie is cheap and teaches it to doubt more, which
        # costs it a nose each time the truth was told. Judges that already
        # doubt often are not worth a bluff.
        judge = _judge_rate(history, next_seat)
        bluffing = (
            truth in options
            and not free_and_safe
            and judge < BLUFF_WHEN_JUDGE_DOUBTS_BELOW
            and rng.random() < HARD_BLUFF_RATE
        )
        public = _public(knowledge)
        scored: list[tuple[float, float, Face]] = []
        for face in options:
            if bluffing and face == truth:
                continue
            score = hinder * (1 - knowledge.fit_chance(face))
            if not free_and_safe:
                looks_true = truth_chance(public, face, constraint, 0.0, 0.0)
                doubted = min(1.0, judge * (1.5 - looks_true))
                score += doubted * opponent_nose if face == truth else -doubted
            scored.append((score, rng.random(), face))
        return _announcement(max(scored)[2])

    @staticmethod
    def _constraint(view: View) -> Face | None:
        last = view["last_announcement"]
        return None if last is None else (last["garment"], last["colour"])


def _nose_worth(noses: list[int], me: int, target: int) -> float:
    """What a nose for ``target`` is worth to ``me``, a nose of my own being 1.

    Only the fewest noses win, so a nose for the leading rival counts nearly
    as much as one spared to me, and one for a trailing rival hardly counts.
    """
    if len(noses) == 2:
        return 1.0
    others = min(noses[s] for s in range(len(noses)) if s not in (me, target))
    if noses[target] < others:
        return NOSE_WORTH_LEADER
    if noses[target] == others:
        return NOSE_WORTH_TIED
    return NOSE_WORTH_TRAILING


def _public(knowledge: Knowledge) -> Knowledge:
    """The counts anybody at the table can make: only revealed cards."""
    return Knowledge(
        dict(knowledge.public_unknown),
        dict(knowledge.public_unknown),
        sum(knowledge.public_unknown.values()),
    )


def _announcement(face: Face) -> Action:
    return {"type": "announce", "garment": face[0], "colour": face[1]}


ENGINE = PinocchioEngine()
