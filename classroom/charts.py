"""Server-side SVG charts for the reports, drawn with pygal.

Why pygal: it is a maintained pure-Python package that renders SVG on the
server, so the charts work with no internet access and no JavaScript. Its
default output still points at a tooltip script on a CDN and carries an inline
config script; both are removed here (``js=()`` and :func:`_accessible`), so
the markup is inert SVG that can be inlined in a page.

Accessibility (a teacher may read the report on a projector, a parent on a
phone, either with a screen reader):

* every SVG has ``role="img"``, a ``<title>`` and a ``<desc>`` that says what
  the chart shows in words, referenced by ``aria-labelledby``;
* every chart comes with a companion table (:attr:`Chart.columns` /
  :attr:`Chart.rows`) that the page shows as its text alternative;
* colour is never the only signal: each series has its own line style (solid,
  dashed, dotted), its own marker shape (circle, square, triangle) or a hatch
  pattern, and a legend label; thresholds are dashed and named.

Sizes are in a viewBox only (no width/height), so the SVG scales to its
container, and the fonts are large enough to stay readable on a phone.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import pygal
from django.utils.dateformat import format as date_format
from django.utils.formats import date_format as localized_date
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from pygal.style import Style

from .insights import PupilSummary, SessionPoint
from .names import name_sort_key
from .numbers import number_text as _fmt

# Okabe-Ito: distinguishable with the common colour-vision deficiencies.
PALETTE: tuple[str, ...] = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
MARKERS: tuple[str, ...] = ("circle", "square", "triangle", "diamond")
DASHES: tuple[str | None, ...] = (None, "12, 6", "3, 5", "12, 4, 3, 4")
DASH_NAMES: tuple[str, ...] = ("solid", "dashed", "dotted", "dash-dot")


@dataclass(frozen=True, slots=True)
class Chart:
    """An SVG chart and its text alternative.

    ``svg`` is safe to inline (no script, no external reference). ``columns``
    and ``rows`` are the same data as a table; the page renders them in a
    ``<table>`` (visible or in a ``<details>``), never only the picture."""

    title: str
    description: str
    svg: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def _style(font_size: int, first_colour: int = -1) -> Style:
    """Large fonts (they are scaled down with the SVG on a phone); ``first_colour``
    rotates the palette for a one-measure chart, -1 keeps it as it is."""
    first_colour = max(first_colour, -1)
    start = max(first_colour, 0)
    colours = PALETTE[start:] + PALETTE[:start]
    if first_colour >= 0:
        # Series 1 of a pupil chart is the threshold line: always dark grey.
        colours = (colours[0], "#4b5563", *colours[1:])
    return Style(
        background="transparent",
        plot_background="#ffffff",
        foreground="#1f2937",
        foreground_strong="#111827",
        foreground_subtle="#9ca3af",
        opacity="1",
        opacity_hover="1",
        colors=colours,
        font_family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
        label_font_size=font_size,
        major_label_font_size=font_size,
        value_font_size=font_size - 2,
        value_label_font_size=font_size - 2,
        legend_font_size=font_size,
        title_font_size=font_size + 4,
        tooltip_font_size=font_size,
        no_data_font_size=font_size + 4,
        guide_stroke_color="#d1d5db",
        major_guide_stroke_color="#9ca3af",
        guide_stroke_dasharray="1, 0",
        major_guide_stroke_dasharray="1, 0",
    )


def _config(**kwargs: Any) -> dict[str, Any]:
    """What every chart shares: no script, no XML declaration, responsive."""
    base: dict[str, Any] = {
        "js": (),
        "disable_xml_declaration": True,
        "explicit_size": False,
        "width": 720,
        "height": 420,
        "legend_at_bottom": True,
        "legend_at_bottom_columns": 2,
        "legend_box_size": 18,
        "truncate_label": -1,
        "truncate_legend": -1,
        "show_minor_x_labels": False,
        "x_labels_major_count": 6,
        "dots_size": 5,
        "stroke_style": {"width": 3},
        "margin": 12,
        "spacing": 14,
        "print_values": False,
        "no_data_text": _("Pas encore de données"),
        "style": _style(20),
    }
    base.update(kwargs)
    return base


def _short_day(day: date) -> str:
    """A session's day on a chart's axis, in the reader's order (no year)."""
    # Translators: a Django date format for a day and its month, without the year
    # ("d/m" gives 03/12); German "d.m.", English "m/d".
    return date_format(day, pgettext("chart axis", "d/m"))


