"""What a simulation is asked to play, and the sums it gives back.

Plain (interpreted) dataclasses: they cross process boundaries and Ray's object store
by pickling, which the compiled self-play module's classes could not do. A configuration
carries its rulebook itself (``rules``: pickled as its content), never a path for a
worker to read again: the games of a run play the rules it was given.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lupus.bots.kinds import KINDS
from lupus.engine.deal import composition, table_size
from lupus.engine.errors import SetupError
from lupus.engine.limits import MAX_SEED
from lupus.engine.untrusted import exact_int, quoted
from lupus.families import deal, rulebook
from lupus.rulebooks import is_shipped
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.sim.stats import wilson

if TYPE_CHECKING:
    from lupus.ai.llm.settings import LlmSettings


@dataclass(frozen=True)
class SimConfig:
    rules: str | Rulebook  # a shipped id (or a path, read once here), or the rulebook
    players: int
    counts: Mapping[str, int] = field(default_factory=dict)
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    bots: Mapping[str, str] = field(default_factory=lambda: {"*": "random"})
    seed: int = 0
    llm: LlmSettings | None = None  # the model of the ``llm`` seats (lupus.ai.llm)

    def __post_init__(self) -> None:
        if isinstance(self.rules, str):  # (read now: a file is not read again later)
            object.__setattr__(self, "rules", rulebook(self.rules))

    @property
    def book(self) -> Rulebook:
        """The rulebook, checked by its family."""
        assert isinstance(self.rules, Rulebook)
        return rulebook(self.rules)

    @property
    def uses_llm(self) -> bool:
        """Whether a language model plays some seats (games then run in threads)."""
        return "llm" in self.bots.values()

    def composition(self) -> dict[str, int]:
        return dict(self.counts) if self.counts else composition(self.book, self.players)

    def check(self) -> None:
        """SetupError (or RulebookError) unless every game of this run can be set up:
        the rulebook loads, the seed is a whole number from 0 to ``MAX_SEED``, the bots
        are known kinds for known factions, and a trial deal of the composition to the
        table passes every check of ``lupus.deal`` (table size, counts, options). Cheap,
        and run before any game is played or any process started."""
        book = self.book
        table_size(book, self.players)  # (before its recommended composition is looked up)
        exact_int(self.seed, "the seed", 0, MAX_SEED)
        check_bots(book.factions, self.bots)
        if self.uses_llm:
            if self.llm is None:
                raise SetupError("bots: llm seats need a model (--llm-model)")
            self.llm.check()
        deal(book, self.players, self.composition(), random.Random(0), self.options)


def check_bots(factions: Sequence[str], bots: object) -> None:
    """SetupError unless ``bots`` maps ``*`` or factions of the rulebook to bot kinds."""
    if not isinstance(bots, Mapping) or not bots:
        raise SetupError("bots: give a kind (random, heuristic, llm), or faction=kind pairs")
    if len(bots) > len(factions) + 1:
        raise SetupError(f"bots: at most one kind per faction ({', '.join(factions)}) and *")
    for faction, kind in bots.items():
        if faction != "*" and faction not in factions:
            raise SetupError(
                f"bots: unknown faction {quoted(faction)} (factions: {', '.join(factions)})"
            )
        if kind not in KINDS:
            raise SetupError(f"bots: unknown bot kind {quoted(kind)} ({', '.join(KINDS)})")


@dataclass
class Tally:
    """Sums over games, in a form that adds up the same in any order."""

    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    days: int = 0
    actions: int = 0
    # language-model seats (lupus.ai.llm): decisions asked, taken by the stand-in, tokens
    decisions: int = 0
    fallbacks: int = 0
    tokens: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    said: int = 0  # lines the model seats said (lupus.ai.llm.discussion)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins.update(other.wins)
        self.days += other.days
        self.actions += other.actions
        self.decisions += other.decisions
        self.fallbacks += other.fallbacks
        self.tokens += other.tokens
        self.reasons.update(other.reasons)
        self.said += other.said


@dataclass
class SimResult:
    config: SimConfig
    tally: Tally
    seconds: float
    workers: int

    def as_dict(self) -> dict[str, object]:
        t = self.tally
        book = self.config.book
        factions = list(book.factions)
        out: dict[str, object] = {
            "rules": book.id,
            "rules_digest": book.digest,
            "shipped_rules": is_shipped(book),
            "players": self.config.players,
            "composition": self.config.composition(),
            "options": dict(self.config.options),
            "bots": dict(self.config.bots),
            "seed": self.config.seed,
            "games": t.games,
            "wins": {f: t.wins.get(f, 0) for f in factions},
            "win_rate": {
                f: {
                    "p": t.wins.get(f, 0) / t.games if t.games else 0.0,
                    "ci95": list(wilson(t.wins.get(f, 0), t.games)),
                }
                for f in factions
            },
            "no_winner": t.games - sum(t.wins.values()),
            "mean_days": t.days / t.games if t.games else 0.0,
            "mean_actions": t.actions / t.games if t.games else 0.0,
            "seconds": self.seconds,
            "games_per_second": t.games / self.seconds if self.seconds else 0.0,
            "workers": self.workers,
        }
        if self.config.uses_llm:  # (only then: other runs' output stays as it was)
            out["llm_decisions"] = t.decisions
            out["fallbacks"] = t.fallbacks
            out["fallback_reasons"] = dict(sorted(t.reasons.items()))
            out["tokens"] = t.tokens
            out["lines_said"] = t.said
        return out
