"""The class report's page body, rendered once per cached report.

Below the views and the services on purpose: the report's view shows it, and
``services.reports`` draws the default view into the cache when a session
ends, so neither reaches into the other. The headers and cells come from the
columns' declarations (``classroom.report_columns``)."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.http import urlencode

from classroom import selectors
from classroom.forms import ReportFilterForm
from classroom.report_columns import CLASS_REPORT_COLUMNS
from classroom.selectors.records import REPORT_CACHE_SECONDS


class Cell(NamedTuple):
    """One cell of a pupil's row: its column's key (the template draws "name",
    "trend" and "watch" itself) and, for the others, its text."""

    key: str
    text: str


def report_query(report: selectors.ClassReport, **extra: Any) -> str:
    """The query string of the report's period, plus ``extra`` (sort, dir)."""
    params: dict[str, Any] = {}
    if report.session is not None:
        params["session"] = report.session.pk
    else:
        if report.date_from:
            params["from"] = report.date_from.isoformat()
        if report.date_to:
            params["to"] = report.date_to.isoformat()
    params.update({k: v for k, v in extra.items() if v is not None})
    return urlencode(params)


def _headers(report: selectors.ClassReport) -> list[dict[str, Any]]:
    headers = []
    for column in CLASS_REPORT_COLUMNS:
        active = report.sort == column.key
        desc = (not report.descending) if active else column.first_desc
        headers.append(
            {
                "key": column.key,
                "label": column.label,
                "active": active,
                "aria_sort": ("descending" if report.descending else "ascending")
                if active
                else "none",
                "url": "?" + report_query(report, sort=column.key, dir="desc" if desc else "asc"),
            }
        )
    return headers


def _lines(report: selectors.ClassReport) -> list[dict[str, Any]]:
    return [
        {
            "row": row,
            "cells": [
                Cell(c.key, "" if c.fmt.page is None else c.page_text(row))
                for c in CLASS_REPORT_COLUMNS
            ],
        }
        for row in report.rows
    ]


def class_report_body(report: selectors.ClassReport) -> str:
    """The report's page minus the page around it (menu, messages, CSRF): it
    depends on the report only, so it is rendered once per cached report, and
    the end of a session renders the default view in the background."""

    def build() -> str:
        form = ReportFilterForm(
            initial={
                "date_from": report.date_from,
                "date_to": report.date_to,
                "session": report.session.pk if report.session else None,
            },
            sessions=report.sessions,
        )
        return render_to_string(
            "classroom/reports/_class_report_body.html",
            {
                "report": report,
                "school_class": report.school_class,
                "headers": _headers(report),
                "lines": _lines(report),
                "chart": selectors.class_report_chart(report=report),
                "form": form,
                "watched": [r for r in report.rows if r.flags],
                "query": report_query(
                    report, sort=report.sort, dir="desc" if report.descending else None
                ),
            },
        )

    if not report.cache_key:
        return build()
    key = f"{report.cache_key}:body"
    body = cache.get(key)
    if body is None:
        body = build()
        cache.set(key, body, REPORT_CACHE_SECONDS)
    return str(body)
