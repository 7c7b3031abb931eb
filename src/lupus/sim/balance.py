"""Searching compositions for even odds: the engine behind ``lupus balance``.

For each player count the search lists every composition the rulebook accepts (the pack
size in a range, every special role from 0 to its ``max`` in sets of ``comes_in``, the
filler role making up the rest, two extra cards with a thief), then spends its games by
successive halving: every candidate plays a few games, the third closest to the target
plays three times as many, and so on until the ``top`` finalists have played ``games``
games each. The rulebook's recommended composition is played to ``games`` too, and is
ranked with the finalists. Each round but the last judges a composition on its own games
shrunk towards an additive logistic model fitted on every composition's games (see
`pooled_model`), so that a handful of games each is enough to drop the hopeless ones.

Fair means:

* village rulebooks (werewolf, tit-albert, maffia, mafia-classic): the village side (the
  first faction: villagers or town) wins half of the games;
* Lupusburg, where one player wins alone: the Werewolf card is worth as much as any other
  deal. A townsfolk player wins with chance (1 - p)/(n - 1) on average when the Werewolf
  wins with chance p, and these are equal when p = 1/n: the target is 1/n.

Game ``i`` of a composition is seeded by (seed, i) only, and every composition of a run
shares the seed, so the same seed gives the same table whatever ``workers`` (and a
composition's figure is the one ``lupus simulate --roles ... --seed`` prints), and
compositions are compared on common random numbers.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from lupus.engine.deal import seat_names
from lupus.engine.errors import LupusError, SetupError
from lupus.engine.setup import new_game
from lupus.engine.village import check_minimum
from lupus.rulebooks import load
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.sim.runner import SimConfig, Tally, chunks, play_range
from lupus.sim.stats import wilson

Counts = dict[str, int]
PackRange = tuple[int | None, int | None]
"""Pack sizes to try, low and high; None: the default (`default_pack_range`)."""

ETA = 3
"""Successive halving keeps the best 1/ETA of the candidates and plays ETA times more."""

MIN_FIRST_GAMES = 4
CHUNK = 200


# --------------------------------------------------------------------- what is fair


def main_faction(book: Rulebook) -> str:
    """The side whose win rate is scored: the village (first faction), the Werewolf in
    Lupusburg."""
    if book.family == "lupusburg":
        return "werewolf"
    pack = book.tagged(book.mechanics.pack_tag)
    pack_factions = {book.roles[r].faction for r in pack}
    return next(f for f in book.factions if f not in pack_factions)


def target(book: Rulebook, players: int) -> float:
    """The fair win rate of ``main_faction``: 1/2, or 1/n for Lupusburg's lone Werewolf."""
    return 1 / players if book.family == "lupusburg" else 0.5


# --------------------------------------------------------------------- candidates


def key(counts: Mapping[str, int]) -> str:
    """``werewolf=2,seer=1,villager=5`` in the rulebook's role order (``--roles`` syntax)."""
    return ",".join(f"{r}={n}" for r, n in counts.items() if n)


def ordered(book: Rulebook, counts: Mapping[str, int]) -> Counts:
    """The pack first, then the other roles in the rulebook's order, the filler last."""
    pack = book.tagged(book.mechanics.pack_tag)
    filler = _fillers(book)[1]
    order = sorted(book.roles, key=lambda r: (r not in pack, r == filler))
    return {r: counts[r] for r in order if counts.get(r)}


def pack_size(book: Rulebook, counts: Mapping[str, int]) -> int:
    pack = book.tagged(book.mechanics.pack_tag)
    return sum(n for r, n in counts.items() if r in pack)


def cards_needed(players: int, counts: Mapping[str, int]) -> int:
    return players + (2 if counts.get("thief") else 0)


def lupusburg_deck(players: int) -> Counts:
    return {"werewolf": 1, "thief": 1, "townsfolk": 2 * players - 2}


