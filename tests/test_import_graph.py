"""No import loop: the module-level imports of the project's packages form a
graph without cycles, so any module can be read (and imported) bottom-up.

Imports inside functions are left out on purpose: they are how a module
reaches upward at call time without a loop at import time.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cardgames", "classroom", "config")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports run when the module loads: at top level or in a top-level
    ``if``/``try`` block, never inside a function or class body."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If | ast.Try):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue  # never executed
            stack.extend(node.body)
            stack.extend(node.orelse)
            if isinstance(node, ast.Try):
                stack.extend(node.finalbody)
                for handler in node.handlers:
                    stack.extend(handler.body)
    return found


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def import_graph() -> dict[str, set[str]]:
    files = {
        _module_name(path): path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    }
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _top_level_imports(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = _resolve(name, path.name == "__init__.py", node)
                # ``from pkg import mod`` imports the submodule when there is one.
                targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
            for target in targets:
                # Importing ``a.b.c`` runs ``a`` and ``a.b`` too, but a parent
                # package's ``__init__`` is only an edge when it is named itself.
                if target in graph and target != name:
                    graph[name].add(target)
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def _describe(graph: dict[str, set[str]], group: list[str]) -> str:
    members = set(group)
    edges = [f"  {a} -> {b}" for a in group for b in sorted(graph[a] & members)]
    return "\n".join([", ".join(group), *edges])


def test_the_graph_sees_the_projects_imports() -> None:
    graph = import_graph()
    assert "cardgames.services.moves" in graph["cardgames.services.bots"]
    assert "cardgames.services" in graph["cardgames.runtime"]


def test_no_module_level_import_cycle() -> None:
    graph = import_graph()
    cycles = find_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n\n".join(_describe(graph, c) for c in cycles)


def test_a_cycle_is_found_and_printed() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(graph) == [["a", "b", "c"]]
    assert "a -> b" in _describe(graph, ["a", "b", "c"])
