"""The Lupusburg family, registered once: its games, deals, steps and balance target."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Final, cast

from lupus.engine.deal import Deal, every_player
from lupus.engine.errors import SetupError
from lupus.engine.events import EventSpec, told_kinds
from lupus.engine.family import Family, SeatReader
from lupus.engine.game import Game
from lupus.engine.model import LEADER
from lupus.engine.step import Step
from lupus.engine.table import TableReader
from lupus.engine.untrusted import quoted
from lupus.lupusburg import deal as dealing
from lupus.lupusburg.day import BetTurn, PrivilegeStep
from lupus.lupusburg.events import EVENTS
from lupus.lupusburg.game import (
    HOUSE_VERBS,
    THIEF,
    TOWNSFOLK,
    WEREWOLF,
    Layout,
    LupusburgGame,
)
from lupus.lupusburg.night import ThiefStep, WerewolfStep
from lupus.lupusburg.own import OwnReader
from lupus.lupusburg.phases import Dawn, PassBurgomaster, PhaseStart, WinCheck
from lupus.lupusburg.table import LupusburgTable
from lupus.lupusburg.voting import SecondVoting, TokenTurn
from lupus.rulebooks.schema import LupusburgSpec, OptionValue, Rulebook


def _betting(game: LupusburgGame) -> list[Step[LupusburgGame]]:
    return [BetTurn((game.burgomaster + i) % game.n) for i in range(game.n)]


def _first_voting(game: LupusburgGame) -> list[Step[LupusburgGame]]:
    return [
        TokenTurn((game.burgomaster + i) % game.n, r + 1)
        for r in range(game.spec.token_rounds)
        for i in range(game.n)
    ]


STEPS: dict[str, Callable[[LupusburgGame], list[Step[LupusburgGame]]]] = {
    "thief": lambda game: [ThiefStep()],
    "werewolf": lambda game: [WerewolfStep()],
    "privilege": lambda game: [PrivilegeStep()],
    "betting": _betting,
    "first_voting": _first_voting,
    "second_voting": lambda game: [SecondVoting(), PassBurgomaster()],
}
"""The steps a rulebook's night and day name, by id (a day's voting runs several)."""


def make_steps(ids: Sequence[str], game: LupusburgGame) -> list[Step[LupusburgGame]]:
    return [step for i in ids for step in STEPS[i](game)]


LAYOUT: Final = Layout(PhaseStart, Dawn, make_steps, WinCheck)


TOLD: Final = told_kinds(EVENTS)
"""How its kinds are said aloud (its table never changes: worked out once)."""


class LupusburgFamily(Family):
    """Two characters per player, under two houses; one Werewolf against the town."""

    name = "lupusburg"
    names_without_dot = True
    house_verbs = HOUSE_VERBS
    plays_preparation = False

    def new_game(
        self,
        book: Rulebook,
        names: Sequence[str],
        deal: Deal,
        options: dict[str, OptionValue] | None,
        seed: int,
    ) -> Game:
        if deal.roles or deal.extra_cards:
            raise SetupError("Lupusburg deals two characters per player, not role cards")
        return LupusburgGame(
            book,
            names,
            deal.characters,
            deal.chests,
            deal.burgomaster,
            deal.bag,
            options,
            seed,
            layout=LAYOUT,
        )

    def deal(
        self,
        book: Rulebook,
        players: int,
        counts: Mapping[str, int],
        rng: random.Random,
        options: Mapping[str, OptionValue],
    ) -> Deal:
        return dealing.deal(book, players, counts, rng)

    def step_ids(self) -> list[str]:
        return list(STEPS)

    def deal_of(self, record: Mapping[str, object], players: Sequence[str]) -> Deal:
        if record.get("roles") is not None:
            raise ValueError("roles: Lupusburg deals characters, use `characters` and `chests`")
        characters, chests = record.get("characters"), record.get("chests")
        if not isinstance(characters, Mapping) or not isinstance(chests, Mapping):
            raise ValueError("characters and chests: both are needed for Lupusburg")
        every_player("characters", characters, players, "nothing for")
        every_player("chests", chests, players, "nothing for")
        burgomaster = record.get("burgomaster")
        if burgomaster is not None and burgomaster not in players:
            raise ValueError(f"burgomaster: {quoted(burgomaster)} is not among the players")
        # (the scenario's schema has checked the types: names to lists of characters,
        # names to chests, a list of coins)
        held = cast("Mapping[str, Sequence[str]]", characters)
        chest = cast("Mapping[str, int]", chests)
        bag = cast("Sequence[int] | None", record.get("bag"))
        return Deal(
            characters=tuple(tuple(held[p]) for p in players),
            chests=tuple(chest[p] for p in players),
            burgomaster=list(players).index(str(burgomaster)) if burgomaster else 0,
            bag=None if bag is None else tuple(bag),
        )

    def unplayable(self, book: Rulebook) -> str | None:
        """Lupusburg's characters, sides and end are its own: a rulebook renames none of
        them (the game reads them by id), lists no ``[[win]]`` (never read), recommends
        the one deck only, has a coin in the bag for every player's bet, and names a
        step that eliminates characters in its later nights or days."""
        if set(book.factions) != {WEREWOLF, TOWNSFOLK}:
            return f"factions: Lupusburg's sides are {WEREWOLF} and {TOWNSFOLK}"
        sides = {WEREWOLF: WEREWOLF, THIEF: TOWNSFOLK, TOWNSFOLK: TOWNSFOLK}
        if {r: s.faction for r, s in book.roles.items()} != sides:
            return (
                f"roles: Lupusburg's characters are {WEREWOLF} (of the {WEREWOLF}), {THIEF} "
                f"and {TOWNSFOLK} (of the {TOWNSFOLK})"
            )
        if book.win:
            return "win: Lupusburg's game ends by its own rules ([[win]] is not read)"
        for size, counts in book.compositions.items():
            if dict(counts) != self.fixed_deck(int(size)):
                return f"compositions.{size}: Lupusburg deals one deck only for {size} players"
        bag = (book.lupusburg or LupusburgSpec()).bag
        if len(bag) < book.max_players:
            return (
                f"lupusburg.bag: {len(bag)} coins, and each of {book.max_players} players may "
                "bet once and keep one"
            )
        later = [*book.night.later, *book.day]
        if "werewolf" not in later and "second_voting" not in later:
            return (
                "night.later and day: neither the werewolf nor the second voting, so no "
                "character could die after the first night and a game could never end"
            )
        return None

    def event_specs(self) -> Mapping[str, EventSpec]:
        return EVENTS

    def told_kinds(self) -> Mapping[str, str]:
        return TOLD

    def table_reader(self, names: tuple[str, ...]) -> TableReader:
        return LupusburgTable(names)

    def seat_reader(self, seat: int) -> SeatReader | None:
        """A player's own part of the board (``lupus.lupusburg.own``), or a game
        leader's (the deal of every seat); none for a spectator (the public board is
        all a spectator knows)."""
        return OwnReader(seat) if seat >= LEADER else None

    def fixed_deck(self, players: int) -> dict[str, int] | None:
        return dealing.fixed_deck(players)

    def main_faction(self, book: Rulebook) -> str:
        """The lone Werewolf."""
        return "werewolf"

    def fair_share(self, players: int) -> float:
        return 1 / players

    def fair_label(self) -> str:
        return "1/players"


FAMILY: Final = LupusburgFamily()
