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
from lupus.engine.game import Game
from lupus.sim.config import SimConfig, SimResult, Tally
from lupus.sim.selfplay import Table, days_played, play, seat_factions

if TYPE_CHECKING:
    from lupus.ai.llm.client import Model


def kinds_of(table: Table, game: Game) -> tuple[str, ...]:
    """The kind of player at each seat of ``game``: its dealt faction's, as
    ``selfplay.play`` hands out the bots."""
    kinds = table.bot_kinds
    return tuple(kinds.get(faction, table.fallback) for faction in seat_factions(table.book, game))


def tally_of(played: Played) -> Tally:
    """One game's part of the run's sums, from its record alone (``lupus.sim``'s
    numbers: a game, its winner, its days and actions, its model seats' costs)."""
    game, cost = played.game, played.cost
    tally = Tally(games=1, days=days_played(game), actions=len(game.history))
    if game.outcome is not None and game.outcome.winner is not None:
        tally.wins[game.outcome.winner] += 1
    tally.decisions = cost.decisions
    tally.fallbacks = cost.fallbacks.total()
    tally.tokens = cost.tokens
    tally.reasons.update(cost.fallbacks)
    tally.said = cost.said
    return tally


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
