"""A teacher runs a whole session with the keyboard alone: sign in, open the
class, start a session, make groups, start the tables, follow them on the
monitor, end the session and read the class report. Every element the Tab key
reaches on the way shows a visible focus ring.

The pupils join on their tablets by touch (they are not the subject here).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.e2e.conftest import axe_check
from tests.e2e.test_play_chasse import _join

LAPTOP = {"width": 1280, "height": 800}
TABLET = {"width": 768, "height": 1024}
CLASS_NAME = "CM1 Clavier"

# What the focused element shows: an outline of at least 2 px (the house style
# is 4 px amber), or a ring drawn by a box shadow, on it or on its label.
FOCUS_INFO = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const ring = (node) => {
    if (!node) return false;
    const s = getComputedStyle(node);
    return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2)
        || (s.boxShadow && s.boxShadow !== 'none');
  };
  const r = el.getBoundingClientRect();
  return {
    name: (el.getAttribute('aria-label') || el.innerText || el.value || '').trim().slice(0, 60),
    tag: el.tagName, ring: ring(el) || ring(el.closest('label')),
    visible: r.width > 0 && r.height > 0,
  };
}"""


class Keyboard:
    """Tab through a page like a keyboard user, noting every focus without a ring."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.no_ring: list[str] = []
        self.stops = 0

    def tab_to(self, pattern: str, *, limit: int = 150) -> None:
        wanted = re.compile(pattern)
        for _ in range(limit):
            self.page.keyboard.press("Tab")
            info = self.page.evaluate(FOCUS_INFO)
            if info is None:
                continue
            self.stops += 1
            if info["visible"] and not info["ring"]:
                self.no_ring.append(f"{self.page.url} {info['tag']} {info['name']!r}")
            if wanted.search(info["name"]):
                return
        raise AssertionError(f"Tab never reached {pattern!r} on {self.page.url}")

    def press(self, pattern: str, key: str = "Enter") -> None:
        self.tab_to(pattern)
        self.page.keyboard.press(key)

    def tab_round(self, *, limit: int = 400) -> list[str]:
        """Tab once through the whole page (until the first stop comes round
        again); returns the names reached. A stop on the page itself (focus
        back on <body>, e.g. after a live swap) is passed over."""
        names: list[str] = []
        first = None
        for _ in range(limit):
            self.page.keyboard.press("Tab")
            info = self.page.evaluate(FOCUS_INFO)
            if info is None:
                continue
            key = f"{info['tag']}:{info['name']}"
            if key == first and len(names) > 3:
                break
            first = first or key
            self.stops += 1
            names.append(info["name"])
            if info["visible"] and not info["ring"]:
                self.no_ring.append(f"{self.page.url} {info['tag']} {info['name']!r}")
        return names


def _make_class(server: Any) -> dict[str, Any]:
    code = (
        "import json; from django.contrib.auth import get_user_model;"
        "from classroom.models import SchoolClass, Pupil;"
        "t = get_user_model().objects.get(username='demo@example.org');"
        f"c, _ = SchoolClass.objects.get_or_create(teacher=t, name={CLASS_NAME!r});"
        "names = ['Abel', 'Bérénice', 'Cyril'];"
        "[Pupil.objects.get_or_create(school_class=c, display_name=n,"
        " defaults={'avatar': 'chat', 'picture_code': [i + 1, i + 2]}) for i, n in enumerate(names)];"
        "print(json.dumps({'class': c.pk, 'pupils': list(c.pupils.order_by('display_name')"
        ".values('pk', 'display_name', 'picture_code'))}))"
    )
    return json.loads(server.shell(code).splitlines()[-1])


def _session_code(server: Any, class_id: int) -> str:
    code = (
        "from classroom.models import ClassSession;"
        f"print(ClassSession.objects.filter(school_class_id={class_id}, ended_at__isnull=True)"
        ".latest('pk').join_code)"
    )
    return server.shell(code).splitlines()[-1].strip()


def test_a_teacher_runs_a_session_with_the_keyboard_alone(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    info = _make_class(server)
    context = browser.new_context(viewport=LAPTOP, locale="fr-FR", reduced_motion="reduce")
    page = context.new_page()
    keys = Keyboard(page)

    # Sign in: the e-mail field has the focus; Tab to the password; Enter.
    page.goto(f"{server.url}/teacher/login/")
    # The browser applies autofocus when it next draws the page, which may come
    # after the load event: wait for it, or the first keys go nowhere (seen once
    # under load in CI: the form came back empty).
    page.wait_for_function("document.activeElement && document.activeElement.type === 'email'")
    page.keyboard.type("demo@example.org")
    page.keyboard.press("Tab")
    page.keyboard.type("souris-demo-2026")
    page.keyboard.press("Enter")
    page.wait_for_url("**/teacher/")

    # The class, then "Lancer une séance", then the form's own submit button.
    keys.press(re.escape(CLASS_NAME))
    page.wait_for_url(f"**/teacher/classes/{info['class']}/")
    keys.press("Lancer une séance")
    page.wait_for_url("**/sessions/new/")
    keys.press("Ouvrir la séance")
    page.wait_for_url(re.compile(r".*/teacher/sessions/\d+/$"))
    session_url = page.url

    # Three pupils join on their tablets (by touch).
    code = _session_code(server, info["class"])
    tablets = [_join(browser, server, code, pupil, TABLET) for pupil in info["pupils"]]

    # The session page, tabbed through from top to bottom: every stop shows a ring.
    page.reload()
    page.locator("#tablets").get_by_text("Cyril").wait_for()
    names = keys.tab_round()
    assert any("groupes de 3" in n for n in names), names
    assert any("Terminer la séance" in n for n in names), names
    axe_check(page, "teacher-session-keyboard")

    # Groups of 3 (a button), then start the tables.
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    keys.press("groupes de 3")
    page.locator(".table-card").first.wait_for()
    keys.press("Lancer 1 table")
    for tablet in tablets:
        tablet.wait_for_url("**/table/**", timeout=15_000)
    page.wait_for_load_state()

    # The monitor, reached by its link.
    page.goto(session_url)
    keys.press("Suivre les tables")
    page.wait_for_url("**/monitor/")
    page.locator(".mon-table").first.wait_for(timeout=10_000)
    page.screenshot(path=str(screenshots / "keyboard-monitor-1280x800.png"))
    axe_check(page, "monitor-keyboard")

    # End the session from the monitor: the browser asks first (refused: the
    # lesson goes on), then the confirm is accepted.
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    keys.press("Terminer la séance")
    page.wait_for_timeout(500)
    assert asked and "Terminer la séance ?" in asked[0], asked
    assert page.get_by_text("Cette séance est terminée").count() == 0
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    keys.press("Terminer la séance")
    page.get_by_text("Cette séance est terminée").wait_for(timeout=10_000)
    assert len(asked) == 2

    # Back to the class by the menu, then its report.
    keys.press("Mes classes")
    page.wait_for_url("**/teacher/")
    keys.press(re.escape(CLASS_NAME))
    page.wait_for_url(f"**/teacher/classes/{info['class']}/")
    keys.press("Rapport de la classe")
    page.wait_for_url("**/report/**")
    page.get_by_role("heading", name="Rapport de la classe").wait_for()
    page.keyboard.press("Tab")
    page.screenshot(path=str(screenshots / "keyboard-report-focus-1280x800.png"))

    assert keys.stops > 20
    assert keys.no_ring == [], f"focused without a visible ring: {keys.no_ring}"
    for tablet in tablets:
        tablet.context.close()
    context.close()
