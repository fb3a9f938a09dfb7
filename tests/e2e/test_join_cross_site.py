"""Issue 44, item 2, in a real browser: a page on another site loops image
requests to ``/join?code=…`` (no cookie or CSRF token needed) while a tablet
of the same school network types the right code. Before, the tablet was told
"Un instant…" 25 times out of 25; now a GET checks nothing and the tablet
gets in on its first try."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ROOT
from tests.e2e.test_play_chasse import CLASS_NAME, _teacher

# Another origin (another host) of the same machine, served by a real server:
# chromium refuses loopback images to a public or a faked (``page.route``) page.
EVIL_HOST, EVIL_PORT = "127.0.0.2", 8121
TABLET = {"width": 1024, "height": 768}
FLOOD = """<!doctype html><title>jeux gratuits</title><script>
window.sent = 0;
function flood() {
  for (let i = 0; i < 5; i++) {
    new Image().src = "%(server)s/join?code=" + String(100000 + Math.floor(Math.random() * 899999));
    window.sent++;
  }
}
setInterval(flood, 50);  // 100 requests a second: what filled the budget before
</script>"""


@pytest.fixture
def evil_site(live_server_url: Any) -> Iterator[str]:
    """The other site: one HTML page that floods the school's server."""
    body = (FLOOD % {"server": live_server_url.url}).encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.HTTPServer((EVIL_HOST, EVIL_PORT), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://{EVIL_HOST}:{EVIL_PORT}/"
    server.shutdown()
    server.server_close()


def test_a_tablet_gets_in_while_another_site_floods_get_join(
    live_server_url: Any, browser: Any, evil_site: str
) -> None:
    server = live_server_url
    code = "739146"
    info = json.loads(
        server.shell(
            "import json; from classroom.models import ClassSession, SchoolClass;"
            f"c = SchoolClass.objects.get(name='{CLASS_NAME}');"
            "ClassSession.objects.filter(school_class=c, ended_at__isnull=True).update(join_code='000001');"
            f"s = ClassSession.objects.create(school_class=c, join_code='{code}');"
            "print(json.dumps({'pupil': c.pupils.order_by('pk').first().display_name,"
            " 'session': s.pk}))"
        ).splitlines()[-1]
    )
    # As in class: the teacher's laptop shows the session page, which makes the
    # school's network the lesson's home (a right code from it always gets in,
    # whatever wrong codes the network sent before, in this test run too).
    teacher, teacher_page = _teacher(browser, server)
    teacher_page.goto(f"{server.url}/teacher/sessions/{info['session']}/")
    # The other site, open on some computer of the school (same public IP).
    evil = browser.new_context()
    evil_page = evil.new_page()
    evil_page.goto(evil_site)
    evil_page.wait_for_function("window.sent > 350", timeout=30_000)  # past the old budget (300)
    flooded = int(server.shell(
        "from django.contrib.sessions.models import Session; print(Session.objects.count())"
    ).splitlines()[-1])
    # A tablet types the code on the board, while the flood goes on.
    tablet = browser.new_context(viewport=TABLET, has_touch=True)
    page = tablet.new_page()
    page.goto(f"{server.url}/join")
    # A child's pace: each digit shows before the next tap (a tap during the
    # pad's swap could land on the old pad, under a flood most of all).
    for n, digit in enumerate(code, start=1):
        page.get_by_role("button", name=digit, exact=True).click()
        if n < len(code):
            expect(page.locator(".code-box.filled")).to_have_count(n, timeout=30_000)
    # The budget is the point, not the test server's speed under a flood.
    page.wait_for_url(f"{server.url}/join/names/", timeout=30_000)
    assert info["pupil"] in page.locator("main").inner_text()
    assert evil_page.evaluate("window.sent") > 400
    # The flood reached the server, and left no session row behind.
    assert (ROOT / "artifacts" / "e2e-server.log").read_text().count("GET /join?code=") > 100
    sessions = server.shell(
        "from django.contrib.sessions.models import Session; print(Session.objects.count())"
    )
    assert int(sessions.splitlines()[-1]) == flooded + 1  # the tablet's own, nothing else
    # A QR link with the code only fills the keypad; one big tap gets in.
    other = browser.new_context(viewport=TABLET, has_touch=True).new_page()
    other.goto(f"{server.url}/join?code={code}")
    enter = other.get_by_role("button", name=f"Entrer avec le code {code}")
    box = enter.bounding_box()
    assert box is not None and box["height"] >= 48
    enter.click()
    other.wait_for_url(f"{server.url}/join/names/", timeout=30_000)
    evil.close()
    tablet.close()
    teacher.close()
