"""Seeded self-play: game ``i`` of a run depends only on (seed, i), never on the worker
that played it, so the same seed gives the same numbers on 1 core, 16 or a cluster."""

from __future__ import annotations

import hashlib
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from lupus.bots.base import Bot, make_bot
from lupus.engine.deal import composition, deal, seat_names
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action
from lupus.engine.setup import new_game
from lupus.engine.village import VillageGame
from lupus.lupusburg.game import LupusburgGame
from lupus.rulebooks import load
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.sim.stats import wilson


@dataclass(frozen=True)
class SimConfig:
    rules: str
    players: int
    counts: Mapping[str, int] = field(default_factory=dict)
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    bots: Mapping[str, str] = field(default_factory=lambda: {"*": "random"})
    seed: int = 0

    def composition(self) -> dict[str, int]:
        return dict(self.counts) if self.counts else composition(load(self.rules), self.players)


@dataclass
class Tally:
    """Sums over games, in a form that adds up the same in any order."""

    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    days: int = 0
    actions: int = 0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins.update(other.wins)
        self.days += other.days
        self.actions += other.actions


@dataclass
class SimResult:
    config: SimConfig
    tally: Tally
    seconds: float
    workers: int

    def as_dict(self) -> dict[str, object]:
        t = self.tally
        factions = list(load(self.config.rules).factions)
        return {
            "rules": self.config.rules,
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


TIMER = Action(LEADER, "close")
"""The leader closing a step, as a server's timer does."""


MAX_ACTIONS = 20_000
"""Some rules allow endless games (a lone mafioso against a Doctor who keeps saving
himself and a town that never reaches a majority); after this many actions a simulated
game stops and counts as having no winner (``no_winner`` in the results)."""


def game_seed(seed: int, index: int) -> int:
    digest = hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def days_played(game: Game) -> int:
    return game.number if game.phase == "day" else max(0, game.number - 1)


def seat_factions(book: Rulebook, game: Game) -> list[str]:
    """The side each seat starts on, to hand it its faction's bot."""
    if isinstance(game, VillageGame):
        return [game.faction_of_role[r] for r in game.dealt]
    assert isinstance(game, LupusburgGame)
    return ["werewolf" if s == game.werewolf else "townsfolk" for s in range(game.n)]


def play_one(config: SimConfig, index: int, book: Rulebook | None = None) -> tuple[Game, int]:
    """Play game ``index`` of the run to its end; return it and its action count."""
    book = book or load(config.rules)
    rng = random.Random(game_seed(config.seed, index))
    d = deal(book, config.players, config.composition(), rng)
    game = new_game(
        book,
        seat_names(config.players),
        d.roles,
        d.extra_cards,
        dict(config.options),
        seed=rng.getrandbits(63),
        characters=d.characters,
        chests=d.chests,
        burgomaster=d.burgomaster,
    )
    factions = seat_factions(book, game)
    cache: dict[str, Bot] = {}

    def bot_for(seat: int) -> Bot:
        kind = config.bots.get(factions[seat], config.bots.get("*", "random"))
        if kind not in cache:
            cache[kind] = make_bot(kind, book.id)
        return cache[kind]

    bots = [bot_for(s) for s in range(game.n)]
    actions = 0
    step, budget = game.step, 0
    patience = 4 * game.n
    while not game.finished:
        if game.step is not step:
            step, budget = game.step, 0
        budget += 1
        waiting = game.waiting()
        # The leader's timer: a step that waits on nobody, or that bots keep reopening
        # (a mafia that cannot agree), is closed, as a server's timer would.
        if waiting and budget <= patience:
            seat = waiting[0]
            game.apply(bots[seat].act(game.view(seat), rng))
        else:
            game.apply(TIMER)
        actions += 1
        if actions >= MAX_ACTIONS:
            break  # a stalemate the rules allow: counted as a game with no winner
    return game, actions


def play_range(config: SimConfig, start: int, stop: int) -> Tally:
    book = load(config.rules)
    tally = Tally()
    for index in range(start, stop):
        game, actions = play_one(config, index, book)
        tally.games += 1
        if game.outcome is not None and game.outcome.winner is not None:
            tally.wins[game.outcome.winner] += 1
        tally.days += days_played(game)
        tally.actions += actions
    return tally


def chunks(games: int, size: int) -> list[tuple[int, int]]:
    return [(i, min(games, i + size)) for i in range(0, games, size)]


def _play_chunk(args: tuple[SimConfig, int, int]) -> Tally:
    config, start, stop = args
    return play_range(config, start, stop)


def simulate(
    config: SimConfig,
    games: int,
    workers: int = 1,
    backend: str = "processes",
    ray_address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimResult:
    """Play ``games`` games; the numbers depend on (config, games) only."""
    config.composition()  # fail early on a bad composition
    started = time.perf_counter()
    size = max(1, min(500, games // (workers * 8) or 1))
    work = [(config, a, b) for a, b in chunks(games, size)]
    total = Tally()
    results: Iterable[Tally]
    if backend == "ray":
        from lupus.sim.ray_backend import run_on_ray

        results = run_on_ray(work, ray_address)
    elif workers <= 1:
        results = (_play_chunk(w) for w in work)
    else:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(workers) as pool:
            for part in pool.imap_unordered(_play_chunk, work):
                total.add(part)
                if progress:
                    progress(part.games)
        return SimResult(config, total, time.perf_counter() - started, workers)
    for part in results:
        total.add(part)
        if progress:
            progress(part.games)
    return SimResult(config, total, time.perf_counter() - started, workers)
