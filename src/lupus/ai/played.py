"""One finished game of a tournament, as the report and the dataset read it.

A ``Played`` holds the game itself (its history replays it: ``Game.to_scenario``),
the kind of player at each seat, which of its actions a stand-in took for a model that
failed, what the model seats said, and what they cost. Everything a report computes
(win rates, ratings, the Kaggle metrics, the replay page) and every line of a decision
dataset is derived from it, so that a tournament's figures and its dataset agree and
both follow from the seed and the answer cache alone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from lupus.ai.llm.talk import Line
from lupus.engine.game import Game


@dataclass(frozen=True)
class Cost:
    """What a game's model seats cost: ``decisions`` asked, ``calls`` made (``cached``
    of them read back), ``tokens`` and ``seconds`` spent (the replies' own, so a
    replay from the cache reports the recorded run's), ``fallbacks`` by reason;
    ``talks``: talk requests asked (their calls and tokens are counted above too),
    ``said``: the lines they gave (a failed or empty answer says nothing)."""

    decisions: int = 0
    calls: int = 0
    cached: int = 0
    tokens: int = 0
    seconds: float = 0.0
    fallbacks: Counter[str] = field(default_factory=Counter)
    talks: int = 0
    said: int = 0


@dataclass(frozen=True)
class Played:
    """Game ``index`` of a run (its draws are the run's: ``selfplay.game_stream``):
    ``game`` finished or stopped at the simulator's cap; ``kinds[seat]`` the kind of
    player that played the seat ("random", "heuristic", "llm"); ``fallbacks`` the
    positions in ``game.history`` of the actions the heuristic stand-in took for a
    model seat; ``lines`` what model seats said, in order; ``cost`` what they cost."""

    index: int
    game: Game
    kinds: tuple[str, ...]
    fallbacks: frozenset[int] = frozenset()
    lines: tuple[Line, ...] = ()
    cost: Cost = field(default_factory=Cost)
