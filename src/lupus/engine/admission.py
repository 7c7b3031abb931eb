"""How an untrusted action is judged, in one pass, before any step sees it.

``Game.apply`` hands every action here, whoever built it (a bot, a browser's decoded
JSON, a scenario line): its parts must have exactly the types a prompt lists, its actor
must be a seat of the game or LEADER, and its arguments one of the choices of the
actor's open prompt for its verb. What comes back is the action as the step records it
(a set of targets in its canonical order); what is refused raises ``IllegalAction``
with words a player understands, and nothing has changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from lupus.engine.errors import IllegalAction
from lupus.engine.limits import MAX_SHOWN
from lupus.engine.model import LEADER, Action, Args, Prompt
from lupus.engine.step import Host, Step
from lupus.engine.untrusted import bounded, exact_args, few, parts_problem


class Judge(Host, Protocol):
    """What judging reads of the game besides its steps (``Game`` is one): names for
    the refusal's words."""

    def arg_name(self, arg: object, verb: str = "") -> str: ...
    def bad_args(self, action: Action, prompt: Prompt) -> str: ...


def admitted(game: Judge, seats: int, step: Step[Any] | None, action: object) -> Action:
    """``action`` as its step records it, or IllegalAction (``step`` None: the game is
    over). ``seats`` is the game's number of seats."""
    if type(action) is not Action or not well_formed(action, seats):
        raise IllegalAction(malformed_action(action, seats) or "that is not an action")
    assert isinstance(action, Action)
    if step is None:
        raise IllegalAction("the game is over")
    actor, verb = action.actor, action.verb
    if actor == LEADER:
        if verb != "close":
            raise IllegalAction(f"the game leader can only close a step, not {bounded(verb)}")
        if action.args:
            raise IllegalAction("the game leader closes the step, without choosing anything")
        return action
    mine = step.prompts_for(game, actor)
    for prompt in mine:
        if prompt.verb == verb:
            break
    else:
        reason = step.refusal(game, action) if mine else None
        raise IllegalAction(reason or refusal(game, action, mine))
    args = action.args
    if prompt.unordered:  # (sorting needs ints and strings)
        if not exact_args(args):
            raise IllegalAction(game.bad_args(action, prompt))
        args = prompt.normalize(args)
    if not listed(args, prompt.choices):
        reason = step.refusal(game, action)
        raise IllegalAction(reason or game.bad_args(action, prompt))
    # The step records the action as the prompt lists it (a pair in order).
    return action if args is action.args else Action(actor, verb, args)


def listed(args: Args, choices: tuple[Args, ...]) -> bool:
    """Whether ``args`` is one of ``choices``, with exactly its types. Most actions hand
    back one of the very tuples their prompt listed: those are found by identity,
    before any comparison; an equal tuple must also hold the same types (``2.0 == 2``
    and ``True == 1``, but a prompt lists ints and strings only)."""
    for choice in choices:
        if choice is args:
            return True
    # Items as plain objects: compiled, reading an ``Args`` item checks its type, and a
    # client's arguments may be of any type.
    given: tuple[object, ...] = args
    for choice in choices:
        listed_choice: tuple[object, ...] = choice
        if listed_choice == given:  # (as long, then; by index: compiled, no ``zip``)
            return all(type(given[i]) is type(listed_choice[i]) for i in range(len(given)))
    return False


def well_formed(action: Action, seats: int) -> bool:
    """Whether an action's parts have exactly the types a prompt lists (the fast check
    ``apply`` runs on every action; ``malformed_action`` says why not)."""
    actor = action.actor
    if type(actor) is not int or not (actor == LEADER or 0 <= actor < seats):
        return False
    if type(action.verb) is not str:
        return False
    # Its arguments' types are checked against the prompt's choices (``listed``).
    return type(action.args) is tuple


def malformed_action(action: object, seats: int) -> str | None:
    """Why ``action`` is not even an action of this game, in words a player understands
    (None: well formed). Types are exact: a prompt lists ints and strings, and
    ``2.0 == 2`` or ``True == 1`` must not let a float or a bool through to a step."""
    if type(action) is not Action:
        return "that is not an action"
    assert isinstance(action, Action)
    actor = action.actor
    args: object = action.args  # (compiled, an ``Args`` item is type-checked when read)
    problem = parts_problem(actor, action.verb, args)
    if problem is None and not (actor == LEADER or 0 <= actor < seats):
        problem = f"there is no player number {bounded(actor)}"
    return problem


def refusal(game: Judge, action: Action, mine: Sequence[Prompt]) -> str:
    who = game.actor_name(action.actor)
    if not mine:
        return f"{who} has nothing to do now"
    verbs = ", ".join(sorted({p.verb for p in mine}))
    return f"{who} cannot {bounded(action.verb)} now (possible now: {verbs})"


def wrong_args(game: Judge, action: Action, prompt: Prompt) -> str:
    """Why an action's arguments are refused, with the prompt's choices (``Game.bad_args``
    by default: a family may word its own)."""
    who = game.actor_name(action.actor)
    verb = action.verb
    # (as plain objects: compiled, reading an ``Args`` item checks its type, and a
    # refused action's arguments may be of any type)
    raw: tuple[object, ...] = action.args
    shown = few([given(game, a, verb) for a in raw[:MAX_SHOWN]], len(raw)) or "nothing"
    if len(prompt.choices) > 12:
        return f"{who} cannot {action.verb} {shown} now"
    allowed = "; ".join(", ".join(game.arg_name(a, verb) for a in c) or "-" for c in prompt.choices)
    return f"{who} cannot {action.verb} {shown} now (choices: {allowed})"


def given(game: Judge, arg: object, verb: str) -> str:
    """An argument a client sent, as an error message names it (safely)."""
    if type(arg) is int and -(10**9) < arg < 10**9:
        assert isinstance(arg, int)
        return game.arg_name(arg, verb)
    return bounded(arg)
