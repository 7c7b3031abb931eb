"""Property tests of the mafia family: maffia and mafia-classic under random legal play.

Every game is a random deal (``playout.maffia_setups``, ``playout.mafia_classic_setups``)
played to its end by a seeded random policy whose game leader also closes the steps that
only he ends (``playout.LeaderClosePolicy``: maffia's nominations, a mafia that cannot
agree). A :class:`Referee` follows each game from outside and checks, after the start
and after every action:

* the dead never act and are never prompted; each verb goes to the role that owns it,
  at the time of day and in the step it belongs to, as the role plugins declare them
  (``playout.declared``), with the targets the rules allow (no more, no less);
* the night as the seeds tell it: the mafia's victim (agreed, or the plurality when the
  leader closes), the Doctor's protection and its ban, the Detective's *side* (the
  Godfather: town), the Couple's heartbreak, the Avenger's shot (the Godfather survives),
  every night death real at once and told only at dawn, in the order it happened;
* the day: nominations end only by the leader's close, banishment by a strict majority
  of the living (maffia), the plurality lynch (mafia-classic);
* no event tells a player a role the rules do not entitle him to (:meth:`Referee.may_know`,
  built from the deal and the actions, never from the events' audiences); in maffia
  nothing is told on death, only the couple after a heartbreak, and all at the end;
* the game stops as soon as a side has won (the referee's own check) with its winners.

Failing examples print the :class:`playout.Setup` and the policy: together they replay
the game exactly (``playout.play(setup, policy)``).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

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
    LeaderClosePolicy,
    Move,
    Observer,
    Setup,
    leader_policies,
    setups,
)

RULEBOOKS = ("maffia", "mafia-classic")
FACTIONS = ("town", "mafia")

# The rules, as the seeds and the rulebooks' decisions state them (not read from the files).
MAFIA = frozenset({"mafia", "godfather"})
SIDE = {"mafia": "mafia", "godfather": "town"}  # the Detective's answer; others: town
REVEAL_ON_DEATH = {"maffia": False, "mafia-classic": True}
MUST_AGREE = {"maffia": True, "mafia-classic": False}
KILLS_OWN = {"maffia": True, "mafia-classic": False}
# maffia (README): the eliminated watch the night with open eyes: each step's private
# events are told to them too (who acts, on whom, the Detective's answer).
WATCH = {"maffia": True, "mafia-classic": False}
SEAT_KEYS = ("player", "players", "target", "targets", "victim", "role", "roles")
NIGHT_ORDER = ("mafia", "doctor", "detective", "couple", "avenger")

# Who may be offered which verb and when, and what a verb tells its user: the role
# plugins' declarations (``playout.declared``), no table here.


def mafia_setups() -> st.SearchStrategy[Setup]:
    return setups(RULEBOOKS)


def truth(game: Game) -> VillageGame:
    """The game's hidden state (roles, who lives, deaths), what the referee checks."""
    assert isinstance(game, VillageGame)
    return game


def seat(value: object) -> int:
    return int(str(value))


def seats_of(value: object) -> list[int]:
    assert isinstance(value, list | tuple), value
    return [seat(v) for v in value]


@dataclass
class Night:
    """One night as the referee follows it."""

    number: int
    pack: tuple[int, ...] = ()
    picks: dict[int, int] = field(default_factory=dict)
    says: Counter[int] = field(default_factory=Counter)  # picks made by each member
    victim: int | None = None
    protected: int | None = None
    settled: bool = False
    saved: bool = False
    murdered: bool = False
    shot: int | None = None
    avenger_wakes: bool = False
    woken: list[str] = field(default_factory=list)
    news: list[tuple[object, ...]] = field(default_factory=list)
    dawned: bool = False


@dataclass
class Day:
    """One day as the referee follows it."""

    number: int
    nominations: dict[int, int] = field(default_factory=dict)
    nominees: list[int] | None = None
    voters: tuple[int, ...] = ()
    pool: tuple[int, ...] = ()
    ballots: dict[int, int | None] = field(default_factory=dict)
    may_die: set[int] = field(default_factory=set)
    ballot_open: bool = False


