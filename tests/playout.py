"""Random legal play through the public API, for the property tests.

A game is a :class:`Setup` (rulebook, deal, options, seed) plus the choices made at each
point. :func:`play` drives a game to its end with a :class:`RandomPolicy` (its own seeded
generator: nothing here reads global random state), calling an observer after the start
and after every applied action, so tests can audit every intermediate state.

Compositions are hypothesis strategies registered by rulebook id in :data:`COMPOSITIONS`.
To cover another rulebook, write a strategy that draws its :class:`Setup` and register
it there; :func:`play` itself only uses ``waiting``, ``prompts``, ``legal_actions`` and
``apply``. Steps that only the game leader ends (maffia's nominations, a mafia that
cannot agree) need :class:`LeaderClosePolicy` (strategy :func:`leader_policies`).
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


class LeaderClosePolicy(RandomPolicy):
    """A :class:`RandomPolicy` with a game leader who ends what random play would not.

    * ``idle_close``: when nobody is waited for but the step is still open (maffia's
      nominations, which only the leader ends), the chance that the leader closes it;
    * ``patience``: after this many actions in a row that leave the same seats waited
      for (a mafia that keeps disagreeing), the leader closes with chance 1/2;
    * ``agree_chance``: the chance that an actor offered ``kill`` names a target another
      member already named tonight (read from his own view's ``pack_choice`` events),
      so that packs also reach agreement by themselves.

    It draws from the same seeded generator, so a policy and a setup replay a game.
    """

    def __init__(
        self,
        seed: int,
        close_chance: float = 0.02,
        change_chance: float = 0.05,
        by_verb: bool = False,
        idle_close: float = 0.3,
        patience: int = 6,
        agree_chance: float = 0.3,
    ) -> None:
        super().__init__(seed, close_chance, change_chance, by_verb)
        self.idle_close = idle_close
        self.patience = patience
        self.agree_chance = agree_chance
        self._last: tuple[object, ...] | None = None
        self._repeats = 0

    def __repr__(self) -> str:
        return (
            f"LeaderClosePolicy(seed={self.seed}, close_chance={self.close_chance}, "
            f"change_chance={self.change_chance}, by_verb={self.by_verb}, "
            f"idle_close={self.idle_close}, patience={self.patience}, "
            f"agree_chance={self.agree_chance})"
        )

    def actor(self, game: Game) -> int:
        rng = self.rng
        waiting = game.waiting()
        key = (game.phase, game.number, tuple(waiting))
        self._repeats = self._repeats + 1 if key == self._last else 0
        self._last = key
        if not waiting and rng.random() < self.idle_close:
            return LEADER
        if waiting and self._repeats >= self.patience and rng.random() < 0.5:
            return LEADER
        return super().actor(game)

    def action(self, game: Game, actor: int, refused: Sequence[Action] = ()) -> Action:
        if actor != LEADER and self.agree_chance and self.rng.random() < self.agree_chance:
            named = self.named_tonight(game, actor)
            agreeing = [a for a in (Action(actor, "kill", (t,)) for t in named) if a not in refused]
            legal = set(game.legal_actions(actor))
            agreeing = [a for a in agreeing if a in legal]
            if agreeing:
                return self.rng.choice(agreeing)
        return super().action(game, actor, refused)

    @staticmethod
    def named_tonight(game: Game, actor: int) -> list[int]:
        """The targets the other members name now, as the actor's view shows them."""
        if not any(p.verb == "kill" for p in game.prompts(actor)):
            return []
        view = game.view(actor)
        picks: dict[int, int] = {}
        for ev in view.events:
            if ev.kind == "pack_choice" and (ev.phase, ev.number) == (view.phase, view.number):
                picks[int(str(ev.data["player"]))] = int(str(ev.data["target"]))
        picks.pop(actor, None)
        return sorted(set(picks.values()))


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


MAFFIA_SPECIALS = ("doctor", "detective", "couple", "avenger")


@st.composite
def maffia_setups(draw: st.DrawFn, min_players: int = 4, max_players: int = 16) -> Setup:
    """A random legal maffia deal: 1..(n-1)//2 mafia (maybe one the Godfather), maybe
    each of the Doctor, the Detective, the Couple (a pair of cards) and the Avenger,
    villagers for the rest."""
    book = load("maffia")
    n = draw(st.sampled_from(range(max(min_players, book.min_players), max_players + 1)))
    mafia = draw(st.sampled_from(range(1, (n - 1) // 2 + 1)))
    pack = ["mafia"] * mafia
    if draw(st.booleans()):
        pack[0] = "godfather"
    specials: list[str] = []
    for role in MAFFIA_SPECIALS:
        cards = [role] * book.roles[role].comes_in
        if draw(st.booleans()) and mafia + len(specials) + len(cards) <= n:
            specials += cards
    roles = pack + specials + ["villager"] * (n - mafia - len(specials))
    seating = draw(st.permutations(roles))
    seed = draw(st.integers(0, 2**32 - 1))
    players = tuple(f"p{i}" for i in range(n))
    return Setup("maffia", players, tuple(seating), (), {}, seed)


@st.composite
def mafia_classic_setups(draw: st.DrawFn, min_players: int = 3, max_players: int = 16) -> Setup:
    """A random mafia-classic deal: 1..(n-1)//2 mafia, villagers, either first phase."""
    book = load("mafia-classic")
    n = draw(st.sampled_from(range(max(min_players, book.min_players), max_players + 1)))
    mafia = draw(st.sampled_from(range(1, (n - 1) // 2 + 1)))
    roles = ["mafia"] * mafia + ["villager"] * (n - mafia)
    options: dict[str, OptionValue] = {}
    first = draw(st.sampled_from([None, "day", "night"]))
    if first is not None:
        options["first_phase"] = first
    seating = draw(st.permutations(roles))
    seed = draw(st.integers(0, 2**32 - 1))
    players = tuple(f"p{i}" for i in range(n))
    return Setup("mafia-classic", players, tuple(seating), (), options, seed)


COMPOSITIONS: dict[str, Callable[[], st.SearchStrategy[Setup]]] = {
    "werewolf": lambda: village_setups("werewolf"),
    "tit-albert": lambda: village_setups("tit-albert"),
    "maffia": maffia_setups,
    "mafia-classic": mafia_classic_setups,
}
"""Rulebook id -> strategy of random legal setups (lupusburg has its own tests)."""


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


def leader_policies() -> st.SearchStrategy[LeaderClosePolicy]:
    """Policies for rulebooks with steps only the leader ends (maffia, mafia-classic)."""
    return st.builds(
        LeaderClosePolicy,
        seed=st.integers(0, 2**32 - 1),
        close_chance=st.sampled_from([0.0, 0.02, 0.1]),
        change_chance=st.sampled_from([0.0, 0.05, 0.2]),
        by_verb=st.booleans(),
        idle_close=st.sampled_from([0.1, 0.3, 1.0]),
        patience=st.sampled_from([2, 6, 20]),
        agree_chance=st.sampled_from([0.0, 0.3, 0.8]),
    )
