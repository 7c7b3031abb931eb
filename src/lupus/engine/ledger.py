"""The game's record of events, filed by audience as they are recorded.

A seat's events are chains (its newest event, each naming the one before it), so that a
view keeps what its seat saw as it stood, immutable, without a copy of the ledger; see
``Ledger``. ``lupus.engine.views`` reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from lupus.engine.interned import SOLO, alone
from lupus.engine.model import READ_ONLY, Event, freeze_values

Chain = Event | None
"""A list of the ledger as its newest event (None: no event): each event names the one
filed before it in the same list (``Event.before``)."""


class Ledger:
    """Every event in order, and what each seat may see of them.

    Events are filed by audience as they are recorded: a public event in the public
    chain, an event told to one seat in that seat's chain, and an event told to several
    (the leader's record, with its whole audience) once for each of them, as told to
    him alone: nothing filed for a seat names who else was told. Every event is
    numbered within its holder's list (``Event.seq``), so that neither the audience nor
    a gap tells a seat of what it may not know. A chain is its newest event, each event
    naming the one before it (``Event.before``): a view keeps its seat's two chains as
    they stood, immutable, never the ledger; a seat's counts are its chains' lengths.
    """

    def __init__(self, seats: int, scalar: frozenset[str] = frozenset()) -> None:
        # The kinds whose data hold numbers and texts only (``events.scalar_kinds``):
        # recorded as they come, with no look at their values.
        self.scalar: Final = scalar
        self.all: list[Event] = []  # every event in order: the leader's and the game's
        self.public: Chain = None
        self.npublic = 0
        self.private: list[Chain] = [None] * seats
        self.nprivate: list[int] = [0] * seats

    def record(
        self,
        kind: str,
        audience: frozenset[int] | None,
        data: dict[str, object],
        phase: str,
        number: int,
    ) -> None:
        """Record an event, whose ``data`` the ledger takes (made read-only in place)."""
        if kind not in self.scalar:
            freeze_values(data)
        self.file(kind, audience, READ_ONLY(data), phase, number)

    def file(
        self,
        kind: str,
        audience: frozenset[int] | None,
        shared: Mapping[str, object],
        phase: str,
        number: int,
    ) -> None:
        """Record an event whose data are read-only already, all of it (a read-only
        proxy of immutable values: ``record``'s, or one shared by every game, such as
        a step's ``wake``): the events filed share it."""
        everything = self.all
        if audience is None:
            event = Event(kind, None, shared, phase, number, self.npublic, self.public)
            self.public = event
            self.npublic += 1
            everything.append(event)
            return
        private = self.private
        seat = SOLO.get(audience, -1)
        if 0 <= seat < len(private):  # told to one seat: his is the leader's record too
            count = self.nprivate[seat]
            event = Event(
                kind, audience, shared, phase, number, self.npublic + count, private[seat]
            )
            private[seat] = event
            self.nprivate[seat] = count + 1
            everything.append(event)
            return
        everything.append(Event(kind, audience, shared, phase, number, len(everything)))
        for member in audience:  # (each member's chain apart: any order)
            if 0 <= member < len(private):
                count = self.nprivate[member]
                told = alone(member)
                seq = self.npublic + count
                private[member] = Event(kind, told, shared, phase, number, seq, private[member])
                self.nprivate[member] = count + 1

    def counts_before(self, seat: int, cut: int) -> tuple[int, int]:
        """How many public events and events told to ``seat`` (a seat or PUBLIC) came
        before the ledger's place ``cut``."""
        public = private = 0
        for event in self.all[:cut]:
            audience = event.audience
            if audience is None:
                public += 1
            elif seat >= 0 and seat in audience:
                private += 1
        return public, private


def links(chain: Chain, count: int, keep: int) -> Chain:
    """The chain of ``count`` events cut to its first ``keep`` (the older ones)."""
    while count > keep and chain is not None:
        chain = chain.before
        count -= 1
    return chain


def oldest_first(chain: Chain, count: int, start: int) -> list[Event]:
    """Events ``start`` to ``count`` of a chain of ``count``, oldest first."""
    out: list[Event] = []
    while count > start and chain is not None:
        out.append(chain)
        chain = chain.before
        count -= 1
    out.reverse()
    return out


def merged(
    public: Chain,
    npublic: int,
    private: Chain,
    nprivate: int,
    public_from: int = 0,
    private_from: int = 0,
) -> tuple[Event, ...]:
    """A seat's public and private events from the ``public_from``-th and
    ``private_from``-th on, merged in the order it saw them: an event told to it is
    numbered among everything it may see, so the public events before it are its
    number less its place among the private ones."""
    publics = oldest_first(public, npublic, public_from)
    if nprivate <= private_from:
        return tuple(publics)
    out: list[Event] = []
    taken = public_from  # public events taken so far
    place = private_from
    for event in oldest_first(private, nprivate, private_from):
        before = event.seq - place
        while taken < before:
            out.append(publics[taken - public_from])
            taken += 1
        out.append(event)
        place += 1
    out.extend(publics[taken - public_from :])
    return tuple(out)
