"""``make lock`` and ``make lock-check``: one lock file, the same install everywhere.

``requirements/lock.txt`` pins every dependency (runtime, dev, the build
backend, pip itself) to one version with the sha256 of each of its files, made
by pip-tools' ``pip-compile --generate-hashes``. pip-tools rather than uv's lock
because its output is a plain requirements file: stock pip installs it with
``--require-hashes`` on a fresh clone, in CI and on a school's server, with no
extra tool to trust first (a ``uv.lock`` needs uv to read it). pip-tools is a
dev dependency, so ``make lock`` runs from the project's own, locked venv.

``lock`` re-runs the resolver. Versions already in the lock are kept (pip-compile
only moves what pyproject's ranges no longer allow); ``--upgrade`` takes the
newest each range allows. The machine's pip configuration is ignored, so the
hashes are those of the files on PyPI, the ones a fresh machine downloads.

``check`` works offline in well under a second (CI runs it before anything is
installed from the lock): the lock's header holds the sha256 of pyproject's
dependency lists as they were locked, and every requirement in those lists must
name a locked version its range allows, with hashes on every pin. Re-running the
resolver as the check would need PyPI and a minute, and would fail the build
whenever PyPI publishes a new release, which is not a disagreement.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
LOCK = ROOT / "requirements" / "lock.txt"
HEADER = "# pyproject-dependencies-sha256: "
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def dependency_lists(pyproject: Path = PYPROJECT) -> dict[str, object]:
    """What the lock is made from: the runtime and optional dependencies, the
    build backend's requirements and the Pythons allowed."""
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    project = data.get("project", {})
    return {
        "dependencies": project.get("dependencies", []),
        "optional-dependencies": project.get("optional-dependencies", {}),
        "build-system": data.get("build-system", {}).get("requires", []),
        "requires-python": project.get("requires-python", ""),
    }


def inputs_digest(pyproject: Path = PYPROJECT) -> str:
    """A digest that changes with the dependency lists and with nothing else in
    pyproject (a ruff rule or a pytest option does not need a new lock)."""
    canonical = json.dumps(dependency_lists(pyproject), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def locked_pins(text: str) -> dict[str, tuple[Version, int]]:
    """Each locked package: its version and how many hashes follow its pin."""
    pins: dict[str, tuple[Version, int]] = {}
    current: str | None = None
    for line in text.splitlines():
        stripped = line.strip()
        match = PIN.match(line)
        if match:
            current = canonicalize_name(match.group(1))
            pins[current] = (Version(match.group(2)), stripped.count("--hash="))
        elif current and stripped.startswith("--hash="):
            version, hashes = pins[current]
            pins[current] = (version, hashes + 1)
        elif stripped and not stripped.startswith("#"):
            current = None
    return pins


def disagreements(pyproject: Path = PYPROJECT, lock: Path = LOCK) -> list[str]:
    """Every way the lock and pyproject disagree, in words (empty: they agree)."""
    if not lock.exists():
        return [f"{lock.relative_to(ROOT)} is missing"]
    text = lock.read_text(encoding="utf-8")
    problems: list[str] = []
    recorded = next(
        (line[len(HEADER) :].strip() for line in text.splitlines() if line.startswith(HEADER)), None
    )
    if recorded != inputs_digest(pyproject):
        problems.append("pyproject.toml's dependency lists changed since the lock was made")
    pins = locked_pins(text)
    lists = dependency_lists(pyproject)
    wanted: list[str] = [*lists["dependencies"], *lists["build-system"]]  # type: ignore[misc]
    for extra in lists["optional-dependencies"].values():  # type: ignore[attr-defined]
        wanted.extend(extra)
    for spec in wanted:
        requirement = Requirement(spec)
        name = canonicalize_name(requirement.name)
        if name not in pins:
            problems.append(f"{requirement.name} is not in the lock")
        elif not requirement.specifier.contains(pins[name][0], prereleases=True):
            problems.append(
                f"{requirement.name}=={pins[name][0]} is outside {requirement.specifier}"
            )
    problems.extend(f"{name} has no --hash" for name, (_v, hashes) in pins.items() if hashes == 0)
    return problems


def check() -> int:
    problems = disagreements()
    if problems:
        print(
            "make lock-check: pyproject.toml and requirements/lock.txt disagree:", file=sys.stderr
        )
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        print("Run `make lock` and commit requirements/lock.txt.", file=sys.stderr)
        return 1
    print("make lock-check: requirements/lock.txt matches pyproject.toml")
    return 0


def lock(upgrade: bool) -> int:
    LOCK.parent.mkdir(exist_ok=True)
    # Relative paths: the lock's "via" comments must not name this checkout.
    command = [
        sys.executable, "-m", "piptools", "compile", "pyproject.toml",
        "--extra", "dev", "--all-build-deps",
        "--generate-hashes", "--allow-unsafe", "--strip-extras",
        "--no-emit-index-url", "--no-emit-find-links", "--no-emit-trusted-host",
        "--index-url", "https://pypi.org/simple",
        "--output-file", str(LOCK.relative_to(ROOT)),
    ]  # fmt: skip
    if upgrade:
        command.append("--upgrade")
    # The machine's own pip configuration (local wheel folders, mirrors) must
    # not leak into the lock: its hashes are those of PyPI's files.
    # The header's "To update, run:" names the make target.
    environment = {
        **os.environ,
        "PIP_CONFIG_FILE": os.devnull,
        "CUSTOM_COMPILE_COMMAND": "make lock",
    }
    completed = subprocess.run(command, cwd=ROOT, env=environment, check=False)
    if completed.returncode != 0:
        return completed.returncode
    lines = [
        line
        for line in LOCK.read_text(encoding="utf-8").splitlines()
        if not line.startswith(HEADER)
    ]
    at = next(index for index, line in enumerate(lines) if not line.startswith("#"))
    lines.insert(at, f"{HEADER}{inputs_digest()}")
    LOCK.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return check()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("action", choices=["lock", "check"])
    parser.add_argument("--upgrade", action="store_true", help="take the newest versions allowed")
    arguments = parser.parse_args()
    return check() if arguments.action == "check" else lock(arguments.upgrade)


if __name__ == "__main__":
    sys.exit(main())