def _marker_path(shape: str, cx: float, cy: float, r: float) -> str:
    if shape == "square":
        return f"M{cx - r:.1f},{cy - r:.1f}h{2 * r:.1f}v{2 * r:.1f}h{-2 * r:.1f}z"
    if shape == "triangle":
        h = r * 1.2
        return f"M{cx:.1f},{cy - h:.1f}L{cx + h:.1f},{cy + h * 0.8:.1f}L{cx - h:.1f},{cy + h * 0.8:.1f}z"
    if shape == "diamond":
        h = r * 1.3
        return f"M{cx:.1f},{cy - h:.1f}L{cx + h:.1f},{cy:.1f}L{cx:.1f},{cy + h:.1f}L{cx - h:.1f},{cy:.1f}z"
    return ""


def _accessible(
    title: str,
    description: str,
    markers: dict[int, str],
    hatches: dict[int, str],
    lines: dict[int, str],
) -> Callable[[Any], Any]:
    """A pygal ``xml_filter``: strips scripts, adds role/title/desc/aria, turns
    the dots of series i into ``markers[i]`` shapes, fills the bars of series i
    with the hatch pattern ``hatches[i]`` (an element id) and gives its line the
    inline style ``lines[i]`` (pygal's own ``.reactive`` rule would otherwise
    force every line to 1 px, hiding the dash patterns)."""

    def apply(root: Any) -> Any:
        def tag(el: Any) -> str:
            t = el.tag if isinstance(el.tag, str) else ""
            return t.rsplit("}", 1)[-1]

        chart_id = root.get("id") or f"chart-{uuid.uuid4().hex[:8]}"
        root.set("role", "img")
        title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
        root.set("aria-labelledby", f"{title_id} {desc_id}")
        root.set("preserveAspectRatio", "xMidYMid meet")
        parents = [(parent, child) for parent in root.iter() for child in list(parent)]
        for parent, child in parents:
            name = tag(child)
            if name == "script":
                parent.remove(child)
            elif name == "title" and parent is root:
                child.text = title
                child.set("id", title_id)
                desc = root.makeelement(child.tag.replace("title", "desc"), {"id": desc_id})
                desc.text = description
                root.insert(list(root).index(child) + 1, desc)
        for group in root.iter():
            classes = (group.get("class") or "").split()
            if "series" not in classes:
                continue
            index = next((int(c[6:]) for c in classes if c.startswith("serie-")), None)
            if index is None:
                continue
            if index in lines:
                for el in group.iter():
                    if tag(el) == "path" and "line" in (el.get("class") or "").split():
                        el.set("style", lines[index])
            if index in hatches:
                for el in group.iter():
                    if tag(el) == "rect" and "rect" in (el.get("class") or "").split():
                        el.set("style", f"fill:url(#{hatches[index]})")
            shape = markers.get(index)
            if not shape or shape == "circle":
                continue
            for dots in list(group.iter()):
                for dot in list(dots):
                    if tag(dot) != "circle" or "dot" not in (dot.get("class") or "").split():
                        continue
                    cx, cy, r = (float(dot.get(k) or 0) for k in ("cx", "cy", "r"))
                    dot.tag = dot.tag.replace("circle", "path")
                    for k in ("cx", "cy", "r"):
                        del dot.attrib[k]
                    dot.set("d", _marker_path(shape, cx, cy, r))
                    dot.set("data-marker", shape)
        _styles_to_rules(root, chart_id, tag)
        return root

    return apply


