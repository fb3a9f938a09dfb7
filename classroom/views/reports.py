"""Teacher reports: the class report, the pupil report and their CSV exports.

Thin views: ``classroom.access`` authorises (one 404 for missing and
forbidden), ``classroom.selectors`` reads with a fixed number of queries,
``classroom.charts`` draws. The class report's columns (page and CSV) are
declared once, in ``classroom.report_columns``; its body is rendered by
``classroom.report_pages``. Sorting is done by plain links (``?sort=…``), so
the table works with no JavaScript and survives a reload.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from datetime import date, timedelta
from datetime import time as datetime_time
from typing import Any

from django.contrib import messages
from django.http import (
    HttpRequest,
    HttpResponse,
    StreamingHttpResponse,
)
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_date
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from cardgames.parsing import whole_number
from cardgames.ui import practice_focus_line
from classroom import access, charts, selectors, services
from classroom.insights import CarryGrid
from classroom.models import (
    LearningRecord,
)
from classroom.report_columns import CLASS_REPORT_COLUMNS
from classroom.report_pages import class_report_body
from classroom.selectors import export
from classroom.services.summaries import class_summaries_store

# The dates a report may be asked for: the app did not exist before 2000, and
# a year ahead is the furthest a teacher plans. Anything else (0001-01-01,
# 9999-12-31) is refused before it reaches the database, where turning it
# into a moment of the day overflowed (a 500).
FIRST_REPORT_DATE = date(2000, 1, 1)
REPORT_DAYS_AHEAD = 366


def _period(request: HttpRequest) -> tuple[date | None, date | None, int | None, str]:
    """The period from the query string, and a message for the teacher when a
    date was refused (unreadable, impossible or absurd): that date is ignored,
    so a hand-edited URL shows the whole history rather than an error page."""
    error = ""
    start, end = None, None
    last = timezone.localdate() + timedelta(days=REPORT_DAYS_AHEAD)
    for name in ("from", "to"):
        raw = request.GET.get(name, "")
        if not raw:
            continue
        day = _date(raw)
        if day is None or not FIRST_REPORT_DATE <= day <= last:
            error = _(
                "Date non valable : choisissez une date entre le %(first)s et le %(last)s."
            ) % {
                "first": date_format(FIRST_REPORT_DATE, "SHORT_DATE_FORMAT"),
                "last": date_format(last, "SHORT_DATE_FORMAT"),
            }
            continue
        if name == "from":
            start = day
        else:
            end = day
    session_id = whole_number(request.GET.get("session", "")) or None
    if start and end and start > end:
        start, end = end, start
    return start, end, session_id, error


def _date(value: str) -> date | None:
    if len(value) > 10:  # YYYY-MM-DD: a longer string is no date (and never parsed)
        return None
    try:
        return parse_date(value)
    except ValueError:  # well formed but impossible, e.g. 2025-02-31
        return None


def _date_refused(message: str) -> HttpResponse:
    """A CSV link with a refused date: a short readable answer, not a file."""
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")


def _class_report(
    request: HttpRequest,
    class_id: int,
    *,
    start: date | None,
    end: date | None,
    session_id: int | None,
) -> selectors.ClassReport:
    school_class = access.access_class(request.user, class_id)
    # The sessions over and not summarised yet are stored first, so each is
    # counted from its records once, not on every report.
    class_summaries_store(school_class=school_class)
    sort = request.GET.get("sort", "name")
    return selectors.class_report_cached(
        school_class=school_class,
        date_from=start,
        date_to=end,
        session_id=session_id,
        sort=sort,
        descending=request.GET.get("dir") == "desc",
    )


def class_report(request: HttpRequest, class_id: int) -> HttpResponse:
    start, end, session_id, error = _period(request)
    report = _class_report(request, class_id, start=start, end=end, session_id=session_id)
    if error:
        messages.warning(request, error)
    return render(
        request,
        "classroom/reports/class_report.html",
        {
            "report": report,
            "school_class": report.school_class,
            "body": mark_safe(class_report_body(report)),
        },
    )


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?\d+(,\d+)?")


def csv_cell(value: Any) -> Any:
    """A cell a spreadsheet shows as text: a string starting like a formula
    (``=``, ``+``, ``-``, ``@``, tab, carriage return — a pupil named
    ``=HYPERLINK(…)``) gets a leading apostrophe (OWASP's CSV injection
    advice), so opening the export never runs it. Plain numbers stay numbers."""
    if (
        isinstance(value, str)
        and value.startswith(_FORMULA_START)
        and not _PLAIN_NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


def _csv_response(filename: str, rows: Iterator[list[Any]]) -> StreamingHttpResponse:
    """UTF-8 with a BOM and ``;`` separators: what French Excel and LibreOffice
    open correctly with a double click (accents, and the decimal comma). Every
    text cell goes through :func:`csv_cell` (no formula injection)."""

    class _Echo:
        def write(self, value: str) -> str:
            return value

    writer = csv.writer(_Echo(), delimiter=";")

    def stream() -> Iterator[str]:
        yield "\ufeff"
        for row in rows:
            yield writer.writerow([csv_cell(cell) for cell in row])

    response = StreamingHttpResponse(stream(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text).strip("-").lower() or "classe"


def class_report_csv(request: HttpRequest, class_id: int) -> HttpResponse | StreamingHttpResponse:
    start, end, session_id, error = _period(request)
    if error:
        access.access_class(request.user, class_id)  # a stranger still gets the 404
        return _date_refused(error)
    report = _class_report(request, class_id, start=start, end=end, session_id=session_id)
    social = report.social  # each social game's own columns, after the Chasse ones

    def rows() -> Iterator[list[Any]]:
        yield [
            *(str(column.csv_label) for column in CLASS_REPORT_COLUMNS),
            *(social.csv_headers() if social else []),
        ]
        for r in report.rows:
            yield [
                *(column.csv_cell(r) for column in CLASS_REPORT_COLUMNS),
                *(social.csv_cells(r.pupil.pk) if social else []),
            ]

    return _csv_response(f"rapport-{_slug(report.school_class.name)}.csv", rows())


RECORD_COLUMNS = (
    ("created_at", gettext_lazy("Date")),
    ("pupil__display_name", gettext_lazy("Élève")),
    ("class_session_id", gettext_lazy("Séance")),
    ("table_id", gettext_lazy("Table")),
    ("round", gettext_lazy("Manche")),
    ("total_before", gettext_lazy("Total avant")),
    ("card_kind", gettext_lazy("Carte")),
    ("card_a", "a"),
    ("card_b", "b"),
    ("card_value", gettext_lazy("Valeur")),
    ("total_after", gettext_lazy("Total après")),
    ("announced", gettext_lazy("Annoncé")),
    ("correct", gettext_lazy("Juste")),
    ("think_ms", gettext_lazy("Réflexion (ms)")),
    ("compute_ms", gettext_lazy("Calcul (ms)")),
    ("multiple_of_ten", gettext_lazy("Dizaine")),
    ("avoidable", gettext_lazy("Évitable")),
    ("crossed_ten", gettext_lazy("Retenue")),
    ("error_kind", gettext_lazy("Erreur")),
    ("timed_out", gettext_lazy("Temps écoulé")),
    ("practice", gettext_lazy("Entraînement")),
)


def records_csv(request: HttpRequest, class_id: int) -> HttpResponse | StreamingHttpResponse:
    """Every learning record of the class (in the chosen period), streamed in
    chunks so 300,000 rows never sit in memory."""
    school_class = access.access_class(request.user, class_id)
    start, end, session_id, error = _period(request)
    if error:
        return _date_refused(error)
    records = LearningRecord.objects.filter(pupil__school_class=school_class)
    if session_id is not None:
        records = records.filter(class_session_id=session_id)
    else:
        if start:
            records = records.filter(created_at__date__gte=start)
        if end:
            records = records.filter(created_at__date__lte=end)
    tz = timezone.get_current_timezone()
    yes, no = _("oui"), _("non")
    kinds = dict(LearningRecord.CardKind.choices)
    errors = dict(LearningRecord.ErrorKind.choices)

    def cell(field: str, value: Any) -> Any:
        if value is None:
            return ""
        if field == "created_at":
            return value.astimezone(tz).strftime("%d/%m/%Y %H:%M:%S")
        if isinstance(value, bool):
            return yes if value else no
        if field == "card_kind":
            return str(kinds.get(value, value))
        if field == "error_kind":
            return str(errors.get(value, value)) if value else ""
        return value

    fields = [f for f, _label in RECORD_COLUMNS]

    def rows() -> Iterator[list[Any]]:
        yield [str(label) for _f, label in RECORD_COLUMNS]
        for values in (
            records.order_by("created_at", "id").values_list(*fields).iterator(chunk_size=2000)
        ):
            yield [cell(f, v) for f, v in zip(fields, values, strict=True)]

    return _csv_response(f"enregistrements-{_slug(school_class.name)}.csv", rows())


def _grid_rows(grid: CarryGrid) -> list[dict[str, Any]]:
    return [{"units": units, "cells": row} for units, row in enumerate(grid.rows)]


def pupil_report(request: HttpRequest, pupil_id: int) -> HttpResponse:
    pupil = access.access_pupil(request.user, pupil_id)
    report = selectors.pupil_report(pupil=pupil)
    return render(
        request,
        "classroom/reports/pupil_report.html",
        {
            "report": report,
            "pupil": pupil,
            "school_class": pupil.school_class,
            # pygal is slow for three charts (docs/performance.md): drawn once
            # per records version.
            # Every session the header counts (a chart of the last 30 made
            # "31 séances" above 30 points). pygal, and the charts' data tables
            # of a long history, are drawn once per records version.
            "charts": selectors.pupil_cached(
                pupil=pupil,
                version=report.version,
                name="pupil-charts-html",
                build=lambda: [
                    mark_safe(
                        render_to_string("classroom/reports/_chart.html", {"chart": chart})
                    )
                    for chart in charts.pupil_charts(series=report.figures.series)
                ],
            ),
            "carry_add": _grid_rows(report.figures.carry_add),
            "carry_sub": _grid_rows(report.figures.carry_sub),
            # Picktura's end-of-game additions: their own section, apart from the Chasse figures.
            "score_sums": selectors.pupil_score_sums(pupil=pupil),
            "now": timezone.now(),
            "focus_line": practice_focus_line(report.figures.focus.entry(seat=0))
            if report.figures.focus
            else "",
            "outcomes": selectors.assignment_outcomes(pupil=pupil),
        },
    )


def pupil_export(request: HttpRequest, pupil_id: int) -> HttpResponse:
    """Everything stored about one child, as a JSON file the teacher can give
    to the child's parents (right of access). Teacher-only: the same 404 as any
    other pupil page for anyone else."""
    pupil = access.access_pupil(request.user, pupil_id)
    document = export.pupil_export(pupil=pupil)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=2, default=str),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="donnees-{_slug(pupil.display_name)}.json"'
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def pupil_assign_practice(request: HttpRequest, pupil_id: int) -> HttpResponse:
    """The teacher gives the pupil a targeted practice on what the pupil page
    found; it comes first on the pupil's practice screen until it is done."""
    pupil = access.access_pupil(request.user, pupil_id)
    focus = selectors.pupil_focus_of(pupil=pupil)
    if not focus:
        messages.info(request, _("Rien à cibler pour l'instant : pas assez de données."))
        return redirect(reverse("classroom:pupil_report", args=[pupil.pk]) + "#focus")
    # Issue 47: with solo practice closed (a new class's default) the child
    # cannot reach the practice screen, so "il l'attend" was a false promise.
    # The teacher may open it in the same step (hours optional); otherwise the
    # practice is kept and said to be kept for the next lesson's targeted table.
    school_class = pupil.school_class
    if not school_class.practice_allowed and request.POST.get("open_practice"):
        hours: list[datetime_time | None] = []
        for key in ("practice_from", "practice_until"):
            raw = request.POST.get(key, "").strip()
            try:
                hours.append(datetime_time.fromisoformat(raw) if raw else None)
            except ValueError:
                messages.error(request, _("Heure non comprise : écrivez-la comme 16:30."))
                return redirect(reverse("classroom:pupil_report", args=[pupil.pk]) + "#focus")
        services.class_update(
            school_class=school_class,
            name=school_class.name,
            level=school_class.level,
            practice_allowed=True,
            practice_from=hours[0],
            practice_until=hours[1],
        )
    services.assignment_create(pupil=pupil, focus=focus)
    if not school_class.practice_allowed:
        messages.warning(
            request,
            _(
                "Entraînement ciblé gardé pour %(name)s, mais l'entraînement libre est fermé "
                "pour cette classe : il ne peut pas l'ouvrir. Ses cartes ciblées lui seront "
                "distribuées à la prochaine leçon avec « cartes ciblées pour chaque table », "
                "ou ouvrez l'entraînement libre."
            )
            % {"name": pupil.display_name},
        )
    elif school_class.practice_from or school_class.practice_until:
        messages.success(
            request,
            _(
                "Entraînement ciblé donné à %(name)s : il le trouvera sur son écran "
                "d'entraînement, aux heures d'entraînement de la classe (%(hours)s)."
            )
            % {"name": pupil.display_name, "hours": _practice_hours(school_class)},
        )
    else:
        messages.success(
            request,
            _("Entraînement ciblé donné à %(name)s : il l'attend sur son écran d'entraînement.")
            % {"name": pupil.display_name},
        )
    return redirect(reverse("classroom:pupil_report", args=[pupil.pk]) + "#focus")


def _practice_hours(school_class: Any) -> str:
    """The class's practice hours, as the teacher set them: the child can
    reach the practice screen only then."""
    start, end = school_class.practice_from, school_class.practice_until
    if start and end:
        return _("de %(start)s à %(end)s") % {"start": f"{start:%H:%M}", "end": f"{end:%H:%M}"}
    if start:
        return _("à partir de %(time)s") % {"time": f"{start:%H:%M}"}
    return _("jusqu'à %(time)s") % {"time": f"{end:%H:%M}"}
