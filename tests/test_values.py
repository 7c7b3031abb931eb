"""Every value class (``lupus.engine.model.Value``) keeps its three lists in step.

A value is compared, hashed and shown by ``FIELDS``; it stores its state in
``__slots__``; it is built by its constructor. A field added to one list and forgotten
in another is a silent bug (two different events compared equal, a field lost from a
``repr``), so this test reads every value class of lupus, role memories included.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import lupus
from lupus.engine.model import Value


def value_classes() -> list[type[Value]]:
    for module in pkgutil.walk_packages(lupus.__path__, "lupus."):
        importlib.import_module(module.name)

    def below(cls: type[Value]) -> Iterator[type[Value]]:
        for sub in cls.__subclasses__():
            yield sub
            yield from below(sub)

    found = {cls for cls in below(Value) if cls.__module__.startswith("lupus.")}
    return sorted(found, key=lambda cls: (cls.__module__, cls.__name__))


@cache
def parsed(source: Path) -> ast.Module:
    return ast.parse(source.read_text(encoding="utf-8"))


def class_node(cls: type) -> ast.ClassDef | None:
    """The class as written, read from its source: a compiled class keeps no
    ``__slots__`` and no signature, but its ``.py`` file sits beside it."""
    module = sys.modules.get(cls.__module__)
    file = getattr(module, "__file__", None)
    if file is None:
        return None
    origin = Path(str(file))
    source = origin.with_name(origin.name.split(".")[0] + ".py")
    if not source.exists():
        return None
    for node in ast.walk(parsed(source)):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return node
    return None


def slots_of(cls: type) -> set[str]:
    """Every name the class and its bases declare in ``__slots__``."""
    found: set[str] = set()
    for klass in cls.__mro__:
        node = class_node(klass)
        for item in node.body if node is not None else ():
            target = item.targets[0] if isinstance(item, ast.Assign) else None
            if isinstance(item, ast.AnnAssign):
                target = item.target
            if isinstance(target, ast.Name) and target.id == "__slots__" and item.value:
                found |= set(ast.literal_eval(item.value))
    return found


def properties_of(cls: type) -> set[str]:
    found: set[str] = set()
    for klass in cls.__mro__:
        node = class_node(klass)
        for item in node.body if node is not None else ():
            if isinstance(item, ast.FunctionDef) and any(
                isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list
            ):
                found.add(item.name)
    return found


def constructor_parameters(cls: type) -> list[str]:
    """The constructor's parameter names, read from the source."""
    node = class_node(cls)
    assert node is not None, f"no source for {cls.__name__}"
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
            arguments = item.args.posonlyargs + item.args.args + item.args.kwonlyargs
            return [arg.arg for arg in arguments][1:]
    return []  # (inherits Value's: no parameters)


CLASSES = value_classes()


def test_the_value_classes_are_found() -> None:
    names = {cls.__name__ for cls in CLASSES}
    assert {"Action", "Prompt", "Event", "Death", "Outcome", "View", "Deal"} <= names
    assert {"Potions", "LastProtection"} <= names  # role memories, from the plugins


def problems(cls: Any) -> list[str]:
    """What is wrong with a value class (nothing, for a sound one)."""
    found: list[str] = []
    name, fields, slots = cls.__name__, cls.FIELDS, slots_of(cls)
    if not fields:
        found.append(f"{name} lists no FIELDS: it would compare equal to any other")
    if len(set(fields)) != len(fields):
        found.append(f"{name} lists a field twice")
    for field in fields:
        if field not in slots and field not in properties_of(cls):
            found.append(f"{name}.{field} is a field but neither a slot nor a property")
    for slot in sorted(slots):
        if slot not in fields and not slot.startswith("_") and slot not in cls.UNCOMPARED:
            found.append(f"{name}.{slot} is stored but not a field (nor UNCOMPARED)")
    if not set(cls.UNCOMPARED) <= slots:
        found.append(f"{name}: UNCOMPARED names no slot")
    if cls.__dictoffset__ != 0:
        found.append(f"{name} instances have a __dict__ (no __slots__)")
    parameters = constructor_parameters(cls)
    # (After the fields, a constructor may take what is kept but not compared: its
    # UNCOMPARED slots, or private ones.)
    given = tuple(parameters[: len(fields)])
    extra = parameters[len(fields) :]
    kept = [p for p in extra if p in cls.UNCOMPARED or (p.startswith("_") and p in slots)]
    if parameters and (given != fields or kept != extra):
        found.append(f"{name}: the constructor takes {parameters}, FIELDS are {list(fields)}")
    if not parameters:  # a memory that starts from fixed values: the constructor sets all
        made = cls()
        for field in fields:
            if not hasattr(made, field):
                found.append(f"{name}.{field} is not set by the constructor")
    return found


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_fields_slots_and_constructor_agree(cls: type[Value]) -> None:
    assert problems(cls) == []
    if not constructor_parameters(cls):
        assert cls() == cls() and repr(cls()).startswith(f"{cls.__name__}(")


# (Plain classes that look like values: compiled, ``Value`` takes no subclass from a test.)
class Forgetful:
    """A field stored but not compared, one compared but never set, a mixed-up order."""

    __slots__ = ("kept", "lost", "order")
    FIELDS = ("order", "kept", "ghost")
    UNCOMPARED = ()

    def __init__(self, kept: int, order: int) -> None:
        self.kept = kept
        self.order = order


class Unslotted:
    FIELDS = ("kept",)
    UNCOMPARED = ()

    def __init__(self) -> None:
        self.kept = 1


def test_the_check_catches_each_mistake() -> None:
    assert problems(Forgetful) == [
        "Forgetful.ghost is a field but neither a slot nor a property",
        "Forgetful.lost is stored but not a field (nor UNCOMPARED)",
        "Forgetful: the constructor takes ['kept', 'order'], FIELDS are ['order', 'kept', 'ghost']",
    ]
    assert problems(Unslotted) == [
        "Unslotted.kept is a field but neither a slot nor a property",
        "Unslotted instances have a __dict__ (no __slots__)",
    ]
