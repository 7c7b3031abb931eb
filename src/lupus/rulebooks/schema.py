"""The shape of a rulebook file, validated when it is loaded.

Rules are data where they can be: which roles exist and on which side, the night
order, the day's steps, the win conditions and their order, the options with their
defaults, the recommended compositions and every name a player reads. Mechanics (what
a step does) are code in ``lupus.roles``.
"""

from __future__ import annotations

import hashlib
import json
import math
import weakref
from collections import deque
from functools import cached_property
from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, model_validator

from lupus.rulebooks.facts import RuleFacts, WinRule
from lupus.rulebooks.templates import shown, template_problem

OptionValue = bool | int | float | str


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RoleSpec(_Strict):
    faction: str
    max: int | None = Field(default=None, ge=1, description="most copies in one game")
    tags: tuple[str, ...] = ()
    comes_in: int = Field(
        default=1, ge=1, description="cards are dealt in sets of this size (the Couple: 2)"
    )
    appears_as: str | None = Field(
        default=None, description="the side an investigator is shown, if not its faction"
    )
    immune: tuple[str, ...] = Field(
        default=(), description="death causes this role survives (the Godfather: 'shot')"
    )


class OptionSpec(_Strict):
    type: Literal["bool", "int", "float", "choice"]
    default: OptionValue
    min: float | None = Field(default=None, allow_inf_nan=False)
    max: float | None = Field(default=None, allow_inf_nan=False)
    choices: tuple[str, ...] = ()
    help: dict[str, str] = Field(default_factory=dict)
    labels: dict[str, dict[str, str]] = Field(
        default_factory=dict,
        description="a choice option's choices as a player reads them, per language",
    )

    @model_validator(mode="after")
    def _default_fits(self) -> OptionSpec:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min is {self.min:g}, larger than max ({self.max:g})")
        for lang, labels in self.labels.items():
            stray = sorted(set(labels) - set(self.choices))
            if stray:
                raise ValueError(f"labels.{lang} names no choice of the option: {stray}")
        self.check(self.default, "default")
        return self

    def check(self, value: object, what: str) -> OptionValue:
        """Return ``value`` if it has the option's exact type and an allowed value, or
        raise ValueError saying why.

        Types are exact, so that a value means one thing in every process and every
        file: a bool option takes true or false (not 1), an int option a whole number
        written as one (not true, not 2.0), a float option a finite decimal number
        written with its point (not 1, not true, not NaN or an infinity), a choice one
        of its strings. Nothing is converted, and a string is never read as a number.
        """
        kind = type(value)
        if self.type == "bool":
            if kind is not bool:
                raise ValueError(f"{what} must be true or false, not {shown(value)}")
            return cast(bool, value)
        if self.type == "choice":
            if kind is not str or value not in self.choices:
                raise ValueError(
                    f"{what} must be one of {', '.join(self.choices)}, not {shown(value)}"
                )
            return value
        number: int | float
        if self.type == "int":
            if kind is not int:
                raise ValueError(f"{what} must be a whole number such as 2, not {shown(value)}")
            number = cast(int, value)
        else:
            if kind is not float:
                raise ValueError(
                    f"{what} must be a decimal number written with its point, such as 1.0, "
                    f"not {shown(value)}"
                )
            number = cast(float, value)
            if not math.isfinite(number):
                raise ValueError(f"{what} must be a finite number, not {shown(value)}")
        if self.min is not None and number < self.min:
            raise ValueError(f"{what} must be at least {self.min:g}, not {shown(number)}")
        if self.max is not None and number > self.max:
            raise ValueError(f"{what} must be at most {self.max:g}, not {shown(number)}")
        return number


WinWhen = Literal[
    "mixed_lovers_last_two",  # a werewolf and a non-werewolf in love are the last two alive
    "none_alive",  # no living player of the faction named by `of`
    "others_at_most",  # living players outside the faction are at most `count`
    "at_least_half",  # the faction is at least half of the living
]


