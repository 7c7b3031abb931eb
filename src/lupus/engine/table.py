"""The public table: each seat as everyone at the table knows it, and the last phase's
outcome, derived from the public events alone.

A page shows who sits where, who is dead, which cards are known, who holds a title,
and what the night or the vote just did. Every client used to work it out from the
event log; the server now derives it once per public moment of a game and sends it in
every view (``view.public``, docs/protocol.md). It is read from the public events of a
view and its setup's names, nothing else: the table of a seat's view, of the leader's
and of a spectator's at the same moment are the same, and none can hold a secret.

A family reads its own events (``Family.table_reader``: ``lupus.village.table``,
``lupus.lupusburg.table``) into a ``TableReader``, which keeps the state this module
shares: who is alive, the cards made public, the titles, the outcome being built, the
public step under way and its entries, the game's end (the values are
``lupus.engine.table_values``).
``PublicTables`` keeps one reader per game and feeds it only the events it has not
read, so a server pays for each public event once, not for every frame; the engine
itself never does any of this (nothing here runs unless a table is asked for).
"""

from __future__ import annotations

from typing import Final

from lupus.engine.ledger import oldest_first
from lupus.engine.model import Event
from lupus.engine.table_values import (
    NO_HOUSES,
    PublicTable,
    TableDeath,
    TableEnd,
    TableEntry,
    TableHouse,
    TableOutcome,
    TableSeat,
    TableStep,
    TableVote,
)
from lupus.engine.views import View, role_facts

__all__ = [
    "ENTERS",
    "NIGHT",
    "NO_HOUSES",
    "OPENS",
    "WITHDRAWS",
    "PublicTable",
    "PublicTables",
    "TableDeath",
    "TableEnd",
    "TableEntry",
    "TableHouse",
    "TableOutcome",
    "TableReader",
    "TableSeat",
    "TableStep",
    "TableVote",
    "public_table",
]
# (the values live in ``lupus.engine.table_values``; readers import them from here)

NIGHT: Final = "night"

OPENS: Final = "opens"
"""``TableReader.step_mark``: the kind opens a public step (``EventSpec.script``)."""
ENTERS: Final = "enters"
"""The kind is a seat's entry in the step under way (a ballot, a nomination)."""
WITHDRAWS: Final = "withdraws"
"""The kind takes a seat's entry back (a nomination withdrawn)."""


