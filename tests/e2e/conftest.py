"""Browser tests: Debian's chromium driven by Playwright, against a real ASGI server.

The server is ``manage.py runserver`` (daphne: HTTP and websockets) in a
subprocess, on a scratch SQLite database, seeded with the demo data. Playwright
never downloads a browser: it is given Debian's ``chromium``. Where chromium is
missing the tests are reported as not run, and ``.ci/run`` (which installs it)
fails if they did not run.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    e2e = [item for item in items if "tests/e2e/" in str(item.fspath).replace(os.sep, "/")]
    for item in e2e:
        item.add_marker(pytest.mark.e2e)
    # The browser tests run last: Playwright's sync API leaves its event loop
    # marked as running in the main thread, and an async test after it could
    # not start its own ("Runner.run() cannot be called from a running event loop").
    chosen = set(map(id, e2e))
    items[:] = [item for item in items if id(item) not in chosen] + e2e
    if not CHROMIUM:
        reason = "Browser tests NOT RUN: Debian's chromium is not installed (apt-get install -y chromium)."
        for item in e2e:
            item.add_marker(pytest.mark.skip(reason=reason))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveServer:
    def __init__(self, url: str, env: dict[str, str]) -> None:
        self.url = url
        self.env = env

    def manage(self, *args: str) -> str:
        """Run a management command against the server's database."""
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        )
        return result.stdout

    def shell(self, code: str) -> str:
        return self.manage("shell", "-c", code).strip()


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        {
            "SQLITE_PATH": str(db),
            "BOT_DELAY_MIN": "0.3",
            "BOT_DELAY_MAX": "0.5",
            # Purrfect's robots: slow enough for the test's pupils to trade too.
            "SIMULTANEOUS_BOT_DELAY_MIN": "2.0",
            "SIMULTANEOUS_BOT_DELAY_MAX": "3.5",
            "AXES_ENABLED": "False",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
    )
    server = LiveServer("", env)
    server.manage("migrate", "--noinput")
    server.manage("seed_demo")
    port = _free_port()
    # The server's log goes to a file: a pipe nobody reads fills up and then
    # blocks the server in the middle of a test.
    ARTIFACTS.parent.mkdir(parents=True, exist_ok=True)
    log = (ARTIFACTS.parent / "e2e-server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    server.url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.2)
    else:  # pragma: no cover - a server that never starts is the failure to see
        proc.kill()
        raise RuntimeError("the live server did not start; see artifacts/e2e-server.log")
    yield server
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover
        proc.kill()
    log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield FrenchBrowser(chromium)
        chromium.close()


# Every Content-Security-Policy violation seen by any page of the running test
# (the page's ``securitypolicyviolation`` events and chromium's "Refused to…"
# console errors). The autouse fixture below fails the test on any.
CSP_VIOLATIONS: list[str] = []

_CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error("CSP violation: " + e.violatedDirective + " blocked " + (e.blockedURI || "inline")
    + " at " + e.sourceFile + ":" + e.lineNumber + " sample=" + (e.sample || ""));
});
"""


def _watch_csp(context: Any) -> Any:
    context.add_init_script(_CSP_LISTENER)

    def on_console(message: Any) -> None:
        text = message.text
        if "Content Security Policy" in text or text.startswith("CSP violation"):
            CSP_VIOLATIONS.append(f"{message.page.url if message.page else '?'}: {text}")

    context.on("console", on_console)
    return context


@pytest.fixture(autouse=True)
def _no_csp_violation() -> Iterator[None]:
    """Browser tests run under the strict CSP the app serves in every mode: any
    violation (a refused inline script, style or handler) fails the test."""
    CSP_VIOLATIONS.clear()
    yield
    found = list(dict.fromkeys(CSP_VIOLATIONS))
    CSP_VIOLATIONS.clear()
    assert not found, "Content-Security-Policy violations:\n" + "\n".join(found)


class FrenchBrowser:
    """The browser as a French classroom's tablet: pages ask for French unless a
    test says otherwise (``locale=...``). Every context reports CSP violations."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **kwargs: Any) -> Any:
        kwargs.setdefault("locale", "fr-FR")
        return _watch_csp(self._browser.new_context(**kwargs))

    def new_page(self, **kwargs: Any) -> Any:
        context = self.new_context(**kwargs)
        page = context.new_page()
        # Closing the page closes its context too, as Browser.new_page does.
        page.on("close", lambda _page: context.close())
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def screenshots() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


