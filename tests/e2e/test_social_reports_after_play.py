"""The teacher's records of a social game, read after the game (issue 46).

``test_play_purrfect``, ``test_play_pinocchio`` and ``test_play_picktura``
play a game in the browser, then call :func:`check_reports` with the figures
*this module* counts from the table's own log (the ``GameEvent`` rows: every
trade, withdrawal, claim, doubt, announcement and exhibit), from the engine's
final state, from what the test itself did on the tablets (the score sums
typed, the meows misread: the refusals the server answered, read off the
tablets' sockets) and from the end screen the pupils saw (the places). None of
it goes through ``classroom.social`` or the report selectors.

:func:`check_reports` then reads, in the browser, each pupil's report and the
class report of the session, and fetches the class report's CSV, and checks:

* each figure equals what was played, the game's own columns only (no
  Purrfect column in the Pinocchio table), in the CSV too;
* at 1280x800 the tables fit without sideways scrolling; on a 390x844 phone
  each row is a card of labelled figures, and nothing scrolls sideways.

The test below plays a Purrfect game cut short by the end of the lesson: it
counts as played, "dont 1 non terminée", with no paws and no place.

Screenshots: ``artifacts/screenshots/social-report-*.png``.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tests.e2e.board import choose_game

# The columns of each game's table as the brief of issue 46 names them:
# (header, CSV header after "<Game> : ").
COLUMNS: dict[str, list[tuple[str, str]]] = {
    "purrfect": [
        ("Parties", "parties"),
        ("Finies", "parties finies"),
        ("Échanges", "échanges"),
        ("Offres retirées", "offres retirées"),
        ("« Purrfect! » trop tôt", "« Purrfect! » trop tôt"),
        ("Miaous mal lus", "miaous mal lus"),
        ("Pattes", "pattes (parties finies)"),
        ("Meilleure place", "meilleure place"),
    ],
    "pinocchio": [
        ("Parties", "parties"),
        ("Doutes", "doutes"),
        ("Doutes justes", "doutes justes"),
        ("Bluffs", "bluffs"),
        ("Bluffs découverts", "bluffs découverts"),
        ("Nez", "nez (parties finies, moins = mieux)"),
        ("Mots en", "mots en"),
    ],
    "picktura": [
        ("Parties", "parties"),
        ("Œuvres exposées", "œuvres exposées"),
        ("Points", "points (parties finies)"),
        ("Sommes justes", "sommes de points justes"),
        ("Sommes fausses", "sommes de points fausses"),
        ("Meilleure place", "meilleure place"),
    ],
}
TITLES = {"purrfect": "Purrfect", "pinocchio": "Pinocchio", "picktura": "Picktura"}
LOWER_IS_BETTER = {("pinocchio", "Nez")}
NOTHING = "—"

# One figure as the report draws it: (the number or word, the short note under it).
Cell = tuple[str, str]
Figures = dict[str, Cell]

WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


# --------------------------------------------------------------------------- the session form
# --------------------------------------------------------------------------- what was played
LOG = """
import json
from cardgames.models import GameEvent, Seat
t = {table}
print(json.dumps({{
    "seats": [[s.index, s.player_key] for s in Seat.objects.filter(table_id=t).order_by("index")],
    "events": [[e.kind, e.payload] for e in GameEvent.objects.filter(table_id=t).order_by("seq")],
}}))
"""

RECORDS_WRITTEN = (
    "from classroom.models import SocialRecord;"
    "print(SocialRecord.objects.filter(table_id={table}, finished_at__isnull=False).count())"
)


def table_log(server: Any, table_id: int) -> dict[str, Any]:
    """The table's seats and its whole event log, as stored."""
    return json.loads(server.shell(LOG.format(table=table_id)).splitlines()[-1])


def pupil_seats(log: Mapping[str, Any]) -> dict[int, int]:
    """Seat → pupil id, for the seats pupils hold (robots left out)."""
    out = {}
    for index, key in log["seats"]:
        match = re.fullmatch(r"pupil:(\d+)", key or "")
        if match:
            out[int(index)] = int(match.group(1))
    return out


