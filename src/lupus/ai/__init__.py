"""Seats for AI players: a PettingZoo environment for every rulebook (docs/ai.md).

Needs the ``ai`` extra (``pip install 'lupus[ai]'``: pettingzoo, gymnasium, numpy);
``import lupus`` alone never imports it.
"""

from __future__ import annotations

from collections.abc import Mapping

from lupus.ai.env import LupusEnv, agent_name
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.sim.selfplay import MAX_ACTIONS

__all__ = ["LupusEnv", "agent_name", "env"]


def env(
    rules: str | Rulebook = "werewolf",
    players: int = 8,
    options: Mapping[str, OptionValue] | None = None,
    render_mode: str | None = None,
    *,
    counts: Mapping[str, int] | None = None,
    sealed_ballots: bool = True,
    max_actions: int = MAX_ACTIONS,
) -> LupusEnv:
    """A PettingZoo AEC environment of ``rules`` at a table of ``players``: a
    composition (``counts``, default the rulebook's recommended one), ballots sealed
    until all are cast or shown as the engine shows them, and the simulator's cap on
    a game's actions (docs/ai.md)."""
    return LupusEnv(
        rules,
        players,
        options,
        render_mode,
        counts=counts,
        sealed_ballots=sealed_ballots,
        max_actions=max_actions,
    )