_E2E_PASSED: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.passed and "tests/e2e/" in report.nodeid:
        _E2E_PASSED.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Leave a count of browser tests that ran and passed, for ``.ci/run`` to check."""
    marker = ROOT / "artifacts" / "e2e-passed.txt"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text("\n".join(_E2E_PASSED) + ("\n" if _E2E_PASSED else ""))


# --------------------------------------------------------------------------- accessibility
# axe-core (bundled by axe-playwright-python: nothing downloaded at run time) on
# every page the browser tests visit, against WCAG 2.2 AA. ``serious`` and
# ``critical`` violations fail the test; ``moderate`` and ``minor`` ones are
# printed (and listed in artifacts/axe/), each either fixed or justified below.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
AXE_FAILING = {"serious", "critical"}
# Moderate findings we keep on purpose, with the reason.
AXE_JUSTIFIED: dict[tuple[str, str], str] = {
    ("login-cards", "page-has-heading-one"): (
        "checked as printed: the page's h1 sits in the on-screen instructions,"
        " which print hides so that only the cards reach the paper"
    ),
}
AXE_DIR = ROOT / "artifacts" / "axe"


def axe_check(page: Any, name: str, *, include: str | None = None) -> list[dict[str, Any]]:
    """Run axe on the page as it is now. Fails on serious/critical violations;
    prints the others. Returns every violation (for tests that want more)."""
    from axe_playwright_python.sync_playwright import Axe

    options = {"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]}
    results = Axe().run(page, context=include, options=options)
    violations = list(results.response.get("violations", []))
    AXE_DIR.mkdir(parents=True, exist_ok=True)
    (AXE_DIR / f"{name}.json").write_text(
        __import__("json").dumps(violations, indent=1, ensure_ascii=False)
    )
    lines = []
    for violation in violations:
        impact = violation.get("impact") or "minor"
        targets = [" ".join(map(str, node.get("target", []))) for node in violation["nodes"]][:4]
        note = AXE_JUSTIFIED.get((name, violation["id"]), "")
        lines.append(
            f"  [{impact}] {violation['id']}: {violation['help']} ({len(violation['nodes'])}x)"
            f" {targets}{'  — justified: ' + note if note and impact not in AXE_FAILING else ''}"
        )
    print(
        f"axe {name}: {len(violations)} violation(s)" + ("\n" + "\n".join(lines) if lines else "")
    )
    lonely = emoji_alone(page)
    assert not lonely, f"{name}: emoji carrying meaning alone (no words beside): {lonely}"
    failing = [v for v in violations if v.get("impact") in AXE_FAILING]
    assert not failing, f"axe {name}: serious/critical violations:\n" + "\n".join(
        line for line in lines if "[serious]" in line or "[critical]" in line
    )
    return violations


EMOJI_ALONE = r"""() => {
  const emoji = /\p{Extended_Pictographic}/u;
  const words = (text) => (text || '').replace(/[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\uFE0F\u200D\s\p{P}\p{S}]/gu, '');
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!shown(el) || !emoji.test(el.innerText || '') || words(el.innerText)) continue;
    if (el.querySelector('svg, img') || el.closest('svg')) continue;
    // A control must say itself what it does; anything else needs words beside it.
    const control = el.matches('button, a, [role=button], summary, label');
    const around = control ? el : (el.closest('button, a, li, p, td, th, h1, h2, h3, h4, label, figure, div') || el.parentElement);
    if (around && around !== el && words(around.innerText)) continue;
    if (around && around !== el && around.querySelector('svg, img')) continue;
    found.push(`${el.tagName}.${el.className} ${JSON.stringify((el.innerText || '').trim().slice(0, 12))}`);
  }
  return [...new Set(found)];
}"""


def emoji_alone(page: Any) -> list[str]:
    """Visible emoji with no word (or drawing) beside them: the meaning would
    rest on the emoji alone."""
    return list(page.evaluate(EMOJI_ALONE))


@pytest.fixture(scope="session")
def axe() -> Any:
    """``axe(page, "name")``: the accessibility check every browser test can call."""
    return axe_check


def small_touch_targets(page: Any, selector: str, minimum: float = 44) -> list[str]:
    """Visible elements matching ``selector`` smaller than ``minimum`` CSS px in
    width or height (WCAG 2.2 target size, the house rule being 48)."""
    return list(
        page.evaluate(
            """([sel, min]) => Array.from(document.querySelectorAll(sel))
                .filter(el => el.offsetParent !== null || el.getClientRects().length)
                // A radio or checkbox is hit through its whole label.
                .map(el => (el.matches('input') && el.closest('label')) || el)
                .filter(el => { const r = el.getBoundingClientRect();
                                return r.width > 0 && (r.width < min - .5 || r.height < min - .5); })
                .map(el => { const r = el.getBoundingClientRect();
                    return `${el.tagName}.${el.className} "${(el.getAttribute('aria-label') || el.textContent).trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`; })""",
            [selector, minimum],
        )
    )
