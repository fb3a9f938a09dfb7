"""The class report's columns, declared once (``classroom.report_columns``):
the page's headers and cells, the CSV and the sort keys all follow the
declaration. The mean think time is the example of a column added that way."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from classroom.models import LearningRecord
from classroom.report_columns import CLASS_REPORT_COLUMNS, SORT_KEYS
from tests.classroom.reportdata import ended_session, record
from tests.factories import PupilFactory, SchoolClassFactory

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"
# The new column's headers, page and CSV, in the reader's language.
THINK_LABEL = {
    "fr": "Temps de réflexion moyen",
    "de": "Überlegzeit (Mittel)",
    "en": "Mean thinking time",
}
THINK_CSV_LABEL = {
    "fr": "Temps de réflexion moyen par annonce (s)",
    "de": "Mittlere Überlegzeit pro Ansage (s)",
    "en": "Mean thinking time per announcement (s)",
}
MEDIAN_CSV_LABEL = {
    "fr": "Temps médian des bonnes réponses (s)",
    "de": "Zeit bei richtigen Antworten, Median (s)",
    "en": "Median time of correct answers (s)",
}


def _class() -> Any:
    """Léa thinks 1.5 s on average (1 s and 2 s), Tom 4.25 s (wrong answers
    count), Zoé never announced (a timeout only), Max did not play."""
    school_class = SchoolClassFactory()
    lea = PupilFactory(school_class=school_class, display_name="Léa")
    tom = PupilFactory(school_class=school_class, display_name="Tom")
    zoe = PupilFactory(school_class=school_class, display_name="Zoé")
    PupilFactory(school_class=school_class, display_name="Max")
    session = ended_session(school_class, 0)
    LearningRecord.objects.bulk_create(
        [
            record(lea, session, 1, think_ms=1000),
            record(lea, session, 2, think_ms=2000),
            record(tom, session, 3, think_ms=4000),
            record(tom, session, 4, think_ms=4500, announced=24, correct=False),
            record(zoe, session, 5, think_ms=30000, announced=None, correct=None, timed_out=True),
        ]
    )
    return school_class


def _client(school_class: Any, language: str = "fr") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(school_class.teacher)
    return client


def _table(html: str) -> tuple[list[str], dict[str, list[str]]]:
    """The class table's headers and each pupil's cells, as text."""
    table = html[html.index('class="rp-table rp-class-table"') :]
    table = table[: table.index("</table>")]
    head, body = table.split("<tbody>", 1)

    def text(cell: str) -> str:
        # ASCII spaces only: the no-break space inside a cell is kept.
        plain = re.sub(r"<[^>]+>", " ", cell).replace("▲", "").replace("▼", "")
        return re.sub(r"[ \t\r\n]+", " ", plain).strip(" \t\r\n")

    headers = [text(th) for th in re.findall(r"<th scope=\"col\".*?</th>", head, re.S)]
    rows = {}
    for tr in re.findall(r"<tr.*?</tr>", body, re.S):
        cells = [text(c) for c in re.findall(r"<t[hd][ >].*?</t[hd]>", tr, re.S)]
        rows[cells[0]] = cells
    return headers, rows


def _csv(response: Any) -> list[list[str]]:
    raw = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(raw), delimiter=";"))


def test_every_column_is_a_header_a_cell_a_csv_column_and_a_sort_key() -> None:
    school_class = _class()
    client = _client(school_class)
    headers, rows = _table(
        client.get(reverse("classroom:class_report", args=[school_class.pk])).content.decode()
    )
    assert headers == [str(c.label) for c in CLASS_REPORT_COLUMNS]
    assert all(len(cells) == len(CLASS_REPORT_COLUMNS) for cells in rows.values())
    table = _csv(client.get(reverse("classroom:class_report_csv", args=[school_class.pk])))
    assert table[0] == [str(c.csv_label) for c in CLASS_REPORT_COLUMNS]
    assert list(SORT_KEYS) == [c.key for c in CLASS_REPORT_COLUMNS]


@pytest.mark.parametrize(
    ("language", "lea", "tom"),
    [("fr", f"1,5{NBSP}s", f"4,2{NBSP}s"), ("de", f"1,5{NBSP}s", f"4,2{NBSP}s"),
     ("en", f"1.5{NBSP}s", f"4.2{NBSP}s")],
)  # fmt: skip
def test_the_mean_think_time_is_on_the_page_in_the_readers_language(
    language: str, lea: str, tom: str
) -> None:
    school_class = _class()
    html = (
        _client(school_class, language)
        .get(reverse("classroom:class_report", args=[school_class.pk]))
        .content.decode()
    )
    headers, rows = _table(html)
    think = headers.index(THINK_LABEL[language])
    # Next to the median time, the other time of the table.
    assert think == [c.key for c in CLASS_REPORT_COLUMNS].index("median") + 1
    # 4,250 ms: one decimal, rounded half to even as the other figures are.
    assert rows["Léa"][think] == lea and rows["Tom"][think] == tom
    assert rows["Zoé"][think] == rows["Max"][think] == "—"


@pytest.mark.parametrize("language", ["fr", "de", "en"])
def test_the_mean_think_time_is_in_the_csv_in_seconds(language: str) -> None:
    school_class = _class()
    table = _csv(
        _client(school_class, language).get(
            reverse("classroom:class_report_csv", args=[school_class.pk])
        )
    )
    header = table[0]
    think = header.index(THINK_CSV_LABEL[language])
    assert header[think - 1] == MEDIAN_CSV_LABEL[language]
    cells = {row[0]: row[think] for row in table[1:]}
    # A spreadsheet number with the decimal comma, whatever the language
    # (as every figure of this CSV); empty when unknown.
    assert cells == {"Léa": "1,5", "Tom": "4,2", "Zoé": "", "Max": ""}


def test_sorting_by_the_mean_think_time() -> None:
    school_class = _class()
    client = _client(school_class)
    url = reverse("classroom:class_report", args=[school_class.pk])

    def order(query: str) -> list[str]:
        return [r.pupil.display_name for r in client.get(url + query).context["report"].rows]

    # Unknown times always last, whichever the direction.
    assert order("?sort=think")[:2] == ["Léa", "Tom"]
    assert order("?sort=think&dir=desc")[:2] == ["Tom", "Léa"]
    assert set(order("?sort=think")[2:]) == {"Zoé", "Max"}
    # A first click sorts the slowest first, as for the median time.
    html = client.get(url).content.decode()
    assert 'href="?sort=think&amp;dir=desc"' in html
    csv_rows = _csv(
        client.get(reverse("classroom:class_report_csv", args=[school_class.pk]) + "?sort=think")
    )
    assert [row[0] for row in csv_rows[1:3]] == ["Léa", "Tom"]