def default_pack_range(book: Rulebook, players: int) -> tuple[int, int]:
    """1 to a third of the table (rounded up): beyond that no rulebook is near even odds."""
    return 1, max(1, math.ceil(players / 3))


def _fillers(book: Rulebook) -> tuple[str | None, str | None]:
    """The unlimited single-card role of the pack and of the village, if any."""
    pack = book.tagged(book.mechanics.pack_tag)
    free = [r for r, s in book.roles.items() if s.max is None and s.comes_in == 1]
    return (
        next((r for r in free if r in pack), None),
        next((r for r in free if r not in pack), None),
    )


def acceptable(
    book: Rulebook,
    players: int,
    counts: Mapping[str, int],
    options: Mapping[str, OptionValue] | None = None,
) -> str | None:
    """Why the setup refuses this composition, or None: it is dealt the plain way (the
    pack in play, a thief's extra cards taken from the filler first) to ``new_game``."""
    if book.family == "lupusburg":
        return None if dict(counts) == lupusburg_deck(players) else "Lupusburg's deck is fixed"
    cards = [r for r, n in counts.items() for _ in range(n)]
    if len(cards) != cards_needed(players, counts):
        return f"{len(cards)} cards for {players} players"
    pack = book.tagged(book.mechanics.pack_tag)
    extra: list[str] = []
    if counts.get("thief"):
        # Spare the pack and the thief: the two cards least likely to decide the game.
        order = sorted(
            (c for c in cards if c != "thief"),
            key=lambda c: (c in pack, book.roles[c].max is not None, c),
        )
        extra = order[:2]
        for c in extra:
            cards.remove(c)
    try:
        new_game(book, seat_names(players), cards, extra, dict(options or {}))
    except SetupError as exc:
        return str(exc)
    return None


def candidates(
    book: Rulebook,
    players: int,
    pack: PackRange | None = None,
    options: Mapping[str, OptionValue] | None = None,
) -> list[Counts]:
    """Every composition for ``players`` the rulebook accepts, with a pack size in
    ``pack`` (default: `default_pack_range`), in a fixed order. The pack counts every
    card of the pack's tag (a Godfather too)."""
    if book.family == "lupusburg":
        return [lupusburg_deck(players)]
    lo, hi = default_pack_range(book, players)
    if pack is not None:
        lo = lo if pack[0] is None else pack[0]
        hi = hi if pack[1] is None else pack[1]
    pack_roles = book.tagged(book.mechanics.pack_tag)
    pack_filler, filler = _fillers(book)
    listed = [r for r in book.roles if r not in (pack_filler, filler)]
    ranges = []
    for r in listed:
        spec = book.roles[r]
        most = spec.max if spec.max is not None else players
        ranges.append(range(0, most + 1, spec.comes_in))
    found: list[Counts] = []
    for picks in itertools.product(*ranges):
        counts: Counts = {r: n for r, n in zip(listed, picks, strict=True) if n}
        listed_pack = sum(n for r, n in counts.items() if r in pack_roles)
        if listed_pack > hi:
            continue
        for size in range(max(lo, listed_pack), hi + 1):
            trial = dict(counts)
            if size > listed_pack:
                if pack_filler is None:
                    break
                trial[pack_filler] = size - listed_pack
            rest = cards_needed(players, trial) - sum(trial.values())
            if rest < 0 or (rest and filler is None):
                continue
            if rest:
                assert filler is not None
                trial[filler] = rest
            trial = ordered(book, trial)
            if acceptable(book, players, trial, options) is None:
                found.append(trial)
    return sorted(found, key=lambda c: (pack_size(book, c), key(c)))


# --------------------------------------------------------------------- scores


@dataclass
class Scored:
    """A composition's games so far and its main faction's win rate."""

    counts: Counts
    tally: Tally
    faction: str
    goal: float
    factions: tuple[str, ...]

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

    def as_dict(self) -> dict[str, object]:
        return {
            "players": self.players,
            "target": self.goal,
            "candidates": self.candidates,
            "rounds": [{"candidates": n, "games": g} for n, g in self.rounds],
            "games_played": self.games_played,
            "best": [s.as_dict() for s in self.best],
            "recommended": self.recommended.as_dict() if self.recommended else None,
            "rejected": dict(self.rejected),
        }


