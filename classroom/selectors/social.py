"""Reads of the social games' participation (``SocialRecord``): one query each.

Social games are reported as participation, never as marks, and never mixed
into the Chasse figures (those read ``LearningRecord`` only).

Each game gets a table of its own, with the columns its UI adapter declares
(``cardgames.ui.get(game).report_columns``): Pinocchio's noses are not
Purrfect's paws, and one table for every game showed Pinocchio rows with
"Échanges 0" and a "Points" column where fewer was better (issue 46). This
module only counts, from the small vocabulary of keys documented on
:class:`cardgames.ui.ReportColumn`; it knows no game's rules.

A table cut short by the end of the lesson (``completed`` false) counts as a
table played, said apart ("dont 1 non terminée"), and never towards a score
or a place: its scores were not final.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from cardgames import ui
from cardgames.ui import ReportColumn, game_title
from classroom.models import Pupil, SchoolClass, ScoreSumRecord, SocialRecord

# The pupil page lists this many sessions per game, newest first...
PUPIL_SOCIAL_ROWS = 30
# ...from at most this many of the pupil's newest social records.
PUPIL_SOCIAL_RECORDS = 400

# What a game whose adapter declares no columns still shows: participation.
DEFAULT_COLUMNS: tuple[ReportColumn, ...] = (
    ReportColumn("tables", gettext_lazy("Parties"), gettext_lazy("parties")),
    ReportColumn("finished", gettext_lazy("Finies"), gettext_lazy("parties finies")),
    ReportColumn("score", gettext_lazy("Points"), gettext_lazy("points (parties finies)")),
    ReportColumn("best_place", gettext_lazy("Meilleure place"), gettext_lazy("meilleure place")),
)
# The record's own columns a ``ReportColumn.key`` may name (summed).
RECORD_SUMS = ("trades", "offers_withdrawn", "mistaken_claims", "wrong_count_accepts")
_FIELDS = (
    "game",
    "completed",
    "score",
    "rank",
    "won",
    "details",
    *RECORD_SUMS,
)


@dataclass(frozen=True)
class SocialColumn:
    """A column header, as drawn (strings already in the reader's language)."""

    key: str
    label: str
    csv_label: str
    lower_is_better: bool


@dataclass(frozen=True)
class SocialCell:
    """One figure: ``value`` for the CSV and the tests (``None``: nothing to
    say, drawn "—"), ``text`` as shown, ``note`` a short line under it (the
    tables cut short, the wins), ``icon`` a decoration that never carries the
    meaning alone (the wins are also said in ``note``)."""

    value: int | str | None
    text: str
    note: str = ""
    icon: str = ""
    # The column's name, repeated by each figure of a row drawn as a card.
    label: str = ""


@dataclass(frozen=True)
class SocialLine:
    """One row of a game's table: a session (pupil page) or a pupil (class page)."""

    cells: list[SocialCell]
    session_id: int | None = None
    started_at: datetime | None = None
    practice: bool = False
    pupil_id: int | None = None
    pupil_name: str = ""

    def value(self, key: str, columns: Sequence[SocialColumn]) -> Any:
        """The figure of column ``key`` (tests and the CSV)."""
        for column, cell in zip(columns, self.cells, strict=True):
            if column.key == key:
                return cell.value
        raise KeyError(key)


@dataclass(frozen=True)
class SocialGameTable:
    """One social game's table: its own columns, one row per session or pupil."""

    game: str
    title: str
    columns: list[SocialColumn]
    rows: list[SocialLine]

    def values(self, row: SocialLine) -> dict[str, Any]:
        """Column key → figure, for one row."""
        return {c.key: cell.value for c, cell in zip(self.columns, row.cells, strict=True)}


def report_columns(game: str) -> tuple[ReportColumn, ...]:
    """The game's declared columns (participation only if it declares none)."""
    return ui.get(game).report_columns or DEFAULT_COLUMNS


def _cells(tally: _Tally, columns: Sequence[ReportColumn]) -> list[SocialCell]:
    """A row's figures, each labelled for the phone's card layout (where the
    header row is hidden, a lower-is-better column says so in its label)."""
    cells = []
    for column in columns:
        label = str(column.label)
        if column.lower_is_better:
            label = gettext("%(label)s (moins = mieux)") % {"label": label}
        cells.append(replace(tally.cell(column), label=label))
    return cells


def _heads(columns: Iterable[ReportColumn]) -> list[SocialColumn]:
    return [
        SocialColumn(
            key=c.key,
            label=str(c.label),
            csv_label=str(c.csv_label),
            lower_is_better=c.lower_is_better,
        )
        for c in columns
    ]


@dataclass
class _Tally:
    """The records of one row, added up."""

    tables: int = 0
    finished: int = 0
    wins: int = 0
    score: int = 0
    best_place: int | None = None
    sums: dict[str, int] = field(default_factory=dict)
    stats: dict[str, int] = field(default_factory=dict)
    options: dict[str, list[Any]] = field(default_factory=dict)
    score_sums: dict[bool, int] = field(default_factory=dict)

    def add(self, record: Mapping[str, Any]) -> None:
        self.tables += 1
        for name in RECORD_SUMS:
            self.sums[name] = self.sums.get(name, 0) + int(record.get(name) or 0)
        details = record.get("details") or {}
        for name, value in (details.get("stats") or {}).items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                self.stats[name] = self.stats.get(name, 0) + int(value)
        for name, value in (details.get("options") or {}).items():
            seen = self.options.setdefault(name, [])
            if isinstance(value, str | int) and value not in seen:
                seen.append(value)
        correct = record.get("sum_correct")
        if correct is not None:
            self.score_sums[bool(correct)] = self.score_sums.get(bool(correct), 0) + 1
        if not record.get("completed", True):
            return
        self.finished += 1
        self.wins += bool(record.get("won"))
        self.score += int(record.get("score") or 0)
        rank = record.get("rank")
        if isinstance(rank, int) and (self.best_place is None or rank < self.best_place):
            self.best_place = rank

    def cell(self, column: ReportColumn) -> SocialCell:
        key = column.key
        if key == "tables":
            cut = self.tables - self.finished
            note = (
                ngettext("dont %(n)s non terminée", "dont %(n)s non terminées", cut) % {"n": cut}
                if cut
                else ""
            )
            return SocialCell(self.tables, str(self.tables), note=note)
        if key == "finished":
            return _number(self.finished)
        if key == "score":
            return _number(self.score) if self.finished else _nothing()
        if key == "best_place":
            if self.best_place is None:
                return _nothing()
            note = (
                ngettext("%(n)s victoire", "%(n)s victoires", self.wins) % {"n": self.wins}
                if self.wins
                else ""
            )
            return SocialCell(
                self.best_place, str(self.best_place), note=note, icon="🏆" if self.wins else ""
            )
        if key in RECORD_SUMS:
            return _number(self.sums.get(key, 0))
        kind, _sep, name = key.partition(":")
        if kind == "stat":
            return _number(self.stats.get(name, 0))
        if kind == "option":
            words = [str(column.values.get(v, v)) for v in self.options.get(name, [])]
            return SocialCell(", ".join(words), ", ".join(words)) if words else _nothing()
        if kind == "score_sums" and name in ("right", "wrong"):
            return _number(self.score_sums.get(name == "right", 0))
        return _nothing()


def _number(n: int) -> SocialCell:
    return SocialCell(n, str(n))


def _nothing() -> SocialCell:
    return SocialCell(None, "—")


def _with_score_sum(records: QuerySet[SocialRecord]) -> QuerySet[SocialRecord]:
    """Each record with the pupil's end-of-game sum at that table, if any
    (right or wrong; one row per pupil and table): in the same query."""
    answer = ScoreSumRecord.objects.filter(
        table_id=OuterRef("table_id"), pupil_id=OuterRef("pupil_id")
    ).values("correct")[:1]
    return records.annotate(sum_correct=Subquery(answer))


def pupil_social_tables(*, pupil: Pupil) -> list[SocialGameTable]:
    """The pupil page's social games: a table per game (by title), its
    columns the game's own, one row per session, newest first. One query."""
    records = (
        _with_score_sum(SocialRecord.objects.filter(pupil=pupil, finished_at__isnull=False))
        .order_by("-finished_at", "-id")
        .values(
            *_FIELDS, "sum_correct", "class_session_id", "class_session__started_at", "practice"
        )
    )[:PUPIL_SOCIAL_RECORDS]
    by_game: dict[str, dict[int, tuple[dict[str, Any], _Tally]]] = {}
    for record in records:
        sessions = by_game.setdefault(record["game"], {})
        if record["class_session_id"] not in sessions:
            if len(sessions) >= PUPIL_SOCIAL_ROWS:
                continue
            sessions[record["class_session_id"]] = (record, _Tally())
        sessions[record["class_session_id"]][1].add(record)
    tables = []
    for game, sessions in by_game.items():
        columns = report_columns(game)
        rows = [
            SocialLine(
                cells=_cells(tally, columns),
                session_id=first["class_session_id"],
                started_at=first["class_session__started_at"],
                practice=bool(first["practice"]),
            )
            for first, tally in sessions.values()
        ]
        tables.append(
            SocialGameTable(game=game, title=game_title(game), columns=_heads(columns), rows=rows)
        )
    return sorted(tables, key=lambda t: t.title.casefold())


@dataclass(frozen=True)
class ClassSocialTables:
    """The class report's social games: each game's own table, one row per
    pupil who played it in the period, and the tables each pupil played (so a
    Purrfect-only lesson still counts as played)."""

    games: list[tuple[str, str]]  # (game, title), by title
    by_pupil: dict[int, dict[str, int]]
    tables: list[SocialGameTable] = field(default_factory=list)

    def row(self, pupil_id: int) -> list[int]:
        counts = self.by_pupil.get(pupil_id, {})
        return [counts.get(game, 0) for game, _title in self.games]

    def csv_headers(self) -> list[str]:
        """The CSV's social columns: each game's own, named after the game."""
        return [
            gettext("%(game)s : %(column)s") % {"game": table.title, "column": column.csv_label}
            for table in self.tables
            for column in table.columns
        ]

    def csv_cells(self, pupil_id: int) -> list[Any]:
        """A pupil's figures under :meth:`csv_headers` (empty: not played, or
        nothing to say, such as a place with no finished game)."""
        cells: list[Any] = []
        for table in self.tables:
            row = next((r for r in table.rows if r.pupil_id == pupil_id), None)
            if row is None:
                cells.extend("" for _column in table.columns)
            else:
                cells.extend("" if cell.value is None else cell.value for cell in row.cells)
        return cells


def class_social_tables(
    *,
    school_class: SchoolClass,
    date_from: date | None = None,
    date_to: date | None = None,
    session_id: int | None = None,
) -> ClassSocialTables:
    """Each social game's figures per pupil in the period (class sessions
    only, like the rest of the class report). One query."""
    records = SocialRecord.objects.filter(
        pupil__school_class=school_class, finished_at__isnull=False, practice=False
    )
    tz = timezone.get_current_timezone()
    if session_id is not None:
        records = records.filter(class_session_id=session_id)
    else:
        if date_from is not None:
            records = records.filter(
                finished_at__gte=datetime.combine(date_from, time.min, tzinfo=tz)
            )
        if date_to is not None:
            records = records.filter(
                finished_at__lte=datetime.combine(date_to, time.max, tzinfo=tz)
            )
    by_game: dict[str, dict[int, tuple[str, _Tally]]] = {}
    for record in _with_score_sum(records).values(
        *_FIELDS, "sum_correct", "pupil_id", "pupil__display_name"
    ):
        pupils = by_game.setdefault(record["game"], {})
        if record["pupil_id"] not in pupils:
            pupils[record["pupil_id"]] = (record["pupil__display_name"], _Tally())
        pupils[record["pupil_id"]][1].add(record)
    by_pupil: dict[int, dict[str, int]] = {}
    tables = []
    for game, pupils in by_game.items():
        columns = report_columns(game)
        rows = []
        for pupil_id, (name, tally) in sorted(
            pupils.items(), key=lambda item: (item[1][0].casefold(), item[0])
        ):
            by_pupil.setdefault(pupil_id, {})[game] = tally.tables
            rows.append(
                SocialLine(cells=_cells(tally, columns), pupil_id=pupil_id, pupil_name=name)
            )
        tables.append(
            SocialGameTable(game=game, title=game_title(game), columns=_heads(columns), rows=rows)
        )
    tables.sort(key=lambda t: t.title.casefold())
    return ClassSocialTables(
        games=[(t.game, t.title) for t in tables], by_pupil=by_pupil, tables=tables
    )
