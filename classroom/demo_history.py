"""Realistic learning history for the demo class and the reports benchmark.

A teacher trying the app must see reports that look real on first run, so the
history comes from real Chasse games played by the real engine
(``cardgames.engines``), not from random numbers, and each play is recorded by
the game's own ``learning_record`` (``cardgames.ui``), the one the live game
uses: totals, hands, penalties, ``crossed_ten``, ``avoidable`` and
``error_kind`` are exactly what the live game would record. Only the pupils
are simulated, each by a *profile* that decides which card they pick
(planning) and what they announce and how fast (arithmetic):

* ``steady``: good at both.
* ``improver``: weak at first; accuracy, speed and planning improve over the
  sessions.
* ``carries``: fails additions and subtractions that cross a ten, above all
  with cards ending in 9 or 8.
* ``facts``: fails particular facts (7 + 8, 6 + 7, 6 + 8 and their twins) and
  is slow on them.
* ``tens``: often plays a card that lands on a multiple of ten when a safe
  card was in the hand.

Everything is deterministic given ``seed``. Speed: one engine game is driven
directly (``legal_actions`` + ``apply``, no bots); the reports benchmark's
term takes a few seconds (see ``bench_reports``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Any, Literal
from zoneinfo import ZoneInfo

from cardgames import engines, ui

from .insights import Play

# The game the simulated pupils play: their profiles are about its arithmetic.
DEMO_GAME = "chasse"

Profile = Literal["steady", "improver", "carries", "facts", "tens"]
PROFILES: tuple[Profile, ...] = ("steady", "improver", "carries", "facts", "tens")

WEAK_FACTS: frozenset[tuple[int, int]] = frozenset({(7, 8), (8, 7), (6, 7), (7, 6), (6, 8), (8, 6)})
TURN_SECONDS = 30
SCHOOL_TIMES: tuple[time, ...] = (time(9, 0), time(14, 0), time(10, 45), time(15, 30))


@dataclass(frozen=True, slots=True)
class DemoPupil:
    pupil_id: int
    profile: Profile


@dataclass(frozen=True, slots=True)
class DemoTable:
    table_id: int
    pupil_ids: tuple[int, ...]  # seat order


@dataclass(frozen=True, slots=True)
class DemoSession:
    index: int
    session_id: int
    started_at: datetime
    tables: tuple[DemoTable, ...]


def default_profiles(count: int) -> list[Profile]:
    """A believable class: mostly steady pupils and improvers, a few of each
    difficulty. Deterministic, so the demo class always looks the same."""
    pattern: tuple[Profile, ...] = (
        "steady",
        "improver",
        "carries",
        "steady",
        "facts",
        "tens",
        "improver",
        "steady",
        "carries",
        "improver",
    )
    return [pattern[i % len(pattern)] for i in range(count)]


def school_days(*, end: date, weeks: int = 13) -> list[date]:
    """Monday to Friday over the ``weeks`` weeks ending on ``end`` (~3 months)."""
    start = end - timedelta(weeks=weeks) + timedelta(days=1)
    days = []
    day = start
    while day <= end:
        if day.weekday() < 5:
            days.append(day)
        day += timedelta(days=1)
    return days


# --------------------------------------------------------------------------- #
# The pupil models.
# --------------------------------------------------------------------------- #


def _lerp(start: float, stop: float, progress: float) -> float:
    return start + (stop - start) * progress


class _Model:
    """One pupil's behaviour at one point of the term (``progress`` 0 → 1)."""

    __slots__ = (
        "cross_err",
        "flat_err",
        "plan",
        "profile",
        "speed_ms",
        "tens_bias",
        "think_ms",
        "timeout",
    )

    def __init__(self, profile: Profile, progress: float, jitter: float) -> None:
        self.profile = profile
        self.flat_err = 0.04
        self.cross_err = 0.08
        self.plan = 0.85  # chance to look for a safe card when there is one
        self.tens_bias = 0.0  # chance to pick a card landing on a ten when one exists
        self.speed_ms = 2400.0 * jitter
        self.think_ms = 2500.0
        self.timeout = 0.008
        if profile == "steady":
            self.flat_err, self.cross_err, self.plan = 0.03, 0.06, 0.92
            self.speed_ms = 2100.0 * jitter
        elif profile == "improver":
            self.flat_err = _lerp(0.22, 0.04, progress)
            self.cross_err = _lerp(0.42, 0.08, progress)
            self.plan = _lerp(0.45, 0.88, progress)
            self.speed_ms = _lerp(7500.0, 2600.0, progress) * jitter
            self.timeout = _lerp(0.04, 0.005, progress)
        elif profile == "carries":
            self.flat_err, self.cross_err = 0.05, 0.30
            self.speed_ms = 3000.0 * jitter
        elif profile == "facts":
            self.flat_err, self.cross_err = 0.05, 0.09
            self.speed_ms = 2700.0 * jitter
        elif profile == "tens":
            self.flat_err, self.cross_err = 0.04, 0.09
            self.plan, self.tens_bias = 0.35, 0.45
            self.think_ms = 1400.0

    def error_probability(self, card: dict[str, Any], crosses: bool) -> float:
        if self.profile == "carries" and crosses and card["value"] % 10 in (8, 9):
            return 0.65
        if self.profile == "facts" and (card["a"], card["b"]) in WEAK_FACTS:
            return 0.55
        return self.cross_err if crosses else self.flat_err

    def compute_ms(
        self, card: dict[str, Any], crosses: bool, wrong: bool, rng: random.Random
    ) -> int:
        ms = self.speed_ms
        if crosses:
            ms *= 1.6 if self.profile == "carries" else 1.35
        if card["value"] > 10:
            ms *= 1.15
        if card["kind"] == "sub":
            ms *= 1.2
        if self.profile == "facts" and (card["a"], card["b"]) in WEAK_FACTS:
            ms *= 2.5
        if wrong:
            ms *= 1.2
        ms *= math.exp(rng.gauss(0.0, 0.35))
        return int(min(max(ms, 400.0), TURN_SECONDS * 1000 - 1))