def _events(log: Mapping[str, Any], kind: str) -> list[dict[str, Any]]:
    return [payload for event_kind, payload in log["events"] if event_kind == kind]


def _place(place: int | None, won: bool) -> Cell:
    if place is None:
        return (NOTHING, "")
    return (str(place), "1 victoire" if won else "")


def _tables(finished: bool) -> Cell:
    return ("1", "" if finished else "dont 1 non terminée")


def purrfect_figures(
    log: Mapping[str, Any], *, wrong_counts: Mapping[int, int], places: Mapping[int, int]
) -> dict[int, Figures]:
    """Pupil id → the Purrfect row, counted from the log. ``wrong_counts``:
    seat → meows misread (refusals the tablets were told); ``places``: seat →
    place on the end screen."""
    over = _events(log, "game_over")
    finished = bool(over)
    winners = set(over[-1]["winners"]) if over else set()
    paws = over[-1]["paws"] if over else None
    out = {}
    for seat, pupil in pupil_seats(log).items():
        trades = sum(seat in e["seats"] for e in _events(log, "trade_done"))
        withdrawn = sum(e["seat"] == seat for e in _events(log, "offer_withdrawn"))
        early = sum(e["seat"] == seat for e in _events(log, "claim_failed"))
        gained = sum(e["paws_gained"][seat] for e in _events(log, "round_over"))
        if paws is not None:
            assert gained == paws[seat], (seat, gained, paws)  # the log agrees with itself
        out[pupil] = {
            "Parties": _tables(finished),
            "Finies": ("1" if finished else "0", ""),
            "Échanges": (str(trades), ""),
            "Offres retirées": (str(withdrawn), ""),
            "« Purrfect! » trop tôt": (str(early), ""),
            "Miaous mal lus": (str(wrong_counts.get(seat, 0)), ""),
            "Pattes": (str(gained), "") if finished else (NOTHING, ""),
            "Meilleure place": _place(places.get(seat) if finished else None, seat in winners),
        }
    return out


def pinocchio_figures(log: Mapping[str, Any], *, language: str) -> dict[int, Figures]:
    """Pupil id → the Pinocchio row, counted from the log: a bluff is an
    announcement other than the card the seat had just seen (its private
    ``card_seen``), a right doubt one that found a lie."""
    finished = bool(_events(log, "game_over"))
    seen: dict[int, dict[str, Any]] = {}
    bluffs: dict[int, int] = {}
    for kind, payload in log["events"]:
        if kind == "card_seen":
            seen[payload["seat"]] = payload["card"]
        elif kind == "card_laid":
            card = seen.pop(payload["seat"])
            differs = (card["garment"], card["colour"]) != (payload["garment"], payload["colour"])
            bluffs[payload["seat"]] = bluffs.get(payload["seat"], 0) + differs
    doubted = _events(log, "doubted")
    out = {}
    for seat, pupil in pupil_seats(log).items():
        noses = sum(e["seat"] == seat for e in _events(log, "nose_taken"))
        out[pupil] = {
            "Parties": _tables(finished),
            "Doutes": (str(sum(e["seat"] == seat for e in doubted)), ""),
            "Doutes justes": (
                str(sum(e["seat"] == seat and not e["truthful"] for e in doubted)),
                "",
            ),
            "Bluffs": (str(bluffs.get(seat, 0)), ""),
            "Bluffs découverts": (
                str(sum(e["target"] == seat and not e["truthful"] for e in doubted)),
                "",
            ),
            "Nez": (str(noses), "") if finished else (NOTHING, ""),
            "Mots en": (language, ""),
        }
    return out


def picktura_figures(
    log: Mapping[str, Any],
    *,
    scores: Sequence[int],
    sums: Mapping[int, bool],
    places: Mapping[int, int],
) -> dict[int, Figures]:
    """Pupil id → the Picktura row: exhibits counted from the log, points
    from the engine's final state, the sums as the tablets typed them (seat →
    right), the places as the end screen showed them."""
    over = _events(log, "game_over")
    finished = bool(over)
    winners = set(over[-1]["winners"]) if over else set()
    out = {}
    for seat, pupil in pupil_seats(log).items():
        exhibits = sum(e["seat"] == seat for e in _events(log, "exhibit"))
        right = int(sums.get(seat) is True)
        wrong = int(sums.get(seat) is False)
        out[pupil] = {
            "Parties": _tables(finished),
            "Œuvres exposées": (str(exhibits), ""),
            "Points": (str(scores[seat]), "") if finished else (NOTHING, ""),
            "Sommes justes": (str(right), ""),
            "Sommes fausses": (str(wrong), ""),
            "Meilleure place": _place(places.get(seat) if finished else None, seat in winners),
        }
    return out


