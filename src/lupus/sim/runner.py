"""Seeded self-play: game ``i`` of a run depends only on (seed, i), never on the worker
that played it, so the same seed gives the same numbers on 1 core, 16 or a cluster.

The configuration and tallies live in ``lupus.sim.config``, one game's play in
``lupus.sim.selfplay`` (compiled); this module spreads the games over workers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from lupus.engine.errors import SetupError
from lupus.engine.limits import MAX_GAMES, MAX_WORKERS
from lupus.engine.untrusted import exact_int, quoted
from lupus.sim.config import SimConfig, SimResult, Tally
from lupus.sim.ray_backend import run_on_ray
from lupus.sim.selfplay import (
    MAX_ACTIONS,
    TIMER,
    Table,
    days_played,
    game_stream,
    play,
    play_one,
    play_range,
    seat_factions,
)

__all__ = [
    "BACKENDS",
    "MAX_ACTIONS",
    "TIMER",
    "SimConfig",
    "SimResult",
    "Table",
    "Tally",
    "check_run",
    "chunks",
    "days_played",
    "game_stream",
    "play",
    "play_one",
    "play_range",
    "seat_factions",
    "simulate",
]


BACKENDS = ("processes", "ray")


def check_run(games: object, workers: object, backend: object = "processes") -> None:
    """SetupError unless a run of ``games`` on ``workers`` processes of ``backend`` is
    work lupus does: at least one game (no run reports success on none)."""
    exact_int(games, "the number of games", 1, MAX_GAMES)
    exact_int(workers, "the number of workers", 1, MAX_WORKERS)
    if backend not in BACKENDS:
        raise SetupError(f"unknown backend {quoted(backend)} ({', '.join(BACKENDS)})")


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
    """Play ``games`` games; the numbers depend on (config, games) only.

    Everything is checked before a game is played or a process started: ``games``
    from 1 to ``MAX_GAMES``, ``workers`` from 1 to ``MAX_WORKERS``, the backend, and
    the configuration (``SimConfig.check``); SetupError says what is wrong."""
    check_run(games, workers, backend)
    config.check()
    started = time.perf_counter()
    if config.uses_llm:  # (I/O-bound: threads of this process, lupus.ai.llm.run)
        from lupus.ai.llm.run import play_games

        assert config.llm is not None  # (checked)
        total = play_games(config, games, progress)
        return SimResult(config, total, time.perf_counter() - started, config.llm.concurrency)
    size = max(1, min(500, games // (workers * 8) or 1))
    work = [(config, a, b) for a, b in chunks(games, size)]
    total = Tally()
    results: Iterable[Tally]
    if backend == "ray":
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
