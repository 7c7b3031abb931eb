"""A finished game read in the simulator's terms: the kind of player at each of its
seats, and its part of a run's sums, from its ``Played`` record alone (so that a run
of records reports the very numbers ``lupus simulate`` reports)."""

from __future__ import annotations

from lupus.ai.played import Played
from lupus.engine.game import Game
from lupus.sim.config import Tally
from lupus.sim.selfplay import Table, days_played, seat_factions


def kinds_of(table: Table, game: Game) -> tuple[str, ...]:
    """The kind of player at each seat of ``game``: its dealt faction's, as
    ``selfplay.play`` hands out the bots."""
    kinds = table.bot_kinds
    return tuple(kinds.get(faction, table.fallback) for faction in seat_factions(table.book, game))


def tally_of(played: Played) -> Tally:
    """One game's part of the run's sums: a game, its winner, its days and actions,
    its model seats' costs."""
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
