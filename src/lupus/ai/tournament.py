"""A run's games as ``Played`` records: the one producer the tournament report and the
decision dataset read, whatever kinds of players sit at the table.

A run with model seats plays in threads (``lupus.ai.llm.run``: its games wait on the
network); a run without them plays here, game after game in this process, with the
simulator's own loop (``selfplay.play``), so that game ``i`` is the very game
``lupus simulate`` plays as game ``i`` of the same seed on any number of workers. Its
records are whole games (their history, every line said), so a run that keeps them
trades the process pool's speed for them: ``lupus simulate --export`` plays in one
process.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from lupus.ai.played import Played
from lupus.ai.tally import kinds_of, tally_of
from lupus.sim.config import SimConfig, SimResult, Tally
from lupus.sim.selfplay import Table, play

if TYPE_CHECKING:
    from lupus.ai.llm.client import Model


def played(
    config: SimConfig,
    games: int,
    progress: Callable[[int], None] | None = None,
    model: Model | None = None,
) -> Iterator[Played]:
    """Games 0 to ``games`` - 1 of ``config``, in that order, each as it finishes
    (``progress`` is told of each); ``model``: the model seats' (one made from
    ``config.llm`` if None)."""
    config.check()
    if config.uses_llm:
        from lupus.ai.llm.run import played_games

        yield from played_games(config, games, progress, model)
        return
    table = Table(config)
    for index in range(games):
        game, _ = play(table, index)
        yield Played(index, game, kinds_of(table, game))
        if progress:
            progress(1)


def simulated(
    config: SimConfig,
    games: int,
    each: Callable[[Played], None],
    progress: Callable[[int], None] | None = None,
    model: Model | None = None,
) -> SimResult:
    """The run's result, as ``lupus.sim.simulate`` gives it (the same numbers), with
    each game's record handed to ``each`` as it finishes, in order."""
    started = time.perf_counter()
    total = Tally()
    for one in played(config, games, progress, model):
        total.add(tally_of(one))
        each(one)
    workers = config.llm.concurrency if config.uses_llm and config.llm is not None else 1
    return SimResult(config, total, time.perf_counter() - started, workers)
