"""No string is translated at import time, anywhere.

A ``gettext`` run while a module is imported freezes the sentence in whatever
language was active then (the first request's, a worker's default), and every
later visitor gets it. Two checks:

* the whole project imported in a fresh interpreter whose language is German,
  then the pupil's practice set-up rendered in English: not one French
  sentence of the catalogue may show;
* a static sweep: no ``gettext``/``ngettext``/``pgettext`` (non-lazy) call at
  module or class level in any of the project's modules.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("cardgames", "classroom", "config")

PROBE = r"""
import importlib, json, os, pkgutil, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "probe_settings"
import django
django.setup()
from django.utils import translation
translation.activate("de")
for package in ("cardgames", "classroom", "config"):
    module = importlib.import_module(package)
    for info in pkgutil.walk_packages(module.__path__, package + "."):
        if info.name.endswith(".asgi") or ".management.commands." in info.name:
            continue
        importlib.import_module(info.name)
translation.deactivate()
from types import SimpleNamespace
from django.template.loader import render_to_string
from cardgames.ui import bot_level_choices
with translation.override("en"):
    html = render_to_string(
        "classroom/practice/setup.html",
        {
            "pupil": SimpleNamespace(display_name="Zed", avatar="fox"),
            "avatar_url": "",
            "bot_choices": range(1, 6),
            "levels": bot_level_choices(),
            "bots": 2,
            "level": "easy",
            "error": "",
        },
    )
print(json.dumps(html))
"""


def _french_only_sentences() -> set[str]:
    """Every French msgid whose English differs (so seeing it means French leaked)."""
    import gettext

    with (ROOT / "locale" / "en" / "LC_MESSAGES" / "django.mo").open("rb") as handle:
        catalog = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
    found = set()
    for key, value in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not msgid or "%(" in msgid or len(msgid) < 5 or msgid == value:
            continue
        found.add(msgid)
    return found


def test_german_imports_then_english_practice_setup_has_no_french(tmp_path: Path) -> None:
    (tmp_path / "probe_settings.py").write_text(
        "from config.settings import *  # noqa\nLANGUAGE_CODE = 'de'\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": "/usr/bin:/bin", "TESTING": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    html = json.loads(result.stdout.strip().splitlines()[-1])
    assert "Easy" in html and "Medium" in html and "Hard" in html
    leaked = sorted(s for s in _french_only_sentences() if s in html)
    assert not leaked, f"French on the English practice set-up: {leaked}"
    for word in ("Facile", "Moyen", "Difficile", "robots de quel niveau", "Entraînement"):
        assert word not in html


EAGER = {"gettext", "ngettext", "pgettext", "npgettext"}


def _eager_names(tree: ast.Module) -> set[str]:
    """Local names bound to Django's non-lazy translation functions."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
            for alias in node.names:
                if alias.name in EAGER:
                    names.add(alias.asname or alias.name)
    return names


def _calls_outside_functions(node: ast.AST, eager: set[str]) -> list[int]:
    found: list[int] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(child, ast.Call):
            func = child.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in eager:
                found.append(child.lineno)
        found.extend(_calls_outside_functions(child, eager))
    return found


def test_no_eager_translation_at_module_or_class_level() -> None:
    offenders = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(), str(path))
            eager = _eager_names(tree)
            if eager:
                offenders += [
                    f"{path.relative_to(ROOT)}:{line}"
                    for line in _calls_outside_functions(tree, eager)
                ]
    assert not offenders, f"translated at import time: {offenders}"
