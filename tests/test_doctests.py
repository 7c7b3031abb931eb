"""The examples in lupus's docstrings run, compiled or not.

``doctest``'s own finder misses the functions mypyc compiles (they are no Python
functions), so the examples are read from the source files and run in their module's
namespace: the same examples, whichever build is installed.
"""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

import lupus

SOURCE = Path(str(lupus.__file__)).parent


def examples() -> list[doctest.DocTest]:
    parser = doctest.DocTestParser()
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        relative = path.relative_to(SOURCE.parent).with_suffix("")
        module_name = ".".join(relative.parts).removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        owners: list[tuple[str, ast.AST]] = [(module_name, tree)]
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                owners.append((f"{module_name}.{node.name}", node))
        for name, node in owners:
            assert isinstance(
                node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
            )
            text = ast.get_docstring(node, clean=True)
            if text and ">>>" in text:
                lineno = getattr(node, "lineno", 0)
                globs = {"__name__": module_name}  # (the namespace is filled when run)
                found.append(parser.get_doctest(text, globs, name, str(path), lineno))
    return found


EXAMPLES = examples()


def test_the_public_api_has_examples() -> None:
    names = {example.name for example in EXAMPLES}
    for name in (
        "lupus.families.new_game",
        "lupus.engine.game.prompts",
        "lupus.engine.game.apply",
        "lupus.engine.game.view",
        "lupus.village.steps.Ballot",
    ):
        assert name in names, f"{name} has no example"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: example.name)
def test_example(example: doctest.DocTest) -> None:
    module = importlib.import_module(example.globs["__name__"])
    example.globs = dict(vars(module))
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    output: list[str] = []
    runner.run(example, out=output.append)
    assert runner.failures == 0, "".join(output)