@dataclass
class BalanceResult:
    rules: str
    faction: str
    bots: dict[str, str]
    options: dict[str, OptionValue]
    seed: int
    games: int
    top: int
    counts: list[CountResult]
    seconds: float
    workers: int

    def as_dict(self) -> dict[str, object]:
        return {
            "rules": self.rules,
            "faction": self.faction,
            "fair": "1/players" if self.rules == "lupusburg" else 0.5,
            "bots": dict(self.bots),
            "options": dict(self.options),
            "seed": self.seed,
            "games": self.games,
            "top": self.top,
            "counts": [c.as_dict() for c in self.counts],
            "seconds": self.seconds,
            "workers": self.workers,
        }


def schedule(
    n: int, games: int, top: int, eta: int = ETA, first: int = MIN_FIRST_GAMES
) -> list[tuple[int, int]]:
    """Successive halving: (candidates playing, games each so far) per round. The last
    round plays the ``top`` finalists to ``games``, each round before it ``eta`` times
    fewer, the first at least ``first``; the field shrinks geometrically from ``n``."""
    if n <= top or games < first * eta:
        return [(n, games)]
    rounds = 2
    while games / eta**rounds >= first:
        rounds += 1
    plan = []
    for i in range(rounds):
        size = max(top, math.ceil(n * (top / n) ** (i / (rounds - 1)) - 1e-9))
        plan.append((size, math.ceil(games / eta ** (rounds - 1 - i))))
    return plan


PRIOR_GAMES = 32
"""How many games' worth of weight the pooled model gets against a composition's own."""


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrices here are tiny)."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def pooled_model(
    book: Rulebook, played: Sequence[tuple[Counts, int, int]], ridge: float = 1.0
) -> Callable[[Counts], float]:
    """An additive logistic model of the win rate fitted on every composition's games:
    logit p = b0 + sum of b_role * count(role) over the roles but the filler. A
    composition with a handful of games is judged with the strength of all of them."""
    filler = _fillers(book)[1]
    roles = [r for r in book.roles if r != filler]

    def features(counts: Counts) -> list[float]:
        return [1.0, *(float(counts.get(r, 0)) for r in roles)]

    rows = [(features(c), wins, games) for c, wins, games in played if games]
    beta = [0.0] * (len(roles) + 1)
    for _ in range(25):
        grad = [-ridge * b for b in beta]
        grad[0] = 0.0
        hess = [[ridge * (i == j and i > 0) for j in range(len(beta))] for i in range(len(beta))]
        for x, wins, games in rows:
            eta_ = sum(b * v for b, v in zip(beta, x, strict=True))
            mu = 1 / (1 + math.exp(-max(-30.0, min(30.0, eta_))))
            weight = games * mu * (1 - mu) + 1e-9
            for i, xi in enumerate(x):
                grad[i] += xi * (wins - games * mu)
                for j, xj in enumerate(x):
                    hess[i][j] += weight * xi * xj
        step = _solve(hess, grad)
        beta = [b + d for b, d in zip(beta, step, strict=True)]
        if max(abs(d) for d in step) < 1e-8:
            break

    def predict(counts: Counts) -> float:
        z = sum(b * v for b, v in zip(beta, features(counts), strict=True))
        return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))

    return predict


def prune(
    book: Rulebook,
    scored: Sequence[Scored],
    seen: Sequence[tuple[Counts, int, int]],
    goal: float,
    keep: int,
) -> list[Counts]:
    """The ``keep`` compositions closest to ``goal``, each judged on its own games shrunk
    towards the pooled model (worth `PRIOR_GAMES` games) fitted on ``seen``."""
    model = pooled_model(book, seen)

    def shrunk(s: Scored) -> tuple[float, str]:
        wins = s.tally.wins.get(s.faction, 0) + PRIOR_GAMES * model(s.counts)
        return (round(abs(wins / (s.games + PRIOR_GAMES) - goal), 12), key(s.counts))

    return [s.counts for s in sorted(scored, key=shrunk)[:keep]]


