"""The source stays in parts a reader can hold (issue 26 item 4): no module of
``src/lupus`` over ``MAX_MODULE`` lines, no function over ``MAX_FUNCTION``, and no
import circle among its modules, type-only imports (``if TYPE_CHECKING:``) included.

Today's known offenders are listed below, explicitly, to be emptied: a new offender
fails the test, and so does an entry that no longer offends (the list only shrinks).
"""

from __future__ import annotations

import ast
from pathlib import Path

from shrinking import only_shrinks
from strongly_connected import strongly_connected

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "lupus"

MAX_MODULE = 420
MAX_FUNCTION = 60

ALLOWED_MODULES: frozenset[str] = frozenset()
"""Modules over ``MAX_MODULE`` lines today (to be split)."""

ALLOWED_FUNCTIONS: frozenset[str] = frozenset()
"""Functions over ``MAX_FUNCTION`` lines today (to be cut)."""

ALLOWED_CIRCLES: frozenset[frozenset[str]] = frozenset()
"""Import circles today, each the set of modules that import each other."""


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules ``name`` imports at module level, under ``if`` blocks
    (``TYPE_CHECKING``) and ``try`` too, but not inside functions (a deferred import
    is how a circle is broken at run time, and then no circle of the design)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, (ast.If, ast.Try)):
            todo.extend(node.body)
            todo.extend(node.orelse)
            if isinstance(node, ast.Try):
                todo.extend(node.finalbody)
                for handler in node.handlers:
                    todo.extend(handler.body)
    return {other for other in found if other in known and other != name}


def circles() -> list[frozenset[str]]:
    """The strongly connected parts (Tarjan) of the import graph with two or more
    modules: each is one circle, or several sharing modules."""
    known = modules()
    graph = {name: imported(name, path, known) for name, path in known.items()}
    return [frozenset(part) for part in strongly_connected(graph)]


def long_functions() -> dict[str, int]:
    """Every function over ``MAX_FUNCTION`` lines, by its qualified name."""
    found: dict[str, int] = {}
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))

        def walk(node: ast.AST, prefix: str) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    qualified = f"{prefix}.{child.name}"
                    length = (child.end_lineno or child.lineno) - child.lineno + 1
                    if not isinstance(child, ast.ClassDef) and length > MAX_FUNCTION:
                        found[qualified] = length
                    walk(child, qualified)
                else:
                    walk(child, prefix)

        walk(tree, name)
    return found


def long_modules() -> dict[str, int]:
    """Every module over ``MAX_MODULE`` lines."""
    lines = {
        name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in modules().items()
    }
    return {name: n for name, n in lines.items() if n > MAX_MODULE}


def test_the_allow_lists_are_shown() -> None:
    """The lead empties these lists: printed so that a run shows what is left."""
    print("modules allowed over", MAX_MODULE, "lines:", sorted(ALLOWED_MODULES))
    print("functions allowed over", MAX_FUNCTION, "lines:", sorted(ALLOWED_FUNCTIONS))
    print("import circles allowed:", [sorted(part) for part in ALLOWED_CIRCLES])


def test_no_module_is_too_long() -> None:
    only_shrinks(long_modules(), ALLOWED_MODULES, f"modules over {MAX_MODULE} lines")


def test_no_function_is_too_long() -> None:
    only_shrinks(long_functions(), ALLOWED_FUNCTIONS, f"functions over {MAX_FUNCTION} lines")


def test_no_import_circle() -> None:
    only_shrinks(set(circles()), ALLOWED_CIRCLES, "import circles")


ROOM_HELPERS = ("ai_seats", "bot_seats", "chat", "lobby", "narrating", "pacing", "presence")
"""The helpers a room is made with (``lupus.server.rooms``): each sees the room through
its narrow protocol in ``lupus.server.room_parts`` only."""


def test_a_rooms_helpers_see_it_through_narrow_protocols() -> None:
    """No helper of a room imports the room (``rooms``, its state ``room_core``, its
    parts) or another helper: what it may touch is its protocol in ``room_parts``."""
    known = modules()
    room = {name for name in known if name.startswith("lupus.server.room")}
    room |= {f"lupus.server.{helper}" for helper in ROOM_HELPERS}
    room.discard("lupus.server.room_parts")
    for helper in ROOM_HELPERS:
        name = f"lupus.server.{helper}"
        assert imported(name, known[name], known) & room == set(), name
        assert "lupus.server.room_parts" in imported(name, known[name], known), name


def test_the_circle_finder_sees_a_type_only_circle(tmp_path: Path) -> None:
    """The finder reads ``if TYPE_CHECKING:`` imports and relative ones (else the
    circle test could not fail for them)."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n"
    )
    (package / "b.py").write_text("from pkg.a import A\n")
    known = {"pkg": package / "__init__.py", "pkg.a": package / "a.py", "pkg.b": package / "b.py"}
    assert imported("pkg.a", known["pkg.a"], known) == {"pkg.b"}
    assert imported("pkg.b", known["pkg.b"], known) == {"pkg.a"}