# A refusal the server answers with the notice line only (a "kept" one, drawn
# again on later screens, carries ``data-kept``): one per refused move.
_WRONG_COUNT = (
    '<p class="cg-notice-text"><span aria-hidden="true">⚠️</span> Regarde le tableau des miaous'
)


def count_wrong_counts(page: Any) -> list[int]:
    """Count, from now on, the meows misread on this tablet: the server's own
    answers on the table's socket. Returns the live counter (one item)."""
    counter = [0]

    def on_socket(socket: Any) -> None:
        if "/ws/table/" not in socket.url:
            return

        def on_frame(payload: Any) -> None:
            if isinstance(payload, str):
                counter[0] += payload.count(_WRONG_COUNT)

        socket.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return counter


RANKING_ROWS = """sel => Array.from(document.querySelectorAll(sel + ' li.cg-rank')).map(li => ({
    place: Number((li.querySelector('.cg-rank-place').textContent.match(/(\\d+)\\./) || [])[1]),
    name: li.querySelector('strong bdi').textContent.trim(),
    me: li.classList.contains('is-me'),
}))"""


def end_screen_places(page: Any, selector: str) -> list[dict[str, Any]]:
    """The ranking as this tablet's end screen shows it: place, name, own row."""
    page.locator(f"{selector} li.cg-rank").first.wait_for()
    return list(page.evaluate(RANKING_ROWS, selector))


def wait_records(server: Any, table_id: int, pupils: int, timeout: float = 30) -> None:
    """Wait until the finished table's records are written (on ``table_finished``)."""
    deadline = time.monotonic() + timeout
    written = -1
    while time.monotonic() < deadline:
        written = int(server.shell(RECORDS_WRITTEN.format(table=table_id)).splitlines()[-1])
        if written >= pupils:
            return
    raise AssertionError(f"table {table_id}: {written} records written for {pupils} pupils")


# --------------------------------------------------------------------------- the reports
READ_TABLES = """section => Array.from(section.querySelectorAll('.rp-social-game')).map(box => {
    const table = box.querySelector('table');
    return {
        id: box.querySelector('h3').id,
        title: box.querySelector('h3').textContent.trim(),
        heads: Array.from(table.querySelectorAll('thead th')).slice(1).map(th => ({
            label: th.firstChild.textContent.trim(),
            hint: (th.querySelector('.rp-col-hint') || {textContent: ''}).textContent.trim(),
        })),
        rows: Array.from(table.querySelectorAll('tbody tr')).map(tr => ({
            head: tr.querySelector('th').textContent.trim(),
            cells: Array.from(tr.querySelectorAll('td')).map(td => {
                const figure = td.firstElementChild;
                const note = td.querySelector('.rp-cell-note');
                return {
                    label: td.dataset.label,
                    text: figure.firstChild.textContent.trim(),
                    note: note ? note.textContent.trim() : '',
                };
            }),
        })),
    };
})"""

# Nothing wider than its box, nor the page wider than the screen.
FITS = """section => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    // What sticks out past the screen's right edge (to name it when it does).
    over: Array.from(document.querySelectorAll('body *'))
        .filter(el => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .filter(el => !Array.from(el.children).some(
            c => c.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5))
        .slice(0, 6)
        .map(el => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}px`),
    inSection: Array.from(section.querySelectorAll('*')).some(
        el => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5),
    boxes: Array.from(section.querySelectorAll('.rp-social-game .rp-scroll'))
        .map(box => box.scrollWidth - box.clientWidth),
    display: Array.from(section.querySelectorAll('.rp-social-table')).map(t => getComputedStyle(t).display),
    rows: Array.from(section.querySelectorAll('.rp-social-table tbody tr')).map(tr => getComputedStyle(tr).display),
    heads: Array.from(section.querySelectorAll('.rp-social-table thead')).map(h => h.getBoundingClientRect().height),
    before: Array.from(section.querySelectorAll('.rp-social-table td')).map(
        td => [td.dataset.label, getComputedStyle(td, '::before').content]),
})"""