def _wrong_answer(true_total: int, card: dict[str, Any], crosses: bool, rng: random.Random) -> int:
    """A believable slip: crossing a ten mostly gives a forgotten carry or
    borrow (off by ten), otherwise mostly a units slip."""
    roll = rng.random()
    tens_share, units_share = (0.55, 0.35) if crosses else (0.15, 0.70)
    if roll < tens_share:
        if crosses:
            answer = true_total - 10 if card["kind"] == "add" else true_total + 10
        else:
            answer = true_total + rng.choice((-10, 10))
    elif roll < tens_share + units_share:
        units = true_total % 10
        steps = [s for s in (-2, -1, 1, 2) if 0 <= units + s <= 9]
        answer = true_total + rng.choice(steps)
    else:
        answer = true_total + rng.choice((-21, -12, -11, 11, 12, 21))
    return answer if answer >= 0 else true_total + 10


# --------------------------------------------------------------------------- #
# Playing a table.
# --------------------------------------------------------------------------- #


def _crosses(total: int, card: dict[str, Any]) -> bool:
    """Whether the pupil must carry or borrow: what the profiles find hard.
    The simulated pupil's own judgement, made before the card is played; the
    record's ``crossed_ten`` is the game's."""
    units = card["value"] % 10
    if card["kind"] == "add":
        return total % 10 + units >= 10
    if card["kind"] == "sub":
        return total % 10 < units
    return False


def _choose(
    model: _Model,
    legal: list[dict[str, Any]],
    cards: dict[int, dict[str, Any]],
    total: int,
    target: int,
    rng: random.Random,
) -> dict[str, Any]:
    if legal[0]["type"] == "discard":
        return rng.choice(legal)
    safe: list[dict[str, Any]] = []
    tens: list[dict[str, Any]] = []
    for action in legal:
        card = cards[action["card"]]
        kind = card["kind"]
        if kind == "special":
            safe.append(action)
            continue
        after = total + card["value"] if kind == "add" else total - card["value"]
        if after >= target:
            continue
        if after % 10 == 0:
            tens.append(action)
        else:
            safe.append(action)
    if tens and safe and rng.random() < model.tens_bias:
        return rng.choice(tens)
    if safe and rng.random() < model.plan:
        return rng.choice(safe)
    return rng.choice(legal)


