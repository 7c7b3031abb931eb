"""``lupus simulate`` with language-model seats: games in threads, not processes.

A game with model seats waits on the network, not on a core: ``settings.concurrency``
games are played at once in threads of this process, sharing one client, one reply
cache and its limit of calls at once. Each game is the simulator's own (``selfplay``:
the same deal and the same generator for game ``i`` of a seed), with the model's bot
made for it; the other kinds' fast path (processes, compiled) is not touched.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from lupus.ai.llm.bot import LlmBot, Usage
from lupus.ai.llm.client import Model
from lupus.bots.base import Bot
from lupus.bots.kinds import make_bot
from lupus.rulebooks.schema import Rulebook
from lupus.sim.config import SimConfig, Tally
from lupus.sim.selfplay import MAX_ACTIONS, Table, days_played, play


def play_game(table: Table, index: int, model: Model) -> Tally:
    """Game ``index`` of the run, its model seats played by ``model``: its tally."""
    usage = Usage()

    def make(kind: str, book: Rulebook) -> Bot:
        return LlmBot(book, model, usage) if kind == "llm" else make_bot(kind, book)

    game, actions = play(table, index, MAX_ACTIONS, make)
    tally = Tally(games=1, days=days_played(game), actions=actions)
    if game.outcome is not None and game.outcome.winner is not None:
        tally.wins[game.outcome.winner] += 1
    tally.decisions = usage.decisions
    tally.fallbacks = usage.fallbacks
    tally.tokens = usage.tokens
    tally.reasons.update(usage.reasons)
    return tally


def play_games(
    config: SimConfig,
    games: int,
    progress: Callable[[int], None] | None = None,
    model: Model | None = None,
) -> Tally:
    """Games 0 to ``games`` - 1 of ``config``, ``config.llm.concurrency`` at a time;
    the sums are the same in any order the games finish."""
    settings = config.llm
    if settings is None:
        raise ValueError("a run with llm seats needs its settings (SimConfig.llm)")
    model = model if model is not None else Model(settings)
    table = Table(config)
    table.dealer()  # (made once, before the threads share the table)
    total = Tally()
    with ThreadPoolExecutor(settings.concurrency, thread_name_prefix="lupus-llm") as pool:
        for part in pool.map(lambda i: play_game(table, i, model), range(games)):
            total.add(part)
            if progress:
                progress(part.games)
    return total
