"""The engine contract shared by every card game (see ``docs/engine-contract.md``).

An engine is a small, pure, deterministic object in the spirit of OpenSpiel's
``python/games``: the rules, the legal actions, ``apply`` and the per-seat
observation (``view``) are kept apart, and everything random flows from one
seeded ``random.Random`` whose state is stored *inside* the game state, so a
game serialised to JSON and loaded in another process carries on identically.

Nothing here may import Django or anything outside the standard library: the
same code runs in the web server, in simulations and in property tests.
"""

from __future__ import annotations

import base64
import random
import struct
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

Event = dict[str, Any]
Action = dict[str, Any]
View = dict[str, Any]
Options = dict[str, Any]
OptionSpec = dict[str, Any]
Bot = Callable[[View, list[Action], random.Random, list[Event]], Action | None]

BOT_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
# A seat whose level is unknown (or not said) plays at this level.
DEFAULT_BOT_LEVEL = "medium"

# A cap on anything a client may put in an action: lists longer than this, or
# integers larger than this, are malformed whatever the game.
MAX_LIST_LEN = 16
MAX_ABS_INT = 10**6


class IllegalAction(Exception):
    """A refused action. ``code`` is stable (tests and the UI rely on it);
    ``message`` is a short English sentence that the UI layer translates."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def malformed(message: str = "This action is not understood.") -> IllegalAction:
    return IllegalAction("malformed", message)


# --------------------------------------------------------------------------- #
# Validation helpers: every engine parses client input with these, so a bad
# payload is always ``IllegalAction("malformed")`` and never a TypeError.
# --------------------------------------------------------------------------- #


def require_dict(action: object) -> dict[str, Any]:
    if not isinstance(action, dict):
        raise malformed("An action must be an object.")
    if len(action) > MAX_LIST_LEN:
        raise malformed("This action has too many fields.")
    return action


def action_type(action: object, allowed: Iterable[str]) -> tuple[str, dict[str, Any]]:
    data = require_dict(action)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in set(allowed):
        raise malformed("Unknown action type.")
    return kind, data


def get_int(data: dict[str, Any], key: str, *, required: bool = True) -> int | None:
    """An integer field: bools, floats, strings and huge values are malformed."""
    value = data.get(key)
    if value is None:
        if required:
            raise malformed(f"The field '{key}' is missing.")
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise malformed(f"The field '{key}' must be a whole number.")
    if abs(value) > MAX_ABS_INT:
        raise malformed(f"The field '{key}' is too large.")
    return value


def get_str(data: dict[str, Any], key: str, allowed: Iterable[str]) -> str:
    value = data.get(key)
    if not isinstance(value, str) or value not in set(allowed):
        raise malformed(f"The field '{key}' has an unknown value.")
    return value


def get_int_list(
    data: dict[str, Any], key: str, *, min_len: int = 1, max_len: int = 4
) -> list[int]:
    value = data.get(key)
    if not isinstance(value, list):
        raise malformed(f"The field '{key}' must be a list.")
    if not min_len <= len(value) <= max_len:
        raise malformed(f"The field '{key}' must hold {min_len} to {max_len} items.")
    out: list[int] = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int) or abs(item) > MAX_ABS_INT:
            raise malformed(f"The field '{key}' must hold whole numbers.")
        out.append(item)
    if len(set(out)) != len(out):
        raise malformed(f"The field '{key}' names the same card twice.")
    return out


def check_seat(seat: object, players: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise malformed("There is no such seat at this table.")
    return seat


# --------------------------------------------------------------------------- #
# Randomness that survives JSON.
# --------------------------------------------------------------------------- #


# The Mersenne Twister's 625 words, packed: 4 bytes each, little-endian, then
# base64. As a JSON list of numbers they were most of a Chasse state, written and
# read back on every move: 625 numbers encoded and parsed each way in Python, and
# parsed again by PostgreSQL into ``jsonb`` on every write. Packed, they are one
# string, much smaller and cheaper each way (``docs/performance.md``).
def rng_to_json(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    packed = struct.pack(f"<{len(internal)}I", *internal)
    return [version, base64.b64encode(packed).decode("ascii"), gauss]


def rng_from_json(data: Sequence[Any]) -> random.Random:
    """The generator ``rng_to_json`` stored; also reads the older form, the
    625 words as a list of numbers (states saved before they were packed)."""
    words = data[1]
    if isinstance(words, str):
        packed = base64.b64decode(words.encode("ascii"), validate=True)
        internal = struct.unpack(f"<{len(packed) // 4}I", packed)
    else:
        internal = tuple(words)
    rng = random.Random()
    rng.setstate((data[0], internal, data[2]))
    return rng


def copy_log(log: Iterable[Event]) -> list[Event]:
    """A copy of an event log that shares nothing mutable with the original
    (``to_json``: the caller may do what it likes with what it gets). Events
    hold scalars or one level of dicts and lists (a card, a list of seats), so
    a one-level copy is a full copy, far cheaper than ``deepcopy`` on long logs."""
    return [
        {
            key: dict(value)
            if isinstance(value, dict)
            else list(value)
            if isinstance(value, list)
            else value
            for key, value in event.items()
        }
        for event in log
    ]


def adopt_log(log: Iterable[Event]) -> list[Event]:
    """The log of a state loaded by ``from_json``: a list of its own, holding
    the events of ``data`` themselves.

    An event is never changed once it is logged: ``apply`` appends new dicts,
    and everyone else (``history``, the views, the server's services and
    screens) only reads them; ``history`` already hands out the logged events
    themselves. So the list is all the loaded state must own: what it appends,
    ``data`` does not see. Copying every event as well cost the live path more
    with every move of a game: a move loads the state, and so does every read
    of the table for a screen or a robot. ``test_contract`` plays every game to
    check that logged events stay as they were and that a dict a state was
    loaded from does not change as that state plays on."""
    return list(log)


def visible_to(event: Event, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: the public) may see ``event``."""
    to = event.get("to")
    if to is None:
        return True
    return seat is not None and seat in to


