"""Narrow exceptions: callers can tell a refused move from a broken setup or a bad file."""


class LupusError(Exception):
    """Base of every error lupus raises on purpose."""


class IllegalAction(LupusError, ValueError):
    """An action that is not legal now. Raised before anything changes, so the game is intact."""


class SetupError(LupusError, ValueError):
    """A game that cannot be played as asked (composition, options, players)."""


class RulebookError(LupusError, ValueError):
    """A rulebook file that does not validate; the message names the file, key and problem."""