def _headers(game: str) -> list[str]:
    return [label for label, _csv in COLUMNS[game]]


def _other_headers(game: str) -> set[str]:
    """The columns only other games have (what must never show in this one's table)."""
    mine = set(_headers(game))
    return {label for other in COLUMNS if other != game for label in _headers(other)} - mine


def _check_table(game: str, table: Mapping[str, Any], where: str) -> None:
    assert table["id"] == f"social-{game}" and table["title"] == TITLES[game], (where, table)
    heads = [h["label"] for h in table["heads"]]
    assert heads == _headers(game), f"{where}: {game} columns {heads}"
    assert not set(heads) & _other_headers(game), f"{where}: another game's columns in {game}"
    for head in table["heads"]:
        hinted = (game, head["label"]) in LOWER_IS_BETTER
        assert (head["hint"] == "↓ moins = mieux") == hinted, (where, head)


def _row_figures(game: str, row: Mapping[str, Any], where: str) -> Figures:
    labels = []
    for (label, _csv), cell in zip(COLUMNS[game], row["cells"], strict=True):
        wanted = f"{label} (moins = mieux)" if (game, label) in LOWER_IS_BETTER else label
        labels.append((cell["label"], wanted))
    assert all(a == b for a, b in labels), f"{where}: phone labels {labels}"
    return {
        label: (cell["text"], cell["note"])
        for (label, _csv), cell in zip(COLUMNS[game], row["cells"], strict=True)
    }


def _differences(got: Figures, wanted: Figures) -> dict[str, tuple[Cell, Cell]]:
    return {k: (got.get(k, ("?", "")), v) for k, v in wanted.items() if got.get(k) != v}


def _check_fits(page: Any, where: str, *, phone: bool) -> None:
    """The social tables fit (never wider than their box, never past the
    screen; on a phone, stacked as cards). The page as a whole scrolling
    sideways because of something else is reported, not blamed on them."""
    fits = page.evaluate(FITS, page.locator("#social-games").element_handle())
    if fits["page"] > 0:
        print(f"{where}: the page scrolls sideways by {fits['page']} px: {fits['over']}")
    assert not fits["inSection"], f"{where}: the social tables stick out: {fits['over']}"
    assert all(extra <= 1 for extra in fits["boxes"]), f"{where}: a table scrolls sideways {fits}"
    if phone:
        assert set(fits["display"]) == {"block"}, f"{where}: not stacked {fits['display']}"
        assert set(fits["rows"]) == {"block"}, f"{where}: rows not cards {fits['rows']}"
        assert all(h <= 1 for h in fits["heads"]), f"{where}: header row still shown"
        for label, before in fits["before"]:
            assert before == json.dumps(label, ensure_ascii=False), (where, label, before)
    else:
        assert set(fits["display"]) == {"table"}, f"{where}: {fits['display']}"
        assert all(h > 1 for h in fits["heads"]), f"{where}: header row hidden"


def _read(page: Any, url: str) -> list[dict[str, Any]]:
    page.goto(url)
    section = page.locator("#social-games")
    section.wait_for()
    return list(page.evaluate(READ_TABLES, section.element_handle()))


def _csv(context: Any, url: str) -> list[list[str]]:
    response = context.request.get(url)
    assert response.ok, (url, response.status)
    text = response.body().decode("utf-8")
    assert text.startswith("\ufeff"), url
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))


