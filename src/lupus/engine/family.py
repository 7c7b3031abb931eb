"""What differs between game families, declared once per family.

A rulebook names its ``family`` (``village``: one role card per player, werewolf,
tit-albert, maffia and mafia-classic; ``lupusburg``: two characters per player). The
family is the mechanics that play it: how a game is set up and dealt, which steps its
nights and days may name, what a fair result is for the balance tool. Each family
subclasses ``Family`` once (``lupus.village.family``, ``lupus.lupusburg.family``) and
``lupus.families`` registers them: nothing else asks which family a rulebook is.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final, Protocol, final

from lupus.engine.deal import Deal
from lupus.engine.events import EventSpec, told_kinds
from lupus.engine.game import Game
from lupus.engine.model import Event
from lupus.engine.table import TableReader
from lupus.rulebooks.schema import OptionValue, Rulebook


class Family:
    """One family's mechanics: subclasses override every method (see the module)."""

    name: str = ""
    revision: int = 0
    """Rises whenever what the family can play changes (a role registered from outside
    or taken back): a rulebook found playable is checked again."""
    # Whether players' names may not hold a dot (Lupusburg's houses read Ann.1, Ann.2).
    names_without_dot: bool = False
    house_verbs: frozenset[str] = frozenset()
    """Verbs whose numbers name a house, not a seat (Lupusburg's)."""

    def new_game(
        self,
        book: Rulebook,
        names: Sequence[str],
        deal: Deal,
        options: dict[str, OptionValue] | None,
        seed: int,
    ) -> Game:
        """A started game of ``book`` with this deal (SetupError if the rules refuse it)."""
        raise NotImplementedError

    def deal(
        self,
        book: Rulebook,
        players: int,
        counts: Mapping[str, int],
        rng: random.Random,
        options: Mapping[str, OptionValue],
    ) -> Deal:
        """A random deal of ``counts`` to ``players`` seats that the rules accept."""
        raise NotImplementedError

    def dealer(
        self,
        book: Rulebook,
        players: int,
        counts: Mapping[str, int],
        options: Mapping[str, OptionValue],
    ) -> Dealing:
        """``deal`` of one table and composition, dealt as often as asked (a simulation
        deals it thousands of times): each ``deal(rng)`` draws exactly what ``deal``
        draws. By default ``deal`` is asked every time; a family whose checks do not
        depend on the shuffle makes them once (the village's ``Dealer``)."""
        return Redeal(self, book, players, dict(counts), dict(options))

    plays_preparation: bool = True
    """Whether the family plays a rulebook's ``night.preparation`` (Lupusburg has none)."""

    def unknown_steps(self, book: Rulebook) -> list[tuple[str, str]]:
        """The steps ``book``'s nights and days name that this family does not know,
        each as (where, step id): a rulebook naming one cannot be played."""
        known = set(self.step_ids())
        lists = [("night.first", book.night.first), ("night.later", book.night.later)]
        if self.plays_preparation:
            lists.append(("night.preparation", book.night.preparation))
        lists.append(("day", book.day))
        return [(where, step) for where, ids in lists for step in ids if step not in known]

    def step_ids(self) -> list[str]:
        """The step ids a rulebook of this family may name."""
        raise NotImplementedError

    def timed_step_ids(self) -> list[str]:
        """Every step id a game of this family may wait in: the rulebook's, and those
        its rules push (a dying Captain's successor, a Hunter's shot, a captain's
        decision of a tie). A room's timers, and a rulebook's, are given by these."""
        return self.step_ids()

    def unplayable(self, book: Rulebook) -> str | None:
        """Why ``book``, whose steps the family knows, still could not be played to an
        end (``key: reason``: a composition that cannot be dealt, a game that could
        never end...), or None. Checked once per rulebook when it is loaded."""
        return None

    def deal_of(self, record: Mapping[str, object], players: Sequence[str]) -> Deal:
        """The deal a scenario file records (the keys ``Game.deal_record`` writes),
        or ValueError saying what is missing or wrong."""
        raise NotImplementedError

    def messages(self, lang: str = "en") -> dict[str, str]:
        """The text of the messages its plugins declare, in ``lang`` where they give
        it and in English otherwise (a language file's or a rulebook's text for the
        same key comes first)."""
        return {}

    def untranslated(self, lang: str) -> frozenset[str]:
        """The keys of ``messages`` its plugins give in English only, not in ``lang``."""
        return frozenset()

    def event_specs(self) -> Mapping[str, EventSpec]:
        """Its event schema: one ``EventSpec`` per kind it (or a plugin of it) emits."""
        raise NotImplementedError

    def told_kinds(self) -> Mapping[str, str]:
        """Kind -> how a narrator says it aloud (``EventSpec.told``), for the kinds said
        at all; kept by a family whose table does not change (a narrator asks often)."""
        return told_kinds(self.event_specs())

    def cards_aside(self, counts: Mapping[str, int]) -> int:
        """How many cards of a deck of ``counts`` lie aside beside the players' (a
        Thief's two); none by default."""
        return 0

    def aside_cards(self) -> frozenset[str]:
        """The cards that bring cards set aside (``cards_aside``); none by default."""
        return frozenset()

    def card_weights(self, book: Rulebook) -> dict[str, int]:
        """What each card of ``book`` is worth to its side, in plain villagers (the
        balance tool's points); empty for a family that deals one deck only."""
        return {}

    def pack_steps(self) -> frozenset[str]:
        """The steps where the pack decides (a deck is told with the pack's cards at
        their step)."""
        return frozenset()

    def awake_together(self, game: Game) -> frozenset[int]:
        """The seats awake together now, who may talk to each other (the pack at its
        step); a server opens their night channel."""
        return frozenset()

    def table_reader(self, names: tuple[str, ...]) -> TableReader:
        """A reader of this family's public events into the public table of a game of
        ``names`` (``lupus.engine.table``); the base reads only the cards public events
        disclose."""
        return TableReader(names)

    def seat_reader(self, seat: int) -> SeatReader | None:
        """A reader of one seat's events into what that seat alone knows (``view.own``:
        a village seat's card and its night powers' answers, Lupusburg's characters
        told it, its peeks, its coin...), or None: the family has no such part, or the
        seat none (a spectator: the public table says all it knows). The pages read it
        rather than the event log."""
        return None

    def called_cards(self) -> Mapping[str, str]:
        """Night step id -> the card its ``wake`` calls, for the steps that call one
        (the Seer's, the couple's; not a pack's, nor the lovers'): a game leader's
        script puts that card's holders back to sleep after such a step that told
        nobody anything (a dead Seer's step is still called). Empty by default."""
        return {}

    death_kind: str | None = None
    """The public kind that tells a seat's death (its ``player``): from it on, a game
    leader's script shows him nothing and wakes him no more (maffia's dead watch the
    night with open eyes). None: a family whose players stay at the table (Lupusburg)."""

    def refuse_table(
        self, book: Rulebook, players: int, options: Mapping[str, OptionValue]
    ) -> None:
        """SetupError if no composition can be played by ``players`` under ``options``
        (the werewolf minimum table), quoting the rule; nothing for a table that can."""

    def fixed_deck(self, players: int) -> dict[str, int] | None:
        """The one deck a table of ``players`` is dealt from, if the family has only one
        (Lupusburg); None if a composition is chosen (the balance tool searches them)."""
        return None

    def main_faction(self, book: Rulebook) -> str:
        """The side whose win rate the balance tool scores."""
        raise NotImplementedError

    def fair_share(self, players: int) -> float:
        """The win rate of ``main_faction`` that makes a composition fair."""
        raise NotImplementedError

    def fair_label(self) -> str:
        """``fair_share`` as a person reads it ("0.5", "1/players")."""
        raise NotImplementedError


class SeatReader(Protocol):
    """Reads one seat's events, oldest first, each once (``Family.seat_reader``)."""

    count: int  # the events read so far

    def feed(self, event: Event) -> None: ...

    def value(self) -> object:
        """What the seat knows now: the same object while nothing changed (a server
        writes its JSON once per change, not once per frame)."""
        ...

    def to_json(self) -> dict[str, object]: ...


class Dealing(Protocol):
    """One table's deal, dealt as often as asked (``Family.dealer``)."""

    def deal(self, rng: random.Random) -> Deal: ...


@final
class Redeal:
    """``Family.deal`` of one table, asked again at every deal (``Family.dealer``'s
    default; the composition and the options copied once, when it is made)."""

    def __init__(
        self,
        family: Family,
        book: Rulebook,
        players: int,
        counts: dict[str, int],
        options: dict[str, OptionValue],
    ) -> None:
        self.family: Final = family
        self.book: Final = book
        self.players: Final = players
        self.counts: Final = counts
        self.options: Final = options

    def deal(self, rng: random.Random) -> Deal:
        return self.family.deal(self.book, self.players, self.counts, rng, self.options)