class WinSpec(_Strict):
    faction: str
    when: WinWhen
    of: str | None = None
    count: int = 0


class MechanicsSpec(_Strict):
    """Fixed rules of the game that differ between rulebooks (not user options)."""

    starvation_winner: str | None = None  # a wholly sleeping pack starves: this side wins
    lovers_know_partner_role: bool = True
    reveal_on_death: bool = True
    hunter_triggers: tuple[str, ...] = ("werewolves", "vote")
    pack_tag: str = "werewolf"
    pack_kills_own: bool = True  # may the pack name one of its own as the victim?
    pack_must_agree: bool = True  # the mafia step waits for one agreed victim (else plurality)
    kill_cause: str = "werewolves"
    announce_failed_attempt: bool = False
    # "The captain is elected after having the majority of votes from other players"
    captain_self_vote: bool = True
    # maffia: the eliminated watch the night with open eyes (each step's private events
    # are told to them too; they cannot speak or act)
    eliminated_watch: bool = False


class MinimumSpec(_Strict):
    """A rulebook's smallest game, as its text states it, and the option that lifts it.

    ``cards`` counts the cards in the game (the Thief's extra cards included); other
    roles may stand in for the rest of the table. ``rule`` is quoted by the refusal.
    """

    players: int = Field(ge=2)
    cards: dict[str, int] = Field(default_factory=dict)
    rule: str
    lifted_by: str | None = None


class NightSpec(_Strict):
    first: tuple[str, ...]
    later: tuple[str, ...]
    preparation: tuple[str, ...] = ()


POINTS = 10**6
"""The largest number of points (or a coin's value) a Lupusburg rulebook may give."""

Points = Annotated[int, Field(ge=-POINTS, le=POINTS)]


class LupusburgSpec(_Strict):
    """The numbers of Lupusburg's box: coins, draws, voting rounds and points, each
    bounded (a round is a turn of every player: 10^9 rounds would never be laid out).
    The bag must also hold a coin for every player's bet (``LupusburgFamily``)."""

    bag: tuple[Annotated[int, Field(ge=0, le=POINTS)], ...] = Field(
        default=(8, 7, 6, 5, 4, 3, 2, 2), min_length=1, max_length=64
    )
    coins_drawn: int = Field(default=3, ge=1, le=64)
    token_rounds: int = Field(default=2, ge=1, le=16)
    suspects: int = Field(default=2, ge=2, le=16)
    points_per_character: Points = 2
    points_per_chest: Points = 1
    points_unused_seal: Points = 1


TIMER_MOST = 600.0
"""The longest default timer a rulebook may give a step, in seconds (ten minutes)."""

TimerSeconds = Annotated[float, Field(gt=0, le=TIMER_MOST, allow_inf_nan=False)]


class TimersSpec(_Strict):
    """The seconds each step of an online room may last unless its host chooses other
    timers or none (``lupus.server.settings``): every night step ``night``, every day
    step ``day``, a step's own under ``steps`` (by step id, the steps a death or a tie
    pushes too: ``succession``, ``hunter``, ``decide``). A night step lasts exactly its
    timer whoever holds its card (fair timing), a day step at most its timer. Rules as
    data: how long a table may think about each decision is the rulebook's to say."""

    night: TimerSeconds | None = None
    day: TimerSeconds | None = None
    steps: dict[str, TimerSeconds] = Field(default_factory=dict, max_length=64)


class TableSpec(_Strict):
    """How an at-the-table room's phones play the night (``docs/protocol.md``,
    at-the-table rooms): at each night step every living phone asks for the same
    number of taps, so that nobody can tell who acts by who taps more. ``taps`` by
    night step id, as many as its most demanding decision takes (Cupid's pair, the
    Witch's two potions); 1 for a step not named."""

    taps: dict[str, Annotated[int, Field(ge=1, le=4)]] = Field(default_factory=dict)