@dataclass
class BaseState:
    """What every game state holds: the seat count, the options, the RNG and the log."""

    players: int
    options: Options
    rng: random.Random
    log: list[Event] = field(default_factory=list)

    def emit(self, events: list[Event], event: Event) -> None:
        """Append to the game's log and to the list returned by ``apply``."""
        self.log.append(event)
        events.append(event)


S = TypeVar("S", bound=BaseState)


class Engine(ABC, Generic[S]):
    """The contract of ``docs/engine-contract.md``. Subclasses fill in the rules."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    simultaneous: ClassVar[bool] = False

    # ----------------------------------------------------------- options
    @abstractmethod
    def option_schema(self) -> list[OptionSpec]:
        """One entry per table option: key, type, default and bounds (no labels)."""

    def default_options(self) -> Options:
        return {spec["key"]: _copy_default(spec["default"]) for spec in self.option_schema()}

    def validate_options(self, options: Options | None) -> Options:
        """Complete ``options`` with defaults; raise ``ValueError`` with a sentence
        a teacher understands when a key is unknown or a value is out of range."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError("Options must be given as named values.")
        schema = {spec["key"]: spec for spec in self.option_schema()}
        unknown = sorted(set(options) - set(schema))
        if unknown:
            raise ValueError(f"Unknown option: {', '.join(map(str, unknown))}.")
        result = self.default_options()
        for key, value in options.items():
            result[key] = _check_option(schema[key], value)
        self.check_options(result)
        return result

    def check_options(self, options: Options) -> None:
        """Rules that tie several options together; raise ``ValueError``."""

    # ----------------------------------------------------------- game
    @abstractmethod
    def new_game(self, players: int, seed: int, options: Options | None = None) -> S: ...

    def check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError("The number of players must be a whole number.")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"This game is for {self.min_players} to {self.max_players} players, not {players}."
            )

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]: ...

    @abstractmethod
    def apply(self, state: S, seat: int, action: Action) -> list[Event]: ...

    @abstractmethod
    def view(self, state: S, seat: int | None) -> View: ...

    def history(self, state: S, seat: int | None) -> list[Event]:
        return [event for event in state.log if visible_to(event, seat)]

    @abstractmethod
    def to_json(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def from_json(self, data: dict[str, Any]) -> S: ...

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def result(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def bot(self, level: str) -> Bot: ...

    # ----------------------------------------------------------- simulation
    # (label, numerator seat metric, denominator seat metric): ratios that the
    # ``simulate`` command prints per bot level, e.g. Chasse's share of plays
    # that landed on a multiple of ten.
    stat_ratios: ClassVar[tuple[tuple[str, str, str], ...]] = ()

    def game_stats(self, state: S) -> dict[str, Any]:
        """Figures of a finished game for the ``simulate`` command:
        ``{"game": {metric: number}, "seat": {metric: [number per seat]}}``."""
        return {"game": {}, "seat": {}}

    def check_level(self, level: str) -> None:
        if level not in BOT_LEVELS:
            raise ValueError(f"Unknown bot level: {level!r}.")


def _copy_default(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def _check_option(spec: OptionSpec, value: Any) -> Any:
    key = spec["key"]
    kind = spec["type"]
    if value is None and spec.get("nullable"):
        return None
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"The option '{key}' must be yes or no.")
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"The option '{key}' must be a whole number.")
        lo, hi = spec.get("min"), spec.get("max")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ValueError(f"The option '{key}' must be between {lo} and {hi}.")
        step = spec.get("step")
        if step and value % step:
            raise ValueError(f"The option '{key}' must be a multiple of {step}.")
        return value
    if kind == "choice":
        if value not in spec["choices"]:
            raise ValueError(f"The option '{key}' must be one of: {', '.join(spec['choices'])}.")
        return value
    if kind == "int_set":
        if not isinstance(value, (list, tuple, set, frozenset)):
            raise ValueError(f"The option '{key}' must be a set of numbers.")
        items = list(value)
        lo, hi = spec["min"], spec["max"]
        if not items:
            raise ValueError(f"The option '{key}' must keep at least one number.")
        for item in items:
            if isinstance(item, bool) or not isinstance(item, int) or not lo <= item <= hi:
                raise ValueError(f"The option '{key}' only takes numbers from {lo} to {hi}.")
        return sorted(set(items))
    raise ValueError(f"The option '{key}' has an unknown type.")  # pragma: no cover


# --------------------------------------------------------------------------- #
# Driving games without a server: simulations, property tests, benchmarks.
# --------------------------------------------------------------------------- #


@dataclass
class PlayedGame(Generic[S]):
    state: S
    actions: int
    stalled: bool


def bot_seat_rng(seed: int, seat: int) -> random.Random:
    return random.Random(seed * 1_000_003 + seat * 7919 + 17)


def play_bots(
    engine: Engine[S],
    players: int,
    seed: int,
    levels: Sequence[str],
    options: Options | None = None,
    *,
    max_actions: int = 100_000,
    on_action: Callable[[S, int, Action, list[Event]], None] | None = None,
) -> PlayedGame[S]:
    """Play a bot-only game to the end, as ``docs/engine-contract.md`` describes.

    Each bot gets only its own view and its own history. Histories are kept
    incrementally (events are appended as ``apply`` returns them) so a long game
    costs O(actions), not O(actions²).
    """
    state = engine.new_game(players, seed, options)
    bots = [engine.bot(levels[s % len(levels)]) for s in range(players)]
    rngs = [bot_seat_rng(seed, s) for s in range(players)]
    histories = [engine.history(state, s) for s in range(players)]
    order_rng = random.Random(seed ^ 0x5EED)
    actions = 0
    while not engine.is_over(state):
        if actions >= max_actions:
            return PlayedGame(state, actions, True)
        # Each seat's legal actions are computed once per step and handed to its bot.
        if engine.simultaneous:
            candidates = [(s, engine.legal_actions(state, s)) for s in range(players)]
            candidates = [pair for pair in candidates if pair[1]]
            order_rng.shuffle(candidates)
        else:
            current = engine.view(state, None)["current_seat"]
            candidates = (
                [] if current is None else [(current, engine.legal_actions(state, current))]
            )
        chosen: tuple[int, Action] | None = None
        for seat, legal in candidates:
            if not legal:
                continue
            action = bots[seat](engine.view(state, seat), legal, rngs[seat], histories[seat])
            if action is not None:
                chosen = (seat, action)
                break
        if chosen is None:
            return PlayedGame(state, actions, True)
        seat, action = chosen
        events = engine.apply(state, seat, action)
        actions += 1
        for event in events:
            to = event.get("to")
            for s in range(players) if to is None else to:
                histories[s].append(event)
        if on_action is not None:
            on_action(state, seat, action, events)
    return PlayedGame(state, actions, False)


def shared_win(result: dict[str, Any], players: int) -> list[float]:
    """Each seat's share of the win: ties count as a shared fraction."""
    winners = result["winners"]
    share = [0.0] * players
    for seat in winners:
        share[seat] = 1.0 / len(winners)
    return share
