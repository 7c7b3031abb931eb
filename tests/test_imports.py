"""The import graph of ``src/lupus`` has no cycle, hidden imports included.

Every ``import`` counts, at module level or inside a function (a function-level import
is how a cycle hides), except those under ``if TYPE_CHECKING:`` (never run). Layers
then read bottom up: the engine's core, the rulebooks' data, the families and their
roles, the registry of families, the bots and the simulator, the front ends.
"""

from __future__ import annotations

import ast
from pathlib import Path

from strongly_connected import strongly_connected

SRC = Path(__file__).parent.parent / "src"
PACKAGE = SRC / "lupus"


def module_of(path: Path) -> str:
    dotted = ".".join(path.relative_to(SRC).with_suffix("").parts)
    return dotted.removesuffix(".__init__")


MODULES = {module_of(p): p for p in PACKAGE.rglob("*.py")}


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(module: str) -> set[str]:
    """The lupus modules ``module`` imports (run-time imports only)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text("utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in MODULES else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {name for name in found if name in MODULES and name != module}


GRAPH = {module: imports_of(module) for module in MODULES}


def cycles() -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan)."""
    return strongly_connected(GRAPH)


def test_the_graph_is_read() -> None:
    assert "lupus.village.game" in GRAPH["lupus.roles.seer"]
    assert "lupus.engine.game" in GRAPH["lupus.village.game"]


def test_no_import_cycle() -> None:
    assert cycles() == []


def test_the_engine_and_the_rulebooks_import_no_family() -> None:
    """The shared core and the data know nothing of a family's mechanics."""
    lower = [m for m in GRAPH if m.startswith(("lupus.engine", "lupus.rulebooks"))]
    for module in lower:
        for imported in GRAPH[module]:
            assert not imported.startswith(
                ("lupus.village", "lupus.roles", "lupus.lupusburg", "lupus.families")
            ), f"{module} imports {imported}"


def test_only_the_registry_names_the_families() -> None:
    """Outside the families themselves, only ``lupus.families`` imports them."""
    for module, imported in GRAPH.items():
        if module.startswith(("lupus.village", "lupus.roles", "lupus.lupusburg")):
            continue
        if module == "lupus.families":
            continue
        family = sorted(
            i for i in imported if i.startswith(("lupus.village", "lupus.roles", "lupus.lupusburg"))
        )
        assert not family, f"{module} imports {family}"


def test_a_family_imports_no_other_family() -> None:
    for module, imported in GRAPH.items():
        if module.startswith("lupus.lupusburg"):
            assert not any(i.startswith(("lupus.village", "lupus.roles")) for i in imported)
        if module.startswith(("lupus.village", "lupus.roles")):
            assert not any(i.startswith("lupus.lupusburg") for i in imported)