class Rulebook(_Strict):
    id: str
    # The game family whose mechanics play it (``lupus.families``): "village" (one card
    # per player) or "lupusburg" (two characters per player).
    family: str = "village"
    languages: tuple[str, ...]
    min_players: int = Field(ge=2)
    max_players: int = Field(ge=2)
    factions: tuple[str, ...]
    roles: dict[str, RoleSpec]
    night: NightSpec
    day: tuple[str, ...]
    # The day's steps the table talks before (its discussion): where a model seat's
    # day talk opens (``lupus.ai.llm.discussion``), once a day each. A step the day
    # does not hold is never reached (a house rulebook may drop it from ``day`` alone).
    talk: tuple[str, ...] = ()
    mechanics: MechanicsSpec = MechanicsSpec()
    options: dict[str, OptionSpec] = Field(default_factory=dict)
    win: tuple[WinSpec, ...] = ()
    lupusburg: LupusburgSpec | None = None
    minimum: MinimumSpec | None = None
    timers: TimersSpec = TimersSpec()
    table: TableSpec = TableSpec()
    compositions: dict[str, dict[str, Annotated[int, Field(ge=0)]]] = Field(default_factory=dict)
    names: dict[str, dict[str, str]]
    text: dict[str, dict[str, str]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> Rulebook:
        if self.min_players > self.max_players:
            raise ValueError("min_players is larger than max_players")
        if not self.night.later and not self.day:
            # The phases after the first night would wait on nobody: a game would run
            # them one after the other forever.
            raise ValueError("night.later and day are both empty: the game would never end")
        for role_id, role in self.roles.items():
            if role.faction not in self.factions:
                raise ValueError(f"roles.{role_id}.faction: unknown faction {role.faction!r}")
            if role.appears_as is not None and role.appears_as not in self.factions:
                raise ValueError(f"roles.{role_id}.appears_as: unknown faction {role.appears_as!r}")
            if role.max is not None and role.max % role.comes_in:
                raise ValueError(f"roles.{role_id}.max: not a multiple of comes_in")
        starving = self.mechanics.starvation_winner
        if starving is not None and starving not in self.factions:
            raise ValueError(f"mechanics.starvation_winner: unknown faction {starving!r}")
        for i, win in enumerate(self.win):
            if win.faction not in self.factions:
                raise ValueError(f"win[{i}].faction: unknown faction {win.faction!r}")
            if win.of is not None and win.of not in self.factions:
                raise ValueError(f"win[{i}].of: unknown faction {win.of!r}")
        minimum = self.minimum
        if minimum is not None:
            for role_id in minimum.cards:
                if role_id not in self.roles:
                    raise ValueError(f"minimum.cards.{role_id}: unknown role")
            lift = minimum.lifted_by
            if lift is not None and (lift not in self.options or self.options[lift].type != "bool"):
                raise ValueError(f"minimum.lifted_by: {lift!r} is not a bool option")
        for size, deck in self.compositions.items():
            if not size.isdigit() or not size.isascii() or len(size) > 6:
                raise ValueError(f"compositions.{size}: keys are player counts")
            if not self.min_players <= int(size) <= self.max_players:
                raise ValueError(
                    f"compositions.{size}: the rulebook is played by {self.min_players} to "
                    f"{self.max_players} players"
                )
            for role_id in deck:
                if role_id not in self.roles:
                    raise ValueError(f"compositions.{size}.{role_id}: unknown role")
        for lang, table in self.text.items():
            for key, template in table.items():
                problem = template_problem(template)
                if problem:
                    raise ValueError(f"text.{lang}.{key}: {problem}")
        for lang in self.languages:
            names = self.names.get(lang)
            if names is None:
                raise ValueError(f"names.{lang}: missing (listed in languages)")
            needed = [*self.roles, *self.factions, "rulebook", "leader"]
            missing = [key for key in needed if key not in names]
            if missing:
                raise ValueError(f"names.{lang}: missing {', '.join(missing)}")
        return self

    @property
    def language(self) -> str:
        return self.languages[0]

    def name(self, key: str, lang: str | None = None) -> str:
        """The name a player reads for a role, faction or title, in ``lang``."""
        table = self.names.get(lang or self.language) or self.names[self.language]
        return table.get(key, key)

    def minimum_rule(self, lang: str | None = None) -> str:
        """The seed's minimum configuration in words, in ``lang``: the rulebook's
        ``minimum_rule`` text of that language, else ``minimum.rule`` as the seed states
        it (the refusal of a game below the minimum quotes that one)."""
        if self.minimum is None:
            return ""
        said = self.text.get(lang or self.language, {}).get("minimum_rule")
        return said or self.minimum.rule

    def tagged(self, tag: str) -> frozenset[str]:
        return frozenset(r for r, spec in self.roles.items() if tag in spec.tags)

    @cached_property
    def digest(self) -> str:
        """The rulebook's identity: a SHA-256 of its content (every field, defaults
        included, in the file's order). Two rulebooks with one digest play alike; a
        house rulebook that keeps a shipped id has another digest than the shipped one."""
        text = json.dumps(self.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its content (a simulation's worker in another process gets the
        rulebook itself, never a path to read again); the facts a process keeps are
        not carried over."""
        return (_rebuilt, (self.model_dump(mode="json"),))

    @cached_property
    def facts(self) -> RuleFacts:
        """The rulebook's facts as plain values, built on first use (see ``RuleFacts``).

        A cached property: once built, reading it is a plain instance attribute (a
        pydantic private attribute costs a few microseconds a read, a tenth of a
        simulated game's set-up)."""
        return self._make_facts()

    def _make_facts(self) -> RuleFacts:
        mechanics = self.mechanics
        minimum = self.minimum
        return RuleFacts(
            pack=self.tagged(mechanics.pack_tag),
            faction_of_role={r: s.faction for r, s in self.roles.items()},
            wins=tuple(WinRule(w.faction, w.when, w.of, w.count) for w in self.win),
            first_night=tuple(self.night.first),
            later_nights=tuple(self.night.later),
            preparation=tuple(self.night.preparation),
            day=tuple(self.day),
            kill_cause=mechanics.kill_cause,
            reveal_on_death=mechanics.reveal_on_death,
            announce_failed_attempt=mechanics.announce_failed_attempt,
            hunter_triggers=frozenset(mechanics.hunter_triggers),
            starvation_winner=mechanics.starvation_winner,
            pack_kills_own=mechanics.pack_kills_own,
            pack_must_agree=mechanics.pack_must_agree,
            captain_self_vote=mechanics.captain_self_vote,
            eliminated_watch=mechanics.eliminated_watch,
            lovers_know_partner_role=mechanics.lovers_know_partner_role,
            minimum_lifted_by=(minimum.lifted_by or "") if minimum is not None else "",
            digest=self.digest,
        )


def _rebuilt(data: dict[str, Any]) -> Rulebook:
    """A pickled rulebook read back (``Rulebook.__reduce__``)."""
    return Rulebook.model_validate(data)


BOOKS_KEPT = 64
"""Rulebook contents kept after their last game is gone (the most recent ones)."""

_KNOWN: weakref.WeakValueDictionary[str, Rulebook] = weakref.WeakValueDictionary()
_RECENT: deque[Rulebook] = deque(maxlen=BOOKS_KEPT)


def remember_book(book: Rulebook) -> str:
    """Keep ``book`` by its digest (the first object of a content is kept), and return
    the digest: what a view carries instead of the rulebook object, which holds mutable
    tables that no view may reach (``lookup_book`` finds it again). A rulebook is kept
    while a game holds it, and the last ``BOOKS_KEPT`` contents after that: a process
    that replays thousands of house rulebooks (a scenario may carry one) does not keep
    them all."""
    digest = book.digest
    if _KNOWN.get(digest) is None:
        _KNOWN[digest] = book
        _RECENT.append(book)
    return digest


def lookup_book(digest: str) -> Rulebook | None:
    """The rulebook of a digest a game remembered (``remember_book``), or None when no
    game holds it any more and it is not among the last ``BOOKS_KEPT``."""
    return _KNOWN.get(digest)
