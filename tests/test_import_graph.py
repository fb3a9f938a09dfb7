"""No import loop: every import between the project's packages, at module
level or inside a function, forms a graph without cycles, so any module can
be read (and imported) bottom-up.

Imports inside functions count too: a loop closed by an import inside a
function is still a loop for the reader, only hidden from the interpreter.
``if TYPE_CHECKING:`` blocks never run and are left out.
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


def _imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import the module can run: at load time or later, inside a
    function or class body. An import inside a function is still a
    dependency; counting it keeps a loop from hiding behind one. Only
    ``if TYPE_CHECKING:`` blocks are left out: they never run."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
            continue
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def project_files(packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """The project's modules by dotted name (migrations left out: generated)."""
    return {
        _module_name(path): path
        for package in packages
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    }


def imported_names(name: str, path: Path) -> set[str]:
    """Every module name an import of ``name`` may load, as absolute dotted
    names: ``from pkg import mod`` gives both ``pkg`` and ``pkg.mod`` (the
    submodule, when there is one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        else:
            base = _resolve(name, path.name == "__init__.py", node)
            found.update(f"{base}.{alias.name}" for alias in node.names)
            found.add(base)
    return found


def import_graph() -> dict[str, set[str]]:
    files = project_files()
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        # Importing ``a.b.c`` runs ``a`` and ``a.b`` too, but a parent
        # package's ``__init__`` is only an edge when it is named itself.
        graph[name] = {
            target for target in imported_names(name, path) if target in graph and target != name
        }
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


def test_no_import_cycle() -> None:
    graph = import_graph()
    cycles = find_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n\n".join(_describe(graph, c) for c in cycles)


def test_a_cycle_is_found_and_printed() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(graph) == [["a", "b", "c"]]
    assert "a -> b" in _describe(graph, ["a", "b", "c"])


def test_imports_inside_functions_count_and_type_checking_does_not() -> None:
    tree = ast.parse(
        "import a\n"
        "def f():\n    from b import c\n"
        "class K:\n    def m(self):\n        import d\n"
        "if TYPE_CHECKING:\n    import e\n"
    )
    names = sorted(
        alias.name if isinstance(node, ast.Import) else str(node.module)
        for node in _imports(tree)
        for alias in node.names[:1]
    )
    assert names == ["a", "b", "d"]
