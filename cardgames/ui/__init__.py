"""One small adapter per game: how the page's form strings become an engine
action, how events read in French, and which templates draw the table.

A game adapter is the module (or package) ``cardgames/ui/<game>``. Everything
it does not define falls back to :mod:`cardgames.ui.generic`, so a brand-new
engine is playable (if plainly drawn) before anyone writes its adapter.

Games plug into the ``classroom`` app the same way: a game that teaches a right
answer says so in its adapter (``learning_record``, ``TARGETED_CARDS``,
``focus_line``, ``SOLO_PRACTICE``), and the classroom asks ``get(game)``
instead of knowing any game by name. A game that says nothing makes no
learning records, deals no targeted cards and is not offered for solo practice
(the ``NO_*`` defaults below).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from django.utils.translation import gettext, gettext_lazy

from cardgames import engines
from cardgames.engines.base import BOT_LEVELS
from cardgames.ui import generic

Action = dict[str, Any]


class FormToAction(Protocol):
    def __call__(self, data: Mapping[str, Any]) -> Action: ...


class DescribeEvent(Protocol):
    def __call__(
        self,
        event: Mapping[str, Any],
        seat_names: Sequence[str],
        options: Mapping[str, Any] | None = None,
    ) -> str: ...


class SeatContext(Protocol):
    def __call__(
        self,
        *,
        view: Mapping[str, Any],
        legal: list[Action],
        choice: Mapping[str, Any] | None,
        seed: int,
        version: int,
    ) -> dict[str, Any]: ...


class EventsContext(Protocol):
    def __call__(
        self,
        *,
        history: list[dict[str, Any]],
        view: Mapping[str, Any],
        seat: int | None,
        seat_names: Sequence[str],
    ) -> dict[str, Any]: ...


class RefusalMessage(Protocol):
    def __call__(self, code: str) -> str: ...


class EndQuestion(Protocol):
    def __call__(self, view: Mapping[str, Any]) -> dict[str, Any] | None: ...


class ExplainRefusal(Protocol):
    def __call__(
        self,
        code: str,
        *,
        action: Mapping[str, Any],
        view: Mapping[str, Any],
        history: Sequence[Mapping[str, Any]],
        seat_names: Sequence[str],
    ) -> str | None: ...


@dataclass(frozen=True)
class ReportColumn:
    """One column of a social game's table in the teacher's reports (pupil
    page, class page, CSV), declared by the game's adapter in
    ``REPORT_COLUMNS``. The counting stays with whoever keeps the records
    (``classroom``); ``key`` says what to count, from this small vocabulary:

    - ``tables`` (every table played), ``finished`` (those that reached their
      end, not cut short by the end of the lesson);
    - ``trades``, ``offers_withdrawn``, ``mistaken_claims``,
      ``wrong_count_accepts``: the participation figures, summed;
    - ``score`` (summed over finished tables only: a game cut short has no
      final score) and ``best_place`` (the best place of a finished table);
    - ``stat:<name>``: the engine's per-seat ``game_stats`` figure, summed;
    - ``option:<name>``: the table option's values played, worded by ``values``;
    - ``score_sums:right`` / ``score_sums:wrong``: the end-of-game sums the
      player worked out right / wrong (``end_question``).

    ``lower_is_better`` (Pinocchio's noses) is said in words beside the label,
    never by colour alone."""

    key: str
    label: Any
    csv_label: Any
    lower_is_better: bool = False
    values: Mapping[str, Any] = field(default_factory=dict)


class LearningRecordFields(Protocol):
    def __call__(
        self,
        *,
        events: Sequence[Mapping[str, Any]],
        seat: int,
        view_before: Mapping[str, Any],
        timings: Mapping[str, Any],
        timed_out: bool,
    ) -> dict[str, Any] | None: ...


class FocusLine(Protocol):
    def __call__(self, entry: Mapping[str, Any]) -> str: ...


def no_focus_line(entry: Mapping[str, Any]) -> str:
    """A game without targeted cards has nothing to say about them."""
    return ""


# What a game that says nothing about learning gets: no learning records, no
# targeted cards, no solo practice. Here rather than in ``generic`` because
# only the classroom reads them, through ``get``.
NO_TARGETED_CARDS = False
NO_SOLO_PRACTICE = False


class PublicSummary(Protocol):
    def __call__(
        self, view: Mapping[str, Any], seat_names: Sequence[str]
    ) -> list[tuple[str, str]]: ...


@dataclass(frozen=True)
class GameUI:
    """The adapter protocol every game's UI module satisfies (with fallbacks).

    - ``form_to_action(data)``: the ws form's string values → an engine action;
      raises ``IllegalAction`` (``malformed``, ``announce_invalid``…) when the
      strings make no sense. The seat never comes from here.
    - ``two_step``: a card is chosen first, then the move is submitted (the
      server times both steps); only such a game accepts the socket's
      ``choose`` and ``cancel`` messages.
    - ``seat_context(...)``: extra template context for a seat's view; its
      ``player_extras`` (one dict per seat index), if any, is merged into each
      entry of ``players`` (e.g. a game's tokens or paws).
    - ``describe_event(event, seat_names, options)``: one sentence (gettext) for
      the monitor and the replay; ``options`` are the table's (Pinocchio's
      words are in the table's ``words_language``, not the reader's).
    - ``public_summary(view, seat_names)``: (label, value) pairs for the monitor.
    - ``events_context(history=, view=, seat=, seat_names=)``: extra context
      drawn from what this seat has seen happen (feedback on its last move,
      the latest events explained); ``history`` is already filtered for it.
    - ``refusal_message(code)``: the sentence a child reads when the engine
      refuses a move with ``code`` (the runtime's own codes worded generically).
    - ``explain_refusal(code, action=, view=, history=, seat_names=)``: a
      sentence that says more from what the seat may know ("Trop tard : Léo a
      déjà échangé avec Inès."), or ``None`` for the plain one.
    - ``seat_template`` / ``public_template``: the table drawn for a seat / for
      the projector and the replay.
    - ``end_question(view)``: after the game, the sum a player works out
      before the scores are shown (``{"addends": [...], "total": n}``), or
      ``None`` when the game asks nothing (Picktura's score sums).
    - ``title``, ``pitch``, ``icon`` (a static path or an emoji): how the game
      is offered to a teacher; ``option_labels`` / ``choice_labels``: the
      teacher's words for the engine's ``option_schema()``.
    - ``script``: the game's own static JS file ("" for none), loaded by the
      table page after ``js/table.js``.
    - ``how_to_play``: 3 to 5 (picture, sentence) steps for children, shown on the
      tablet before the first move and behind a "?" button.
    - ``report_columns``: the game's own columns in the teacher's reports and
      their CSV (:class:`ReportColumn`, the module's ``REPORT_COLUMNS``); empty
      for a game with no social report (Chasse). Declared here so that the
      reports ask the game which figures matter instead of knowing every game.
    - ``report_places(view)``: seat → place from the public view of a finished
      game, exactly as the game's end screen ranks it (``None``: the reader
      ranks by the engine's ``result``, equal scores sharing a place).

    What the game teaches, for the classroom's learning records (a game that
    says nothing here teaches no right answer: its tables are social records):

    - ``learning_record(events=, seat=, view_before=, timings=, timed_out=)``:
      the fields of one :class:`classroom.models.LearningRecord` for the
      seat's move (``None`` when the move teaches nothing), whether the answer
      was right taken from the engine's own verdict; ``None`` for a game that
      makes no learning records.
    - ``targeted_cards``: the classroom may deal a pupil's seat the cards of the
      facts they need (the engine's ``focus`` option), per table or in
      practice.
    - ``focus_line(entry)``: one ``focus`` entry in a child's words
      ("Aujourd'hui : 7 + 8 et passer la dizaine"), "" when nothing is targeted.
    - ``solo_practice``: a pupil may play the game alone against robots,
      outside a lesson (see :func:`practice_games`).
    """

    name: str
    form_to_action: FormToAction
    two_step: bool
    seat_context: SeatContext
    describe_event: DescribeEvent
    public_summary: PublicSummary
    seat_template: str
    public_template: str
    events_context: EventsContext
    refusal_message: RefusalMessage
    end_question: EndQuestion
    explain_refusal: ExplainRefusal
    title: Any
    pitch: Any
    icon: str
    option_labels: Mapping[str, Mapping[str, Any]]
    choice_labels: Mapping[str, Mapping[str, Any]]
    how_to_play: Sequence[tuple[str, Any]]
    script: str
    report_columns: tuple[ReportColumn, ...] = ()
    report_places: Callable[[Mapping[str, Any]], dict[int, int]] | None = None
    learning_record: LearningRecordFields | None = None
    targeted_cards: bool = NO_TARGETED_CARDS
    focus_line: FocusLine = no_focus_line
    solo_practice: bool = NO_SOLO_PRACTICE


_CACHE: dict[str, GameUI] = {}


def _module(game: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"cardgames.ui.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"cardgames.ui.{game}":
            raise
        return None


def get(game: str) -> GameUI:
    """The adapter for ``game``, generic where the game's module says nothing."""
    cached = _CACHE.get(game)
    if cached is not None:
        return cached
    module = _module(game)

    def pick(attr: str) -> Any:
        value = getattr(module, attr, None) if module is not None else None
        return value if value is not None else getattr(generic, attr)

    adapter = GameUI(
        name=game,
        form_to_action=pick("form_to_action"),
        two_step=bool(pick("TWO_STEP")),
        seat_context=pick("seat_context"),
        describe_event=pick("describe_event"),
        public_summary=pick("public_summary"),
        seat_template=pick("SEAT_TEMPLATE"),
        public_template=pick("PUBLIC_TEMPLATE"),
        events_context=pick("events_context"),
        refusal_message=pick("refusal_message"),
        end_question=pick("end_question"),
        explain_refusal=pick("explain_refusal"),
        title=pick("TITLE"),
        pitch=pick("PITCH"),
        icon=pick("ICON"),
        option_labels=pick("OPTION_LABELS"),
        choice_labels=pick("CHOICE_LABELS"),
        how_to_play=pick("HOW_TO_PLAY"),
        script=pick("SCRIPT"),
        report_columns=tuple(getattr(module, "REPORT_COLUMNS", None) or ()),
        report_places=getattr(module, "report_places", None),
        learning_record=getattr(module, "learning_record", None),
        targeted_cards=bool(getattr(module, "TARGETED_CARDS", NO_TARGETED_CARDS)),
        focus_line=getattr(module, "focus_line", None) or no_focus_line,
        solo_practice=bool(getattr(module, "SOLO_PRACTICE", NO_SOLO_PRACTICE)),
    )
    _CACHE[game] = adapter
    return adapter


def practice_games() -> list[str]:
    """Every game a pupil may practise alone against robots (its adapter's
    ``SOLO_PRACTICE``), the central game first."""
    return [name for name in engines.names() if get(name).solo_practice]


def practice_focus_line(entry: Mapping[str, Any]) -> str:
    """A targeted practice's ``focus`` entry in a child's words, said by the
    game practised solo (the first of :func:`practice_games`); "" when no
    game is."""
    games = practice_games()
    return get(games[0]).focus_line(entry) if games else ""


def game_title(game: str) -> str:
    """The game's name for people (its engine name if its UI says none)."""
    title = get(game).title
    return str(title) if title else game


# What a bot level is called on screen (and in a bot's name), in one place.
_BOT_LEVEL_LABELS = {
    "easy": gettext_lazy("Facile"),
    "medium": gettext_lazy("Moyen"),
    "hard": gettext_lazy("Difficile"),
}


def bot_name(level: str, number: int | str) -> str:
    """A robot's name in the reader's language ("Robot Facile 1", "Roboter
    Leicht 1"): built when shown, never stored translated."""
    label = bot_level_label(level)
    if not label:
        return gettext("Robot %(n)s") % {"n": number}
    return gettext("Robot %(level)s %(n)s") % {"level": label, "n": number}


def seat_name(*, display_name: str, is_bot: bool, bot_level: str) -> str:
    """What a seat is called on screen: a pupil's own name, a robot's name in
    the reader's language (its number is the last word of the stored name)."""
    if not is_bot or not bot_level:
        return display_name
    last = display_name.rsplit(" ", 1)[-1]
    return bot_name(bot_level, last if last.isdigit() else 1)


def bot_level_label(level: str) -> str:
    """The translated word for a bot level ("" for an unknown level)."""
    label = _BOT_LEVEL_LABELS.get(level)
    return str(label) if label is not None else ""


def bot_level_choices() -> list[tuple[str, str]]:
    """Every bot level with its translated word, weakest first, for a form."""
    return [(level, bot_level_label(level)) for level in BOT_LEVELS]