class TableReader:
    """Reads one game's public events, oldest first, into its public table.

    This base reads what every family shares: a card disclosed by a public event (the
    fields each kind declares in ``discloses``), and the bookkeeping of the outcome.
    A family's reader (``read_kind``) says which of its events kill, decide a phase,
    count the deciding vote, tell a failed attempt or give a title, through ``died``,
    ``decided``, ``counted``, ``failed_attempt`` and ``titles`` (title id -> holder),
    which end the game (``ended``), and (``step_mark``) which open a public step or
    are an entry in it: any other public event ends the step under way.
    Read only the public events of one game, in order: the reader trusts its caller
    for that (``PublicTables`` and ``public_table`` read nothing else).
    """

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.n = len(names)
        self.count = 0  # the public events read so far
        self.alive = [True] * self.n
        self.cards: list[str | None] = [None] * self.n
        self.titles: dict[str, int] = {}  # title id -> the seat that holds it
        # The outcome being built: its phase (None: no phase has had one yet), its
        # deaths as (seat, cause, house, the event's place), the deciding vote's
        # counts, the failed attempt.
        self.phase: str | None = None
        self.number = 0
        self.deaths: list[tuple[int, str | None, int | None, int]] = []
        self.votes: list[TableVote] | None = None
        self.failed = False
        self.tie: tuple[int, ...] | None = None  # a tie not settled yet
        self.nobody: int | None = None  # the place of the event that told nobody died
        self.failed_at: int | None = None  # the failed attempt's
        # The public step under way (None: none), its entries (seat -> entry, in the
        # order the seats first entered), and how many steps its phase has opened.
        self.opening: TableStep | None = None
        self.ballots: dict[int, TableEntry] = {}
        self.opened_in: tuple[str, int] = ("", -1)
        self.opened_count = 0
        self.step: TableStep | None = None  # the step with its entries, once made
        self.end: TableEnd | None = None
        # What the last table was made of, kept while it stays true: most public events
        # (a ballot, a step's wake, a token) change no seat and no outcome.
        self.entries: list[TableSeat | None] = [None] * self.n
        self.outcome: TableOutcome | None = None
        self.outcome_stale = True
        self.made: PublicTable | None = None

    def fresh(self) -> TableReader:
        """A reader of the same kind that has read nothing (to read a game again)."""
        return TableReader(self.names)

    # ------------------------------------------------------------------ reading
    def feed(self, event: Event) -> None:
        """Read the next public event."""
        self.count += 1
        mark = self.step_mark(event.kind)
        if mark == OPENS:
            self.opened(event)
        elif mark in (ENTERS, WITHDRAWS):
            self.entered(event, mark == WITHDRAWS)
        elif self.opening is not None and self.ends_step(self.opening, event):
            self.opening = self.step = None
        self.read_kind(event)
        for seat, role in role_facts(event):
            if 0 <= seat < self.n:
                self.cards[seat] = role
                self.outcome_stale = True  # (a death's card may show now)

    def read_kind(self, event: Event) -> None:
        """What a family's event does to the table (the base: nothing)."""

    def step_mark(self, kind: str) -> str | None:
        """Whether a kind ``OPENS`` a public step, ``ENTERS`` an entry in it (a ballot,
        a nomination) or ``WITHDRAWS`` one; None: it ends the step under way."""
        return None

    def ends_step(self, opening: TableStep, event: Event) -> bool:
        """Whether a public event that is no entry ends the step under way: any does,
        but within a night step (a ``wake``'s) what is said of it (``told="say"``: the
        pack's starvation, the Little Girl caught) belongs to it, until the narrator's
        next step (``told="step"``: the dawn) or another phase."""
        if opening.step is None or (event.phase, event.number) != (opening.phase, opening.number):
            return True
        return self.told(event.kind) != "say"

    def told(self, kind: str) -> str | None:
        """How the family's narrator says a kind (``EventSpec.told``)."""
        return None

    def vote_of(self, kind: str) -> str | None:
        """What the players enter in a step the kind opens (``TableStep.vote``)."""
        return None

    # ------------------------------------------------------------------ the step
    def opened(self, event: Event) -> None:
        """A public step opens: its opening event's kind, place and fields."""
        phase, number = event.phase, event.number
        if self.opened_in != (phase, number):
            self.opened_in, self.opened_count = (phase, number), 0
        self.opened_count += 1
        data = event.data
        step, needed, rounds = data.get("step"), data.get("needed"), data.get("round")
        field = "candidates" if "candidates" in data else "players" if "players" in data else ""
        self.ballots = {}
        self.step = self.opening = TableStep(
            event.kind,
            phase,
            number,
            self.opened_count,
            self.count - 1,
            step if isinstance(step, str) else None,
            self.vote_of(event.kind),
            tuple(event.seats(field)) if field else None,
            needed if type(needed) is int else None,
            rounds if type(rounds) is int else None,
            (),
        )

    def entered(self, event: Event, withdraws: bool) -> None:
        """A public entry in the step under way: the seat's latest ballot or
        nomination replaces his earlier one (in its place), a withdrawal takes it back."""
        if self.opening is None:
            return
        seat = event.seat("player")
        if withdraws:
            self.ballots.pop(seat, None)
        else:
            self.ballots[seat] = TableEntry(seat, event.maybe_seat("target"))
        self.step = None

    def step_now(self) -> TableStep | None:
        opening = self.opening
        made = self.step
        if opening is None or made is not None:
            return made
        o = opening
        entries = tuple(self.ballots.values())
        made = self.step = TableStep(
            o.kind,
            o.phase,
            o.number,
            o.place,
            o.event,
            o.step,
            o.vote,
            o.candidates,
            o.needed,
            o.round,
            entries,
        )
        return made

    def ended(self, event: Event) -> None:
        """The game's end, as ``game_over`` tells it."""
        data = event.data
        scores = event.seat_ints("scores") if "scores" in data else None
        self.end = TableEnd(
            event.text("winner"),
            tuple(event.seats("winners")),
            event.text("reason"),
            None if scores is None else tuple(sorted(scores.items())),
            data.get("parts"),
            data.get("tie_break"),
            data.get("bets"),
        )

    def decided(self, event: Event) -> None:
        """The event's phase has an outcome now (a dawn, a vote decided, a death): it
        becomes the table's last phase, empty at first, unless it is already."""
        phase, number = event.phase, event.number
        self.outcome_stale = True
        self.tie = None  # (whatever decides the phase settles its tie)
        if phase == self.phase and number == self.number:
            return
        self.phase, self.number = phase, number
        self.deaths = []
        self.votes = None if phase == NIGHT else []
        self.failed = False
        self.nobody = self.failed_at = None

    def died(self, event: Event, seat: int, cause: str | None, house: int | None) -> None:
        """A death the event announces, in its phase's outcome."""
        self.decided(event)
        self.deaths.append((seat, cause, house, self.count - 1))

    def counted(self, event: Event, votes: list[TableVote]) -> None:
        """The deciding vote's counts (a later round's replace an earlier one's), most
        votes first, then in seat (house) order."""
        self.decided(event)
        if self.phase != NIGHT:
            self.votes = sorted(votes, key=vote_order)

    def tied(self, event: Event, seats: tuple[int, ...]) -> None:
        """The deciding vote tied between ``seats``: nothing is decided until a later
        event settles it (a decision, a death, a new round's count)."""
        self.decided(event)
        self.tie = seats

    def failed_attempt(self, event: Event) -> None:
        """The table is told of a failed attempt in the event's phase."""
        self.decided(event)
        self.failed = True
        self.failed_at = self.count - 1

    def nobody_died(self, event: Event) -> None:
        """The table is told that nobody died in the event's phase (which it decides)."""
        self.decided(event)
        self.nobody = self.count - 1

    # ------------------------------------------------------------------ the table
    def table(self) -> PublicTable:
        """The table as the events read so far make it: the same object as the last
        one while nothing in it changed (its seats and outcome are made again only
        when they change)."""
        players = tuple([self.seat_entry(seat) for seat in range(self.n)])
        outcome = self.outcome
        if self.outcome_stale:
            outcome = self.outcome = self.made_outcome()
            self.outcome_stale = False
        step, end = self.step_now(), self.end
        made = self.made
        if (
            made is not None
            and made.outcome is outcome
            and made.step is step
            and made.end is end
            and same(made.players, players)
        ):
            return made
        made = self.made = PublicTable(players, outcome, step, end)
        return made

    def made_outcome(self) -> TableOutcome | None:
        phase = self.phase
        if phase is None:
            return None
        deaths = tuple(
            [
                TableDeath(seat, cause, self.death_card(seat, house), house, place)
                for seat, cause, house, place in self.deaths
            ]
        )
        votes = self.votes
        counts = None if votes is None else tuple(votes)
        return TableOutcome(
            phase, self.number, deaths, counts, self.failed, self.tie, self.nobody, self.failed_at
        )

    def seat_entry(self, seat: int) -> TableSeat:
        """One seat of the table, made again only when it changed."""
        alive, card = self.alive[seat], self.cards[seat]
        titles, houses = self.titles_of(seat), self.houses_of(seat)
        kept = self.entries[seat]
        if (
            kept is not None
            and kept.alive == alive
            and kept.card == card
            and kept.titles == titles
            and kept.houses is houses
        ):
            return kept
        made = TableSeat(seat, self.names[seat], alive, card, titles, houses)
        self.entries[seat] = made
        return made

    def houses_of(self, seat: int) -> tuple[TableHouse, ...]:
        """A seat's houses (a family with houses keeps each seat's as one tuple, made
        again when one of them changes)."""
        return NO_HOUSES

    def titles_of(self, seat: int) -> tuple[str, ...]:
        if not self.titles:
            return ()
        return tuple(sorted([title for title, holder in self.titles.items() if holder == seat]))

    def death_card(self, seat: int, house: int | None) -> str | None:
        """The card a death shows: the dead player's, once it is public."""
        return self.cards[seat]


