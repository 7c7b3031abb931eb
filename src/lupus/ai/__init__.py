"""Seats for AI players: a PettingZoo environment for every rulebook (docs/ai.md).

Needs the ``ai`` extra (``pip install 'lupus[ai]'``: pettingzoo, gymnasium, numpy);
``import lupus`` alone never imports it.
"""

from __future__ import annotations

from collections.abc import Mapping

from lupus.ai.env import LupusEnv, agent_name
from lupus.rulebooks.schema import OptionValue, Rulebook

__all__ = ["LupusEnv", "agent_name", "env"]


def env(
    rules: str | Rulebook = "werewolf",
    players: int = 8,
    options: Mapping[str, OptionValue] | None = None,
    render_mode: str | None = None,
    **kwargs: object,
) -> LupusEnv:
    """A PettingZoo AEC environment of ``rules`` at a table of ``players`` (see
    ``LupusEnv`` for the keyword-only settings: ``counts``, ``sealed_ballots``,
    ``max_actions``)."""
    return LupusEnv(rules, players, options, render_mode, **kwargs)  # type: ignore[arg-type]
