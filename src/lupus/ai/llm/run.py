"""``lupus simulate`` with language-model seats: games in threads, not processes.

A game with model seats waits on the network, not on a core: ``settings.concurrency``
games are played at once in threads of this process, sharing one client, one reply
cache and its limit of calls at once. Each game is the simulator's own (``selfplay``:
the same deal and the same generator for game ``i`` of a seed), with the model's bot
made for it and its seats' talk (``lupus.ai.llm.discussion``) watching it; the other
kinds' fast path (processes, compiled) is not touched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

from lupus.ai.llm.bot import LlmBot
from lupus.ai.llm.client import Model
from lupus.ai.llm.discussion import Discussion
from lupus.ai.llm.usage import Usage
from lupus.ai.played import Played
from lupus.ai.tally import kinds_of, tally_of
from lupus.bots.base import Bot
from lupus.bots.kinds import make_bot
from lupus.rulebooks.schema import Rulebook
from lupus.sim.config import SimConfig, Tally
from lupus.sim.selfplay import MAX_ACTIONS, Table, play


def play_game(table: Table, index: int, model: Model) -> tuple[Tally, Played]:
    """Game ``index`` of the run, its model seats played by ``model``: its tally and
    its record (what was said, where the stand-in decided, what it cost)."""
    usage = Usage()
    talk = Discussion(table, model, usage)

    def make(kind: str, book: Rulebook) -> Bot:
        return LlmBot(book, model, usage, talk) if kind == "llm" else make_bot(kind, book)

    game, _ = play(table, index, MAX_ACTIONS, make, talk)
    record = Played(
        index=index,
        game=game,
        kinds=kinds_of(table, game),
        fallbacks=frozenset(talk.fallbacks),
        lines=tuple(talk.lines),
        cost=usage.cost(),
    )
    return tally_of(record), record


def played_games(
    config: SimConfig,
    games: int,
    progress: Callable[[int], None] | None = None,
    model: Model | None = None,
) -> Iterator[Played]:
    """Games 0 to ``games`` - 1 of ``config``, ``config.llm.concurrency`` at a time,
    their records in the order of the games."""
    settings = config.llm
    if settings is None:
        raise ValueError("a run with llm seats needs its settings (SimConfig.llm)")
    model = model if model is not None else Model(settings)
    table = Table(config)
    table.dealer()  # (made once, before the threads share the table)
    with ThreadPoolExecutor(settings.concurrency, thread_name_prefix="lupus-llm") as pool:
        for _, record in pool.map(lambda i: play_game(table, i, model), range(games)):
            if progress:
                progress(1)
            yield record


def play_games(
    config: SimConfig,
    games: int,
    progress: Callable[[int], None] | None = None,
    model: Model | None = None,
) -> Tally:
    """The sums of ``played_games``: the same in any order the games finish."""
    total = Tally()
    for record in played_games(config, games, progress, model):
        total.add(tally_of(record))
    return total
