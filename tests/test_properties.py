"""Property tests: random compositions, random legal play, and what must always hold.

Every game is a random deal of werewolf or tit-albert (``playout.setups``) played to
its end by a seeded random policy (``playout.RandomPolicy``). A :class:`Referee` follows
each game from outside and checks, after the start and after every action:

* the dead never act, except the hunter's last shot and the dying captain's appointment,
  which come right after the death, before anyone living is asked anything;
* every verb is offered as the role plugins declare it (``playout.declared``): to the
  living holders of its cards only, at its time, in its step, against the living;
* no event discloses a living player's role to someone the rules do not entitle to it.
  The entitlement is the referee's own reading of the rules (:meth:`Referee.may_know`),
  built from the deal and the actions, never from the events' audiences;
* the game never goes on past a win, and ends with the winners the rules name.

Failing examples print the :class:`playout.Setup` and the policy: together they replay
the game exactly (``playout.play(setup, policy)``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

import playout
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action, Event, Prompt
from lupus.engine.views import role_facts
from lupus.village.game import VillageGame
from playout import (
    NEVER,
    PROFILE,
    SCALE,
    Attempt,
    Move,
    Observer,
    RandomPolicy,
    Setup,
    policies,
    setups,
)

WOLF = "werewolf"
GIRL = "little-girl"
HUNTER_CAUSES = frozenset({"werewolves", "vote"})

# The rules, as the seeds state them (deliberately not read from the rulebook files).
LOVERS_SEE_ROLE = {"werewolf": True, "tit-albert": False}
REVEAL_ON_DEATH = {"werewolf": True, "tit-albert": True}
WOLVES_WIN_WITH_OTHERS_AT_MOST = {"werewolf": 1, "tit-albert": 0}
STARVATION = {"werewolf": True, "tit-albert": False}
FACTIONS = ("villagers", "werewolves", "lovers")

# Who may be offered which verb, when and against whom, and what a verb tells its user:
# the role plugins' declarations (``playout.declared``), no table here. The dying owe
# the last breath of a role (its verbs with no holders): the hunter's, the captain's.
HUNTER, CAPTAIN = "hunter", "captain"


def village(game: Game) -> VillageGame:
    """The game's hidden state (true roles, who lives), the ground truth the referee checks."""
    assert isinstance(game, VillageGame)
    return game


@dataclass
class WolvesNight:
    """The werewolves' step as the referee follows it."""

    pack: list[int]
    girls: list[int]
    choice: dict[int, str] = field(default_factory=dict)
    target: dict[int, int] = field(default_factory=dict)
    last_index: int = 0
    caught: int | None = None


@dataclass
class Tonight:
    """What a night's steps decided, to check what dawn does with it."""

    victim: int | None = None
    healed: bool = False
    poisoned: list[int] = field(default_factory=list)
    dawn_at: int | None = None


