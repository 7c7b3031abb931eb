"""Seeded self-play of one game, the simulator's inner loop (compiled with the engine).

Game ``i`` of a run depends only on (seed, i), never on the worker that played it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Final, final

from lupus.bots.base import Bot
from lupus.bots.kinds import make_bot
from lupus.bots.random_bot import RandomBot
from lupus.engine.deal import seat_names
from lupus.engine.draw import bits
from lupus.engine.family import Dealing
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action
from lupus.engine.stream import Stream, stream
from lupus.families import family_of, rulebook
from lupus.rulebooks.schema import Rulebook
from lupus.sim.config import SimConfig, Tally

TIMER: Final = Action(LEADER, "close")
"""The leader closing a step, as a server's timer does."""


MAX_ACTIONS: Final = 20_000
"""Some rules allow endless games (a lone mafioso against a Doctor who keeps saving
himself and a town that never reaches a majority); after this many actions a simulated
game stops and counts as having no winner (``no_winner`` in the results)."""


STALL_AFTER: Final = 4
"""A pack is ``stalled`` only after every member (two at least) has chosen twice: the
simulator asks a step only after as many actions in it (a call a step, the default
answering no, is cheaper than reading a class's flag at every step)."""


def game_stream(seed: int, index: int) -> Stream:
    """The draws of game ``index`` of a run (its deal, its bots, its game's seed): a
    stream keyed by the run's seed and the index alone (``lupus.engine.stream``)."""
    return stream(hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=16).digest())


def days_played(game: Game) -> int:
    return game.number if game.phase == "day" else max(0, game.number - 1)


def seat_factions(book: Rulebook, game: Game) -> list[str]:
    """The side each seat starts on, to hand it its faction's bot."""
    return game.sides_dealt()


@final
class Table:
    """What every game of a run shares, worked out once: the rulebook, the cards, the
    seats' names, the options and which kind of bot plays for each faction."""

    def __init__(self, config: SimConfig, book: Rulebook | None = None) -> None:
        self.book: Final = rulebook(book or config.book)
        self.family: Final = family_of(self.book)
        self.seed: Final = config.seed
        self.players: Final = config.players
        self.counts: Final = config.composition()
        self.names: Final = tuple(seat_names(config.players))
        self.options: Final = dict(config.options)
        self.bot_kinds: Final = dict(config.bots)
        self.fallback: Final = self.bot_kinds.get("*", "random")
        self._dealer: Dealing | None = None
        # The random bot keeps nothing of a game (only whether a rulebook's pack must
        # agree, by its digest): one serves every game of the table, which spares each
        # game making one and looking its rulebook up again.
        self.random_bot: Final = RandomBot()
        # Whether every seat is the random bot's (the benchmark's tables, most runs'):
        # then a game's seats are handed it without looking each one's side up.
        self.all_random: Final = self.fallback == "random" and all(
            kind == "random" for kind in self.bot_kinds.values()
        )

    def dealer(self) -> Dealing:
        """The family's dealer of this table (``Family.dealer``), made at the first deal
        (a composition the rules refuse is refused where it always was)."""
        dealer = self._dealer
        if dealer is None:
            dealer = self._dealer = self.family.dealer(
                self.book, self.players, self.counts, self.options
            )
        return dealer


def play_one(config: SimConfig, index: int, book: Rulebook | None = None) -> tuple[Game, int]:
    """Play game ``index`` of the run to its end; return it and its action count."""
    return play(Table(config, book), index)


def set_up(table: Table, index: int) -> tuple[Game, random.Random]:
    """Game ``index`` of the run before any action, and the generator its bots then
    draw from: a seeded deal, then ``new_game`` (replaying a run's game starts here)."""
    rng = game_stream(table.seed, index)
    dealt = table.dealer().deal(rng)
    game = table.family.new_game(table.book, table.names, dealt, dict(table.options), bits(rng, 63))
    return game, rng


def play(
    table: Table,
    index: int,
    most: int = MAX_ACTIONS,
    make: Callable[[str, Rulebook], Bot] = make_bot,
    watch: Callable[[Game], None] | None = None,
) -> tuple[Game, int]:
    """Game ``index`` of the run ``table`` belongs to, played to its end (or stopped
    after ``most`` actions: ``MAX_ACTIONS``), and its action count. ``make``: the bot
    of each kind but the random one, for this game (language-model seats are made
    with their run's model: ``lupus.ai.llm.run``). ``watch``: called with the game
    before each action (model seats talk then: ``lupus.ai.llm.discussion``); it must
    not change the game."""
    game, rng = set_up(table, index)
    bots = seat_bots(table, game, make)
    actions = 0
    step, budget = game.step, 0
    patience = 4 * game.n
    while not game.finished:
        if watch is not None:
            watch(game)
        if game.step is not step:
            step, budget = game.step, 0
        budget += 1
        seat = game.first_waiting()
        # The leader's timer: a step that waits on nobody, or that bots keep reopening
        # (a pack still split after every member has chosen twice: four choices at
        # least), is closed, as a server's timer would.
        stalled = budget > STALL_AFTER and step is not None and step.stalled(game)
        if seat is not None and budget <= patience and not stalled:
            # (``seen``: the seat comes from the game itself, nothing to check)
            player = bots[seat]
            view = game.seen(seat)
            if isinstance(player, RandomBot):  # (compiled: a direct call, no method lookup)
                game.apply(player.act(view, rng))
            else:
                game.apply(player.act(view, rng))
        else:
            game.apply(TIMER)
        actions += 1
        if actions >= most:
            break  # a stalemate the rules allow: counted as a game with no winner
    return game, actions


def seat_bots(table: Table, game: Game, make: Callable[[str, Rulebook], Bot]) -> list[Bot]:
    """Each seat's bot: its side's kind (``Table.bot_kinds``), one bot of each kind but
    the random one per game (``make``), the table's random bot for the random kind."""
    if table.all_random:
        return [table.random_bot] * game.n
    book = table.book
    made: dict[str, Bot] = {"random": table.random_bot}
    bots: list[Bot] = []
    for faction in seat_factions(book, game):
        kind = table.bot_kinds.get(faction, table.fallback)
        bot = made.get(kind)
        if bot is None:
            bot = made[kind] = make(kind, book)
        bots.append(bot)
    return bots


def play_range(config: SimConfig, start: int, stop: int) -> Tally:
    table = Table(config)
    tally = Tally()
    for index in range(start, stop):
        game, actions = play(table, index)
        tally.games += 1
        if game.outcome is not None and game.outcome.winner is not None:
            tally.wins[game.outcome.winner] += 1
        tally.days += days_played(game)
        tally.actions += actions
    return tally