def same(kept: tuple[TableSeat, ...], made: tuple[TableSeat, ...]) -> bool:
    """Whether two tables' seats are the very same entries."""
    return len(kept) == len(made) and all(kept[place] is made[place] for place in range(len(made)))


def vote_order(vote: TableVote) -> tuple[int, int, int]:
    house = vote.house
    return (-vote.votes, vote.seat, -1 if house is None else house)


def public_table(view: View, reader: TableReader) -> PublicTable:
    """The public table of ``view``, read from its public events by a ``reader`` that
    has read nothing yet (``Family.table_reader``)."""
    head, count = view.public_chain()
    for event in oldest_first(head, count, 0):
        reader.feed(event)
    return reader.table()


class PublicTables:
    """The public tables of one game, derived incrementally: each public event is read
    once, however many views ask (the views of one game only).

    The table of a moment already derived is kept (the latest one: every client of a
    room is shown the same public moment, one after the other). A view behind the
    reader (rare: none in a server's normal flow) is read again from the start.
    """

    def __init__(self, reader: TableReader) -> None:
        self.reader = reader
        self.latest: PublicTable | None = None  # the reader's table, once made

    def of(self, view: View) -> PublicTable:
        """The public table of ``view``'s moment."""
        head, count = view.public_chain()
        reader = self.reader
        if count < reader.count:
            return public_table(view, reader.fresh())
        if count > reader.count:
            for event in oldest_first(head, count, reader.count):
                reader.feed(event)
            self.latest = None
        latest = self.latest
        if latest is None:
            latest = self.latest = reader.table()
        return latest
