"""Every action the prompts do not offer is refused, and changes nothing.

:func:`illegal_attempts` builds a few actions of every kind a client could get wrong
(the leader's verbs, no such seat, a verb not offered, a target not offered, a dead or
idle actor); :func:`refuse_and_compare` applies one and checks the refusal left the
game, its hidden state included, as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from lupus.engine.errors import IllegalAction
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action, Args, Prompt
from lupus.testing.errors import Broken

Hidden = Callable[[Game], tuple[object, ...]]
"""The hidden state of a game that an action could change (true roles, who lives)."""
Attempt = tuple[str, Action]

HIDDEN_FIELDS = ("roles", "alive", "characters", "alive_house", "chest", "bag", "bets", "tokens")


def hidden_state(game: Game) -> tuple[object, ...]:
    """Copies of the family's hidden fields a game has (``HIDDEN_FIELDS``): what no
    event tells, and a refused action must leave alone too."""
    found: list[object] = []
    for name in HIDDEN_FIELDS:
        value = getattr(game, name, None)
        found.append(copied(value))
    return tuple(found)


def copied(value: object) -> object:
    """A copy of a list or dict field (one later changed in place still compares)."""
    if isinstance(value, list | tuple):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value


def snapshot(game: Game, hidden: Hidden = hidden_state) -> tuple[object, ...]:
    """Everything an action could change, the hidden state included."""
    return (
        list(game.events),
        game.state_id,
        game.waiting(),
        game.prompts(),
        list(game.history),
        list(game.deaths),
        game.outcome,
        hidden(game),
    )


def illegal_attempts(
    game: Game,
    rng: random.Random,
    verbs: Sequence[str],
    other_verbs: Sequence[str],
    dead: Sequence[int],
    extra_bad_args: Callable[[Prompt], Sequence[Args]],
) -> list[Attempt]:
    """A few actions the current prompts do not allow, of every kind we can build now.

    ``verbs`` are the verbs seats may be offered (never the leader's), ``other_verbs``
    the rest worth trying (``close``, verbs of no rulebook); ``dead`` the dead seats (the
    hidden truth); ``extra_bad_args(prompt)`` the family's own malformed arguments, tried
    after the out-of-range ones. Reversed choices are tried too (Cupid's pairs); for
    single-seat choices they are the choices themselves, which ``allows`` filters out.
    """
    n = game.n
    prompts = [p for p in game.prompts() if p.actor != LEADER]
    attempts: list[Attempt] = [
        ("leader verb", Action(LEADER, rng.choice(verbs), (0,))),
        ("no such seat", Action(rng.choice([n, n + 3, -2]), "vote", (0,))),
    ]
    if not prompts:
        return attempts
    p = rng.choice(prompts)
    mine = {q.verb for q in prompts if q.actor == p.actor}
    wrong = [v for v in (*verbs, *other_verbs) if v not in mine]
    attempts.append(("wrong verb", Action(p.actor, rng.choice(wrong), rng.choice(p.choices))))
    bad_args: list[Args] = [(n,), (-3,), ("x",), *extra_bad_args(p), *[(d,) for d in dead]]
    bad_args += [(*c, 0) for c in p.choices[:2]] + [tuple(reversed(c)) for c in p.choices[:2]]
    if p.choices != ((),):
        bad_args.append(())
    bad = [a for a in bad_args if not p.allows(a)]
    if bad:
        attempts.append(("wrong target", Action(p.actor, p.verb, rng.choice(bad))))
    silent = [s for s in range(n) if s not in {q.actor for q in prompts}]
    dead_silent = [s for s in silent if s in dead]
    living_silent = [s for s in silent if s not in dead]
    if dead_silent:
        attempts.append(("dead actor", Action(rng.choice(dead_silent), p.verb, p.choices[0])))
    if living_silent:
        attempts.append(("not waiting", Action(rng.choice(living_silent), p.verb, p.choices[0])))
    return attempts


def offered(game: Game, action: Action) -> bool:
    """Whether the open prompts allow ``action`` (the leader may always close)."""
    if action.actor == LEADER and action.verb == "close":
        return True
    return any(
        p.actor == action.actor and p.verb == action.verb and p.allows(action.args)
        for p in game.prompts()
    )


def refuse_and_compare(
    game: Game, action: Action, what: str, hidden: Hidden = hidden_state, repro: str = ""
) -> None:
    """``apply`` refuses ``action`` and leaves the game (hidden state too) as it was."""
    before = snapshot(game, hidden)
    try:
        game.apply(action)
    except IllegalAction:
        pass
    else:
        raise Broken("illegal-refused", f"{what}: {action} was accepted{repro}")
    if snapshot(game, hidden) != before:
        raise Broken("illegal-refused", f"{what}: {action} was refused but changed the game")


def try_illegal(game: Game, attempts: Sequence[Attempt], hidden: Hidden = hidden_state) -> None:
    """Each of ``attempts`` is illegal by the prompts, refused, and changes nothing."""
    for kind, action in attempts:
        if offered(game, action):
            raise AssertionError(f"{kind}: {action} is legal")  # (the generator's own bug)
        refuse_and_compare(game, action, kind, hidden)


def refuse_after_the_end(game: Game, hidden: Hidden = hidden_state) -> None:
    """A finished game refuses a seat's vote and the leader's close, and stays as it is."""
    for action in (Action(0, "vote", (0,)), Action(LEADER, "close")):
        refuse_and_compare(game, action, "after the end", hidden)