class Referee(playout.Referee):
    """Follows one game through its public API and checks it against the rules.

    It keeps its own account of the game: the roles (the deal, then the thief's card,
    from his action), deaths and the captain (public events), the lovers (Cupid's
    action), and for each player the roles the rules entitle him to know, with the event
    index from which he knows them (``grants``):

    * his own role, always (and the card he takes as thief);
    * the pack's roles, for each werewolf, from the werewolves' step on;
    * the role of every player the seer inspected, for the seer (a verb its role
      declares it ``learns``);
    * in werewolf (not tit-albert), the partner's role, for each lover;
    * the awake werewolves' roles, for a little girl who spied on them;
    * the little girl's role, for the pack that caught her;
    * everyone's role on his death (both rulebooks reveal it), and all roles at the end.

    Hidden state (``game.roles``, ``game.alive``) is read only to check this account.
    """

    factions = FACTIONS

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.declared = playout.declared(setup.rules)
        self.dealt = list(setup.roles)
        self.roles: list[str] = list(setup.roles)
        self.extra = list(setup.extra_cards)
        self.changed_at: dict[int, int] = {}
        self.died_at: dict[int, int] = {}
        self.step: str | None = None
        self.thief_pending = False
        self.night: WolvesNight | None = None
        self.last_night: WolvesNight | None = None
        # The Little Girls' decisions in their own step, before the werewolves' step.
        self.girl_choice: dict[int, str] = {}
        self.lovers: tuple[int, int] | None = None
        self.captain: int | None = None
        self.owed: dict[int, list[str]] = {}
        self.open_last_breath: set[int] = set()
        self.deaths_unchecked = False
        self.catch_chance = float(setup.options.get("little_girl_catch_chance", 0.2))
        self.potions = {"heal": 0, "poison": 0}
        self.tonight = Tonight()
        self.ballots: dict[int, int | None] | None = None
        self.vote_may_kill: set[int] = set()
        self.potion_budget = int(setup.options.get("longanis_potions", 2))

    # ------------------------------------------------------------------ the oracle
    def alive(self, seat: int) -> bool:
        return seat not in self.died_at

    def may_know(self, viewer: int, seat: int, index: int) -> bool:
        """Whether the rules let ``viewer`` know ``seat``'s role at event ``index``."""
        if self.over_at <= index:
            return True
        if REVEAL_ON_DEATH[self.rules] and self.died_at.get(seat, NEVER) <= index:
            return True
        return self.grants[viewer].get(seat, NEVER) <= index

    def role_at(self, seat: int, index: int) -> str:
        if self.changed_at.get(seat, NEVER) <= index:
            return self.roles[seat]
        return self.dealt[seat]

    def faction(self, seat: int) -> str:
        lovers = self.lovers
        if lovers is not None and seat in lovers and self.mixed():
            return "lovers"
        return "werewolves" if self.roles[seat] == WOLF else "villagers"

    def mixed(self) -> bool:
        lovers = self.lovers
        return lovers is not None and (self.roles[lovers[0]] == WOLF) != (
            self.roles[lovers[1]] == WOLF
        )

    def winner_now(self) -> str | None:
        living = [s for s in range(self.n) if self.alive(s)]
        if self.lovers is not None and self.mixed() and set(living) == set(self.lovers):
            return "lovers"
        wolves = sum(1 for s in living if self.roles[s] == WOLF)
        if wolves == 0:
            return "villagers"
        if len(living) - wolves <= WOLVES_WIN_WITH_OTHERS_AT_MOST[self.rules]:
            return "werewolves"
        return None

    # ------------------------------------------------------------------ following the game
    def __call__(self, game: Game, move: Move | None) -> None:
        if move is not None:
            self.on_action(move.action, move.events_before)
        self.on_events(game)
        self.on_state(game)

    def on_action(self, action: Action, index: int) -> None:
        actor, verb, args = action.actor, action.verb, action.args
        if actor == LEADER:
            for seat in self.open_last_breath:
                self.owed[seat].pop(0)
            self.open_last_breath = set()
            if self.thief_pending and self.step == "thief":
                self.thief_pending = False
                self.deaths_unchecked = True  # (the win is checked after his step)
                if all(card == WOLF for card in self.extra):
                    self.take(self.thief(), self.extra[0], index)
        else:
            if not self.alive(actor):
                owed = self.owed.get(actor) or ["nothing"]
                if verb not in self.declared.last_verbs(owed[0]):
                    raise self.fail(f"dead player {actor} acted: {action}")
                owed.pop(0)
                self.open_last_breath.discard(actor)
            if verb == "take":
                self.thief_pending = False
                self.deaths_unchecked = True  # README: judged after his step
                self.take(actor, str(args[0]), index)
            elif verb == "keep":
                self.thief_pending = False
                self.deaths_unchecked = True
            elif verb in ("spy", "pass") and self.step == "little_girl":
                self.girl_choice[actor] = verb
            elif self.declared.tells(self.roles[actor], verb):
                self.grant(actor, int(args[0]), index)
            elif verb in ("vote", "abstain") and self.ballots is not None:
                self.ballots[actor] = int(args[0]) if verb == "vote" else None
            elif verb in self.potions:
                if verb == "heal":
                    self.tonight.healed = True
                else:
                    self.tonight.poisoned.append(int(args[0]))
                self.potions[verb] += 1
                if (
                    max(self.potions.values()) > 1
                    or sum(self.potions.values()) > self.potion_budget
                ):
                    raise self.fail(f"the witch used potions {self.potions}")
            elif verb == "link":
                a, b = int(args[0]), int(args[1])
                self.lovers = (a, b)
                if LOVERS_SEE_ROLE[self.rules]:
                    self.grant(a, b, index)
                    self.grant(b, a, index)
        night = self.night
        if night is not None:
            night.last_index = index
            if actor in night.pack or actor in night.girls:
                night.choice[actor] = verb
                if verb == "kill":
                    night.target[actor] = int(args[0])

    def thief(self) -> int:
        return next(s for s in range(self.n) if self.dealt[s] == "thief")

    def take(self, thief: int, card: str, index: int) -> None:
        self.extra[self.extra.index(card)] = self.roles[thief]
        self.roles[thief] = card
        self.changed_at[thief] = index

    def on_events(self, game: Game) -> None:
        start = self.cursor
        events = game.events
        for i in range(start, len(events)):
            ev = events[i]
            kind, data = ev.kind, ev.data
            if kind == "death":
                seat = int(str(data["player"]))
                if seat in self.died_at:
                    raise self.fail(f"player {seat} died twice")
                self.died_at[seat] = i
                self.deaths_unchecked = True
                owed = self.owed.setdefault(seat, [])
                if self.roles[seat] == HUNTER and data["cause"] in HUNTER_CAUSES:
                    owed.append(HUNTER)
                if self.captain == seat:
                    owed.append(CAPTAIN)
                    self.captain = None
                if data["cause"] == "hunger" and (
                    not STARVATION[self.rules] or self.roles[seat] != WOLF
                ):
                    raise self.fail(f"{seat}, a {self.roles[seat]}, dies of hunger")
                if data["cause"] == "vote":
                    if seat not in self.vote_may_kill:
                        raise self.fail(f"{seat} voted out, the ballots allow {self.vote_may_kill}")
                    self.vote_may_kill = set()
            elif kind == "captain":
                self.captain = int(str(data["player"]))
            elif kind in ("night", "day") and ev.audience is None:
                self.check_dawn(events, i)
                if kind == "night":
                    self.tonight = Tonight()
            elif kind == "pack_victim":
                self.check_pack_victim(data.get("target"))
            elif kind == "victim_shown" and data["target"] != self.tonight.victim:
                raise self.fail(f"the witch is shown {data['target']}, not {self.tonight.victim}")
            elif kind == "vote_opens":
                self.ballots = {}
            elif kind == "tally" and self.ballots is not None:
                votes = data["votes"]
                assert isinstance(votes, Mapping)
                self.check_tally(votes, events[i + 1])
            elif kind == "caught":
                if self.night is None:
                    raise self.fail("a little girl was caught outside the werewolves' step")
                self.night.caught = self.tonight.victim = int(str(data["player"]))
            elif kind in ("wake", "dawn", "game_over") and ev.audience is None:
                self.end_night()
                if kind == "game_over":
                    self.over_at = i
                    self.check_dawn(events, i)
                if kind == "dawn":
                    self.tonight.dawn_at = i
                if kind == "wake":
                    self.step = str(data["step"])
                    if self.step == "thief":
                        self.thief_pending = True
                    if self.step == "little_girl":
                        self.girl_choice = {}
                    if self.step == "werewolves":
                        self.begin_night(i)
        step = game.step
        if self.night is not None and (game.finished or step is None or step.id != "werewolves"):
            self.end_night()
        self.cursor = len(events)
        self.audit_events(events, start)

    def begin_night(self, index: int) -> None:
        living = [s for s in range(self.n) if self.alive(s)]
        pack = [s for s in living if self.roles[s] == WOLF]
        for wolf in pack:
            for other in pack:
                self.grant(wolf, other, index)
        girls = [s for s in living if self.roles[s] == GIRL]
        self.night = WolvesNight(pack, girls)
        self.night.last_index = index
        # She decided in her own step, just before (the werewolves' step never waits
        # for her): a pass, or nothing before the leader closed her step, is no spying.
        for girl in girls:
            if self.girl_choice.get(girl) == "spy":
                self.night.choice[girl] = "spy"
        self.girl_choice = {}

    def end_night(self) -> None:
        night = self.night
        if night is None:
            return
        self.night, self.last_night = None, night
        awake = [w for w in night.pack if night.choice.get(w) == "kill"]
        spies = [g for g in night.girls if night.choice.get(g) == "spy"]
        for girl in spies:
            for wolf in awake:
                self.grant(girl, wolf, night.last_index)
        if night.caught is not None:
            girl = night.caught
            if girl not in spies or not awake:
                raise self.fail(f"little girl {girl} caught without spying on awake wolves")
            if self.catch_chance == 0.0:
                raise self.fail("little girl caught with little_girl_catch_chance 0")
            # The seeds: "the werewolves learn that it was her", so the whole pack of the
            # night. Open question: little_girl.py says a sleeping werewolf cannot catch
            # her; if only the awake ones should learn it, grant to ``awake`` here.
            for wolf in night.pack:
                self.grant(wolf, girl, night.last_index)
        elif spies and awake and self.catch_chance >= 1.0:
            raise self.fail("little girl not caught with little_girl_catch_chance 1")

    def check_pack_victim(self, target: object) -> None:
        night = self.night
        assert night is not None, "pack_victim outside the werewolves' step"
        named = Counter(night.target[w] for w in night.pack if night.choice.get(w) == "kill")
        top = max(named.values(), default=0)
        if target is None if named else target is not None:
            raise self.fail(f"the pack's victim is {target}, its votes {dict(named)}")
        if named and named[int(str(target))] != top:
            raise self.fail(f"the pack's victim is {target}, its votes {dict(named)}")
        self.tonight.victim = None if target is None else int(str(target))

    def check_dawn(self, events: list[Event], index: int) -> None:
        """The night's victim dies unless healed; the poisoned die; nobody else is killed."""
        tonight = self.tonight
        if tonight.dawn_at is None:
            return
        deaths = [
            (int(str(ev.data["player"])), ev.data["cause"])
            for ev in events[tonight.dawn_at : index]
            if ev.kind == "death"
        ]
        bitten = [p for p, cause in deaths if cause == "werewolves"]
        victim = tonight.victim
        if bitten != ([victim] if victim is not None and not tonight.healed else []):
            raise self.fail(f"dawn kills {bitten}: victim {victim}, healed {tonight.healed}")
        poisoned = {p for p, cause in deaths if cause == "poison"}
        if not poisoned <= set(tonight.poisoned) or not all(
            self.died_at.get(p, NEVER) < index for p in tonight.poisoned
        ):
            raise self.fail(f"dawn poisons {poisoned}, the witch poisoned {tonight.poisoned}")
        # README: each dies of his own cause; heartbreak only for a lover who would
        # otherwise have lived (the victim first: poisoned too, he dies as the victim).
        causes = dict(deaths)
        for p in tonight.poisoned:
            if p not in bitten and causes.get(p) != "poison":
                raise self.fail(f"{p}, poisoned, dies of {causes.get(p)}")
        tonight.dawn_at = None

    def check_tally(self, votes: dict[int, int], after: Event) -> None:
        """The day vote: plurality of the last ballots, the captain counting twice."""
        assert self.ballots is not None
        tally: Counter[int] = Counter()
        for voter, target in self.ballots.items():
            if target is not None:
                tally[target] += 2 if voter == self.captain else 1
        self.ballots = None
        if votes != dict(tally):
            raise self.fail(f"tally {votes}, the ballots give {dict(tally)}")
        top = max(tally.values(), default=0)
        leaders = {s for s, v in tally.items() if v == top}
        self.vote_may_kill = leaders if top else set()
        expected = "no_elimination" if not top else "death" if len(leaders) == 1 else "tie"
        if after.kind != expected:
            raise self.fail(f"after the tally {votes} comes {after.kind}, not {expected}")

    def on_state(self, game: Game) -> None:
        truth = village(game)
        if truth.roles != self.roles:
            raise self.fail(f"roles are {truth.roles}, the rules say {self.roles}")
        dead = {s for s in range(self.n) if not truth.alive[s]}
        if dead != set(self.died_at):
            raise self.fail(f"dead players {dead} but announced deaths {set(self.died_at)}")
        prompts = self.open_prompts(game)
        if prompts is None:
            return
        offered = {p.actor for p in prompts}
        for seat in game.waiting():
            if seat not in offered:
                raise self.fail(f"the step waits for {seat}, who has no prompt")
        self.open_last_breath = set()
        for p in prompts:
            if not p.choices:
                raise self.fail(f"empty prompt {p}")
            if self.alive(p.actor):
                self.check_living_prompt(p, game.phase, game.number)
                continue
            owed = self.owed.get(p.actor) or ["nothing"]
            refused = self.declared.dying_refusal(p, owed[0], self.alive)
            if refused is not None:
                raise self.fail(refused)
            self.open_last_breath.add(p.actor)
        owed_now = sorted(s for s, kinds in self.owed.items() if kinds)
        if owed_now and any(self.alive(p.actor) for p in prompts):
            raise self.fail(f"the living are asked before the last breath of {owed_now}")
        if self.deaths_unchecked and not self.open_last_breath:
            self.deaths_unchecked = False
            won = self.winner_now()
            if won is not None:
                raise self.fail(f"the game goes on although {won} have won")

    def check_living_prompt(self, p: Prompt, phase: str, number: int) -> None:
        # As declared: his card's verb (the girl decides in her own step; the werewolves'
        # step asks the pack alone), at its time, against the living if it names players.
        role = self.roles[p.actor]
        refused = self.declared.refusal(p, role, phase, number, self.step, self.alive)
        if refused is not None:
            raise self.fail(refused)
        if p.verb == "decide" and p.actor != self.captain:
            raise self.fail(f"decide offered to {p.actor}, not the captain")
        if p.verb not in ("vote", "decide", "inspect"):
            return
        seats = {int(a) for args in p.choices for a in args}
        lovers = self.lovers
        if p.verb != "inspect" and lovers is not None and p.actor in lovers:
            partner = lovers[1] if lovers[0] == p.actor else lovers[0]
            if partner in seats:
                raise self.fail(f"lover {p.actor} may {p.verb} against {partner}")
        if p.verb == "inspect" and p.actor in seats:
            raise self.fail(f"the seer {p.actor} may inspect herself")

    def check_outcome(self, game: Game) -> None:
        outcome = self.known_outcome(game)
        if outcome.reason == "starvation":
            night = self.last_night
            assert STARVATION[self.rules], "starvation outside werewolf"
            assert night is not None and not any(v == "kill" for v in night.choice.values())
            # "they die of hunger": every werewolf of that night, before the end
            assert all(w in self.died_at for w in night.pack), "the starving pack lives on"
            # each of hunger, a werewolf in love with another too (README: his own cause)
            hungry = {
                int(str(ev.data["player"]))
                for ev in game.events
                if ev.kind == "death" and ev.data["cause"] == "hunger"
            }
            assert set(night.pack) <= hungry, f"the pack {night.pack}, starved {hungry}"
            won: str | None = "villagers"
        else:
            won = self.winner_now()
        self.check_winners(outcome, won)
        over = [ev for ev in game.events if ev.kind == "game_over"]
        assert len(over) == 1 and over[0] is game.events[-1] and over[0].audience is None