@dataclass(frozen=True, slots=True)
class _Answer:
    """How the pupil plays the chosen card: what they announce (``None`` for a
    special), whether their time ran out, and how long they took."""

    announce: int | None
    timed_out: bool
    think_ms: int
    compute_ms: int | None


def _answer(model: _Model, card: dict[str, Any], total: int, rng: random.Random) -> _Answer:
    """The pupil's answer for ``card`` laid on ``total``. Draws from ``rng``
    in a fixed order (the demo is the same for the same seed)."""
    kind = card["kind"]
    after = (
        total + card["value"]
        if kind == "add"
        else total - card["value"]
        if kind == "sub"
        else total
    )
    think = int(min(model.think_ms * math.exp(rng.gauss(0.0, 0.5)), TURN_SECONDS * 1000))
    crosses = _crosses(total, card)
    timed_out = rng.random() < model.timeout
    if kind == "special":
        return _Answer(announce=None, timed_out=False, think_ms=think, compute_ms=None)
    if timed_out:
        # A bot plays the chosen card for the pupil (its right total): no answer.
        return _Answer(
            announce=after, timed_out=True, think_ms=TURN_SECONDS * 1000, compute_ms=None
        )
    wrong = rng.random() < model.error_probability(card, crosses)
    announced = _wrong_answer(after, card, crosses, rng) if wrong else after
    compute = model.compute_ms(card, crosses, wrong, rng)
    return _Answer(announce=announced, timed_out=False, think_ms=think, compute_ms=compute)


def _special_fields(view: dict[str, Any], card: dict[str, Any], think_ms: int) -> dict[str, Any]:
    """The row of a special card. The live game keeps none (no number is
    asked, so nothing is learned); the demo has always kept one, and still
    does so that its reports read as they always have."""
    total = int(view["total"])
    return {
        "round": int(view.get("round") or 1),
        "total_before": total,
        "card_kind": card["kind"],
        "card_a": card["a"],
        "card_b": card["b"],
        "card_value": card["value"],
        "total_after": total,
        "announced": None,
        "correct": None,
        "think_ms": think_ms,
        "compute_ms": None,
        "multiple_of_ten": False,
        "reached_target": False,
        "avoidable": False,
        "crossed_ten": False,
        "error_kind": None,
        "timed_out": False,
    }


def _play_table(
    *,
    pupils: Sequence[DemoPupil],
    table_id: int,
    session_id: int,
    started_at: datetime,
    progress: float,
    plays_per_pupil: int,
    jitters: dict[int, float],
    seed: int,
    practice: bool,
    out: list[Play],
) -> None:
    engine: Any = engines.get(DEMO_GAME)
    learning_record = ui.get(DEMO_GAME).learning_record
    if learning_record is None:
        raise LookupError(f"{DEMO_GAME} makes no learning records: no demo history")
    rng = random.Random(seed)
    seats = len(pupils)
    models = [_Model(p.profile, progress, jitters[p.pupil_id]) for p in pupils]
    wanted = plays_per_pupil * seats
    clock = started_at
    made = 0
    game_no = 0
    while made < wanted:
        state = engine.new_game(seats, seed * 31 + game_no)
        game_no += 1
        target = int(state.options["target"])
        while made < wanted and not engine.is_over(state):
            # ``state.current_seat`` is what ``view(state, None)["current_seat"]``
            # reports while the game runs.
            seat = state.current_seat
            legal = engine.legal_actions(state, seat)
            # The seat's view before its move: what the live game records from.
            view = engine.view(state, seat)
            cards = {card["id"]: card for card in view["hand"]}
            model = models[seat]
            action = _choose(model, legal, cards, state.total, target, rng)
            if action["type"] == "discard":
                engine.apply(state, seat, action)
                clock += timedelta(seconds=4)
                continue
            card = cards[action["card"]]
            answer = _answer(model, card, state.total, rng)
            events = engine.apply(
                state, seat, {"type": "play", "card": card["id"], "announce": answer.announce}
            )
            clock += timedelta(milliseconds=answer.think_ms + (answer.compute_ms or 0) + 1500)
            fields = (
                _special_fields(view, card, answer.think_ms)
                if card["kind"] == "special"
                else learning_record(
                    events=events,
                    seat=seat,
                    view_before=view,
                    timings={"think_ms": answer.think_ms, "compute_ms": answer.compute_ms},
                    timed_out=answer.timed_out,
                )
            )
            assert fields is not None, "a number card always teaches"
            fields["error_kind"] = fields["error_kind"] or None
            out.append(
                Play(
                    pupil_id=pupils[seat].pupil_id,
                    session_id=session_id,
                    table_id=table_id,
                    practice=practice,
                    created_at=clock,
                    **fields,
                )
            )
            made += 1


