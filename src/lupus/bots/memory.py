"""What a bot remembers of a game: facts derived from its own views, nothing else.

A bot is handed a fresh :class:`~lupus.engine.views.View` at every decision. Reading
the whole event log again each time would cost O(events) per decision; a
:class:`Memory` instead reads each event once, in order, and keeps what it derived. It
is only ever fed ``view.events``: when a view is not the continuation of the events it
has read (another game, or a copy of the events), the bot starts a new memory and reads
the view from its first event, so the result never depends on anything but the view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Generic, TypeVar

from lupus.bots.base import PASSIVE
from lupus.engine.model import Action, Event
from lupus.engine.views import View

T = TypeVar("T")


def as_int(value: object) -> int:
    """An event field that holds a seat or a house (ints, or digit strings in JSON)."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        raise TypeError(f"not a seat: {value!r}")
    if isinstance(value, int):
        return int(value)
    return int(str(value))


def maybe_int(value: object) -> int | None:
    return None if value is None else as_int(value)


def int_list(value: object) -> list[int]:
    if not isinstance(value, list | tuple):
        return []
    return [as_int(v) for v in value]


def best(items: Iterable[T], key: Callable[[T], float], rng: random.Random) -> T | None:
    """The item with the highest key, a tie drawn with ``rng``; None if there is none."""
    top: list[T] = []
    high = 0.0
    for item in items:
        k = key(item)
        if not top or k > high:
            top, high = [item], k
        elif k == high:
            top.append(item)
    if not top:
        return None
    return top[0] if len(top) == 1 else top[rng.randrange(len(top))]


def top_set(scores: dict[int, float], among: Sequence[int], floor: float) -> set[int]:
    """The seats of ``among`` with the highest score, if that score reaches ``floor``."""
    if not among:
        return set()
    high = max(scores.get(s, 0.0) for s in among)
    if high < floor:
        return set()
    return {s for s in among if scores.get(s, 0.0) == high}


class Public:
    """What a bot infers from public events alone (audience: everyone).

    Every seat sees the same public events in the same order, so this is computed once
    per game and shared by all the seats one bot object plays; a seat's
    :class:`Memory` checks, event by event, that the record read exactly the public
    events of its own view, and reads them into a record of its own otherwise.
    """

    def __init__(self, view: View) -> None:
        self.n = len(view.names)
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        self.events.append(event)
        self.see(event)

    def see(self, event: Event) -> None:
        """Derive what one public event tells (subclasses)."""


P = TypeVar("P", bound=Public)


class Memory(Generic[P]):
    """Reads a seat's events once each; subclasses derive their private facts in
    ``see`` (which must not read the public record: it may be ahead of the event)."""

    def __init__(self, view: View, public: P) -> None:
        self.me = view.seat
        self.n = len(view.names)
        self.rulebook = view.rulebook
        self.count = 0
        self.last: Event | None = None
        self.pub = public
        self.public_count = 0
        self.diverged = False

    def new_public(self, view: View) -> P:
        raise NotImplementedError

    def continues(self, view: View) -> bool:
        """Whether ``view`` holds every event read so far, and more, in the same order.

        Events are compared by identity: a game hands out the same event objects in
        every view of it, so a copy or another game's view is never mistaken for this
        one (it only costs reading the view again from the start).
        """
        events = view.events
        if view.seat != self.me or self.count == 0 or len(events) < self.count:
            return False
        return events[self.count - 1] is self.last

    def feed(self, view: View) -> None:
        events = view.events
        pub = self.pub
        for event in events[self.count :]:
            if event.audience is None:
                k = self.public_count
                self.public_count = k + 1
                if not self.diverged:
                    if k == len(pub.events):
                        pub.add(event)
                    elif pub.events[k] is not event:
                        self.diverged = True
            self.see(event)
        self.count = len(events)
        self.last = events[-1] if events else None
        if self.diverged or self.public_count != len(pub.events):
            # The shared record read other events, or more than this view holds (an
            # older view): this seat reads its view's public events on its own.
            own = self.new_public(view)
            for event in events:
                if event.audience is None:
                    own.add(event)
            self.pub = own
            self.diverged = False

    def see(self, event: Event) -> None:
        """Derive what one event tells this seat (subclasses)."""


class Memories(Generic[P]):
    """One memory per seat for one bot object, renewed when a view starts another game,
    and one public record per game shared by those seats."""

    def __init__(
        self, make: Callable[[View, P], Memory[P]], make_public: Callable[[View], P]
    ) -> None:
        self.make = make
        self.make_public = make_public
        self.by_seat: dict[int, Memory[P]] = {}
        self.shared: P | None = None

    def of(self, view: View) -> Memory[P]:
        memory = self.by_seat.get(view.seat)
        if memory is None or not memory.continues(view):
            memory = self.make(view, self.public_for(view))
            self.by_seat[view.seat] = memory
        memory.feed(view)
        return memory

    def public_for(self, view: View) -> P:
        first = next((e for e in view.events if e.audience is None), None)
        shared = self.shared
        if shared is None or not shared.events or shared.events[0] is not first:
            shared = self.shared = self.make_public(view)
        return shared


def fallback(view: View, rng: random.Random) -> Action:
    """A uniformly random active choice (the random bot's), for anything unforeseen."""
    active = [p for p in view.prompts if p.verb not in PASSIVE]
    pool = active or list(view.prompts)
    choices = [(p.verb, args) for p in pool for args in p.choices]
    verb, args = choices[rng.randrange(len(choices))]
    return Action(view.seat, verb, args)