def check_views(game: Game, referee: Referee) -> None:
    """Every player's view holds exactly his events, none telling him a forbidden role."""
    events = game.events
    roles = village(game).roles
    leader = game.view(LEADER)
    playout.check_seen(LEADER, leader.events, events)
    assert leader.known_roles() == dict(enumerate(roles))
    for seat in range(game.n):
        view = game.view(seat)
        mine = playout.check_seen(seat, view.events, events)
        for got, i in zip(view.events, mine, strict=True):
            for who, role in role_facts(got):
                assert referee.may_know(seat, who, i), f"view of {seat} tells {who} is {role}"
        assert tuple(view.prompts) == tuple(game.prompts(seat))
        assert view.role() == roles[seat]
        for who, role in view.known_roles().items():
            assert role == roles[who], f"view of {seat} says {who} is {role}"


def refereed(
    setup: Setup, policy: RandomPolicy, *, every: int = 0, extra: Observer | None = None
) -> tuple[Referee, Game]:
    return playout.refereed(Referee(setup), policy, check_views, every=every, extra=extra)


# ---------------------------------------------------------------------- 1 and 2
@settings(max_examples=400 * SCALE, **PROFILE)
@given(setup=setups(), policy=policies())
def test_random_play_ends_with_a_winner_the_rules_name(setup: Setup, policy: RandomPolicy) -> None:
    """Properties 1 and 2: the game ends, the dead stay silent, the winners are right."""
    _, game = refereed(setup, policy)
    playout.check_ended(game, FACTIONS)


