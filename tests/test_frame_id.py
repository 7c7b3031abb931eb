"""``protocol.frame_id`` reads a frame's top-level ``id`` as ``json.loads`` would, without
the JSON reader (a frame nested too deep for it still has its refusal carry its id):
checked against ``json.loads`` on random objects, and on frames too deep for it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lupus.server.protocol import frame_id

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet='ab{}[],:" \\\n\t', max_size=6)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(alphabet='id{}[],:" ', max_size=3), inner, max_size=3)
    ),
    max_leaves=12,
)
OBJECTS = st.dictionaries(st.sampled_from(["id", "type", "args", "i", "d"]), VALUES, max_size=4)


def expected(text: str) -> int | None:
    data = json.loads(text)
    if not isinstance(data, dict):
        return None
    found = data.get("id")
    return found if type(found) is int else None


@settings(max_examples=400, deadline=None)
@given(OBJECTS, st.sampled_from([None, 0, 2]), st.booleans())
def test_it_reads_the_id_json_reads(obj: dict[str, object], indent: int | None, late: bool) -> None:
    text = json.dumps(obj, indent=indent)
    if late:  # (the last of two ids wins, as in json.loads)
        text = text[:-1].rstrip() + (', "id": 7}' if len(obj) else '"id": 7}')
    assert frame_id(text) == expected(text)


@given(VALUES)
def test_a_frame_that_is_no_object_has_no_id(value: object) -> None:
    if not isinstance(value, dict):
        assert frame_id(json.dumps(value)) is None


@given(st.integers(0, 10**9), st.integers(2000, 4000), st.booleans())
def test_a_frame_too_deep_for_the_json_reader_has_its_id_read(
    ref: int, depth: int, before: bool
) -> None:
    deep = "[" * depth + '"x", {"id": 3}' + "]" * depth
    body = f'"id": {ref}, "args": {deep}' if before else f'"args": {deep}, "id": {ref}'
    text = "{" + body + "}"
    with pytest.raises(RecursionError):
        json.loads(text)
    assert frame_id(text) == ref
    assert frame_id("{" + f'"args": {deep}, "id": "{ref}"' + "}") is None  # (a string)


def test_what_is_no_id() -> None:
    assert frame_id('{"id": 5.0}') is None
    assert frame_id('{"id": "5"}') is None
    assert frame_id('{"id": 5, "id": "x"}') is None
    assert frame_id('{"id": "x", "id": 5}') == 5
    assert frame_id('x{"id": 5}') is None
    assert frame_id('["id", 5]') is None
    assert frame_id('{"id": 5') == 5  # (cut short: what was read)