def _styles_to_rules(root: Any, chart_id: str, tag: Callable[[Any], str]) -> None:
    """Move every ``style="…"`` attribute into one ``<style>`` rule per distinct
    value (``!important``, as an inline style would win): the page's strict
    Content-Security-Policy refuses style attributes, while the chart's
    ``<style>`` elements get the response's nonce when the page is rendered
    (the ``nonced`` filter of ``classroom/templatetags/security.py``)."""
    classes: dict[str, str] = {}
    for el in root.iter():
        style = el.attrib.pop("style", None)
        if style is None:
            continue
        name = classes.setdefault(style, f"st{len(classes)}")
        el.set("class", " ".join(filter(None, [el.get("class"), name])))
    if not classes:
        return
    rules = []
    for style, name in classes.items():
        declarations = ";".join(f"{d.strip()} !important" for d in style.split(";") if d.strip())
        rules.append(f"#{chart_id} .{name}{{{declarations}}}")
    style_tag = next(
        (el.tag for el in root.iter() if tag(el) == "style"), "{http://www.w3.org/2000/svg}style"
    )
    sheet = root.makeelement(style_tag, {"type": "text/css"})
    sheet.text = "\n".join(rules)
    defs = next((el for el in root if tag(el) == "defs"), None)
    (defs if defs is not None else root).append(sheet)


def _render(
    chart: Any,
    title: str,
    description: str,
    markers: dict[int, str] | None = None,
    hatches: dict[int, str] | None = None,
    lines: dict[int, str] | None = None,
) -> str:
    chart.add_xml_filter(_accessible(title, description, markers or {}, hatches or {}, lines or {}))
    return str(chart.render())


THRESHOLD_LINE = "stroke-width:3;stroke-dasharray:14,8;stroke-opacity:1"


def _line_style(index: int) -> str:
    dash = DASHES[index % len(DASHES)]
    return "stroke-width:4;stroke-opacity:1" + (f";stroke-dasharray:{dash}" if dash else "")


def _labels(series: Sequence[SessionPoint], most: int = 6) -> list[str]:
    """The sessions' dates, only ``most`` of them shown (the first, the last
    and evenly between), the others blank. Blank rather than pygal's "major
    labels": pygal picks those by their text, so two sessions on the same day
    both showed and their labels overlapped."""
    n = len(series)
    shown = {round(i * (n - 1) / (most - 1)) for i in range(most)} if n > most else set(range(n))
    return [_short_day(p.date) if i in shown else "" for i, p in enumerate(series)]


def _session_line_chart(
    *,
    series: Sequence[SessionPoint],
    title: str,
    value_title: str,
    values: list[float | None],
    unit: str,
    threshold: float | None,
    threshold_label: str,
    marker: str,
    series_index: int,
    description: str,
    y_range: tuple[float, float] | None = None,
    y_labels: Sequence[float] | None = None,
    x_labels_most: int = 6,
) -> Chart:
    chart = pygal.Line(
        **_config(
            title=title,
            allow_interruptions=True,
            range=y_range,
            show_minor_x_labels=True,
            x_labels_major_count=None,
            y_title=unit.strip() or None,
            value_formatter=lambda v: _fmt(v, unit),
            style=_style(18, first_colour=series_index),
            width=480,
            height=380,
            legend_at_bottom_columns=1,
        )
    )
    chart.x_labels = _labels(series, x_labels_most)
    if y_labels is not None:
        chart.y_labels = list(y_labels)
    # The data series is pygal's series 0; ``series_index`` picks its colour and
    # dash so each measure keeps one look across the pupil's charts.
    chart.add(value_title, values, dots_size=7)
    lines = {0: _line_style(series_index)}
    # One session draws no line, so its legend would name a line nobody sees.
    if threshold is not None and len(series) > 1:
        chart.add(threshold_label, [threshold] * len(series), show_dots=False)
        lines[1] = THRESHOLD_LINE
    svg = _render(chart, title, description, markers={0: marker}, lines=lines)
    rows = tuple(
        (
            localized_date(p.date, "SHORT_DATE_FORMAT"),
            _fmt(v, unit),
            str(p.announcements),
            str(p.plays),
        )
        for p, v in zip(series, values, strict=True)
    )
    return Chart(
        title=title,
        description=description,
        svg=svg,
        columns=(_("Séance"), value_title, _("Calculs annoncés"), _("Cartes jouées")),
        rows=rows,
    )


