"""Bots: players that see only their own view and answer their own prompts.

A bot is handed a `View` (its events and its prompts) and a random generator, and
returns one `Action`; it never receives the game. That is the whole interface, so a bot
cannot cheat, and the test suite proves it by giving bots nothing else.
"""

from __future__ import annotations

from lupus.bots.base import Bot
from lupus.bots.kinds import make_bot
from lupus.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "make_bot"]
