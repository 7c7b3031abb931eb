"""Who sits where: room codes, seat tokens and the seats themselves.

A token is given to its holder once and never kept: the server keeps its SHA-256
digest, so a stolen database holds no token that acts for a seat.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any, Final

CODE_LETTERS: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Room codes avoid letters read two ways (I and 1, O and 0, L)."""


def new_code(length: int = 5) -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(length))


def new_token() -> tuple[str, str]:
    """An unguessable token and its digest (only the digest is kept or stored)."""
    token = secrets.token_urlsafe(24)
    return token, digest(token)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Seat:
    """A seat at the table: who sits in it (a person's name, or a bot's), the digest of
    its token, and which bot plays it when one does."""

    def __init__(
        self, name: str, token: str | None, bot: str | None = None, away: bool = False
    ) -> None:
        self.name = name
        self.token = token  # digest; None for a seat no person ever held (a bot's)
        self.bot = bot
        # The bot plays for a person who is away (``presence``), not by the host's
        # choice: it gives the seat back when he is.
        self.away = away

    def to_state(self) -> dict[str, object]:
        return {"name": self.name, "token": self.token, "bot": self.bot, "away": self.away}

    @staticmethod
    def from_state(data: dict[str, Any]) -> Seat:
        away = data.get("away") is True
        return Seat(str(data["name"]), data.get("token"), data.get("bot"), away)