class Referee(playout.Referee):
    """Follows one game through its public API and checks it against the rules.

    Its own account: the deal, who really died and when (``dead``, in the order of the
    deaths, night deaths at once), what has been announced (``announced``: seat -> index
    of the public death event), and for each player the roles the rules entitle him to
    know with the event index from which he knows them (``grants``):

    * his own role, always;
    * the target's role, for who used a verb his role declares it ``learns`` (none yet:
      the Detective is told a side);
    * the living mafia's roles, for each living member, from each mafia step on;
    * the partner's card, for each member of the couple, from the first couple step on;
    * the couple's cards, for everyone, once their heartbreak is told at dawn;
    * in maffia, what each night step shows its actors (the mafia's cards, the couple's),
      for the eliminated too (dead and announced: they watch with open eyes);
    * in mafia-classic (not maffia), a player's role on his death; all roles at the end.

    Hidden state (``game.roles``, ``game.alive``, ``game.deaths``) is read only to check
    this account.
    """

    factions = FACTIONS

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.declared = playout.declared(setup.rules)
        self.roles = tuple(setup.roles)
        self.deck = Counter(self.roles)
        self.couple = tuple(s for s in range(self.n) if self.roles[s] == "couple")
        self.public: dict[int, int] = {}  # seat -> index from which everyone knows his role
        self.dead: list[tuple[int, str, str, int]] = []  # (seat, cause, phase, number)
        self.announced: dict[int, int] = {}
        self.phase = "setup"
        self.number = 0
        self.step: str | None = None
        self.closed = False
        self.night: Night | None = None
        self.day: Day | None = None
        self.protected_last: int | None = None
        self.saved_last = False
        self.murdered_before: set[int] = set()  # nights whose attack killed someone
        self.inspected: tuple[int, int] | None = None

    # ------------------------------------------------------------------ the oracle
    def alive(self, s: int) -> bool:
        return all(d[0] != s for d in self.dead)

    def living(self) -> list[int]:
        gone = {d[0] for d in self.dead}
        return [s for s in range(self.n) if s not in gone]

    def watchers(self) -> frozenset[int]:
        """Who watches the night with open eyes: in maffia the eliminated (dead, and
        their death announced), nobody in mafia-classic."""
        return frozenset(self.announced) if WATCH[self.rules] else frozenset()

    def told(self, actors: Iterable[int]) -> frozenset[int]:
        """The audience of a night step's private event: its actors and the watchers."""
        return frozenset(actors) | self.watchers()

    def standing(self) -> list[int]:
        """The players the village still sees in the game (no death announced)."""
        return [s for s in range(self.n) if s not in self.announced]

    def may_know(self, viewer: int, s: int, index: int) -> bool:
        """Whether the rules let ``viewer`` know ``s``'s role at event ``index``."""
        if self.over_at <= index or self.public.get(s, NEVER) <= index:
            return True
        if REVEAL_ON_DEATH[self.rules] and self.announced.get(s, NEVER) <= index:
            return True
        return self.grants[viewer].get(s, NEVER) <= index

    def winner_now(self) -> str | None:
        """The seeds' win: town when no mafia lives, mafia when at least half the living."""
        living = self.living()
        mafia = sum(1 for s in living if self.roles[s] in MAFIA)
        if mafia == 0:
            return "town"
        if 2 * mafia >= len(living):
            return "mafia"
        return None

    def faction(self, s: int) -> str:
        return "mafia" if self.roles[s] in MAFIA else "town"

    def die(self, s: int, cause: str) -> None:
        """A real death, at once (announced now by day, at dawn by night)."""
        if not self.alive(s):
            return
        self.dead.append((s, cause, self.phase, self.number))
        if self.night is not None and not self.night.dawned:
            self.night.news.append(("death", s, cause))

    # ------------------------------------------------------------------ following the game
    def __call__(self, game: Game, move: Move | None) -> None:
        if move is not None:
            self.on_action(move.action, move.events_before)
        self.on_events(game.events)
        self.on_state(game)

    def on_action(self, action: Action, index: int) -> None:
        actor, verb, args = action.actor, action.verb, action.args
        if actor == LEADER:
            self.closed = True
            return
        if not self.alive(actor):
            raise self.fail(f"dead player {actor} acted: {action}")
        target = seat(args[0]) if args else None
        if target is not None and self.declared.tells(self.roles[actor], verb):
            self.grant(actor, target, index)
        night, day = self.night, self.day
        if verb == "kill" and night is not None:
            night.picks[actor] = seat(target)
            night.says[actor] += 1
        elif verb == "protect" and night is not None:
            night.protected = target
        elif verb == "inspect":
            self.inspected = (actor, seat(target))
        elif verb == "shoot" and night is not None:
            night.shot = target
        elif verb == "nominate" and day is not None:
            day.nominations.pop(actor, None)
            day.nominations[actor] = seat(target)
        elif verb == "withdraw" and day is not None:
            del day.nominations[actor]
        elif verb in ("vote", "abstain") and day is not None:
            day.ballots[actor] = target

    def on_events(self, events: list[Event]) -> None:
        start = self.cursor
        for i in range(start, len(events)):
            self.on_event(events, i)
        self.cursor = len(events)
        self.audit_events(events, start)

    def on_event(self, events: list[Event], i: int) -> None:
        ev = events[i]
        kind, data = ev.kind, ev.data
        moved = (ev.phase, ev.number) != (self.phase, self.number)
        if moved and ev.phase in ("night", "day") and kind not in ("night", "day"):
            raise self.fail(f"event {i} {ev} outside {self.phase} {self.number}")
        if kind == "night":
            self.begin_phase("night", seat(data["number"]))
            self.night = Night(self.number)
            self.day = None
        elif kind == "day":
            self.begin_phase("day", seat(data["number"]))
            self.night = None
            self.day = Day(self.number)
        elif kind == "wake":
            self.on_wake(events, i, str(data["step"]))
        elif kind == "pack_choice":
            night = self.expect_night(ev)
            if ev.audience != self.told(night.pack):
                raise self.fail(f"{ev} is not shown to the mafia {night.pack} (and watchers)")
        elif kind == "pack_victim":
            self.on_pack_victim(ev)
        elif kind == "protection":
            holders = self.holders("doctor")
            if (
                ev.audience != self.told(holders)
                or data["target"] != self.expect_night(ev).protected
                or [data["player"]] != holders
            ):
                raise self.fail(f"{ev}: the doctor {holders} protected someone else")
        elif kind == "inspection":
            self.on_inspection(ev)
        elif kind == "couple":
            night = self.expect_night(ev)
            pair = self.couple
            wanted = {s: "couple" for s in pair}
            if night.number != 1 or ev.audience != self.told(pair) or data["roles"] != wanted:
                raise self.fail(f"{ev}: the couple {pair} recognise each other on night 1")
            for viewer in self.watchers():
                for s in pair:
                    self.grant(viewer, s, i)
        elif kind == "shot":
            self.on_shot(events, i)
        elif kind == "unharmed":
            if ev.audience != frozenset():
                raise self.fail(f"{ev}: the Godfather's escape is for the leader's eyes only")
        elif kind == "dawn":
            self.on_dawn(events, i)
        elif kind == "death":
            self.on_death(ev, i)
        elif kind == "failed_attempt":
            named = [k for k, v in data.items() if k in SEAT_KEYS or isinstance(v, int)]
            if ev.audience is not None or named:
                raise self.fail(f"{ev}: the failed attempt must name nobody, publicly")
        elif kind == "couple_revealed":
            if ev.audience is not None or sorted(seats_of(data["players"])) != list(self.couple):
                raise self.fail(f"{ev} does not tell everyone the couple {self.couple}")
            for s in self.couple:
                self.public[s] = min(self.public.get(s, NEVER), i)
        elif kind in ("nominations_open", "nominees", "no_nominations", "defence"):
            self.on_nominations(ev)
        elif kind in ("banishment_opens", "vote_opens"):
            self.on_ballot_opens(ev)
        elif kind == "ballot":
            day = self.expect_day(ev)
            voter = seat(data["player"])
            if ev.audience is not None or data["target"] != day.ballots.get(voter):
                raise self.fail(f"{ev}: the ballot of {voter} was {day.ballots.get(voter)}")
        elif kind == "tally":
            self.on_tally(events, i)
        elif kind == "game_over":
            self.over_at = i
            if ev.audience is not None or i != len(events) - 1:
                raise self.fail(f"{ev} is not the last, public event")
            if data["roles"] != dict(enumerate(self.roles)):
                raise self.fail(f"{ev} does not show every role")
            if self.night is not None and not self.night.dawned:
                raise self.fail("the game ends in the night, before dawn")

    def begin_phase(self, phase: str, number: int) -> None:
        night = self.night
        if night is not None:
            if not night.dawned:
                raise self.fail(f"night {night.number} ends without a dawn")
            if night.murdered:
                self.murdered_before.add(night.number)
        day = self.day
        if day is not None and any(self.alive(s) for s in day.nominees or ()) and not day.pool:
            raise self.fail(f"day {day.number}: nominees {day.nominees} but no vote")
        self.phase, self.number = phase, number
        self.step = None
        self.closed = False

    def expect_night(self, ev: Event) -> Night:
        if self.night is None or (self.night.dawned and ev.kind != "death"):
            raise self.fail(f"{ev} outside a night")
        return self.night

    def expect_day(self, ev: Event) -> Day:
        if self.day is None:
            raise self.fail(f"{ev} outside a day")
        return self.day

    def holders(self, role: str) -> list[int]:
        return [s for s in self.living() if self.roles[s] == role]

    def on_wake(self, events: list[Event], i: int, step: str) -> None:
        night = self.expect_night(events[i])
        woken = night.woken
        if step not in NIGHT_ORDER or (
            woken and NIGHT_ORDER.index(step) <= NIGHT_ORDER.index(woken[-1])
        ):
            raise self.fail(f"step {step} wakes after {woken}")
        woken.append(step)
        if step != "mafia" and self.deck[step] == 0:
            raise self.fail(f"step {step} wakes, but no {step} card is in the game")
        self.step = step
        self.closed = False
        if step == "mafia":
            night.pack = tuple(s for s in self.living() if self.roles[s] in MAFIA)
            pack = events[i + 1]
            wanted = {s: self.roles[s] for s in night.pack}
            if pack.kind != "pack" or pack.audience != self.told(night.pack):
                raise self.fail(f"the mafia {night.pack} do not recognise each other: {pack}")
            if pack.data["roles"] != wanted:
                raise self.fail(f"{pack}: the mafia are {wanted}")
            for member in self.told(night.pack):
                for other in night.pack:
                    self.grant(member, other, i)
        elif step == "couple":
            if night.number == 1:
                for a in self.couple:
                    for b in self.couple:
                        self.grant(a, b, i)
            living = [s for s in self.couple if self.alive(s)]
            if len(living) == 1:
                self.die(living[0], "heartbreak")
                night.news.append(("couple_revealed", *self.couple))
        elif step == "avenger":
            if night.number - 1 not in self.murdered_before:
                raise self.fail(f"the avenger wakes on night {night.number}, no murder before")
            night.avenger_wakes = True

    def on_pack_victim(self, ev: Event) -> None:
        night = self.expect_night(ev)
        if self.step != "mafia" or ev.audience != self.told(night.pack):
            raise self.fail(f"{ev} outside the mafia step, or not to the mafia {night.pack}")
        picks = {m: t for m, t in night.picks.items() if m in night.pack}
        named = Counter(picks.values())
        top = max(named.values(), default=0)
        target = ev.data["target"]
        if not self.closed:
            if set(picks) != set(night.pack):
                raise self.fail(f"the mafia step resolves before all picked: {picks}")
            if MUST_AGREE[self.rules] and len(named) != 1:
                raise self.fail(f"the mafia step resolves while they disagree: {picks}")
        if target is None if named else target is not None:
            raise self.fail(f"the mafia's victim is {target}, their picks {picks}")
        if named and named[seat(target)] != top:
            raise self.fail(f"the mafia's victim is {target}, their picks {picks}")
        night.victim = None if target is None else seat(target)
        self.step = "mafia:done"

    def settle(self, night: Night) -> None:
        """The attack lands or fails at dawn: nobody knows of a murder before the morning."""
        if night.settled:
            return
        night.settled = True
        victim = night.victim
        if victim is None or not self.alive(victim):
            # No attack, or its target died earlier tonight (shot, heartbroken): neither
            # a murder nor a failed attempt (README).
            self.protected_last, self.saved_last = night.protected, False
            return
        if night.protected == victim:
            night.saved = True
            night.news.append(("failed_attempt",))
        else:
            self.die(victim, "mafia")
            night.murdered = True
        self.protected_last, self.saved_last = night.protected, night.saved

    def on_inspection(self, ev: Event) -> None:
        self.expect_night(ev)
        inspected, self.inspected = self.inspected, None
        if (
            inspected is None
            or ev.audience != self.told([inspected[0]])
            or ev.data["by"] != inspected[0]
        ):
            raise self.fail(f"{ev}: nobody inspected, or shown to someone else")
        target = seat(ev.data["player"])
        side = SIDE.get(self.roles[target], "town")
        if target != inspected[1] or ev.data["side"] != side:
            raise self.fail(f"{ev}: {target} is a {self.roles[target]}, whose side is {side}")
        if "role" in ev.data or "roles" in ev.data:
            raise self.fail(f"{ev}: the Detective learns a role, not only the side")

    def on_shot(self, events: list[Event], i: int) -> None:
        ev = events[i]
        night = self.expect_night(ev)
        avenger = seat(ev.data["player"])
        target = seat(ev.data["target"])
        if not night.avenger_wakes or self.roles[avenger] != "avenger" or target != night.shot:
            raise self.fail(f"{ev}: the avenger did not shoot {target}")
        if ev.audience != self.told([avenger]) or "role" in ev.data:
            raise self.fail(f"{ev} is not the avenger's (and watchers') alone, or tells a role")
        night.shot = None
        escaped = events[i + 1] if i + 1 < len(events) else None
        if self.roles[target] == "godfather":
            if (
                escaped is None
                or escaped.kind != "unharmed"
                or seat(escaped.data["player"]) != (target)
            ):
                raise self.fail(f"the Godfather {target} is shot, no 'unharmed' follows")
        else:
            self.die(target, "shot")

    def on_dawn(self, events: list[Event], i: int) -> None:
        night = self.expect_night(events[i])
        if night.shot is not None:
            raise self.fail(f"the avenger shot {night.shot}, but no shot happened")
        self.settle(night)
        night.dawned = True
        news = list(night.news)
        if not any(item[0] == "death" for item in news):
            news.append(("no_death",))
        told: list[tuple[object, ...]] = []
        for ev in events[i + 1 : i + 1 + len(news)]:
            if ev.kind == "death":
                told.append(("death", seat(ev.data["player"]), ev.data["cause"]))
            elif ev.kind == "couple_revealed":
                told.append(("couple_revealed", *sorted(seats_of(ev.data["players"]))))
            else:
                told.append((ev.kind,))
        if told != news:
            raise self.fail(f"dawn of night {night.number} tells {told}, the night was {news}")
        night.news = []

    def on_death(self, ev: Event, i: int) -> None:
        s, cause = seat(ev.data["player"]), str(ev.data["cause"])
        if ev.audience is not None or s in self.announced:
            raise self.fail(f"{ev}: not public, or {s} already announced dead")
        if not REVEAL_ON_DEATH[self.rules] and ("role" in ev.data or "roles" in ev.data):
            raise self.fail(f"{ev} tells the role of the dead")
        if self.phase == "night":
            if self.night is None or not self.night.dawned:
                raise self.fail(f"{ev} announced before dawn")
        elif cause != "vote" or self.day is None or s not in self.day.may_die:
            raise self.fail(f"{ev}: by day only the vote kills, and it allows {self.day}")
        else:
            self.day.may_die = set()
            self.die(s, "vote")
        if (s, cause) not in [(d[0], d[1]) for d in self.dead]:
            raise self.fail(f"{ev}: {s} did not die of {cause}")
        self.announced[s] = i

    def on_nominations(self, ev: Event) -> None:
        day = self.expect_day(ev)
        kind = ev.kind
        if kind == "nominations_open":
            if self.rules != "maffia" or self.step is not None:
                raise self.fail(f"{ev} out of place")
            self.step = "nominations"
            self.closed = False
            return
        if kind in ("nominees", "no_nominations"):
            if self.step != "nominations" or not self.closed:
                raise self.fail(f"{ev}: the nominations end without the leader's close")
            self.step = "defence"
            nominees = list(dict.fromkeys(day.nominations.values()))
            told = seats_of(ev.data["players"]) if kind == "nominees" else []
            if sorted(told) != sorted(nominees):
                raise self.fail(f"{ev}: the nominations were {day.nominations}")
            day.nominees = told
            return
        s = seat(ev.data["player"])  # defence
        if day.nominees is None or s not in day.nominees or not self.alive(s):
            raise self.fail(f"{ev}: {s} is no living nominee")

    def on_ballot_opens(self, ev: Event) -> None:
        day = self.expect_day(ev)
        living = tuple(self.living())
        if ev.kind == "banishment_opens":
            pool = [s for s in day.nominees or () if self.alive(s)]
            if self.step != "defence" or not pool:
                raise self.fail(f"{ev} without living nominees")
            if sorted(seats_of(ev.data["candidates"])) != sorted(pool):
                raise self.fail(f"{ev}: the living nominees are {pool}")
            if ev.data["needed"] != len(living) // 2 + 1:
                raise self.fail(f"{ev}: more than half of {len(living)} is needed")
            day.pool = tuple(pool)
        else:
            if self.rules != "mafia-classic" or self.step is not None:
                raise self.fail(f"{ev} out of place")
            day.pool = living
        self.step = "ballot"
        self.closed = False
        day.voters = living
        day.ballots = {}
        day.ballot_open = True

    def on_tally(self, events: list[Event], i: int) -> None:
        ev = events[i]
        day = self.expect_day(ev)
        if not day.ballot_open:
            raise self.fail(f"{ev} without a vote")
        day.ballot_open = False
        if not self.closed and set(day.ballots) != set(day.voters):
            raise self.fail(f"the vote ends before everyone voted: {day.ballots}")
        tally = Counter(t for t in day.ballots.values() if t is not None)
        if ev.data["votes"] != dict(tally):
            raise self.fail(f"{ev}: the ballots were {day.ballots}")
        after = events[i + 1] if i + 1 < len(events) else None
        if self.rules == "maffia":
            needed = len(day.voters) // 2 + 1
            day.may_die = {s for s, v in tally.items() if v >= needed}
        else:
            top = max(tally.values(), default=0)
            day.may_die = {s for s, v in tally.items() if v == top}
            if len(day.may_die) > 1 and (after is None or after.kind != "tie"):
                raise self.fail(f"{ev}: a tie among {day.may_die} is not announced")
            if after is not None and after.kind == "tie":
                after = events[i + 2] if i + 2 < len(events) else None
        expected = "death" if day.may_die else "no_elimination"
        if after is None or after.kind != expected:
            raise self.fail(f"after the tally {dict(tally)} comes {after}, not {expected}")
        self.step = "voted"

    # ------------------------------------------------------------------ each state
    def on_state(self, game: Game) -> None:
        hidden = truth(game)
        real = [(d.player, d.cause, d.phase, d.number) for d in hidden.deaths]
        if real != self.dead:
            raise self.fail(f"deaths {real}, the rules give {self.dead}")
        if [s for s in range(self.n) if not hidden.alive[s]] != sorted(d[0] for d in self.dead):
            raise self.fail(f"alive {hidden.alive}, the rules kill {self.dead}")
        if list(hidden.roles) != list(self.roles):
            raise self.fail(f"roles changed: {hidden.roles}")
        prompts = self.open_prompts(game)
        if prompts is None:
            return
        waiting = game.waiting()
        offered = {p.actor for p in prompts}
        if not set(waiting) <= offered:
            raise self.fail(f"the step waits for {waiting}, prompted are {sorted(offered)}")
        if not waiting and self.step != "nominations":
            raise self.fail(f"nobody is waited for, yet step {self.step} stays open")
        for p in prompts:
            self.check_prompt(p)
        self.check_waiting(waiting, offered)
        if all(s in self.announced for s, *_ in self.dead):
            won = self.winner_now()
            if won is not None:
                raise self.fail(f"the game goes on although the {won} have won")

    def check_prompt(self, p: Prompt) -> None:
        actor, verb = p.actor, p.verb
        if not self.alive(actor):
            raise self.fail(f"{verb!r} offered to dead player {actor}")
        role = self.roles[actor]
        refused = self.declared.refusal(p, role, self.phase, self.number, self.step, self.alive)
        if refused is not None:
            raise self.fail(refused)
        standing = self.standing()
        others = [s for s in standing if s != actor]
        if verb == "kill":
            night = self.night
            assert night is not None
            if self.step != "mafia" or actor not in night.pack:
                raise self.fail(f"kill offered to {actor} in step {self.step}")
            allowed = [s for s in standing if KILLS_OWN[self.rules] or self.roles[s] not in MAFIA]
        elif verb == "protect":
            banned = None if self.saved_last else self.protected_last
            allowed = [s for s in standing if s != banned]
        elif verb in ("inspect", "shoot", "nominate"):
            allowed = others
        elif verb in ("withdraw", "abstain"):
            allowed = []
        else:  # vote
            day = self.day
            assert day is not None and self.step == "ballot"
            allowed = [s for s in day.pool if self.rules == "maffia" or s != actor]
        want = {(s,) for s in allowed} if allowed else {()}
        if set(p.choices) != want or len(p.choices) != len(want):
            raise self.fail(f"{p} offered, the rules allow {sorted(want)}")
        if verb in ("nominate", "withdraw"):
            day = self.day
            assert day is not None and self.step == "nominations"
            if (verb == "withdraw") != (actor in day.nominations):
                raise self.fail(f"{verb} offered to {actor}, nominations {day.nominations}")

    def check_waiting(self, waiting: list[int], offered: set[int]) -> None:
        """Who the step waits for: the mafia until they agree, voters until they voted."""
        if self.step == "mafia":
            night = self.night
            assert night is not None
            if offered != set(night.pack):
                raise self.fail(f"the mafia step asks {offered}, the mafia are {night.pack}")
            missing = [m for m in night.pack if m not in night.picks]
            if missing:
                want = missing
            elif MUST_AGREE[self.rules] and len(set(night.picks.values())) > 1:
                # (they disagree: those who have had the fewest says owe the next)
                fewest = min(night.says[m] for m in night.pack)
                want = [m for m in night.pack if night.says[m] == fewest]
            else:
                raise self.fail(f"the mafia step stays open after picks {night.picks}")
            if sorted(waiting) != sorted(want):
                raise self.fail(f"the mafia step waits for {waiting}, not {want}")
        elif self.step == "ballot":
            day = self.day
            assert day is not None
            want = [s for s in day.voters if s not in day.ballots]
            if offered != set(day.voters) or sorted(waiting) != want:
                raise self.fail(f"the vote asks {offered}, waits {waiting}; voters {day.voters}")
        elif self.step == "nominations":
            day = self.day
            assert day is not None
            living = self.living()
            want = [s for s in living if s not in day.nominations]
            if offered != set(living) or sorted(waiting) != want:
                raise self.fail(f"nominations ask {offered}, wait {waiting}, not {want}")

    def check_outcome(self, game: Game) -> None:
        outcome = self.known_outcome(game)
        if any(s not in self.announced for s, *_ in self.dead):
            raise self.fail("the game ends with deaths not announced")
        self.check_winners(outcome, self.winner_now())
        over = game.events[-1]
        if over.kind != "game_over" or over.data["winner"] != outcome.winner:
            raise self.fail(f"the last event is {over}")
        if sum(ev.kind == "game_over" for ev in game.events) != 1:
            raise self.fail("more than one game_over")


