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

The checks every family's property tests share (the :class:`Referee` base, the verbs as
the roles declare them (:func:`declared`), the replay, illegal-action and determinism
properties, the hypothesis ``PROFILE``) are at the end.
"""

from __future__ import annotations

import os
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypedDict, TypeVar, Unpack
from unittest import mock

from hypothesis import HealthCheck
from hypothesis import strategies as st

from lupus.engine.errors import IllegalAction
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action, Event, Outcome, Prompt
from lupus.engine.views import role_facts
from lupus.families import load, new_game
from lupus.rulebooks.schema import Rulebook
from lupus.sim.balance.candidates import fillers
from lupus.testing.contract import check_replays
from lupus.testing.declared import Declared as Declared
from lupus.testing.declared import dead_targets as dead_targets
from lupus.testing.declared import declared as declared
from lupus.testing.declared import every_verb as every_verb
from lupus.testing.refusals import Attempt, Hidden, offered
from lupus.testing.refusals import illegal_attempts as illegal_attempts
from lupus.testing.refusals import refuse_after_the_end as testing_refuse_after_the_end
from lupus.testing.refusals import refuse_and_compare as testing_refuse
from lupus.testing.refusals import snapshot as testing_snapshot
from lupus.testing.seen import check_seen as check_seen
from lupus.testing.seen import seen_as as seen_as
from lupus.village.game import VillageGame

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
    mind (``change_chance``); sometimes the leader closes the step (``close_chance``,
    and half the time a step that is ``stalled``: a pack that keeps disagreeing).
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
        assert game.first_waiting() == (waiting[0] if waiting else None)
        step = game.step
        if step is not None and step.stalled(game) and rng.random() < 0.5:
            return LEADER  # (a pack that has had its say twice and still disagrees)
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


class PolicyOptions(TypedDict, total=False):
    """The :class:`RandomPolicy` options a :class:`LeaderClosePolicy` passes on."""

    close_chance: float
    change_chance: float
    by_verb: bool


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
        *,
        idle_close: float = 0.3,
        patience: int = 6,
        agree_chance: float = 0.3,
        **policy: Unpack[PolicyOptions],
    ) -> None:
        super().__init__(seed, **policy)
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
        assert game.first_waiting() == (waiting[0] if waiting else None)
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
def specials_of(book: Rulebook) -> list[str]:
    """The rulebook's cards beside its pack and its two fillers (the plain werewolf or
    mafioso, the villager), in its order: the cards a generated deal may add, whatever
    roles the rulebook deals (none is named here)."""
    pack = book.tagged(book.mechanics.pack_tag)
    plain = fillers(book)
    return [role for role in book.roles if role not in pack and role not in plain]


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
    # Now and then (README: any deal is a game) the only werewolf cards are among the
    # Thief's two extra cards: both (he must take one) or one beside another card.
    hidden = "thief" in book.roles and draw(st.integers(0, 3)) == 0
    wolves = 0 if hidden else draw(st.sampled_from(range(1, max(1, min(n // 2, wolf_cap)) + 1)))
    specials = [r for r in specials_of(book) if draw(st.booleans())]
    if hidden:
        specials = ["thief", *[r for r in specials if r != "thief"]]
    specials = specials[: n - wolves]
    roles = ["werewolf"] * wolves + specials + ["villager"] * (n - wolves - len(specials))
    extra: list[str] = ["werewolf"] if hidden else []
    if "thief" in specials:
        while len(extra) < 2:
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
    minimum = book.minimum
    if minimum is not None and minimum.lifted_by is not None:
        # Below the seed's minimum configuration only under house rules (which may also
        # be on for a game that meets it).
        cards = [*roles, *extra]
        meets = n >= minimum.players and all(
            cards.count(role) >= count for role, count in minimum.cards.items()
        )
        if not meets or draw(st.booleans()):
            options[minimum.lifted_by] = True
    # (a quick game skips the first night's preparation: not with a card it calls)
    prepared = {r.replace("-", "_") for r in roles} & set(book.night.preparation)
    if "quick" in book.options and not prepared and draw(st.booleans()):
        options["quick"] = True
    seating = draw(st.permutations(roles))
    seed = draw(st.integers(0, 2**32 - 1))
    players = tuple(f"p{i}" for i in range(n))
    return Setup(rules, players, tuple(seating), tuple(extra), options, seed)


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
    for role in specials_of(book):
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


def _policy_draws() -> dict[str, st.SearchStrategy[Any]]:
    """What every policy strategy draws, in this order (``st.builds`` keeps it)."""
    return {
        "seed": st.integers(0, 2**32 - 1),
        "close_chance": st.sampled_from([0.0, 0.02, 0.1]),
        "change_chance": st.sampled_from([0.0, 0.05, 0.2]),
        "by_verb": st.booleans(),
    }


def policies() -> st.SearchStrategy[RandomPolicy]:
    return st.builds(RandomPolicy, **_policy_draws())


def leader_policies() -> st.SearchStrategy[LeaderClosePolicy]:
    """Policies for rulebooks with steps only the leader ends (maffia, mafia-classic)."""
    return st.builds(
        LeaderClosePolicy,
        **_policy_draws(),
        idle_close=st.sampled_from([0.1, 0.3, 1.0]),
        patience=st.sampled_from([2, 6, 20]),
        agree_chance=st.sampled_from([0.0, 0.3, 0.8]),
    )


# ---------------------------------------------------------------------- shared checks
# What the property tests of every rulebook family check alike: each test file brings
# its own referee (a :class:`Referee`), malformed arguments and accessor of the hidden
# state (``Truth``); the verbs and who may be offered them, the roles' declarations
# (:func:`declared`).
MAX_ACTIONS = 5000
NEVER = 1 << 60

# LUPUS_PROPERTY_SCALE=20 runs twenty times the examples, drawn afresh (a deeper hunt);
# by default the examples are fixed, so the suite gives the same verdict on every run.
SCALE = int(os.environ.get("LUPUS_PROPERTY_SCALE", "1"))
PROFILE: dict[str, Any] = {
    "deadline": None,
    "derandomize": SCALE == 1,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}


class Referee(ABC):
    """Follows one game through its public API (it is :func:`play`'s observer) and checks
    it against the rules. What every family's referee shares: its account of who may
    know which role from which event index on (``grants``, read by :meth:`may_know`),
    the audit of the events against it, and the checks of the end."""

    roles: Sequence[str]
    factions: Sequence[str] = ()

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.n = setup.n
        self.grants: list[dict[int, int]] = [{v: 0} for v in range(self.n)]
        self.over_at = NEVER
        self.cursor = 0

    @abstractmethod
    def __call__(self, game: Game, move: Move | None) -> None: ...

    @abstractmethod
    def may_know(self, viewer: int, seat: int, index: int) -> bool:
        """Whether the rules let ``viewer`` know ``seat``'s role at event ``index``."""

    @abstractmethod
    def faction(self, seat: int) -> str: ...

    @abstractmethod
    def check_outcome(self, game: Game) -> None: ...

    def role_at(self, seat: int, index: int) -> str:
        """``seat``'s role at event ``index`` (the deal, unless a family changes roles)."""
        return self.roles[seat]

    def fail(self, message: str) -> AssertionError:
        return AssertionError(f"{message}\n  setup: {self.setup!r}")

    def grant(self, viewer: int, seat: int, index: int) -> None:
        known = self.grants[viewer]
        known[seat] = min(known.get(seat, NEVER), index)

    def audit_events(self, events: list[Event], start: int) -> None:
        """Every role fact of every new event is true and seen only by the entitled."""
        for i in range(start, len(events)):
            ev = events[i]
            for seat, role in role_facts(ev):
                if role != self.role_at(seat, i):
                    raise self.fail(f"event {i} {ev} says {seat} is {role}")
                viewers = range(self.n) if ev.audience is None else ev.audience
                for viewer in viewers:
                    if not self.may_know(viewer, seat, i):
                        raise self.fail(f"event {i} {ev} shows {seat}'s role to {viewer}")

    def open_prompts(self, game: Game) -> list[Prompt] | None:
        """The seats' prompts, never none while the game goes on; at its end, None once
        nothing is asked any more and :meth:`check_outcome` passed."""
        prompts = [p for p in game.prompts() if p.actor != LEADER]
        if game.finished:
            if prompts or game.waiting():
                raise self.fail("a finished game still asks for input")
            self.check_outcome(game)
            return None
        if not prompts:
            raise self.fail("the game is not over but nobody is asked anything")
        return prompts

    def known_outcome(self, game: Game) -> Outcome:
        """The outcome of the finished game, won by one of the family's factions."""
        outcome = game.outcome
        assert outcome is not None
        if outcome.winner not in self.factions:
            raise self.fail(f"unknown winner {outcome.winner!r}")
        return outcome

    def check_winners(self, outcome: Outcome, won: str | None) -> None:
        """The faction the rules make win (``won``) won, and exactly its members."""
        if won != outcome.winner:
            raise self.fail(f"{outcome.winner} won ({outcome.reason}), the rules say {won}")
        winners = tuple(s for s in range(self.n) if self.faction(s) == outcome.winner)
        if outcome.winners != winners:
            raise self.fail(f"winners {outcome.winners}, the rules say {winners}")


R = TypeVar("R", bound=Referee)


def refereed(
    referee: R,
    policy: RandomPolicy,
    check_views: Callable[[Game, R], None],
    *,
    every: int = 0,
    extra: Observer | None = None,
) -> tuple[R, Game]:
    """Play the referee's setup with ``policy`` under its eye, with ``check_views`` at
    every ``every``-th state (never if 0) and ``extra`` after each; no offered action
    may be refused."""

    def observe(game: Game, move: Move | None) -> None:
        referee(game, move)
        if every and game.state_id % every == 0:
            check_views(game, referee)
        if extra is not None:
            extra(game, move)

    result = play(referee.setup, policy, max_actions=MAX_ACTIONS, observe=observe)
    assert not result.refused, f"offered actions refused: {result.refused[:3]}"
    return referee, result.game


def check_ended(game: Game, factions: Sequence[str]) -> None:
    """Properties 1 and 2: the game ended, won by a faction, nobody dying twice."""
    assert game.finished, f"no end after {MAX_ACTIONS} actions"
    assert game.outcome is not None and game.outcome.winner in factions
    assert len(game.deaths) == len({d.player for d in game.deaths})


def check_replays_identically(setup: Setup, policy: RandomPolicy, cut: float) -> None:
    """Property 4: ``game.history`` applied to a fresh game gives the same game, and its
    first ``cut`` share gives the same game up to there."""
    result = play(setup, policy, max_actions=MAX_ACTIONS)
    game = result.game
    again = replay(setup, game.history)
    assert again.events == game.events
    assert again.deaths == game.deaths
    assert again.outcome == game.outcome
    assert again.state_id == game.state_id
    check_replays(game)  # (and its scenario, through JSON, replays it: lupus.testing)
    k = int(cut * len(result.moves))
    if k:
        prefix = replay(setup, game.history[:k])
        assert prefix.events == game.events[: result.moves[k - 1].events_after]
        assert prefix.state_id == k


Truth = Callable[[Game], VillageGame]


def hidden_of(truth: Truth) -> Hidden:
    """The hidden state ``lupus.testing`` compares, as a test's ``truth`` reads it."""

    def hidden(game: Game) -> tuple[object, ...]:
        found = truth(game)
        return (list(found.roles), list(found.alive))

    return hidden


def snapshot(
    game: Game, hidden_roles: Sequence[str], hidden_alive: Sequence[bool]
) -> tuple[object, ...]:
    """Everything an action could change, the hidden roles and who lives included."""
    return testing_snapshot(game, lambda _: (list(hidden_roles), list(hidden_alive)))


def refuse_and_compare(
    game: Game, action: Action, truth: Truth, what: str, setup: Setup | None = None
) -> None:
    """``apply`` refuses ``action`` and leaves the game (hidden state too) as it was."""
    repro = "" if setup is None else f"\n  setup: {setup!r}"
    testing_refuse(game, action, what, hidden_of(truth), repro)


def illegal_attempter(
    setup: Setup,
    rng: random.Random,
    truth: Truth,
    attempts: Callable[[Game, random.Random], list[Attempt]],
    chance: float = 0.3,
) -> Observer:
    """An observer that, at a random ``chance`` of the states, tries ``attempts(game,
    rng)``: each must be illegal by the prompts, refused, and change nothing."""

    def attempt(game: Game, move: Move | None) -> None:
        if rng.random() > chance:
            return
        for kind, action in attempts(game, rng):
            assert not offered(game, action), f"{kind}: {action} is legal"
            refuse_and_compare(game, action, truth, kind, setup)

    return attempt


def refuse_after_the_end(game: Game, truth: Truth) -> None:
    """A finished game refuses a seat's vote and the leader's close, and stays as it is."""
    testing_refuse_after_the_end(game, hidden_of(truth))


GLOBAL_RANDOM = ("random", "choice", "choices", "randrange", "randint", "shuffle", "sample")


@contextmanager
def disturbed_random(noise: int) -> Iterator[Callable[[int], None]]:
    """Inside, the global random functions fail the test if called; yields a ``between``
    hook for :func:`play` that reseeds and draws the global generator before each action
    (so a game that used it anyway would come out different)."""

    def boom(*args: object, **kwargs: object) -> object:
        raise AssertionError("the engine used the global random generator")

    def disturb(i: int) -> None:
        random.seed(noise + i)
        random.getrandbits(32)

    with mock.patch.multiple(random, **dict.fromkeys(GLOBAL_RANDOM, boom)):
        yield disturb


def check_deterministic(setup: Setup, policy: Callable[[], RandomPolicy], noise: int) -> None:
    """Property 6: two plays of ``setup`` by fresh ``policy()`` give the same game, the
    second under :func:`disturbed_random` (so the engine never uses global random)."""
    first = play(setup, policy())
    with disturbed_random(noise) as disturb:
        second = play(setup, policy(), between=disturb)
    assert second.game.history == first.game.history
    assert second.game.events == first.game.events
    assert second.game.deaths == first.game.deaths
    assert second.game.outcome == first.game.outcome
