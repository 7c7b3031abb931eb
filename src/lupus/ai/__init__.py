"""Seats for AI players: a PettingZoo environment for every rulebook (docs/ai.md).

Needs the ``ai`` extra (``pip install 'lupus[ai]'``: pettingzoo, gymnasium, numpy);
``import lupus`` alone never imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.sim.selfplay import MAX_ACTIONS

if TYPE_CHECKING:
    from lupus.ai.environment import LupusEnv, agent_name

__all__ = ["LupusEnv", "agent_name", "env"]


def __getattr__(name: str) -> Any:
    """``LupusEnv`` and ``agent_name`` imported when first asked for: the model seats
    (``lupus.ai.llm``) need no PettingZoo."""
    if name in ("LupusEnv", "agent_name"):
        from lupus.ai import environment

        return getattr(environment, name)
    raise AttributeError(name)


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
    from lupus.ai.environment import LupusEnv

    return LupusEnv(
        rules,
        players,
        options,
        render_mode,
        counts=counts,
        sealed_ballots=sealed_ballots,
        max_actions=max_actions,
    )
