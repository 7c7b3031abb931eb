"""The pure core: no I/O, no clock, no global random state."""

from lupus.engine.errors import IllegalAction, LupusError, RulebookError, SetupError
from lupus.engine.game import Game, view_of
from lupus.engine.model import LEADER, Action, Death, Event, Outcome, Prompt
from lupus.engine.step import Step
from lupus.engine.views import View

__all__ = [
    "LEADER",
    "Action",
    "Death",
    "Event",
    "Game",
    "IllegalAction",
    "LupusError",
    "Outcome",
    "Prompt",
    "RulebookError",
    "SetupError",
    "Step",
    "View",
    "view_of",
]
