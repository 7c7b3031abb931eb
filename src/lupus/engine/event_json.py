"""Events to JSON and back: what a front end receives, and the very same event from it.

``to_json`` writes an event as plain JSON data; ``from_json`` reads it back, checked
against its kind's schema (``lupus.engine.events``) and typed again (the mapping keys
JSON made strings are seats or houses again), so that a round trip gives an equal event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from lupus.engine.event_check import a_type, data_problem, json_number, misfit, shown
from lupus.engine.events import SEATS, TAGS, EventSpec
from lupus.engine.model import Event


# ---------------------------------------------------------------------- to JSON
def to_json(event: Event) -> dict[str, object]:
    """One event as plain JSON data: ``kind``, ``audience`` (null for everyone, else
    its seats in order), ``phase``, ``number`` and ``data`` (mapping keys as strings,
    sequences as lists). ``json.dumps`` takes it as it is."""
    audience = event.audience
    return {
        "kind": event.kind,
        "audience": None if audience is None else sorted(audience),
        "phase": event.phase,
        "number": event.number,
        "data": plain(event.data),
    }


def plain(value: object) -> object:
    """Event data as JSON data: mappings as dicts with string keys, sequences as lists."""
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value) if isinstance(value, set | frozenset) else value
        return [plain(item) for item in items]
    return value


# ---------------------------------------------------------------------- from JSON
EVENT_KEYS: Final = ("kind", "audience", "phase", "number", "data")


def from_json(obj: object, specs: Mapping[str, EventSpec]) -> Event:
    """The event ``to_json`` gave (``obj``, as ``json.loads`` reads it), typed by its
    family's schemas: seats and houses as ints again, mapping keys included. Anything
    malformed raises ValueError with a one-line reason."""
    if not isinstance(obj, Mapping):
        raise ValueError(f"an event is a JSON object, not {a_type(obj)}")
    for key in obj:
        if key not in EVENT_KEYS:
            raise ValueError(f"an event has no key {shown(key)}")
    for key in EVENT_KEYS:
        if key not in obj:
            raise ValueError(f"an event needs {key!r}")
    kind = obj["kind"]
    if type(kind) is not str:
        raise ValueError(f"an event's kind is a text, not {a_type(kind)}")
    assert isinstance(kind, str)
    spec = specs.get(kind)
    if spec is None:
        raise ValueError(f"unknown event kind {shown(kind)}")
    audience = obj["audience"]
    told: frozenset[int] | None = None
    if audience is not None:
        problem = misfit(SEATS, audience, True, 0)
        if problem is not None:
            raise ValueError(f"{kind}: its audience is null or a list of seats ({problem})")
        assert isinstance(audience, list | tuple)
        told = frozenset([seat for seat in audience if isinstance(seat, int)])
    phase = obj["phase"]
    if type(phase) is not str:
        raise ValueError(f"{kind}: its phase is a text, not {a_type(phase)}")
    assert isinstance(phase, str)
    number = obj["number"]
    if type(number) is not int:
        raise ValueError(f"{kind}: its number is an int, not {a_type(number)}")
    assert isinstance(number, int)
    data = obj["data"]
    problem = data_problem(spec, data, True)
    if problem is not None:
        raise ValueError(problem)
    assert isinstance(data, Mapping)
    typed: dict[str, object] = {}
    for name, value in data.items():
        typed[str(name)] = typed_value(spec.fields[str(name)], value)
    return Event(kind, told, typed, phase, number)


def typed_value(tag: str, value: object) -> object:
    """A JSON value already checked against ``tag``, typed: lists as lists, mapping
    keys of seats and houses as ints."""
    shape, key, inner = TAGS[tag]
    if shape == "maybe":
        return None if value is None else typed_value(inner, value)
    if shape == "list":
        assert isinstance(value, list | tuple)
        return [typed_value(inner, item) for item in value]
    if shape == "map":
        assert isinstance(value, Mapping)
        if key == "text":
            return {str(k): typed_value(inner, item) for k, item in value.items()}
        return {number_key(k): typed_value(inner, item) for k, item in value.items()}
    if shape == "json":
        return json_copy(value)
    return value


def number_key(key: object) -> int:
    """A key already checked to spell a seat or a house, as that int."""
    found = json_number(key) if isinstance(key, str) else None
    if found is None:
        raise ValueError(f"key {shown(key)} is not a seat or house number")
    return found


def json_copy(value: object) -> object:
    """A copy of plain JSON data already checked, with lists as lists."""
    if isinstance(value, list | tuple):
        return [json_copy(item) for item in value]
    if isinstance(value, Mapping):
        return {str(k): json_copy(item) for k, item in value.items()}
    return value
