"""A view is the audience filter of the game's events: exactly the events its seat may
see, each as told to that seat, none of them changeable."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from lupus.engine.model import LEADER, Event
from lupus.engine.views import plain
from lupus.testing.errors import Broken


def seen_as(event: Event, seat: int) -> tuple[object, ...]:
    """What ``seat``'s view must hand out for ``event``: the same kind, data, phase and
    number, and as its audience only "public" (None) or "to you" (the seat alone); the
    leader sees the whole audience."""
    audience = event.audience
    if audience is not None and seat != LEADER:
        audience = frozenset({seat})
    return (event.kind, audience, plain(event.data), event.phase, event.number)


def check_seen(seat: int, got: Sequence[Event], events: Sequence[Event]) -> list[int]:
    """``got`` (a view's events) are exactly the ``events`` of the game ``seat`` may see,
    as read-only copies; returns their indices in the game's ledger."""
    mine = [
        i
        for i, ev in enumerate(events)
        if seat == LEADER or ev.audience is None or seat in ev.audience
    ]
    if len(got) != len(mine):
        raise Broken("views", f"the view of seat {seat} has {len(got)} events, not {len(mine)}")
    for view_event, i in zip(got, mine, strict=True):
        if seen_as(view_event, seat) != seen_as(events[i], seat):
            raise Broken("views", f"the view of seat {seat} holds {view_event}, not {events[i]}")
        if not isinstance(view_event.data, MappingProxyType):
            raise Broken("views", f"the view of seat {seat} hands out {view_event} changeable")
    return mine
