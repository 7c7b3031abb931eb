"""The registry of bot kinds: a bot is asked for by kind and rulebook."""

from __future__ import annotations

from lupus.bots.base import Bot
from lupus.bots.heuristic import heuristic_bot
from lupus.bots.random_bot import RandomBot
from lupus.engine.untrusted import quoted
from lupus.rulebooks.schema import Rulebook

KINDS = ("random", "heuristic", "llm")


def make_bot(kind: str, rulebook: str | Rulebook) -> Bot:
    """A bot of ``kind`` for games of ``rulebook`` (an id or path, or the rulebook
    itself; ValueError for an unknown kind)."""
    if kind == "random":
        return RandomBot()
    if kind == "heuristic":
        return heuristic_bot(rulebook)
    if kind == "llm":  # (made with its run's model: lupus.ai.llm.run)
        raise ValueError("llm seats are played by lupus simulate --bots llm --llm-model ...")
    raise ValueError(f"unknown bot kind {quoted(kind)} ({', '.join(KINDS)})")
