"""``docs/architecture.md`` stays true to the tree and short enough to read.

- every path it writes in backticks (`cardgames/services/moves.py`,
  `classroom/selectors/`) exists; a bare module name after a path on the same
  line (`classroom/services/classes.py`, `pupils.py`) is that path's sibling;
- every module of ``cardgames/``, ``classroom/`` and ``config/`` is named,
  except migrations, ``__init__.py``, management commands, template tags and
  the files of a package the page names as a whole (written `path/` package);
- every link to another file of the repository leads somewhere;
- it stays under 320 lines: measurements and their history belong in
  ``docs/performance.md``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
APPS = ("cardgames", "classroom", "config")
TOP_LEVEL = (*APPS, "tests", "benchmarks", "docs", "templates", "static", "locale")
MAX_LINES = 320

_TICKED = re.compile(r"`([^`\s]+)`")
_WHOLE_PACKAGE = re.compile(r"`([\w/]+/)` package\b")
_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
_BARE_MODULE = re.compile(r"^\w+\.py$")


def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def named_paths(text: str) -> set[str]:
    """The repository paths the page writes in backticks, siblings resolved;
    placeholders (`cardgames/engines/<game>.py`) left out."""
    found: set[str] = set()
    for line in text.splitlines():
        folder = None
        for token in _TICKED.findall(line):
            if "<" in token or "*" in token:
                continue
            if token.split("/")[0] in TOP_LEVEL and "/" in token:
                found.add(token)
                folder = token if token.endswith("/") else token.rsplit("/", 1)[0] + "/"
            elif folder and _BARE_MODULE.match(token):
                found.add(folder + token)
    return found


def whole_packages(text: str) -> set[str]:
    return set(_WHOLE_PACKAGE.findall(text))


def modules_to_name(packages: set[str]) -> set[str]:
    modules = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            parts = path.relative_to(ROOT).parts
            if (
                "migrations" in parts
                or "templatetags" in parts
                or path.name == "__init__.py"
                or "/management/commands/" in rel
                or any(rel.startswith(package) for package in packages)
            ):
                continue
            modules.add(rel)
    return modules


def test_every_path_it_names_exists() -> None:
    missing = sorted(path for path in named_paths(_text()) if not (ROOT / path).exists())
    assert missing == []


def test_every_package_named_whole_is_a_package() -> None:
    packages = whole_packages(_text())
    assert packages, "the layout names no package as a whole"
    assert sorted(p for p in packages if not (ROOT / p / "__init__.py").is_file()) == []


def test_every_module_is_named() -> None:
    text = _text()
    unnamed = sorted(modules_to_name(whole_packages(text)) - named_paths(text))
    assert unnamed == []


def test_every_link_leads_somewhere() -> None:
    broken = sorted(
        target
        for target in _LINK.findall(_text())
        if "://" not in target and not (DOC.parent / target).exists()
    )
    assert broken == []


def test_it_stays_short() -> None:
    lines = len(_text().splitlines())
    assert lines < MAX_LINES, f"{lines} lines: move detail to docs/performance.md or the code"


def test_the_reading_sees_siblings_placeholders_and_packages() -> None:
    text = (
        "| `classroom/services/classes.py`, `pupils.py` | x |\n"
        "`cardgames/engines/<game>.py`, `manage.py`, `cardgames/ui/chasse/` package\n"
    )
    assert named_paths(text) == {
        "classroom/services/classes.py",
        "classroom/services/pupils.py",
        "cardgames/ui/chasse/",
    }
    assert whole_packages(text) == {"cardgames/ui/chasse/"}
