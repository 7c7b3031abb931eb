"""The search itself: play each table's candidates by successive halving, rank them.

`_Player` plays the games of many compositions on one process pool, keeping each one's
tally; `search` walks the player counts, lists the candidates, plays the rounds of
`schedule`, prunes between them and ranks the finalists with the rulebook's recommended
composition. What is scored and what is fair come from the rulebook's family
(``Family.main_faction``, ``Family.fair_share``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import islice

from lupus.engine.deal import table_size
from lupus.engine.errors import LupusError, SetupError
from lupus.engine.limits import MAX_GAMES, MAX_PLAYERS, MAX_SEED, MAX_TOP, MAX_WORKERS
from lupus.engine.options import resolve_options
from lupus.engine.untrusted import exact_int
from lupus.families import check, family_of, load
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.sim.balance.candidates import (
    Counts,
    PackRange,
    acceptable,
    candidates,
    key,
    ordered,
)
from lupus.sim.balance.halving import ETA, prune, schedule
from lupus.sim.balance.report import BalanceResult, CountResult, Scored
from lupus.sim.config import check_bots
from lupus.sim.runner import SimConfig, Tally, chunks, play_range

CHUNK = 200


# --------------------------------------------------------------------- what is fair


def main_faction(book: Rulebook) -> str:
    """The side whose win rate is scored: the village (first faction), the Werewolf in
    Lupusburg."""
    return family_of(book).main_faction(book)


def target(book: Rulebook, players: int) -> float:
    """The fair win rate of ``main_faction``: 1/2, or 1/n for Lupusburg's lone Werewolf."""
    return family_of(book).fair_share(players)


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


# --------------------------------------------------------------------- the search


def check_search(
    book: Rulebook,
    players: Iterable[int],
    games: int,
    top: int,
    bots: Mapping[str, str],
    options: Mapping[str, OptionValue],
    seed: int,
    workers: int,
    pack: PackRange | None,
    eta: int,
) -> list[int]:
    """The player counts to search, once every argument has passed (SetupError says
    the first that does not): each count exactly an int the rulebook is played by and
    a table some composition can be played at, games from 1 to ``MAX_GAMES``, top from
    1 to ``MAX_TOP``, workers from 1 to ``MAX_WORKERS``, the seed from 0 to
    ``MAX_SEED``, pack sizes from 1 to ``MAX_PLAYERS``, known bots, valid options."""
    counts = list(islice(players, MAX_PLAYERS + 1))  # (never more: a range may be endless)
    if len(counts) > MAX_PLAYERS:
        raise SetupError(f"at most {MAX_PLAYERS} player counts")
    if not counts:
        raise SetupError("give at least one player count")
    tables = sorted({table_size(book, n) for n in counts})
    exact_int(games, "the number of games", 1, MAX_GAMES)
    exact_int(top, "top", 1, MAX_TOP)
    exact_int(workers, "the number of workers", 1, MAX_WORKERS)
    exact_int(seed, "the seed", 0, MAX_SEED)
    exact_int(eta, "eta", 2, 10)
    if pack is not None:
        low, high = pack
        for size in (low, high):
            if size is not None:
                exact_int(size, "a pack size", 1, MAX_PLAYERS)
        if low is not None and high is not None and low > high:
            raise SetupError(f"pack sizes from {low} to {high}: the first is the smallest")
    check_bots(book.factions, bots)
    resolve_options(book, options)
    family = family_of(book)
    for n in tables:
        family.refuse_table(book, n, options)  # too small for any composition
    return tables


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
    """Search each player count's compositions for the ``top`` closest to fair odds.

    Every argument is checked before a game is played or a process started
    (`check_search`): a table the rulebook cannot seat is refused before any other
    table is searched, and a player count at which no game could be played is a
    SetupError (a search never reports a table of zero games)."""
    book = load(rules) if isinstance(rules, str) else check(rules)
    bots = dict(bots or {"*": "random"})
    options = dict(options or {})
    tables = check_search(book, players, games, top, bots, options, seed, workers, pack, eta)
    family = family_of(book)
    faction = main_faction(book)
    started = time.perf_counter()
    player = _Player(workers)
    results: list[CountResult] = []

    def config(n: int, counts: Counts) -> SimConfig:
        return SimConfig(book, n, counts, options, bots, seed)  # (the rulebook itself)

    def tally(n: int, counts: Counts) -> Tally | None:
        return player.tally(config(n, counts))

    def score(n: int, counts: Counts) -> Scored | None:
        tally = player.tally(config(n, counts))
        if tally is None:
            return None
        return Scored(counts, tally, faction, target(book, n), book.factions)

    try:
        for n in tables:
            before = player.played
            pool = candidates(book, n, pack, options)
            recommended = family.fixed_deck(n) or book.compositions.get(str(n))
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
            if player.played == before:  # nothing could be played: no figure to report
                why = next(iter(rejected.values()), "no composition is accepted")
                raise SetupError(f"{n} players: no composition could be played ({why})")
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
        fair=family.fair_label(),
        fixed_deck=family.fixed_deck(book.min_players) is not None,
        bots=bots,
        options=options,
        seed=seed,
        games=games,
        top=top,
        counts=results,
        seconds=time.perf_counter() - started,
        workers=workers,
        rules_digest=book.digest,
    )
