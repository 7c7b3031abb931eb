"""Lupusburg's public table: two houses per seat (``lupus.engine.table``; docs/protocol.md,
"The public table").

Each seat keeps the shape every family shares (``seat``, ``name``, ``alive``, ``card``,
``titles``) and adds its two ``houses`` (``2 * seat`` and ``2 * seat + 1``), each alive
or not, with its character and its chest once public:

- A player is ``alive`` while one of his characters is (a player with none still bets
  and votes, but is out of the killing: ``View.dead`` says the same). A dead house
  keeps its ``death``: its cause, phase and number.
- Characters and chests are set aside face down and never shown before the game's end
  (``game_over`` shows them all): until then every ``character``, ``chest`` and
  ``card`` is None. A seat's ``card`` is then the part he played: ``werewolf`` or
  ``thief`` if one of his characters is that card, else ``townsfolk``.
- The Burgomaster (``burgomaster``) is the only title; every phase names him, and he
  passes clockwise after each lynch.
- A night has its outcome at dawn (the slaughtered character, or ``no_death``); a day
  once the second voting's ballots are revealed: ``votes`` counts each suspect
  character's ballots (its ``house`` and its owner's ``seat``), then the lynch. No
  failed attempt is ever announced.
- The public step under way is a night step, from its ``wake`` to the next one or
  the dawn; ``game_over`` is the table's ``end``, with the scores.
- The day's own board (the bag, the privilege, the bets, the tokens, the suspects, the
  ballots) is the table's ``board``, read by ``lupus.lupusburg.board``.
"""

from __future__ import annotations

from typing import Final

from lupus.engine.events import told_kinds
from lupus.engine.model import Event
from lupus.engine.table import OPENS, PublicTable, TableHouse, TableReader, TableVote
from lupus.lupusburg.board import BoardReader
from lupus.lupusburg.events import EVENTS
from lupus.lupusburg.game import THIEF, TOWNSFOLK, WEREWOLF

BURGOMASTER: Final = "burgomaster"

TOLD: Final = told_kinds(EVENTS)
"""How the narrator says each kind (``EventSpec.told``)."""

NAMED: Final = frozenset({"game_starts", "night", "day"})
"""The events that name the Burgomaster in office."""


class LupusburgTable(TableReader):
    """Lupusburg's reader (see the module)."""

    def __init__(self, names: tuple[str, ...]) -> None:
        super().__init__(names)
        houses = 2 * self.n
        self.living = [True] * houses
        self.characters: list[str | None] = [None] * houses
        self.chests: list[bool | None] = [None] * houses
        self.fates: list[tuple[str, str, int] | None] = [None] * houses
        self.houses = [self.made_houses(seat) for seat in range(self.n)]
        self.board = BoardReader(self.n)
        self.with_board: PublicTable | None = None  # the last table, with its board

    def fresh(self) -> TableReader:
        return LupusburgTable(self.names)

    def read_kind(self, event: Event) -> None:
        self.board.feed(event)
        kind = event.kind
        if kind == "character_dies":
            house = event.seat("house")
            seat = house // 2
            if 0 <= seat < self.n:
                self.living[house] = False
                self.fates[house] = (event.text("cause"), event.phase, event.number)
                self.alive[seat] = self.living[2 * seat] or self.living[2 * seat + 1]
                self.houses[seat] = self.made_houses(seat)
            self.died(event, seat, event.maybe_text("cause"), house)
        elif kind == "ballots":
            counts = event.seat_ints("votes")
            self.counted(event, [TableVote(h // 2, n, h) for h, n in counts.items()])
        elif kind in NAMED:
            self.titles[BURGOMASTER] = event.seat("burgomaster")
        elif kind == "burgomaster":
            self.titles[BURGOMASTER] = event.seat("player")
        elif kind == "dawn":
            self.decided(event)
        elif kind == "no_death":
            self.nobody_died(event)
        elif kind == "game_over":
            self.shown(event)
            self.ended(event)

    def table(self) -> PublicTable:
        """The shared table with the day's board: the same object while neither
        changed."""
        shared = super().table()
        board = self.board.board(self.titles.get(BURGOMASTER))
        kept = self.with_board
        if kept is not None and kept.board is board and same_table(kept, shared):
            return kept
        made = self.with_board = PublicTable(
            shared.players, shared.outcome, shared.step, shared.end, board
        )
        return made

    def told(self, kind: str) -> str | None:
        return TOLD.get(kind)

    def step_mark(self, kind: str) -> str | None:
        """A night step's ``wake`` opens the public step under way (the day's bets,
        tokens and ballots are Lupusburg's own board, not a step of the table)."""
        return OPENS if kind == "wake" else None

    def shown(self, event: Event) -> None:
        """The game's end: every character and chest is turned face up."""
        houses = len(self.characters)
        for house, character in event.seat_texts("characters").items():
            if 0 <= house < houses:
                self.characters[house] = character
        chests = set(event.seats("chests"))
        for house in range(houses):
            self.chests[house] = house in chests
        for seat in range(self.n):
            self.cards[seat] = self.part(seat)
            self.houses[seat] = self.made_houses(seat)
        self.outcome_stale = True  # (the deaths' characters show now)

    def part(self, seat: int) -> str | None:
        """The card a player played, once both his characters are public."""
        first, second = self.characters[2 * seat], self.characters[2 * seat + 1]
        if first is None or second is None:
            return None
        for card in (WEREWOLF, THIEF):
            if first == card or second == card:
                return card
        return TOWNSFOLK

    def made_houses(self, seat: int) -> tuple[TableHouse, ...]:
        return tuple(
            [
                TableHouse(h, self.living[h], self.characters[h], self.chests[h], self.fates[h])
                for h in (2 * seat, 2 * seat + 1)
            ]
        )

    def houses_of(self, seat: int) -> tuple[TableHouse, ...]:
        return self.houses[seat]

    def death_card(self, seat: int, house: int | None) -> str | None:
        """The slaughtered or lynched character, once public (the game's end)."""
        if house is None or not 0 <= house < len(self.characters):
            return None
        return self.characters[house]


def same_table(kept: PublicTable, shared: PublicTable) -> bool:
    """Whether a table with a board holds the very parts of a shared one."""
    return (
        kept.players is shared.players
        and kept.outcome is shared.outcome
        and kept.step is shared.step
        and kept.end is shared.end
    )