# Sessions averaged at each end of a long series: one session is noisy (a
# child at 97 % overall read "from 100 % to 92.3 %", as if slipping).
TREND_SESSIONS = 5

# Below this share of right carrying additions a pupil is named as struggling
# (the same 70 % line as the accuracy alert).
WEAK_CROSSING = 70.0


def _trend_words(values: list[float | None], unit: str) -> str:
    """The summary under a chart: the first sessions against the last ones,
    each an average of up to ``TREND_SESSIONS`` sessions once there are four."""
    known = [v for v in values if v is not None]
    if not known:
        return _("Pas encore de données.")
    if len(known) == 1:
        # "De 60 % à la première séance à 60 % à la dernière (1 séances)" said
        # nothing true about a single session.
        return _("Une seule séance pour l'instant : %(value)s.") % {"value": _fmt(known[0], unit)}
    ends = min(TREND_SESSIONS, len(known) // 2)
    if ends < 2:
        return _(
            "De %(first)s à la première séance à %(last)s à la dernière (%(count)d séances)."
        ) % {"first": _fmt(known[0], unit), "last": _fmt(known[-1], unit), "count": len(values)}
    return _(
        "En moyenne %(first)s sur les %(ends)d premières séances, %(last)s sur les %(ends)d "
        "dernières (%(count)d séances)."
    ) % {
        "first": _fmt(sum(known[:ends]) / ends, unit),
        "last": _fmt(sum(known[-ends:]) / ends, unit),
        "ends": ends,
        "count": len(values),
    }


def accuracy_chart(
    *, series: Sequence[SessionPoint], phone: bool = False, parents: bool = False
) -> Chart:
    """Accuracy per session, with the 70 % "à surveiller" line. Every session
    given is drawn (the parent page gives them all, so the chart and the
    summary above it count the same sessions); ``phone`` keeps 4 date labels
    so they never overlap on a 390 px screen."""
    values = [p.accuracy for p in series]
    title = _("Bonnes réponses par séance")
    return _session_line_chart(
        series=series,
        title=title,
        value_title=_("Bonnes réponses (%)"),
        values=values,
        unit=" %",
        threshold=70.0,
        # A parent reads "alert" as "something is wrong with my child": the
        # same line is a landmark on their page.
        threshold_label=_("Repère : 70 %") if parents else _("Seuil d'alerte : 70 %"),
        marker="circle",
        series_index=0,
        description=_("Ligne pleine avec des ronds : pourcentage de bonnes réponses. ")
        + _trend_words(values, " %"),
        y_range=(0, 100),
        y_labels=(0, 25, 50, 75, 100),
        x_labels_most=4 if phone else 6,
    )


def compute_time_chart(*, series: Sequence[SessionPoint]) -> Chart:
    """Median calculation time of correct answers per session (seconds), with
    the 6 s line."""
    values = [
        None if p.median_compute_ms is None else round(p.median_compute_ms / 1000, 1)
        for p in series
    ]
    title = _("Temps de calcul par séance")
    return _session_line_chart(
        series=series,
        title=title,
        value_title=_("Temps médian (s)"),
        values=values,
        unit=" s",
        threshold=6.0,
        threshold_label=_("Seuil d'alerte : 6 s"),
        marker="square",
        series_index=1,
        description=_("Ligne tiretée avec des carrés : temps médian des bonnes réponses. ")
        + _trend_words(values, " s"),
    )


def mult10_chart(*, series: Sequence[SessionPoint]) -> Chart:
    """Avoidable landings on a multiple of ten per 100 plays, per session."""
    values = [p.mult10_rate for p in series]
    title = _("Dizaines évitables par séance")
    return _session_line_chart(
        series=series,
        title=title,
        value_title=_("Dizaines évitables pour 100 coups"),
        values=values,
        unit="",
        threshold=None,
        threshold_label="",
        marker="triangle",
        series_index=2,
        description=_(
            "Ligne pointillée avec des triangles : nombre de fois, pour 100 coups, où "
            "l'élève est tombé sur une dizaine alors qu'une autre carte l'évitait. "
        )
        + _trend_words(values, ""),
    )


def pupil_charts(*, series: Sequence[SessionPoint]) -> list[Chart]:
    """The three progress charts of the pupil report, in page order."""
    return [
        accuracy_chart(series=series),
        compute_time_chart(series=series),
        mult10_chart(series=series),
    ]


@dataclass(frozen=True, slots=True)
class ClassRow:
    """One pupil of the class chart: a display name and the summary."""

    name: str
    summary: PupilSummary


def _hatch_def(pattern_id: str, colour: str) -> str:
    return (
        f'<pattern id="{pattern_id}" width="10" height="10" '
        f'patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        f'<rect width="10" height="10" fill="#ffffff"/>'
        f'<rect width="5" height="10" fill="{colour}"/></pattern>'
    )


def class_accuracy_chart(*, rows: Sequence[ClassRow]) -> Chart:
    """Per pupil: accuracy without crossing a ten, and on the additions that
    cross one (carries; the sommes' borrows are another skill and are left
    out), as horizontal bars (names stay readable). The carry bars are
    hatched, the others solid, and each bar prints its value, so colour is not
    needed to read it."""
    title = _("Réussite sans et avec retenue")
    # A → Z from the top, whatever the table's sort: pygal draws the first
    # bar at the bottom, so it is given Z → A.
    rows = sorted(rows, key=lambda r: name_sort_key(r.name))
    drawn = rows[::-1]
    hatch_id = f"hatch-{uuid.uuid4().hex[:8]}"
    height = max(320, 110 + 58 * len(rows))
    chart = pygal.HorizontalBar(
        **_config(
            title=title,
            height=height,
            range=(0, 100),
            print_values=True,
            print_values_position="top",
            value_formatter=lambda v: _fmt(v, " %"),
            show_minor_x_labels=True,
            defs=[_hatch_def(hatch_id, PALETTE[1])],
            spacing=10,
            width=900,
            legend_at_bottom_columns=1,
            y_labels=[0, 25, 50, 75, 100],
        )
    )
    chart.x_labels = [row.name for row in drawn]
    chart.add(_("Sans retenue (plein)"), [row.summary.accuracy_non_crossing for row in drawn])
    chart.add(
        _("Retenue en ajoutant (hachuré)"), [row.summary.accuracy_add_crossing for row in drawn]
    )
    # Only pupils who really struggle with carrying are named: the three lowest
    # of a class that does well were "Anne-Charlotte (100 %), Léo (100 %)…".
    weakest = sorted(
        (
            r
            for r in rows
            if r.summary.accuracy_add_crossing is not None
            and r.summary.accuracy_add_crossing < WEAK_CROSSING
        ),
        key=lambda r: r.summary.accuracy_add_crossing or 0.0,
    )[:3]
    description = _(
        "Deux barres par élève : pleine pour les calculs sans retenue, hachurée pour les "
        "additions avec retenue ; la valeur est écrite au bout de chaque barre."
    )
    if weakest:
        description += " " + _("Plus faibles avec retenue : %(names)s.") % {
            "names": ", ".join(
                f"{r.name} ({_fmt(r.summary.accuracy_add_crossing, ' %')})" for r in weakest
            )
        }
    svg = _render(chart, title, description, hatches={1: hatch_id})
    table_rows = tuple(
        (
            row.name,
            _fmt(row.summary.accuracy, " %"),
            _fmt(row.summary.accuracy_non_crossing, " %"),
            _fmt(row.summary.accuracy_add_crossing, " %"),
            str(row.summary.announcements),
        )
        for row in rows
    )
    return Chart(
        title=title,
        description=description,
        svg=svg,
        columns=(
            _("Élève"),
            _("Bonnes réponses"),
            _("Sans retenue"),
            _("Retenue en ajoutant"),
            _("Annonces"),
        ),
        rows=table_rows,
    )
