"""What a pack member's own view shows of the den: each member's current choice.

While the pack's step is open (``lupus.village.pack``), a member's newest private
events are the step's: the ``pack`` event that named the living members, then one
``pack_choice`` per choice made since, his own and the others'. Everything here is read
from those events of the member's view alone, so a bot or a page can use it and learn
nothing a member does not see. Anyone else (a villager, an eliminated maffia player who
watches the night, the game leader) and a member once the step has closed read None.
"""

from __future__ import annotations

from typing import Final, final

from lupus.engine.model import Event
from lupus.engine.views import View

FIRST_LOOK: Final = 4
"""How many of a view's newest private events are read first (the pack's event and a
pair of choices); a step with more choices is read again, four times as far each time."""


@final
class Den:
    """The pack's step as one member sees it: who is in it, what each has chosen."""

    __slots__ = ("chosen", "members", "order")

    def __init__(self, members: list[int]) -> None:
        self.members: Final = members  # the living members, in seat order
        self.chosen: dict[int, int | None] = {}  # member -> target (None: asleep)
        self.order: list[int] = []  # the members who chose, the latest choice last

    def choose(self, member: int, target: int | None) -> None:
        self.chosen[member] = target
        if member in self.order:
            self.order.remove(member)
        self.order.append(member)

    def current(self) -> list[tuple[int, int | None]]:
        """Each member and his current target, in seat order (None: he has not chosen
        yet, or stays asleep)."""
        return [(member, self.chosen.get(member)) for member in self.members]

    def lead(self, me: int) -> int | None:
        """The target a member who has chosen and is asked again (his pack disagrees)
        joins: the one the other members name most often now, a tie going to the one
        named most recently; None if he has not chosen yet in this step or nobody else
        names anyone. A pack that each time follows this agrees within a round, and a
        member follows a person whenever the others are split evenly (the person's
        change being the latest)."""
        if me not in self.chosen:
            return None
        counts: dict[int, int] = {}
        latest: dict[int, int] = {}
        for place, member in enumerate(self.order):
            target = self.chosen[member]
            if member != me and target is not None:
                counts[target] = counts.get(target, 0) + 1
                latest[target] = place
        best: int | None = None
        for target, count in counts.items():
            if best is None or (count, latest[target]) > (counts[best], latest[best]):
                best = target
        return best


def lead(view: View, first: bool = False) -> int | None:
    """``Den.lead`` of the view's own seat, read in one pass over the newest private
    events (what a bot asks at every decision of a pack step): None unless the seat
    has chosen in the open pack step; with ``first``, also before its first choice
    (the caller holds the pack's prompt: the seat is a member)."""
    if view.finished:
        return None
    me = view.seat
    most = FIRST_LOOK
    while True:
        events = view.latest_private(most)
        latest: dict[int, int | None] = {}  # each member's current choice, newest first
        for event in events:
            kind = event.kind
            if kind == "pack_choice":
                member = event.seat("player")
                if member not in latest:
                    named = event.data.get("target")  # (a seat, or None: asleep)
                    latest[member] = named if isinstance(named, int) else None
                continue
            if kind != "pack":
                return None  # (the step is over, or another step's news)
            if me not in latest and not first:
                return None  # (my first choice in the step)
            counts: dict[int, int] = {}
            for member, target in latest.items():
                if member != me and target is not None:
                    counts[target] = counts.get(target, 0) + 1
            best: int | None = None
            for target, count in counts.items():  # (the most recent first: ties stay)
                if best is None or count > counts[best]:
                    best = target
            return best
        if len(events) < most:
            return None
        most *= 4


def den(view: View) -> Den | None:
    """The open pack step as ``view`` shows it to one of its members; None for anyone
    else, and once the step has closed (see the module)."""
    if view.finished:
        return None
    most = FIRST_LOOK
    while True:
        events = view.latest_private(most)
        for at, event in enumerate(events):  # (newest first)
            kind = event.kind
            if kind == "pack_choice":
                continue
            if kind == "pack":
                return read(view.seat, event, events[:at])
            return None  # (the step's victim, or any later news: not the open step)
        if len(events) < most:
            return None
        most *= 4


def read(seat: int, opened: Event, choices: list[Event]) -> Den | None:
    """The den the ``pack`` event ``opened``, with the ``choices`` made since (newest
    first), if ``seat`` is one of its members."""
    members = sorted(opened.seat_texts("roles"))
    if seat not in members:
        return None
    found = Den(members)
    for at in range(len(choices) - 1, -1, -1):
        event = choices[at]
        found.choose(event.seat("player"), event.maybe_seat("target"))
    return found
