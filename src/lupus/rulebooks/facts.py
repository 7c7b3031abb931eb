"""What games read from their rulebook over and over, as plain values built once.

A rulebook is a validated pydantic model: reading its fields from compiled code is a
Python attribute lookup, and some answers (the pack's roles) are computed. A simulation
sets up a game every few dozen microseconds, so each rulebook builds its ``RuleFacts``
once, when first asked (``Rulebook.facts``), and the games read those. What was already
found valid under a rulebook (tables of names, sets of options, the deals a family
checked) is kept apart, per rulebook content (``Memos``), so a game set up like an
earlier one skips its checks.

Plain data only: this module imports no mechanics (the families read it).
"""

from __future__ import annotations

from typing import Final, final

KEPT: Final = 1024
"""How many of a kind of checked setup (sets of options, tables of names, card
multisets) a rulebook remembers: a simulation uses a few, a server meets new ones in
every room and must not keep them all (past this many, the others are checked every
time)."""


@final
class WinRule:
    """One ``[[win]]`` entry of a rulebook, as plain values."""

    def __init__(self, faction: str, when: str, of: str | None, count: int) -> None:
        self.faction: Final = faction
        self.when: Final = when
        self.of: Final = of
        self.count: Final = count


@final
class RuleFacts:
    """A rulebook's facts (see the module docstring); built by ``Rulebook.facts``."""

    def __init__(
        self,
        *,
        pack: frozenset[str],
        faction_of_role: dict[str, str],
        wins: tuple[WinRule, ...],
        first_night: tuple[str, ...],
        later_nights: tuple[str, ...],
        preparation: tuple[str, ...],
        day: tuple[str, ...],
        kill_cause: str,
        reveal_on_death: bool,
        announce_failed_attempt: bool,
        hunter_triggers: frozenset[str],
        starvation_winner: str | None,
        pack_kills_own: bool,
        pack_must_agree: bool,
        captain_self_vote: bool,
        eliminated_watch: bool,
        lovers_know_partner_role: bool,
        minimum_lifted_by: str,
        digest: str,
    ) -> None:
        self.pack: Final = pack
        self.faction_of_role: Final = faction_of_role
        self.wins: Final = wins
        self.first_night: Final = first_night
        self.later_nights: Final = later_nights
        self.preparation: Final = preparation
        self.day: Final = day
        self.kill_cause: Final = kill_cause
        self.reveal_on_death: Final = reveal_on_death
        self.announce_failed_attempt: Final = announce_failed_attempt
        self.hunter_triggers: Final = hunter_triggers
        self.starvation_winner: Final = starvation_winner
        self.pack_kills_own: Final = pack_kills_own
        self.pack_must_agree: Final = pack_must_agree
        self.captain_self_vote: Final = captain_self_vote
        self.eliminated_watch: Final = eliminated_watch
        self.lovers_know_partner_role: Final = lovers_know_partner_role
        # the option that lifts the rulebook's minimum configuration ("" when none does)
        self.minimum_lifted_by: Final = minimum_lifted_by
        self.digest: Final = digest  # the rulebook's (``Rulebook.digest``): its memos
        # The family (name, revision) found able to play the rulebook (``lupus.families``),
        # or None before it is checked.
        self.playable: tuple[str, int] | None = None


@final
class Memos:
    """What was already found valid under a rulebook, so that a game set up like an
    earlier one skips its checks: kept per rulebook content (``memos``), apart from the
    rulebook itself, which views hand out (a view reaches nothing of other games).

    Each table is keyed on everything its value depends on besides the rulebook,
    exactly (a value's type and a float's sign included): a game set up after any other
    gets what it would get in a fresh process.
    """

    def __init__(self) -> None:
        # (no_dot, a table of names in NFC) that passed ``player_names`` (which depends
        # on them and the rulebook alone).
        self.valid_names: Final[set[tuple[bool, tuple[str, ...]]]] = set()
        # Options as given (``lupus.engine.options.options_key``) -> the checked options.
        self.options_seen: Final[dict[object, object]] = {}
        # What a family derived from a deal that passed its checks, keyed on all it
        # depends on (the village family: ``lupus.village.game.deal_key``).
        self.deals_seen: Final[dict[object, object]] = {}
        # A random dealer's verdict on a deal (``lupus.village.deal.judged``): the cards
        # in play and aside as multisets and the options as given -> the refusal, or "".
        self.deal_verdicts: Final[dict[object, str]] = {}


BOOKS_KEPT: Final = 64
"""Rulebooks (by content) whose memos are kept; past this many the oldest are dropped."""

_MEMOS: Final[dict[str, Memos]] = {}


def memos(digest: str) -> Memos:
    """The memos of the rulebook whose content has this digest (``Rulebook.digest``)."""
    found = _MEMOS.get(digest)
    if found is None:
        if len(_MEMOS) >= BOOKS_KEPT:
            del _MEMOS[next(iter(_MEMOS))]
        found = _MEMOS[digest] = Memos()
    return found


def remember(table: dict[object, object], key: object, value: object) -> None:
    """Keep ``value`` under ``key`` unless the table is full (see ``KEPT``)."""
    if len(table) < KEPT:
        table[key] = value