def check_views(game: Game, referee: Referee) -> None:
    """Every player's view holds exactly his events, none telling him a forbidden role."""
    events = game.events
    roles = truth(game).roles
    leader = game.view(LEADER)
    playout.check_seen(LEADER, leader.events, events)
    for s in range(game.n):
        view = game.view(s)
        mine = playout.check_seen(s, view.events, events)
        for got, i in zip(view.events, mine, strict=True):
            for who, role in role_facts(got):
                assert referee.may_know(s, who, i), f"view of {s} tells {who} is {role}"
        assert tuple(view.prompts) == tuple(game.prompts(s))
        assert view.role() == roles[s]
        now = len(events)
        for who, role in view.known_roles().items():
            assert role == roles[who], f"view of {s} says {who} is {role}"
            assert referee.may_know(s, who, now), f"view of {s} knows {who} is {role}"


def refereed(
    setup: Setup, policy: LeaderClosePolicy, *, every: int = 0, extra: Observer | None = None
) -> tuple[Referee, Game]:
    return playout.refereed(Referee(setup), policy, check_views, every=every, extra=extra)


# ---------------------------------------------------------------------- 1 and 2
@settings(max_examples=300 * SCALE, **PROFILE)
@given(setup=mafia_setups(), policy=leader_policies())
def test_random_play_ends_with_a_winner_the_rules_name(
    setup: Setup, policy: LeaderClosePolicy
) -> None:
    """Properties 1 and 2: the game ends, the dead stay silent, the winners are right."""
    _, game = refereed(setup, policy)
    playout.check_ended(game, FACTIONS)


