"""Honest layers: each package does what its name says, and imports only
what sits below it. One test per rule, so a break names the rule it breaks.

Imports are read as ``tests/test_import_graph.py`` reads them: at module level
and inside functions alike (an import put inside a function to dodge a rule
still breaks it); ``if TYPE_CHECKING:`` blocks never run and are left out.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from tests.test_import_graph import ROOT, _module_name, imported_names, project_files

# The benchmarks run as scripts; these modules are what they share. A script
# never imports another one: what two of them need lives here.
BENCHMARK_SHARED = {
    "benchmarks.common",
    "benchmarks.fault_services",
    "benchmarks.robots",
    "benchmarks.echo_asgi",
    "benchmarks.tablets",
}

# The calls that write through the ORM. ``update`` is also ``dict.update``:
# it counts only on a manager or a queryset (``Model.objects...update()``).
_WRITES = {
    "save",
    "delete",
    "bulk_create",
    "bulk_update",
    "create",
    "get_or_create",
    "update_or_create",
    "select_for_update",
}
_QUERYSET_STEPS = {
    "objects",
    "filter",
    "exclude",
    "all",
    "select_related",
    "prefetch_related",
    "order_by",
    "annotate",
    "values",
    "only",
    "defer",
    "distinct",
}
# SQL that changes rows or tables, in a string a selector would run.
_SQL_WRITE = re.compile(r"\b(INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\S+\s+SET|DROP\s|TRUNCATE\s)")


def _modules(prefix: str) -> dict[str, Path]:
    return {
        name: path
        for name, path in project_files().items()
        if name == prefix or name.startswith(prefix + ".")
    }


def _within(target: str, packages: tuple[str, ...]) -> bool:
    return any(target == p or target.startswith(p + ".") for p in packages)


def _breaks(modules: dict[str, Path], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{name} -> {target}"
        for name, path in modules.items()
        for target in imported_names(name, path)
        if _within(target, forbidden)
    )


def test_selectors_import_no_service_nor_view() -> None:
    """Selectors read; what they read must not depend on what writes."""
    forbidden = (
        "classroom.services",
        "classroom.views",
        "classroom.consumers",
        "cardgames.services",
        "cardgames.views",
        "cardgames.consumers",
    )
    assert _breaks(_modules("classroom.selectors"), forbidden) == []


def _receiver_is_queryset(node: ast.expr) -> bool:
    while isinstance(node, ast.Call | ast.Attribute):
        if isinstance(node, ast.Attribute) and node.attr in _QUERYSET_STEPS:
            return True
        node = node.func if isinstance(node, ast.Call) else node.value
    return False


def writes_in(tree: ast.AST) -> list[str]:
    """The ORM writes and the SQL writes in a module, as ``line: what``."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            if method in _WRITES or (method == "update" and _receiver_is_queryset(node.func.value)):
                found.append(f"{node.lineno}: .{method}()")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            match = _SQL_WRITE.search(node.value)
            if match:
                found.append(f"{node.lineno}: SQL {match.group(1).split()[0]}")
    return found


def test_selectors_only_read() -> None:
    breaks = [
        f"{name}:{write}"
        for name, path in _modules("classroom.selectors").items()
        for write in writes_in(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert breaks == []


def test_the_write_check_sees_writes() -> None:
    tree = ast.parse(
        "Pupil.objects.filter(x=1).update(y=2)\n"
        "context.update(a=1)\n"
        "row.save()\n"
        "Summary.objects.bulk_create(rows)\n"
        "SQL = 'DELETE FROM t WHERE id = %s'\n"
        "READ = 'SELECT a FROM t'\n"
    )
    assert writes_in(tree) == ["1: .update()", "3: .save()", "4: .bulk_create()", "5: SQL DELETE"]


def test_services_import_no_view_nor_consumer() -> None:
    forbidden = ("classroom.views", "classroom.consumers", "cardgames.views", "cardgames.consumers")
    modules = {**_modules("classroom.services"), **_modules("cardgames.services")}
    assert _breaks(modules, forbidden) == []


def test_the_game_services_read_a_table_below_the_screens() -> None:
    """A move reads its table (``cardgames.snapshot``) without importing the
    code that draws it; the snapshot is below both."""
    modules = {**_modules("cardgames.services"), **_modules("cardgames.snapshot")}
    assert _breaks(modules, ("cardgames.rendering",)) == []
    assert _breaks(_modules("cardgames.snapshot"), ("cardgames.services",)) == []


def test_cardgames_imports_no_classroom_nor_config() -> None:
    """The game platform knows no classes and no deployment: ``classroom``
    builds on it, ``config`` wires both."""
    assert _breaks(_modules("cardgames"), ("classroom", "config")) == []


def test_engines_import_only_the_standard_library() -> None:
    """An engine is pure Python: it runs in a test, a benchmark or a robot's
    search without Django."""
    breaks = sorted(
        f"{name} -> {target}"
        for name, path in _modules("cardgames.engines").items()
        for target in imported_names(name, path)
        if target.split(".")[0] not in sys.stdlib_module_names
        and not _within(target, ("cardgames.engines",))
        and target not in ("cardgames", "__future__")
    )
    assert breaks == []


def test_benchmarks_import_no_other_benchmark() -> None:
    """Each benchmark runs on its own; what two of them need is shared
    (``BENCHMARK_SHARED``), never taken from another benchmark."""
    files = {_module_name(path): path for path in (ROOT / "benchmarks").glob("*.py")}
    breaks = sorted(
        f"{name} -> {target}"
        for name, path in files.items()
        for target in imported_names(name, path)
        if target in files and target != name and target not in BENCHMARK_SHARED
    )
    assert breaks == []
