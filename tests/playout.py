"""Random legal play through the public API, for the property tests.

A game is a :class:`Setup` (rulebook, deal, options, seed) plus the choices made at each
point. :func:`play` drives a game to its end with a :class:`RandomPolicy` (its own seeded
generator: nothing here reads global random state), calling an observer after the start
and after every applied action, so tests can audit every intermediate state.

Compositions are hypothesis strategies registered by rulebook id in :data:`COMPOSITIONS`.
To cover another rulebook (maffia, lupusburg), write a strategy that draws its
:class:`Setup` and register it there; :func:`play` itself only uses ``waiting``,
``prompts``, ``legal_actions`` and ``apply``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from hypothesis import strategies as st

from lupus.engine.errors import IllegalAction
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action
from lupus.engine.setup import new_game
from lupus.rulebooks import load

OptionValue = bool | int | float | str


@dataclass(frozen=True)
class Setup:
    """Everything ``new_game`` needs; ``repr`` is a complete repro."""

    rules: str
    players: tuple[str, ...]
    roles: tuple[str, ...]
    extra_cards: tuple[str, ...] = ()
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    seed: int = 0

    @property
    def n(self) -> int:
        return len(self.players)

    def new_game(self) -> Game:
        return new_game(
            self.rules,
            list(self.players),
            list(self.roles),
            extra_cards=list(self.extra_cards),
            options=dict(self.options),
            seed=self.seed,
        )


@dataclass(frozen=True)
class Move:
    """One applied action and where its events start and end in ``game.events``."""

    action: Action
    events_before: int
    events_after: int
    state_id: int


@dataclass
class Playout:
    setup: Setup
    game: Game
    moves: list[Move] = field(default_factory=list)
    refused: list[tuple[Action, str]] = field(default_factory=list)
    """Offered actions that ``apply`` refused (a bug unless a test says it is known)."""

    @property
    def actions(self) -> list[Action]:
        return [m.action for m in self.moves]


Observer = Callable[[Game, Move | None], None]


class RandomPolicy:
    """Draws one legal action at each point from its own seeded generator.

    Mostly a seat the step waits for; sometimes a seat that already chose changes its
    mind (``change_chance``); sometimes the leader closes the step (``close_chance``).
    ``by_verb`` first draws a verb, then its arguments (more passes, sleeps, abstentions);
    otherwise every complete action is equally likely.
    """

    def __init__(
        self,
        seed: int,
        close_chance: float = 0.02,
        change_chance: float = 0.05,
        by_verb: bool = False,
    ) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.close_chance = close_chance
        self.change_chance = change_chance
        self.by_verb = by_verb

    def __repr__(self) -> str:
        return (
            f"RandomPolicy(seed={self.seed}, close_chance={self.close_chance}, "
            f"change_chance={self.change_chance}, by_verb={self.by_verb})"
        )

    def actor(self, game: Game) -> int:
        rng = self.rng
        if rng.random() < self.close_chance:
            return LEADER
        waiting = game.waiting()
        if waiting and rng.random() >= self.change_chance:
            return rng.choice(waiting)
        actors = sorted({p.actor for p in game.prompts() if p.actor != LEADER})
        return rng.choice(actors) if actors else LEADER

    def action(self, game: Game, actor: int, refused: Sequence[Action] = ()) -> Action:
        if actor == LEADER:
            return Action(LEADER, "close")
        rng = self.rng
        if self.by_verb:
            prompts = list(game.prompts(actor))
            rng.shuffle(prompts)
            for prompt in prompts:
                args = [a for a in prompt.choices if Action(actor, prompt.verb, a) not in refused]
                if args:
                    return Action(actor, prompt.verb, rng.choice(args))
            return Action(LEADER, "close")
        options = [a for a in game.legal_actions(actor) if a not in refused]
        return rng.choice(options) if options else Action(LEADER, "close")


def play(
    setup: Setup,
    policy: RandomPolicy,
    *,
    max_actions: int = 5000,
    observe: Observer | None = None,
    between: Callable[[int], None] | None = None,
) -> Playout:
    """Play ``setup`` to its end (or ``max_actions``) with ``policy``.

    An offered action that ``apply`` refuses is recorded in ``refused`` and another one
    is drawn, so one bug does not hide every other property. ``between(i)`` runs before
    the i-th action (tests use it to disturb global state).
    """
    game = setup.new_game()
    result = Playout(setup, game)
    if observe is not None:
        observe(game, None)
    while not game.finished and len(result.moves) < max_actions:
        if between is not None:
            between(len(result.moves))
        refused: list[Action] = []
        actor = policy.actor(game)
        while True:
            action = policy.action(game, actor, refused)
            before = len(game.events)
            try:
                game.apply(action)
            except IllegalAction as exc:
                if action.actor == LEADER:
                    raise
                refused.append(action)
                result.refused.append((action, str(exc)))
                continue
            break
        move = Move(action, before, len(game.events), game.state_id)
        result.moves.append(move)
        if observe is not None:
            observe(game, move)
    return result


def replay(setup: Setup, actions: Sequence[Action]) -> Game:
    game = setup.new_game()
    for action in actions:
        game.apply(action)
    return game


# ---------------------------------------------------------------------- compositions
VILLAGE_SPECIALS = ("seer", "witch", "hunter", "cupid", "little-girl", "thief")


@st.composite
def village_setups(
    draw: st.DrawFn, rules: str, min_players: int = 3, max_players: int = 18
) -> Setup:
    """A random legal deal of the village family (werewolf, tit-albert)."""
    book = load(rules)
    # sampled_from rather than integers: hypothesis draws integers mostly near their
    # lower bound, and the big tables with every role are where the rules interact.
    n = draw(st.sampled_from(range(max(min_players, book.min_players), max_players + 1)))
    wolf_cap = book.roles["werewolf"].max or n
    wolves = draw(st.sampled_from(range(1, max(1, min(n // 2, wolf_cap)) + 1)))
    specials = [r for r in VILLAGE_SPECIALS if r in book.roles and draw(st.booleans())]
    specials = specials[: n - wolves]
    roles = ["werewolf"] * wolves + specials + ["villager"] * (n - wolves - len(specials))
    extra: list[str] = []
    if "thief" in specials:
        for _ in range(2):
            deck = [*roles, *extra]
            fits = [
                r
                for r in book.roles
                if r != "thief" and (book.roles[r].max is None or deck.count(r) < book.roles[r].max)
            ]
            extra.append(draw(st.sampled_from(sorted(fits))))
    options: dict[str, OptionValue] = {}
    if "captain" in book.options and draw(st.booleans()):
        options["captain"] = draw(st.booleans())
    if "little_girl_catch_chance" in book.options and draw(st.booleans()):
        options["little_girl_catch_chance"] = draw(
            st.sampled_from([0.0, 1.0, 0.5, 0.2]) | st.floats(0.0, 1.0)
        )
    if "longanis_potions" in book.options and draw(st.booleans()):
        options["longanis_potions"] = draw(st.sampled_from([1, 2]))
    prepared = {"thief", "cupid"} & set(roles)
    if "quick" in book.options and not prepared and draw(st.booleans()):
        options["quick"] = True
    seating = draw(st.permutations(roles))
    seed = draw(st.integers(0, 2**32 - 1))
    players = tuple(f"p{i}" for i in range(n))
    return Setup(rules, players, tuple(seating), tuple(extra), options, seed)


COMPOSITIONS: dict[str, Callable[[], st.SearchStrategy[Setup]]] = {
    "werewolf": lambda: village_setups("werewolf"),
    "tit-albert": lambda: village_setups("tit-albert"),
}
"""Rulebook id -> strategy of random legal setups; add maffia and lupusburg here."""


def setups(rulebooks: Sequence[str] = ("werewolf", "tit-albert")) -> st.SearchStrategy[Setup]:
    return st.one_of(*(COMPOSITIONS[r]() for r in rulebooks))


def policies() -> st.SearchStrategy[RandomPolicy]:
    return st.builds(
        RandomPolicy,
        seed=st.integers(0, 2**32 - 1),
        close_chance=st.sampled_from([0.0, 0.02, 0.1]),
        change_chance=st.sampled_from([0.0, 0.05, 0.2]),
        by_verb=st.booleans(),
    )
