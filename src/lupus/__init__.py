"""lupus: an exact, replayable rules engine for the Werewolf family of hidden-role games."""

from lupus.engine import Action, Event, Game, IllegalAction, Prompt, SetupError, View

__all__ = ["Action", "Event", "Game", "IllegalAction", "Prompt", "SetupError", "View"]
__version__ = "0.1.0"