# ---------------------------------------------------------------------- 3
@settings(max_examples=150 * SCALE, **PROFILE)
@given(setup=mafia_setups(), policy=leader_policies(), every=st.integers(2, 16))
def test_views_disclose_only_what_the_rules_allow(
    setup: Setup, policy: LeaderClosePolicy, every: int
) -> None:
    """Property 3: views are the audience filter, and no role leaks to the unentitled."""
    referee, game = refereed(setup, policy, every=every)
    check_views(game, referee)


def with_godfather_and_detective(setup: Setup) -> Setup:
    """The same deal with a Godfather (for a mafia) and a Detective (for a town card)."""
    roles = list(setup.roles)
    if "godfather" not in roles:
        roles[roles.index("mafia")] = "godfather"
    if "detective" not in roles:
        town = [i for i, r in enumerate(roles) if r in ("villager", "doctor", "avenger")]
        roles[town[0]] = "detective"
    return dataclasses.replace(setup, roles=tuple(roles))


@settings(max_examples=80 * SCALE, **PROFILE)
@given(
    setup=setups(("maffia",)).map(with_godfather_and_detective),
    policy=leader_policies(),
)
def test_the_detective_sees_the_godfather_as_town(setup: Setup, policy: LeaderClosePolicy) -> None:
    """Property 3: the Detective's results carry a side, never a role; the Godfather: town."""
    _, game = refereed(setup, policy)
    godfather = setup.roles.index("godfather")
    detective = setup.roles.index("detective")
    for ev in game.events:
        if ev.kind == "inspection":
            assert detective in (ev.audience or ()) and ev.data["by"] == detective
            assert set(ev.data) == {"player", "side", "by"}, ev
            if ev.data["player"] == godfather:
                assert ev.data["side"] == "town", ev