def check_reports(
    *,
    browser: Any,
    teacher: Any,
    server: Any,
    game: str,
    session_id: int,
    class_id: int,
    table_id: int,
    expected: Mapping[int, Figures],
    names: Mapping[int, str],
    screenshots: Path,
    label: str = "",
) -> dict[str, Any]:
    """Check the pupil reports, the class report of the session and its CSV
    against ``expected`` (pupil id → figures), and the tables' layout at
    1280x800 and 390x844. ``teacher``: the teacher's browser context (1280x800).
    Returns what was read, for the caller's own checks."""
    wait_records(server, table_id, len(expected))
    tag = f"{game}{'-' + label if label else ''}"
    page = teacher.new_page()
    read: dict[str, Any] = {"pupils": {}}
    mismatches: list[str] = []
    # 1. Each pupil's page: the game's table, newest session first (this one).
    for pupil, wanted in expected.items():
        tables = _read(page, f"{server.url}/teacher/pupils/{pupil}/report/")
        mine = [t for t in tables if t["id"] == f"social-{game}"]
        assert len(mine) == 1, f"pupil {pupil}: {[t['id'] for t in tables]}"
        _check_table(game, mine[0], f"pupil {pupil}")
        got = _row_figures(game, mine[0]["rows"][0], f"pupil {pupil}")
        read["pupils"][pupil] = got
        if got != wanted:
            mismatches.append(f"pupil report of {names[pupil]}: {_differences(got, wanted)}")
    first = next(iter(expected))
    page.goto(f"{server.url}/teacher/pupils/{first}/report/")
    page.locator("#social-games").wait_for()
    _check_fits(page, f"{tag} pupil report 1280", phone=False)
    page.locator("#social-games").screenshot(
        path=str(screenshots / f"social-report-{tag}-pupil-1280x800.png")
    )
    # 2. The class report of this session: one row per pupil who played.
    class_url = f"{server.url}/teacher/classes/{class_id}/report/?session={session_id}"
    tables = _read(page, class_url)
    assert [t["id"] for t in tables] == [f"social-{game}"], [t["id"] for t in tables]
    _check_table(game, tables[0], "class report")
    rows = {row["head"]: row for row in tables[0]["rows"]}
    assert set(rows) == {names[p] for p in expected}, f"class report rows {sorted(rows)}"
    read["class"] = {}
    for pupil, wanted in expected.items():
        got = _row_figures(game, rows[names[pupil]], "class report")
        read["class"][pupil] = got
        if got != wanted:
            mismatches.append(f"class report, {names[pupil]}: {_differences(got, wanted)}")
    _check_fits(page, f"{tag} class report 1280", phone=False)
    page.locator("#social-games").screenshot(
        path=str(screenshots / f"social-report-{tag}-class-1280x800.png")
    )
    # 3. The CSV of the class report: this game's columns only, the same figures.
    base = f"{server.url}/teacher/classes/{class_id}/"
    table = _csv(teacher, f"{base}report.csv?session={session_id}")
    head = table[0]
    social = [h for h in head if " : " in h]
    assert social == [f"{TITLES[game]} : {c}" for _l, c in COLUMNS[game]], social
    start = head.index(social[0])
    by_name = {row[0]: row[start : start + len(social)] for row in table[1:]}
    for pupil, wanted in expected.items():
        cells = [("" if text == NOTHING else text) for text, _note in wanted.values()]
        if by_name.get(names[pupil]) != cells:
            mismatches.append(f"CSV, {names[pupil]}: {by_name.get(names[pupil])} != {cells}")
    for name, cells in by_name.items():
        if name not in {names[p] for p in expected}:
            assert cells == [""] * len(social), f"CSV: {name} did not play: {cells}"
    read["csv"] = by_name
    # The answers' CSV holds Chasse's answers only: nothing of a social game.
    answers = _csv(teacher, f"{base}records.csv?session={session_id}")
    assert len(answers) == 1, f"records.csv: {len(answers) - 1} rows for a {game} session"
    page.close()
    for line in mismatches:
        print("MISMATCH", line)
    # 4. On a phone: each row a card of labelled figures, nothing sideways.
    phone = browser.new_context(
        viewport=PHONE, storage_state=teacher.storage_state(), reduced_motion="reduce"
    )
    small = phone.new_page()
    for where, url in (
        ("pupil", f"{server.url}/teacher/pupils/{first}/report/"),
        ("class", class_url),
    ):
        small.goto(url)
        small.locator("#social-games .rp-social-table").first.wait_for()
        _check_fits(small, f"{tag} {where} report 390", phone=True)
        small.locator(f"#social-{game}").scroll_into_view_if_needed()
        small.locator("#social-games").screenshot(
            path=str(screenshots / f"social-report-{tag}-{where}-390x844.png")
        )
        small.screenshot(
            path=str(screenshots / f"social-report-{tag}-{where}-390x844-page.png"),
            full_page=True,
        )
    phone.close()
    assert not mismatches, "the reports differ from what was played:\n" + "\n".join(mismatches)
    return read


