"""No function of the app runs past 80 lines unless its docstring says why
("on purpose: ..."): a long function is where the next change gets lost."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cardgames", "classroom", "config")
LIMIT = 80


def _app_files() -> list[Path]:
    return [
        path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    ]


def long_functions(paths: list[Path], root: Path = ROOT) -> list[str]:
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            reason = "on purpose" in (ast.get_docstring(node) or "")
            if length > LIMIT and not reason:
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_function_is_long_without_its_reason() -> None:
    assert long_functions(_app_files()) == []


def test_the_check_sees_a_long_function_and_its_reason(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    (tmp_path / "long.py").write_text(f"def f():\n{body}\n")
    (tmp_path / "said.py").write_text(f'def g():\n    """Long on purpose: a table."""\n{body}\n')
    (tmp_path / "short.py").write_text("def h():\n    return 1\n")
    files = sorted(tmp_path.glob("*.py"))
    assert long_functions(files, root=tmp_path) == ["long.py:1 f (81 lines)"]
