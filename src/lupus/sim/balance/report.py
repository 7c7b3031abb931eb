"""What a balance search found, as scores, as JSON (``as_dict``) and as a plot.

`Scored` is one composition's games and its main faction's win rate; `CountResult` one
player count's search; `BalanceResult` the whole run. The fair share comes from the
rulebook's family (``Family.fair_label``, ``Family.fixed_deck``), kept in the result so
that the JSON and the plot say it without asking which family played.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lupus.rulebooks.schema import OptionValue
from lupus.sim.balance.candidates import Counts, key
from lupus.sim.runner import Tally
from lupus.sim.stats import wilson


@dataclass
class Scored:
    """A composition's games so far and its main faction's win rate."""

    counts: Counts
    tally: Tally
    faction: str
    goal: float
    factions: tuple[str, ...]
    points: int = 0
    """The deck's points (``candidates.points``): its designers' score, 0 even."""

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def p(self) -> float:
        return self.tally.wins.get(self.faction, 0) / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.tally.wins.get(self.faction, 0), self.games)

    @property
    def distance(self) -> float:
        return abs(self.p - self.goal)

    def rank_key(self) -> tuple[float, str]:
        return (round(self.distance, 12), key(self.counts))

    def as_dict(self) -> dict[str, object]:
        g = self.games
        return {
            "composition": dict(self.counts),
            "points": self.points,
            "games": g,
            "p": self.p,
            "ci95": list(self.ci95),
            "distance": self.distance,
            "win_rate": {
                f: {
                    "p": self.tally.wins.get(f, 0) / g if g else 0.0,
                    "ci95": list(wilson(self.tally.wins.get(f, 0), g)),
                }
                for f in self.factions
            },
            "no_winner": g - sum(self.tally.wins.values()),
            "mean_days": self.tally.days / g if g else 0.0,
        }


@dataclass
class CountResult:
    players: int
    goal: float
    candidates: int
    rounds: list[tuple[int, int]]
    best: list[Scored]
    recommended: Scored | None
    games_played: int
    rejected: dict[str, str] = field(default_factory=dict)
    field_size: int | None = None
    """The candidates played when the search was asked for a smaller field (those
    nearest even by points), or None: all of them."""

    def as_dict(self) -> dict[str, object]:
        return {
            "players": self.players,
            "target": self.goal,
            "candidates": self.candidates,
            "field": self.field_size,
            "rounds": [{"candidates": n, "games": g} for n, g in self.rounds],
            "games_played": self.games_played,
            "best": [s.as_dict() for s in self.best],
            "recommended": self.recommended.as_dict() if self.recommended else None,
            "rejected": dict(self.rejected),
        }


def fair_value(label: str) -> float | str:
    """A family's fair label as the JSON gives it: a number when it is one (0.5), else
    the text ("1/players", a share that depends on the table)."""
    try:
        return float(label)
    except ValueError:
        return label


@dataclass
class BalanceResult:
    rules: str
    faction: str
    fair: str
    """The family's fair label (``Family.fair_label``): "0.5", "1/players"."""
    fixed_deck: bool
    """Whether the family deals one deck only: the best found is then the recommended."""
    bots: dict[str, str]
    options: dict[str, OptionValue]
    seed: int
    games: int
    top: int
    counts: list[CountResult]
    seconds: float
    workers: int
    rules_digest: str = ""
    """The rulebook's identity (``Rulebook.digest``): a house rulebook may keep a
    shipped id."""

    def as_dict(self) -> dict[str, object]:
        return {
            "rules": self.rules,
            "rules_digest": self.rules_digest,
            "faction": self.faction,
            "fair": fair_value(self.fair),
            "bots": dict(self.bots),
            "options": dict(self.options),
            "seed": self.seed,
            "games": self.games,
            "top": self.top,
            "counts": [c.as_dict() for c in self.counts],
            "seconds": self.seconds,
            "workers": self.workers,
        }


def plot(result: BalanceResult, path: str, title: str | None = None) -> None:
    """Win rate of the main faction by player count, with 95% error bars, for the best
    composition found and for the recommended one, and the fair line. Needs matplotlib
    (``pip install 'lupus[plot]'``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    series: list[tuple[str, list[tuple[int, Scored]], str, float]] = [
        ("best found", [(c.players, c.best[0]) for c in result.counts if c.best], "o", -0.08),
        (
            "recommended",
            [(c.players, c.recommended) for c in result.counts if c.recommended],
            "s",
            0.08,
        ),
    ]
    if result.fixed_deck:  # one deck: the best is the recommended
        series = [(label, points, marker, 0.0) for label, points, marker, _ in series[1:]]
    for label, points, marker, shift in series:
        if not points:
            continue
        xs = [n + shift for n, _ in points]
        ys = [s.p for _, s in points]
        lows = [s.p - s.ci95[0] for _, s in points]
        highs = [s.ci95[1] - s.p for _, s in points]
        ax.errorbar(xs, ys, yerr=[lows, highs], fmt=marker + "-", lw=1, capsize=3, label=label)
    xs_all = [c.players for c in result.counts]
    fair = fair_value(result.fair)
    if isinstance(fair, str):  # a share that depends on the table: one point per count
        ax.plot(xs_all, [c.goal for c in result.counts], "k--", lw=1, label=f"fair ({fair})")
    else:
        even = "even odds" if fair == 0.5 else f"fair ({result.fair})"
        ax.axhline(fair, color="k", ls="--", lw=1, label=even)
    ax.set_xticks(xs_all)
    ax.set_ylim(0, 1)
    ax.set_xlabel("players")
    ax.set_ylabel(f"{result.faction} win rate")
    bots = ",".join(f"{f}={k}" if f != "*" else k for f, k in result.bots.items())
    ax.set_title(title or f"{result.rules}: {bots} bots, {result.games} games, seed {result.seed}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
