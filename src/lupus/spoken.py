"""What a narrator reads aloud at the table, and how: the marks of spoken lines.

How each event kind is said is declared with its kind (``EventSpec.told``: in
``lupus.village.events``, ``lupus.lupusburg.events`` and each role's ``events``), so
that a role brings its own; this module names the two marks and reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from lupus.engine.model import Event

STEP: Final = "step"
"""A spoken line that begins a new step of the game (a phase, a card's wake, a vote
opening, the dawn): a narrator drops what it has not said yet from before it."""

SAY: Final = "say"
"""A spoken line that belongs to the step under way (a step's public result: a death,
a vote's count, a successor, the end)."""


def spoken(ev: Event, told: Mapping[str, str]) -> str | None:
    """How a narrator tells ``ev`` aloud: ``STEP``, ``SAY``, or None (not at all). Only
    a public event is ever said; ``told`` is its family's marks by kind
    (``lupus.families.told_kinds_of``). The server sends each line's mark with the
    view (``view.spoken``, docs/protocol.md)."""
    return told.get(ev.kind) if ev.audience is None else None
