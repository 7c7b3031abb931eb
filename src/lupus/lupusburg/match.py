"""A match of several Lupusburg games: scores add up, the first Burgomaster rotates.

"For even more fun, play several games in a row, adding your scores together after each
game. A winning werewolf is awarded points equal to the number of players in the game.
It is recommended that all players start as the Burgomaster at least once. Pass this
role among players from game to game." Seats stay the same from game to game; these
helpers are pure (they neither run nor change a game).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from lupus.engine.model import Outcome
from lupus.lupusburg.game import WEREWOLF


def first_burgomaster(game_index: int, players: int, first: int = 0) -> int:
    """The seat that starts game ``game_index`` (0-based) as the Burgomaster: the role
    passes clockwise from game to game, so every player starts once in ``players`` games."""
    if players < 1 or not 0 <= first < players or game_index < 0:
        raise ValueError(f"no game {game_index} for {players} players starting with {first}")
    return (first + game_index) % players


def game_points(outcome: Outcome, players: int) -> dict[int, int]:
    """A finished game's points for the match: a winning Werewolf scores the number of
    players and the others nothing; otherwise every player scores his game's points."""
    if outcome.winner == WEREWOLF:
        return {seat: players if seat in outcome.winners else 0 for seat in range(players)}
    unknown = sorted(set(outcome.scores) - set(range(players)))
    if unknown:
        raise ValueError(f"seat {unknown[0]} is not among the {players} players")
    return {seat: outcome.scores.get(seat, 0) for seat in range(players)}


def add_game(totals: Mapping[int, int], outcome: Outcome, players: int) -> dict[int, int]:
    """The match totals after one more game (``totals`` is left as it was)."""
    points = game_points(outcome, players)
    return {seat: totals.get(seat, 0) + points[seat] for seat in range(players)}


def match_totals(outcomes: Iterable[Outcome], players: int) -> dict[int, int]:
    """Every player's total over the games of a match, in the order they were played."""
    totals: dict[int, int] = {seat: 0 for seat in range(players)}
    for outcome in outcomes:
        totals = add_game(totals, outcome, players)
    return totals


def leaders(totals: Mapping[int, int]) -> list[int]:
    """The seats with the highest total (several on a tie: the rules name no tie-break
    for a match)."""
    if not totals:
        return []
    best = max(totals.values())
    return sorted(seat for seat, points in totals.items() if points == best)