# ---------------------------------------------------------------------- 3
@settings(max_examples=200 * SCALE, **PROFILE)
@given(setup=setups(), policy=policies(), every=st.integers(3, 20))
def test_views_disclose_only_what_the_rules_allow(
    setup: Setup, policy: RandomPolicy, every: int
) -> None:
    """Property 3: views are the audience filter, and no role leaks to the unentitled."""
    referee, game = refereed(setup, policy, every=every)
    check_views(game, referee)


# ---------------------------------------------------------------------- 4
@settings(max_examples=150 * SCALE, **PROFILE)
@given(setup=setups(), policy=policies(), cut=st.floats(0.0, 1.0))
def test_recorded_game_replays_identically(setup: Setup, policy: RandomPolicy, cut: float) -> None:
    """Property 4: ``game.history`` applied to a fresh game gives the same game."""
    playout.check_replays_identically(setup, policy, cut)


# ---------------------------------------------------------------------- 5
OTHER_VERBS = ("close", "fly")


def illegal_attempts(game: Game, rng: random.Random) -> list[Attempt]:
    """``playout.illegal_attempts`` with every declared verb; (0, 1) may be a legal pair."""
    dead = [s for s in range(game.n) if not village(game).alive[s]]
    verbs = playout.every_verb()
    return playout.illegal_attempts(game, rng, verbs, OTHER_VERBS, dead, lambda p: [(0, 1, 2)])


