"""The class report's columns, each declared once.

A :class:`Column` says everything about one column of the class report: its
sort key (``?sort=…``), its header on the page and in the CSV, the value it
sorts by, how its cells are written on the page and in the CSV, and which way
a first click sorts. The selector's sort keys, the page's headers and cells
and the CSV's header and rows are all made from :data:`CLASS_REPORT_COLUMNS`,
so a new column is one entry here plus its figure (a field of
``insights.PupilSummary``, counted in ``insights.summary``).

Pure: no database and no template. The figures are read from a report row
(``selectors.reports.ClassReportRow``) when the page or the CSV is written."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from django.template.defaultfilters import floatformat
from django.utils.formats import localize
from django.utils.translation import gettext_lazy

from classroom.names import name_sort_key
from classroom.numbers import number_text, percent_text

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise

    from classroom.selectors.reports import ClassReportRow

# What the page shows for a figure that is not known (no announcement yet…).
UNKNOWN = "—"


def csv_number(value: float | None, digits: int = 1) -> str | int:
    """A French spreadsheet number: decimal comma, empty when unknown."""
    if value is None:
        return ""
    if isinstance(value, int):
        return str(value)
    return f"{value:.{digits}f}".replace(".", ",")


def _seconds(ms: int | None) -> float | None:
    return None if ms is None else ms / 1000


class Format(NamedTuple):
    """How a column's figure is written: on the page (the reader's way, ``None``
    when the template draws the cell itself, see ``_class_report_body.html``)
    and in the CSV (what a spreadsheet reads)."""

    page: Callable[[Any], str] | None
    csv: Callable[[Any], Any]


COUNT = Format(page=localize, csv=lambda n: n)
PERCENT = Format(page=lambda v: percent_text(v, 1), csv=csv_number)
# Avoidable tens per 100 plays: one digit on the page, two in the CSV.
RATE = Format(
    page=lambda v: UNKNOWN if v is None else str(floatformat(v, 1)),
    csv=lambda v: csv_number(v, 2),
)
# The median time, in seconds from milliseconds.
MEDIAN_SECONDS = Format(
    page=lambda ms: UNKNOWN if ms is None else f"{floatformat(ms / 1000, 1)} s",
    csv=lambda ms: csv_number(_seconds(ms)),
)
# A time in seconds from milliseconds, the unit glued on (``numbers.number_text``).
SECONDS = Format(
    page=lambda ms: number_text(_seconds(ms), " s", 1),
    csv=lambda ms: csv_number(_seconds(ms)),
)
# Cells the template draws itself (a link, an arrow, the flags): the CSV
# writes the text given by ``Column.shown``.
DRAWN = Format(page=None, csv=lambda v: v)
POINTS = Format(page=None, csv=csv_number)


class Column(NamedTuple):
    """One column of the class report."""

    key: str  # the sort key in the URL; the template draws "name", "trend", "watch"
    label: _StrOrPromise  # the page's header
    csv_label: _StrOrPromise  # the CSV's header (with its unit)
    value: Callable[[ClassReportRow], Any]  # what it sorts by (``None``: always last)
    fmt: Format = COUNT
    # A first click sorts high to low: where that is what a teacher looks for
    # (slowest, most tens, most flags); names and accuracies go up first.
    first_desc: bool = False
    # What the cell writes, when not the sort value (a name, the flags' text).
    shown: Callable[[ClassReportRow], Any] | None = None

    def page_text(self, row: ClassReportRow) -> str:
        """The page's cell; only for columns the template does not draw."""
        assert self.fmt.page is not None, self.key
        return self.fmt.page(self._shown(row))

    def csv_cell(self, row: ClassReportRow) -> Any:
        return self.fmt.csv(self._shown(row))

    def _shown(self, row: ClassReportRow) -> Any:
        return (self.shown or self.value)(row)


CLASS_REPORT_COLUMNS: tuple[Column, ...] = (
    Column(
        "name",
        gettext_lazy("Élève"),
        gettext_lazy("Élève"),
        lambda r: name_sort_key(r.pupil.display_name),
        DRAWN,
        shown=lambda r: r.pupil.display_name,
    ),
    Column(
        "announcements",
        gettext_lazy("Annonces"),
        gettext_lazy("Annonces"),
        lambda r: r.summary.announcements,
    ),
    Column(
        "accuracy",
        gettext_lazy("Réussite"),
        gettext_lazy("Réussite (%)"),
        lambda r: r.summary.accuracy,
        PERCENT,
    ),
    Column(
        "non_crossing",
        gettext_lazy("Sans retenue"),
        gettext_lazy("Réussite sans retenue (%)"),
        lambda r: r.summary.accuracy_non_crossing,
        PERCENT,
    ),
    Column(
        "crossing",
        gettext_lazy("Retenue en ajoutant"),
        gettext_lazy("Réussite avec retenue, en ajoutant (%)"),
        lambda r: r.summary.accuracy_add_crossing,
        PERCENT,
    ),
    Column(
        "borrow",
        gettext_lazy("Emprunt en soustrayant"),
        gettext_lazy("Réussite avec emprunt, en soustrayant (%)"),
        lambda r: r.summary.accuracy_sub_crossing,
        PERCENT,
    ),
    Column(
        "mult10",
        gettext_lazy("Dizaines évitables"),
        gettext_lazy("Dizaines évitables"),
        lambda r: r.summary.avoidable_mult10,
        first_desc=True,
    ),
    Column(
        "mult10_rate",
        gettext_lazy("Dizaines / 100 coups"),
        gettext_lazy("Dizaines évitables pour 100 coups"),
        lambda r: r.summary.mult10_rate,
        RATE,
        first_desc=True,
    ),
    Column(
        "median",
        gettext_lazy("Temps médian"),
        gettext_lazy("Temps médian des bonnes réponses (s)"),
        lambda r: r.summary.median_compute_ms,
        MEDIAN_SECONDS,
        first_desc=True,
    ),
    Column(
        "think",
        gettext_lazy("Temps de réflexion moyen"),
        gettext_lazy("Temps de réflexion moyen par annonce (s)"),
        lambda r: r.summary.mean_think_ms,
        SECONDS,
        first_desc=True,
    ),
    Column(
        "timeouts",
        gettext_lazy("Temps écoulés"),
        gettext_lazy("Temps écoulés"),
        lambda r: r.summary.timeouts,
        first_desc=True,
    ),
    Column(
        "trend",
        gettext_lazy("Tendance"),
        gettext_lazy("Évolution de la réussite (points)"),
        lambda r: r.trend.accuracy_delta,
        POINTS,
    ),
    Column(
        "watch",
        gettext_lazy("À surveiller"),
        gettext_lazy("À surveiller"),
        lambda r: len(r.flags),
        DRAWN,
        first_desc=True,
        shown=lambda r: " ".join(f.message for f in r.flags),
    ),
)

SORT_KEYS: dict[str, Callable[[ClassReportRow], Any]] = {
    column.key: column.value for column in CLASS_REPORT_COLUMNS
}
