"""Whether an event fits its kind's schema (``EventSpec``, ``lupus.engine.events``), and
why not, in words that name the field and the value: the engine's own events are
checked by the property tests and ``lupus.testing.check_rulebook``, and events read
back from JSON (``lupus.engine.event_json``) by the same rules, with string keys and
lists as JSON has them. Apart from the schemas, which role modules read: nothing here
runs while a game is played.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from lupus.engine.events import DESCRIPTIONS, MAX_DEPTH, TAGS, EventSpec
from lupus.engine.model import Event
from lupus.engine.untrusted import bounded


def check(spec: EventSpec, event: Event) -> str | None:
    """Why ``event``'s data does not fit ``spec`` (None: it fits): its kind, a field
    missing or unknown, a value of the wrong type."""
    kind = event.kind
    if kind != spec.kind:
        return f"a {shown(kind)} event is not a {shown(spec.kind)} event"
    return data_problem(spec, event.data, False)


def data_problem(spec: EventSpec, data: object, from_json: bool) -> str | None:
    """Why ``data`` is not the data of a ``spec`` event (``from_json``: as JSON has it,
    with string keys and lists, else as a game holds it)."""
    kind = spec.kind
    if not isinstance(data, Mapping):
        return f"{kind}: its data is {a_type(data)}, not a mapping"
    fields = spec.fields
    for name in fields:
        if name not in data and name not in spec.optional:
            return f"{kind}: field {name!r} is missing"
    # (``key``, not ``name``: compiled, the loop above made ``name`` a str, and a key
    # of another type would raise TypeError before this could tell)
    for key, value in data.items():
        if type(key) is not str:
            return f"{kind}: {shown(key)} is not a field name (a text)"
        assert isinstance(key, str)
        name = key
        tag = fields.get(name)
        if tag is None:
            return f"{kind}: unknown field {shown(name)}"
        problem = misfit(tag, value, from_json, 0)
        if problem is not None:
            return f"{kind}.{name}: {problem}"
    return None


def misfit(tag: str, value: object, from_json: bool, depth: int) -> str | None:
    """Why ``value`` is not of type ``tag`` (None: it is)."""
    shape, key, inner = TAGS[tag]
    if shape == "maybe":
        if value is None:
            return None
        problem = misfit(inner, value, from_json, depth)
        if problem is not None and problem == wrong(inner, value):
            return wrong(tag, value)  # (not the inner type, nor null)
        return problem
    if shape == "list":
        if type(value) is not list and type(value) is not tuple:
            return wrong(tag, value)
        assert isinstance(value, list | tuple)
        for i, item in enumerate(value):
            problem = misfit(inner, item, from_json, depth + 1)
            if problem is not None:
                return f"item {i}: {problem}"
        return None
    if shape == "map":
        if not isinstance(value, Mapping):
            return wrong(tag, value)
        for k, item in value.items():
            problem = key_problem(key, k, from_json)
            if problem is None:
                problem = misfit(inner, item, from_json, depth + 1)
                if problem is not None:
                    problem = f"at {shown(k)}: {problem}"
            if problem is not None:
                return problem
        return None
    if shape == "json":
        return json_problem(value, depth)
    return None if scalar_fits(shape, value) else wrong(tag, value)


def scalar_fits(shape: str, value: object) -> bool:
    kind = type(value)
    if shape == "seat" or shape == "house":
        if kind is not int:
            return False
        assert isinstance(value, int)
        return value >= 0
    if shape == "int":
        return kind is int
    if shape == "text":
        return kind is str
    if shape == "bool":
        return kind is bool
    if shape == "number":
        if kind is not float:
            return False
        assert isinstance(value, float)
        return math.isfinite(value)
    return False


def key_problem(key: str, k: object, from_json: bool) -> str | None:
    """Why ``k`` is no key of a mapping of ``key`` (a seat, a house, a text)."""
    if key == "text" or from_json:
        if type(k) is not str:
            return f"key {shown(k)} is {a_type(k)}, not a text"
        assert isinstance(k, str)
        if key != "text" and json_number(k) is None:
            return f"key {shown(k)} is not a {key} number"
        return None
    if type(k) is not int:
        return f"key {shown(k)} is {a_type(k)}, not a {key}"
    assert isinstance(k, int)
    return None if k >= 0 else f"key {k} is not a {key} (an int from 0)"


def json_number(key: str) -> int | None:
    """A JSON object key that spells a seat or a house (``"0"``, ``"12"``: digits, no
    sign, no leading zero), as an int; None otherwise."""
    if not key or len(key) > 9 or not key.isascii() or not key.isdigit():
        return None
    if len(key) > 1 and key[0] == "0":
        return None
    return int(key)


def json_problem(value: object, depth: int) -> str | None:
    """Why ``value`` is not plain JSON data (None: it is)."""
    if depth > MAX_DEPTH:
        return f"nested deeper than {MAX_DEPTH} levels"
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return None
    if kind is float:
        assert isinstance(value, float)
        return None if math.isfinite(value) else f"{value} is not a finite number"
    if kind is list or kind is tuple:
        assert isinstance(value, list | tuple)
        for item in value:
            problem = json_problem(item, depth + 1)
            if problem is not None:
                return problem
        return None
    if isinstance(value, Mapping):
        for k, item in value.items():
            if type(k) is not str:
                return f"key {shown(k)} is {a_type(k)}, not a text"
            problem = json_problem(item, depth + 1)
            if problem is not None:
                return problem
        return None
    return f"{shown(value)} is {a_type(value)}, not JSON data"


def wrong(tag: str, value: object) -> str:
    return f"{shown(value)} is {a_type(value)}, not {DESCRIPTIONS[tag]}"


def shown(value: object) -> str:
    """``value`` in a message: short, on one line, a text in quotes."""
    return bounded(repr(value)) if type(value) is str else bounded(value)


def a_type(value: object) -> str:
    if value is None:
        return "null"
    name = type(value).__name__
    return f"an {name}" if name[:1] in "aeiou" else f"a {name}"
