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
from lupus.engine.limits import (
    MAX_CANDIDATES,
    MAX_GAMES,
    MAX_PLAYERS,
    MAX_SEED,
    MAX_TOP,
    MAX_WORKERS,
)
from lupus.engine.options import resolve_options
from lupus.engine.untrusted import exact_int
from lupus.families import check, family_of, load
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.sim.balance.candidates import (
    Counts,
    PackRange,
    acceptable,
    candidates,
    closest_by_points,
    key,
    ordered,
    points,
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


class _TableSearch:
    """One search's way through each player count: the candidates, the rounds of
    successive halving, then the finalists and the recommended deck played as long."""

    def __init__(
        self,
        book: Rulebook,
        options: dict[str, OptionValue],
        bots: dict[str, str],
        seed: int,
        player: _Player,
        games: int,
        top: int,
        field: int | None = None,
    ) -> None:
        self.book, self.options, self.bots, self.seed = book, options, bots, seed
        self.player, self.games, self.top, self.field = player, games, top, field
        self.faction = main_faction(book)

    def config(self, n: int, counts: Counts) -> SimConfig:
        return SimConfig(self.book, n, counts, self.options, self.bots, self.seed)

    def score(self, n: int, counts: Counts) -> Scored | None:
        tally = self.player.tally(self.config(n, counts))
        if tally is None:
            return None
        goal = target(self.book, n)
        worth = points(self.book, counts)
        return Scored(counts, tally, self.faction, goal, self.book.factions, worth)

    def play(self, n: int, decks: list[Counts], games: int, rejected: dict[str, str]) -> None:
        """Play ``games`` more of each deck; a deck that cannot be played is noted."""
        self.player.play([(self.config(n, c), games) for c in decks])
        for c in decks:
            error = self.player.error(self.config(n, c))
            if error:
                rejected[key(c)] = error

    def recommended(self, n: int, rejected: dict[str, str]) -> Counts | None:
        """The rulebook's deck for ``n`` players, if it has one it may play."""
        book = self.book
        recommended = family_of(book).fixed_deck(n) or book.compositions.get(str(n))
        if recommended is None:
            return None
        recommended = ordered(book, recommended)
        why = acceptable(book, n, recommended, self.options)
        if why is not None:
            rejected[key(recommended)] = why
            return None
        return recommended

    def halve(
        self,
        n: int,
        pool: list[Counts],
        plan: list[tuple[int, int]],
        rejected: dict[str, str],
        progress: Callable[[str], None] | None,
    ) -> list[Counts]:
        """The ``top`` finalists of ``pool`` after the rounds of ``plan``."""
        alive = list(pool)
        goal = target(self.book, n)
        for i, (_, g) in enumerate(plan):
            if progress:
                progress(f"{n} players: {len(alive)} compositions x {g} games")
            self.play(n, alive, g, rejected)
            scored = [s for c in alive if (s := self.score(n, c)) is not None]
            if i + 1 < len(plan):
                # Prune on each composition's games shrunk towards the pooled model.
                tallies = [(c, self.player.tally(self.config(n, c))) for c in pool]
                seen = [(c, t.wins.get(self.faction, 0), t.games) for c, t in tallies if t]
                alive = prune(self.book, scored, seen, goal, plan[i + 1][0])
            else:
                scored.sort(key=Scored.rank_key)
                alive = [s.counts for s in scored[: self.top]]
        return alive

    def one(
        self,
        n: int,
        pack: PackRange | None,
        eta: int,
        progress: Callable[[str], None] | None,
    ) -> CountResult:
        """The search of one player count, or SetupError when nothing could be played."""
        before = self.player.played
        listed = candidates(self.book, n, pack, self.options)
        narrowed = self.field is not None and len(listed) > self.field
        pool = closest_by_points(self.book, listed, self.field) if self.field else listed
        rejected: dict[str, str] = {}
        recommended = self.recommended(n, rejected)
        plan = schedule(len(pool), self.games, self.top, eta) if pool else []
        alive = self.halve(n, pool, plan, rejected, progress)
        if recommended is not None:
            self.play(n, [recommended], self.games, rejected)
        # The recommended composition, played as long as the finalists, competes too.
        final = alive + [c for c in pool if c == recommended and c not in alive]
        scores = (s for c in final if (s := self.score(n, c)) is not None)
        best = sorted(scores, key=Scored.rank_key)
        if self.player.played == before:  # nothing could be played: no figure to report
            why = next(iter(rejected.values()), "no composition is accepted")
            raise SetupError(f"{n} players: no composition could be played ({why})")
        return CountResult(
            players=n,
            goal=target(self.book, n),
            candidates=len(listed),
            field_size=len(pool) if narrowed else None,
            rounds=plan,
            best=best[: self.top],
            recommended=self.score(n, recommended) if recommended is not None else None,
            games_played=self.player.played - before,
            rejected=rejected,
        )


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
    field: int | None = None,
) -> BalanceResult:
    """Search each player count's compositions for the ``top`` closest to fair odds.

    ``field``: play only that many of each count's candidates, those whose points are
    nearest even (``candidates.points``, the roles' ``weight``), the prior that makes a
    wide field affordable; None plays them all.

    Every argument is checked before a game is played or a process started
    (`check_search`): a table the rulebook cannot seat is refused before any other
    table is searched, and a player count at which no game could be played is a
    SetupError (a search never reports a table of zero games)."""
    book = load(rules) if isinstance(rules, str) else check(rules)
    bots = dict(bots or {"*": "random"})
    options = dict(options or {})
    tables = check_search(book, players, games, top, bots, options, seed, workers, pack, eta)
    family = family_of(book)
    started = time.perf_counter()
    if field is not None and (type(field) is not int or not 1 <= field <= MAX_CANDIDATES):
        raise SetupError(f"field is a whole number from 1 to {MAX_CANDIDATES}, not {field!r}")
    table_search = _TableSearch(book, options, bots, seed, _Player(workers), games, top, field)
    try:
        results = [table_search.one(n, pack, eta, progress) for n in tables]
    finally:
        table_search.player.close()
    faction = table_search.faction
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