# --------------------------------------------------------------------------- a lesson cut short
def test_a_purrfect_game_cut_short_by_the_end_of_the_lesson_counts_as_played(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    """Two pupils and two robots trade; the teacher ends the lesson mid-game:
    the game counts as played, "dont 1 non terminée", no paws, no place."""
    from tests.e2e.board import groups_make, table_robots
    from tests.e2e.test_play_chasse import _class_id, _join, _session, _teacher
    from tests.e2e.test_play_purrfect import _accept_any, _offer, _withdraw
    from tests.e2e.test_session_end import NEW_SESSION

    server = live_server_url
    teacher, page = _teacher(browser, server)
    class_id = _class_id(server)
    page.goto(f"{server.url}/teacher/classes/{class_id}/sessions/new/")
    choose_game(page, "purrfect")
    page.fill('input[name="round_actions"]', "2000")  # no round ends by itself meanwhile
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r".*/teacher/sessions/\d+/$"))
    demo = _session(server)
    pupils = demo["pupils"][6:8]
    tablets = [_join(browser, server, demo["code"], p, PHONE_TABLET) for p in pupils]
    misread = [count_wrong_counts(t) for t in tablets]
    page.reload()
    groups_make(page, 4)
    table_robots(page, level="easy", places=4)  # the robots fill the places
    page.get_by_role("button", name=re.compile("Lancer 1 table")).click()
    for tablet in tablets:
        tablet.wait_for_url("**/table/**", timeout=15_000)
        tablet.locator(".pf-hand").wait_for(timeout=10_000)
    table_id = int(re.search(r"/table/(\d+)/", tablets[0].url).group(1))
    a, b = tablets
    # A offers, B takes it if still open (a robot may be faster); A offers and withdraws.
    # The robots trade meanwhile and redraw A's hand: try again until it sticks.
    deadline = time.monotonic() + 30
    while not _offer(a, 1):
        assert time.monotonic() < deadline, "the first offer never went out"
        a.wait_for_timeout(200)
    b.locator("label.pf-offer").first.wait_for(timeout=8_000)
    _accept_any(b)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not _offer(a, 1):
        a.wait_for_timeout(200)
    _withdraw(a)
    # The teacher ends the lesson: "Terminer la séance", then "Oui".
    page.goto(f"{server.url}/teacher/sessions/{demo['session']}/")
    page.get_by_role("link", name=re.compile("Terminer la séance")).click()
    page.get_by_role("button", name=re.compile("Oui, terminer la séance")).click()
    page.wait_for_url(re.compile(r".*/teacher/classes/\d+/$"))
    for tablet in tablets:
        tablet.locator(".cg-closed").wait_for(timeout=10_000)
    log = table_log(server, table_id)
    assert not _events(log, "game_over")
    seats = pupil_seats(log)
    wrong = {seat: misread[[p["pk"] for p in pupils].index(pk)][0] for seat, pk in seats.items()}
    expected = purrfect_figures(log, wrong_counts=wrong, places={})
    names = {p["pk"]: p["display_name"] for p in pupils}
    print("cut short, expected:", json.dumps(expected, ensure_ascii=False))
    check_reports(
        browser=browser,
        teacher=teacher,
        server=server,
        game="purrfect",
        session_id=demo["session"],
        class_id=class_id,
        table_id=table_id,
        expected=expected,
        names=names,
        screenshots=screenshots,
        label="cut-short",
    )
    for tablet in tablets:
        tablet.context.close()
    teacher.close()
    # Later browser tests expect the demo class to have an open session.
    server.shell(NEW_SESSION)


PHONE_TABLET = {"width": 768, "height": 1024}