# --------------------------------------------------------------------- playing


def _play(args: tuple[str, SimConfig, int, int]) -> tuple[str, Tally | None, str]:
    name, config, start, stop = args
    try:
        return name, play_range(config, start, stop), ""
    except LupusError as exc:  # a deal the setup refuses; a bug still raises
        return name, None, str(exc) or type(exc).__name__


class _Player:
    """Plays games of many compositions on one pool, keeping each one's tally; games
    ``[0, n)`` of a composition are the same whoever asks and whichever worker plays."""

    def __init__(self, workers: int) -> None:
        import multiprocessing
        import multiprocessing.pool

        self.workers = workers
        self.pool: multiprocessing.pool.Pool | None = None
        if workers > 1:
            self.pool = multiprocessing.get_context("spawn").Pool(workers)
        self.tallies: dict[str, Tally] = {}
        self.failed: dict[str, str] = {}
        self.played = 0

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool.join()

    def play(
        self,
        wanted: Sequence[tuple[SimConfig, int]],
        progress: Callable[[int], None] | None = None,
    ) -> None:
        goals: dict[str, tuple[SimConfig, int]] = {}
        for config, upto in wanted:  # a composition asked twice is played once
            name = f"{config.players}:{key(config.counts)}"
            if name not in self.failed and upto > goals.get(name, (config, 0))[1]:
                goals[name] = (config, upto)
        work: list[tuple[str, SimConfig, int, int]] = []
        for name, (config, upto) in goals.items():
            have = self.tallies.setdefault(name, Tally()).games
            for a, b in chunks(upto - have, CHUNK):
                work.append((name, config, have + a, have + b))
        results: Iterable[tuple[str, Tally | None, str]] = (
            map(_play, work) if self.pool is None else self.pool.imap_unordered(_play, work)
        )
        for name, tally, error in results:
            if tally is None:
                self.failed.setdefault(name, error)
                continue
            self.tallies[name].add(tally)
            self.played += tally.games
            if progress:
                progress(tally.games)

    def tally(self, config: SimConfig) -> Tally | None:
        name = f"{config.players}:{key(config.counts)}"
        return None if name in self.failed else self.tallies.get(name, Tally())

    def error(self, config: SimConfig) -> str | None:
        return self.failed.get(f"{config.players}:{key(config.counts)}")


def parse_players(text: str) -> list[int]:
    """``8-12`` or ``8,10,12`` or ``8`` -> player counts."""
    found: list[int] = []
    try:
        for part in text.split(","):
            lo, sep, hi = part.strip().partition("-")
            if sep:
                found.extend(range(int(lo), int(hi) + 1))
            elif lo:
                found.append(int(lo))
    except ValueError as exc:
        raise SetupError(f"--players: {text!r} is not like 8-12 or 8,10,12") from exc
    if not found:
        raise SetupError("--players: no player count")
    return sorted(set(found))


def parse_range(text: str) -> PackRange:
    """``2-4``, ``2-`` (2 to the default), ``-4`` or ``3`` -> (low, high); None: default."""
    lo, sep, hi = text.strip().partition("-")
    try:
        low = int(lo) if lo else None
        high = (int(hi) if hi else None) if sep else low
    except ValueError as exc:
        raise SetupError(f"--pack: {text!r} is not like 1-3, 2- or 3") from exc
    if low is None and high is None:
        raise SetupError("--pack: give at least one pack size")
    return low, high


