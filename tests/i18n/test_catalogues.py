"""``makemessages`` leaves no untranslated or fuzzy entry in German and English.

The committed catalogues are copied with the sources into a scratch folder,
``makemessages`` runs there (the repository is never touched), and every
German and English entry must then be translated and not fuzzy: a string
added to the code without its translations fails here.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("cardgames", "classroom", "config", "templates", "locale")


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_makemessages_leaves_nothing_untranslated_or_fuzzy(tmp_path: Path) -> None:
    for name in SOURCES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "de", "-l", "en", "--no-obsolete"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(tmp_path),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        },
        timeout=300,
    )
    problems = []
    for lang in ("de", "en"):
        catalogue = polib.pofile(str(tmp_path / "locale" / lang / "LC_MESSAGES" / "django.po"))
        for entry in catalogue:
            if entry.obsolete:
                continue
            if "fuzzy" in entry.flags:
                problems.append(f"{lang} fuzzy: {entry.msgid!r}")
            elif not entry.translated():
                problems.append(f"{lang} untranslated: {entry.msgid!r}")
    assert not problems, f"{len(problems)} entries:\n" + "\n".join(problems[:40])