@settings(max_examples=150 * SCALE, **PROFILE)
@given(setup=setups(), policy=policies(), seed=st.integers(0, 2**32 - 1))
def test_illegal_action_raises_and_changes_nothing(
    setup: Setup, policy: RandomPolicy, seed: int
) -> None:
    """Property 5: refused actions (wrong verb, target, dead or idle actor) change nothing."""
    attempt = playout.illegal_attempter(setup, random.Random(seed), village, illegal_attempts)
    _, game = refereed(setup, policy, extra=attempt)
    playout.refuse_after_the_end(game, village)


# ---------------------------------------------------------------------- 6
@settings(max_examples=100 * SCALE, **PROFILE)
@given(setup=setups(), policy_seed=st.integers(0, 2**32 - 1), noise=st.integers(0, 2**32 - 1))
def test_same_seed_and_choices_give_the_same_game(
    setup: Setup, policy_seed: int, noise: int
) -> None:
    """Property 6: determinism, and no use of the global random generator."""
    playout.check_deterministic(
        setup, lambda: RandomPolicy(policy_seed, close_chance=0.02, change_chance=0.1), noise
    )


# ---------------------------------------------------------------------- regressions
def test_every_offered_pair_is_accepted_in_either_order() -> None:
    """Cupid's prompt lists pairs of seats >= 10 the way ``apply`` normalizes them."""
    roles = ["werewolf", "werewolf", "cupid", "seer"] + ["villager"] * 14
    setup = Setup("werewolf", tuple(f"p{i}" for i in range(18)), tuple(roles))
    for a, b in combinations(range(18), 2):
        for pair in ((a, b), (b, a)):
            game = setup.new_game()
            game.apply(Action(2, "link", pair))
            assert game.state_id == 1