def search(
    rules: str | Rulebook,
    players: Iterable[int],
    games: int = 1000,
    top: int = 3,
    bots: Mapping[str, str] | None = None,
    options: Mapping[str, OptionValue] | None = None,
    seed: int = 0,
    workers: int = 1,
    pack: PackRange | None = None,
    eta: int = ETA,
    progress: Callable[[str], None] | None = None,
) -> BalanceResult:
    """Search each player count's compositions for the ``top`` closest to fair odds."""
    book = load(rules) if isinstance(rules, str) else rules
    bots = dict(bots or {"*": "random"})
    options = dict(options or {})
    if games < 1 or top < 1:
        raise SetupError("games and top must be at least 1")
    faction = main_faction(book)
    started = time.perf_counter()
    player = _Player(workers)
    results: list[CountResult] = []

    def config(n: int, counts: Counts) -> SimConfig:
        return SimConfig(book.id, n, counts, options, bots, seed)

    def tally(n: int, counts: Counts) -> Tally | None:
        return player.tally(config(n, counts))

    def score(n: int, counts: Counts) -> Scored | None:
        tally = player.tally(config(n, counts))
        if tally is None:
            return None
        return Scored(counts, tally, faction, target(book, n), book.factions)

    try:
        for n in players:
            if not book.min_players <= n <= book.max_players:
                raise SetupError(
                    f"{book.id} is played by {book.min_players} to {book.max_players} "
                    f"players, not {n}"
                )
            if book.minimum is not None:  # a table too small for any composition
                check_minimum(book, n, dict(book.minimum.cards), options)
            before = player.played
            pool = candidates(book, n, pack, options)
            recommended = book.compositions.get(str(n))
            if book.family == "lupusburg":
                recommended = lupusburg_deck(n)
            rejected: dict[str, str] = {}
            if recommended is not None:
                recommended = ordered(book, recommended)
                why = acceptable(book, n, recommended, options)
                if why is not None:
                    rejected[key(recommended)] = why
                    recommended = None
            plan = schedule(len(pool), games, top, eta) if pool else []
            alive = list(pool)
            for i, (_, g) in enumerate(plan):
                if progress:
                    progress(f"{n} players: {len(alive)} compositions x {g} games")
                player.play([(config(n, c), g) for c in alive])
                scored = [s for c in alive if (s := score(n, c)) is not None]
                for c in alive:
                    error = player.error(config(n, c))
                    if error:
                        rejected[key(c)] = error
                if i + 1 < len(plan):
                    # Prune on each composition's games shrunk towards the pooled model.
                    seen = [
                        (c, t.wins.get(faction, 0), t.games) for c in pool if (t := tally(n, c))
                    ]
                    alive = prune(book, scored, seen, target(book, n), plan[i + 1][0])
                else:
                    scored.sort(key=Scored.rank_key)
                    alive = [s.counts for s in scored[:top]]
            if recommended is not None:
                player.play([(config(n, recommended), games)])
                error = player.error(config(n, recommended))
                if error:
                    rejected[key(recommended)] = error
            # The recommended composition, played as long as the finalists, competes too.
            final = alive + [c for c in pool if c == recommended and c not in alive]
            best = sorted((s for c in final if (s := score(n, c)) is not None), key=Scored.rank_key)
            results.append(
                CountResult(
                    players=n,
                    goal=target(book, n),
                    candidates=len(pool),
                    rounds=plan,
                    best=best[:top],
                    recommended=score(n, recommended) if recommended is not None else None,
                    games_played=player.played - before,
                    rejected=rejected,
                )
            )
    finally:
        player.close()
    return BalanceResult(
        rules=book.id,
        faction=faction,
        bots=bots,
        options=options,
        seed=seed,
        games=games,
        top=top,
        counts=results,
        seconds=time.perf_counter() - started,
        workers=workers,
    )


# --------------------------------------------------------------------- the plot


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
    if result.rules == "lupusburg":  # one deck: the best is the recommended
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
    if result.rules == "lupusburg":
        ax.plot(xs_all, [c.goal for c in result.counts], "k--", lw=1, label="fair (1/players)")
    else:
        ax.axhline(0.5, color="k", ls="--", lw=1, label="even odds")
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
