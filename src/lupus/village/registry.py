"""The village family's steps and reactions, as its role plugins declared them.

``lupus.village.family`` builds one ``Registry`` from every ``Role`` it finds; a game
reads it to lay out its nights and days (``steps``), to run what a death sets off
(``death_hooks``, in order) and to make the memories its roles keep (``memories``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, final

from lupus.engine.events import EventSpec, told_kinds
from lupus.engine.step import Step


@final
class Aside:
    """The cards that bring cards set aside for their holder (``Role.extra_cards``: the
    Thief's two), with how many each brings and the steps of its role: a deal counts
    the cards aside and judges them from this, naming no card of its own."""

    def __init__(self, extra: dict[str, int], steps: dict[str, frozenset[str]]) -> None:
        self.extra: Final = extra
        self.steps: Final = steps
        self.cards: Final = frozenset(extra)

    def count(self, counts: Mapping[str, int]) -> int:
        """How many cards of a deck of ``counts`` lie aside (none without such a card)."""
        extra = self.extra
        return sum(extra[card] for card, count in counts.items() if count and card in extra)

    def taker(self, cards: Sequence[str]) -> str | None:
        """The first of ``cards`` that brings cards aside, or None."""
        return next((card for card in cards if card in self.cards), None)


@final
class Plays:
    """The roles' ``Play`` declarations, joined: the heuristic bot's play by verb, and
    by card a Thief's taste for it and the pack's for its holder (0 where none is
    declared). A verb two roles share (the Seer's and the Detective's ``inspect``) has
    one play: two different plays for it are refused."""

    def __init__(
        self,
        decisions: dict[str, Callable[[Any], Any]],
        taste: dict[str, int],
        prey: dict[str, int],
        remembers: dict[str, Callable[[Any, Any], None]] | None = None,
        records: dict[str, Callable[[Any, Any], None]] | None = None,
    ) -> None:
        self.decisions: Final = decisions
        self.taste: Final = taste
        self.prey: Final = prey
        # kind -> how a seat's memory, and the shared public record, read it
        self.remembers: Final[dict[str, Callable[[Any, Any], None]]] = remembers or {}
        self.records: Final[dict[str, Callable[[Any, Any], None]]] = records or {}


@final
class Registry:
    """The plugins' steps, death hooks, memories and event kinds, and the steps every
    night and day has (nightfall and daybreak, dawn, the win check)."""

    def __init__(
        self,
        steps: dict[str, Callable[[], Step[Any]]],
        death_hooks: Sequence[Callable[[Any, int, str], None]],
        memories: dict[str, tuple[str | None, Callable[[], object]]],
        phase_start: Callable[[str, int], Step[Any]],
        dawn: Callable[[], Step[Any]],
        win_check: Callable[[], Step[Any]],
        carded: dict[str, str],
        called: dict[str, str],
        events: dict[str, EventSpec],
        scalar_kinds: frozenset[str],
        plays: Plays,
        aside: Aside,
    ) -> None:
        self.steps: Final = steps
        self.death_hooks: Final = tuple(death_hooks)
        # role id -> (its card, or None for a procedure no card calls; what makes its
        # memory): a game keeps the memories of the cards in its deck only
        self.memories: Final = memories
        self.phase_start: Final = phase_start
        self.dawn: Final = dawn
        self.win_check: Final = win_check
        # step id -> the card without which the step does nothing at all (see ``Cards``)
        self.carded: Final = carded
        # step id -> the card it calls, a ballot's or not (a game leader's script)
        self.called: Final = called
        # kind -> schema: the family's own kinds and those its roles declare
        self.events: Final = events
        # the kinds among them whose data the ledger records as they come
        # (``lupus.engine.events.scalar_kinds``)
        self.scalar_kinds: Final = scalar_kinds
        # kind -> how a narrator says it aloud, for the kinds said at all
        self.told: Final = told_kinds(events)
        # kind -> what it does to the public table, for the kinds that do something
        self.table_marks: Final = {k: e.table for k, e in events.items() if e.table is not None}
        # kind -> its place in a game leader's script, which also says which public
        # events open the table's step under way and which are entries in it
        self.script_marks: Final = {k: e.script for k, e in events.items() if e.script is not None}
        # kind -> what a private event of it tells its audience (``EventSpec.shows``):
        # a seat's own part of its frame (``lupus.village.own``) reads them
        self.shows: Final = {k: e.shows for k, e in events.items() if e.shows is not None}
        # how the heuristic bot plays the roles (their ``Play`` declarations, joined)
        self.plays: Final = plays
        # the cards that set cards aside for their holder (the Thief's two)
        self.aside: Final = aside
