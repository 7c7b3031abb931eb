"""What the store keeps of a game, and a stored game played again.

A game is kept as its set-up (the scenario's header: rulebook, names, deal, seed,
options) and its accepted actions; replaying the actions through the engine gives the
same game, which is how a server resumes its rooms and serves a finished game's
scenario file.
"""

from __future__ import annotations

from lupus.engine.game import Game
from lupus.engine.model import Action
from lupus.scenario import parse
from lupus.scenario import setup as scenario_setup


def result(game_id: str, game: Game) -> dict[str, object]:
    """How a finished game ended, as the lobby tells it (everything in it is public:
    the game-over event says it to everyone)."""
    outcome = game.outcome
    assert outcome is not None
    return {
        "game": game_id,
        "winner": outcome.winner,
        "winners": list(outcome.winners),
        "scores": {str(seat): points for seat, points in sorted(outcome.scores.items())},
    }


def stored(action: Action) -> list[object]:
    """An action as the store keeps it (``replayed`` applies it again)."""
    return [action.actor, action.verb, list(action.args)]


def replayed(header: dict[str, object], actions: list[list[object]]) -> Game:
    """A stored game: its setup, then every stored action applied again."""
    game = scenario_setup(parse({**header, "actions": []}, "stored game"))
    for actor, verb, args in actions:
        assert isinstance(actor, int) and isinstance(verb, str) and isinstance(args, list)
        game.apply(Action(actor, verb, tuple(args)))
    return game