def plan_sessions(
    *,
    pupils: Sequence[DemoPupil],
    sessions: int,
    end: date,
    seed: int,
    table_size: int = 4,
    session_ids: Sequence[int] | None = None,
    first_table_id: int = 1,
    tz: tzinfo | None = None,
    weeks: int = 13,
) -> tuple[DemoSession, ...]:
    """When each session happens and who sits at which table. The caller can
    create the matching database rows first and pass their ids back in."""
    tz = tz or ZoneInfo("Europe/Paris")
    days = school_days(end=end, weeks=weeks)
    ids = list(session_ids) if session_ids is not None else list(range(1, sessions + 1))
    if len(ids) != sessions:
        raise ValueError("session_ids must name every session.")
    rng = random.Random(seed * 7 + 1)
    per_day: dict[int, int] = {}
    out: list[DemoSession] = []
    table_id = first_table_id
    pupil_ids = [p.pupil_id for p in pupils]
    for index in range(sessions):
        day_index = index * len(days) // sessions
        slot = per_day.get(day_index, 0)
        per_day[day_index] = slot + 1
        started = datetime.combine(
            days[day_index], SCHOOL_TIMES[slot % len(SCHOOL_TIMES)], tzinfo=tz
        ) + timedelta(hours=slot // len(SCHOOL_TIMES))
        order = list(pupil_ids)
        rng.shuffle(order)
        groups = max(1, math.ceil(len(order) / table_size))
        tables = []
        for g in range(groups):
            members = tuple(order[g::groups])
            if len(members) >= 2:
                tables.append(DemoTable(table_id=table_id, pupil_ids=members))
                table_id += 1
            elif members and tables:
                # A lone pupil joins the previous table (engine needs 2 players).
                last = tables[-1]
                tables[-1] = DemoTable(last.table_id, last.pupil_ids + members)
        out.append(
            DemoSession(
                index=index, session_id=ids[index], started_at=started, tables=tuple(tables)
            )
        )
    return tuple(out)


def iter_session_plays(
    *,
    pupils: Sequence[DemoPupil],
    plan: Sequence[DemoSession],
    seed: int,
    plays_per_session: int = 84,
    practice: bool = False,
) -> Iterator[list[Play]]:
    """The plays of each planned session in turn, so a caller can write them in
    batches (``bulk_create``) without holding the whole term in memory."""
    by_id = {p.pupil_id: p for p in pupils}
    jitter_rng = random.Random(seed * 13 + 5)
    jitters = {p.pupil_id: math.exp(jitter_rng.gauss(0.0, 0.15)) for p in pupils}
    count = max(1, len(plan) - 1)
    for session in plan:
        progress = session.index / count
        out: list[Play] = []
        for table in session.tables:
            _play_table(
                pupils=[by_id[pid] for pid in table.pupil_ids],
                table_id=table.table_id,
                session_id=session.session_id,
                started_at=session.started_at,
                progress=progress,
                plays_per_pupil=plays_per_session,
                jitters=jitters,
                seed=seed * 1_000_003 + session.index * 1009 + table.table_id,
                practice=practice,
                out=out,
            )
        yield out
