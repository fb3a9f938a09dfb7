"""Issue 48: a new teacher's first lesson, from the home page to 25 pupils
playing at 7 tables, counted in a real browser at 1280x800.

Counted before the change, the same way: 23 clicks, 7 typed fields, 13 page
loads and about 5 min 17 s of a person's time (Keystroke-Level Model), a
quarter of it reading a session form of ten settings. The test performs the
sequence, counts every click, typed field and page load, prices it with the
standard KLM operators plus each page's measured load time, prints the sum,
and fails above the aims. Every button the teacher presses must be on the
first screen of its page (no scrolling to find "Lancer").

Pupils join through the database (their tablets are no part of the
teacher's time); the teacher's board would show them live, the test reloads
it once (a page load counted, no click). The activation mail is read from
the server's token as the teacher's mailbox would show it: two clicks
(open the mail, its link) and no waiting counted for the mail itself. The
teacher goes on before the mail (a draft account): class, cards and session
are ready first, and the confirmed link leads back to the session.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.e2e.conftest import axe_check

VIEWPORT = {"width": 1280, "height": 800}

# Keystroke-Level Model operators (Card, Moran & Newell), in seconds.
K = 0.28  # a keystroke, average typist
P = 1.1  # pointing with the mouse
BB = 0.2  # a click (press and release)
H = 0.4  # hand between mouse and keyboard
M = 1.35  # mental preparation (also once per new page: finding one's way)

# The aims (issue 48): under 3 minutes; the clicks, fields and pages this
# sequence needs, so any step added back fails the test.
AIM_SECONDS = 180.0
AIM_CLICKS = 12
AIM_FIELDS = 6
AIM_PAGES = 10
AIM_REPEAT_CLICKS = 4

EMAIL = "nouvelle.maitresse@ecole.example"
PASSWORD = "Souris-en-hiver-2026"
NAMES = [
    "Léo", "Inès", "Maël", "Jade", "Noah", "Lina", "Adam", "Rose", "Tom", "Mila",
    "Sacha", "Zoé", "Nino", "Lou", "Hugo", "Alma", "Yanis", "Iris", "Gabin", "Léna",
    "Malo", "Nour", "Eden", "Ambre", "Timéo",
]  # fmt: skip


@dataclass
class Count:
    """Clicks, typed fields and page loads, and their KLM time."""

    clicks: int = 0
    fields: int = 0
    pages: int = 0
    seconds: float = 0.0
    steps: list[str] = field(default_factory=list)

    def click(self, what: str) -> None:
        self.clicks += 1
        self.seconds += M + P + BB
        self.steps.append(f"click  {what}: M P BB = {M + P + BB:.2f}s")

    def typed(self, what: str, text: str) -> None:
        self.fields += 1
        cost = M + P + BB + H + K * len(text) + H
        self.seconds += cost
        self.steps.append(
            f"field  {what} ({len(text)} keys): M P BB H {len(text)}K H = {cost:.2f}s"
        )

    def pasted(self, what: str) -> None:
        """A list copied from elsewhere (the school's register): Ctrl+V."""
        self.fields += 1
        cost = M + P + BB + H + 2 * K + H
        self.seconds += cost
        self.steps.append(f"field  {what} (pasted): M P BB H 2K H = {cost:.2f}s")

    def page(self, what: str, load: float, *, read: bool = True) -> None:
        self.pages += 1
        cost = load + (M if read else 0.0)
        self.seconds += cost
        self.steps.append(f"page   {what}: R {load:.2f}s{' + M' if read else ''} = {cost:.2f}s")

    def report(self, title: str) -> str:
        return "\n".join(
            [f"{title}: {self.clicks} clicks, {self.fields} fields, {self.pages} pages,"
             f" {self.seconds:.1f} s (KLM)", *("  " + s for s in self.steps)]
        )  # fmt: skip


def _on_first_screen(page: Any, locator: Any, what: str) -> None:
    """The control is visible without scrolling at 1280x800."""
    locator.wait_for()
    # htmx may swap the board between the wait and the measure: measure again.
    box = None
    for _attempt in range(20):
        box = locator.bounding_box()
        if box is not None:
            break
        page.wait_for_timeout(100)
    scroll = page.evaluate("() => window.scrollY")
    if box is None or box["y"] + scroll + box["height"] > VIEWPORT["height"]:
        page.screenshot(path="artifacts/screenshots/first-lesson-below-the-fold.png", full_page=True)
    assert box is not None and box["y"] + scroll + box["height"] <= VIEWPORT["height"], (
        f"{what} is below the first screen ({box!r}, scrolled {scroll})"
    )


def _press(page: Any, count: Count, locator: Any, what: str, to: str) -> None:
    """Click a control on the first screen and count the page it loads."""
    _on_first_screen(page, locator, what)
    count.click(what)
    started = time.monotonic()
    with page.expect_navigation(wait_until="load"):
        locator.click()
    count.page(to, time.monotonic() - started)


def _type(page: Any, count: Count, label: str, text: str) -> None:
    box = page.get_by_label(label, exact=True)
    _on_first_screen(page, box, label)
    box.fill(text)
    count.typed(label, text)


def _join_all(server: Any, session_id: int) -> int:
    code = (
        "from classroom.models import Attendance, ClassSession;"
        f"s = ClassSession.objects.get(pk={session_id});"
        "[Attendance.objects.get_or_create(class_session=s, pupil=p) for p in s.school_class.pupils.all()];"
        "print(s.attendances.count())"
    )
    return int(server.shell(code).splitlines()[-1])


def _started(server: Any, session_id: int) -> dict[str, Any]:
    code = (
        "import json; from cardgames.models import Table; from classroom.models import ClassSession;"
        f"s = ClassSession.objects.get(pk={session_id});"
        "ts = Table.objects.filter(group_key=s.group_key, status='playing');"
        "print(json.dumps({'tables': ts.count(),"
        " 'pupils': sum(t.seats.filter(is_bot=False).count() for t in ts),"
        " 'robots': sum(t.seats.filter(is_bot=True).count() for t in ts),"
        " 'seats': sorted(t.seats.count() for t in ts)}))"
    )
    return dict(json.loads(server.shell(code).splitlines()[-1]))


def test_a_new_teachers_first_lesson_takes_under_3_minutes(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    page = browser.new_page(viewport=VIEWPORT, locale="fr-FR")
    count = Count()

    started = time.monotonic()
    page.goto(f"{server.url}/")
    count.page("home", time.monotonic() - started)
    page.screenshot(path=str(screenshots / "first-lesson-1-home-1280x800.png"))
    _press(
        page,
        count,
        page.get_by_role("link", name="Créer mon compte (gratuit)"),
        "Créer mon compte",
        "sign-up",
    )

    _type(page, count, "Adresse e-mail", EMAIL)
    _type(page, count, "Prénom (affiché aux élèves)", "Anne")
    _press(
        page,
        count,
        page.get_by_role("button", name="Créer mon compte"),
        "Créer mon compte (form)",
        "dashboard, address to confirm",
    )
    # In at once with a draft account: the notice says what waits for the mail.
    page.get_by_text("spam").wait_for()
    assert page.get_by_role("button", name="Renvoyer l'e-mail").is_visible()
    page.screenshot(path=str(screenshots / "first-lesson-2-draft-dashboard-1280x800.png"))
    axe_check(page, "first-lesson-draft-dashboard")

    _press(
        page,
        count,
        page.get_by_role("link", name="Créer ma première classe"),
        "Créer ma première classe",
        "new class",
    )
    _type(page, count, "Nom de la classe", "CM1 Hiboux")
    level = page.get_by_label("CM1", exact=True)
    _on_first_screen(page, level, "CM1")
    level.check()
    count.click("level CM1")
    names = page.get_by_label("Prénoms des élèves, un par ligne")
    _on_first_screen(page, names, "names")
    names.fill("\n".join(NAMES))
    count.pasted("Prénoms des élèves")
    page.screenshot(path=str(screenshots / "first-lesson-3-class-form-1280x800.png"))
    axe_check(page, "first-lesson-class-form")
    _press(
        page, count, page.get_by_role("button", name="Créer la classe"), "Créer la classe", "cards"
    )

    # Print: the browser's dialog is stubbed; its own "Imprimer" is one more click.
    page.evaluate("() => { window.print = () => {}; }")
    printer = page.get_by_role("button", name="Imprimer", exact=True)
    _on_first_screen(page, printer, "Imprimer")
    printer.click()
    count.click("Imprimer")
    count.click("the print dialog's Imprimer")
    page.screenshot(path=str(screenshots / "first-lesson-4-cards-1280x800.png"))
    _press(
        page,
        count,
        page.get_by_role("button", name="Ouvrir une séance"),
        "Ouvrir une séance",
        "session, waiting for the address",
    )
    page.get_by_text("Confirmez votre adresse e-mail").wait_for()
    page.screenshot(path=str(screenshots / "first-lesson-4b-session-draft-1280x800.png"))

    # The mailbox: open the mail, then its link; the password, and back to the lesson.
    link = server.shell(
        "from django.contrib.auth import get_user_model; from django.urls import reverse;"
        "from django.utils.encoding import force_bytes; from django.utils.http import urlsafe_base64_encode;"
        "from classroom.accounts import activation_tokens;"
        f"u = get_user_model().objects.get(email='{EMAIL}');"
        "print(reverse('classroom:signup_activate', kwargs={'uidb64': urlsafe_base64_encode(force_bytes(u.pk)),"
        " 'token': activation_tokens.make_token(u)}))"
    ).splitlines()[-1]
    count.click("open the mail")
    count.click("the mail's link")
    started = time.monotonic()
    page.goto(f"{server.url}{link}")
    count.page("choose a password", time.monotonic() - started)
    _type(page, count, "Choisissez votre mot de passe", PASSWORD)
    _type(page, count, "Le même mot de passe, encore une fois", PASSWORD)
    _press(
        page,
        count,
        page.get_by_role("button", name="Ouvrir mon compte"),
        "Ouvrir mon compte",
        "session, code shown",
    )
    page.get_by_text("Adresse confirmée").wait_for()
    session_id = int(page.url.rstrip("/").rsplit("/", 1)[-1])

    assert _join_all(server, session_id) == 25
    started = time.monotonic()
    page.reload()  # what the live board shows as the pupils arrive
    count.page("session, 25 pupils joined", time.monotonic() - started, read=False)
    page.screenshot(path=str(screenshots / "first-lesson-5-board-1280x800.png"))
    axe_check(page, "first-lesson-board")
    _press(
        page,
        count,
        page.get_by_role("button", name="Grouper par 4 et lancer"),
        "Grouper par 4 et lancer",
        "tables started",
    )
    page.get_by_text("7 tables lancées").wait_for()
    page.screenshot(path=str(screenshots / "first-lesson-6-started-1280x800.png"), full_page=True)

    tables = _started(server, session_id)
    assert tables == {"tables": 7, "pupils": 25, "robots": 3, "seats": [4] * 7}, tables
    print(count.report("first lesson"))
    assert count.clicks <= AIM_CLICKS, count.report("too many clicks")
    assert count.fields <= AIM_FIELDS, count.report("too many fields")
    assert count.pages <= AIM_PAGES, count.report("too many pages")
    assert count.seconds <= AIM_SECONDS, count.report("over 3 minutes")

    # A repeat lesson, another day (the first one ended): from "Mes classes", 4 clicks.
    server.shell(
        "from classroom.models import ClassSession; from classroom.services.sessions import session_close;"
        f"session_close(class_session=ClassSession.objects.get(pk={session_id}))"
    )
    repeat = Count()
    page.goto(f"{server.url}/teacher/")
    _press(page, repeat, page.get_by_role("link", name="CM1 Hiboux"), "the class", "class")
    _press(
        page,
        repeat,
        page.get_by_role("link", name="Lancer une séance"),
        "Lancer une séance",
        "session form",
    )
    page.screenshot(path=str(screenshots / "first-lesson-7-session-form-1280x800.png"))
    axe_check(page, "first-lesson-session-form")
    _press(
        page,
        repeat,
        page.get_by_role("button", name="Ouvrir la séance et afficher le code"),
        "Ouvrir la séance",
        "session",
    )
    session_id = int(page.url.rstrip("/").rsplit("/", 1)[-1])
    assert _join_all(server, session_id) == 25
    page.reload()
    _press(
        page,
        repeat,
        page.get_by_role("button", name="Grouper par 4 et lancer"),
        "Grouper par 4 et lancer",
        "tables started",
    )
    assert _started(server, session_id)["tables"] == 7
    print(repeat.report("repeat lesson"))
    assert repeat.clicks <= AIM_REPEAT_CLICKS, repeat.report("repeat lesson: too many clicks")
    page.close()