# ---------------------------------------------------------------------- 4
@settings(max_examples=100 * SCALE, **PROFILE)
@given(setup=mafia_setups(), policy=leader_policies(), cut=st.floats(0.0, 1.0))
def test_recorded_game_replays_identically(
    setup: Setup, policy: LeaderClosePolicy, cut: float
) -> None:
    """Property 4: ``game.history`` applied to a fresh game gives the same game."""
    playout.check_replays_identically(setup, policy, cut)


# ---------------------------------------------------------------------- 5
OTHER_VERBS = ("close", "fly")


def illegal_attempts(game: Game, rng: random.Random) -> list[Attempt]:
    """``playout.illegal_attempts`` with every declared verb and one-seat targets."""
    dead = [s for s in range(game.n) if not truth(game).alive[s]]
    return playout.illegal_attempts(
        game, rng, playout.every_verb(), OTHER_VERBS, dead, lambda p: [(0, 1), (p.actor,)]
    )


@settings(max_examples=100 * SCALE, **PROFILE)
@given(setup=mafia_setups(), policy=leader_policies(), seed=st.integers(0, 2**32 - 1))
def test_illegal_action_raises_and_changes_nothing(
    setup: Setup, policy: LeaderClosePolicy, seed: int
) -> None:
    """Property 5: refused actions (wrong verb, target, dead or idle actor) change nothing."""
    attempt = playout.illegal_attempter(setup, random.Random(seed), truth, illegal_attempts)
    _, game = refereed(setup, policy, extra=attempt)
    playout.refuse_after_the_end(game, truth)


# ---------------------------------------------------------------------- 6
@settings(max_examples=60 * SCALE, **PROFILE)
@given(setup=mafia_setups(), policy_seed=st.integers(0, 2**32 - 1), noise=st.integers(0, 2**32))
def test_same_seed_and_choices_give_the_same_game(
    setup: Setup, policy_seed: int, noise: int
) -> None:
    """Property 6: determinism, and no use of the global random generator."""
    playout.check_deterministic(
        setup, lambda: LeaderClosePolicy(policy_seed, change_chance=0.1), noise
    )
