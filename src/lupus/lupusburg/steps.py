"""Lupusburg's steps: the night's Thief and Werewolf, the day's privilege, bets and lynch."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lupus.engine.draw import choice, shuffle
from lupus.engine.game import Step
from lupus.engine.model import Action, Args, Prompt, alone, bare, one_each
from lupus.lupusburg.game import LupusburgGame


def houses(targets: list[int]) -> tuple[Args, ...]:
    """The choices of a verb that names one house among ``targets``."""
    return one_each(targets)


def lgame(game: object) -> LupusburgGame:
    assert isinstance(game, LupusburgGame)
    return game


class Turn(Step):
    """One actor (or nobody) owes one decision; shared by most Lupusburg steps."""

    def __init__(self) -> None:
        self.actor: int | None = None
        self.choice: Action | None = None
        self._offered: tuple[Prompt, ...] | None = None

    def prompts(self, game: object) -> list[Prompt]:
        return [] if self.actor is None else list(self.prompts_for(game, self.actor))

    def forget_prompts(self) -> None:
        self._offered = None

    def options(self, g: LupusburgGame, actor: int) -> list[Prompt]:
        return []

    def prompts_for(self, game: object, actor: int) -> tuple[Prompt, ...]:
        if actor != self.actor or not self.owes():
            return ()
        # The options only change when a decision is recorded (then the game calls
        # forget_prompts), so they are built once per decision, not once per question.
        if self._offered is None:
            self._offered = tuple(self.options(lgame(game), actor))
        return self._offered

    def owes(self) -> bool:
        """Whether the actor still owes his decision."""
        return self.actor is not None and self.choice is None

    def waiting(self, game: object) -> list[int]:
        return [self.actor] if self.actor is not None and self.owes() else []

    def first_waiting(self, game: object) -> int | None:
        return self.actor if self.owes() else None

    def complete(self, game: object) -> bool:
        return self.closed or not self.owes()

    def act(self, game: object, action: Action) -> None:
        self.choice = action
        self.recorded(lgame(game), action)

    def recorded(self, g: LupusburgGame, action: Action) -> None:
        """Announce the decision to whoever sees it being taken."""

    def target(self) -> int | None:
        if self.choice is None or not self.choice.args:
            return None
        arg = self.choice.args[0]
        assert isinstance(arg, int)
        return arg


class PhaseStart(Step):
    id = "phase"

    def __init__(self, phase: str, number: int) -> None:
        self.phase = phase
        self.number = number

    def begin(self, game: object) -> bool:
        g = lgame(game)
        g.phase = self.phase
        g.number = self.number
        g.claw = None
        g.tokens.clear()
        g.emit(self.phase, None, number=self.number, burgomaster=g.burgomaster)
        return False


class ThiefStep(Turn):
    """The Thief looks under one house: is there a chest? The step always runs."""

    id = "thief"

    def begin(self, game: object) -> bool:
        g = lgame(game)
        g.emit("wake", None, step=self.id)
        if g.living_count(g.thief):
            self.actor = g.thief
        return True

    def options(self, g: LupusburgGame, actor: int) -> list[Prompt]:
        mine = g.houses_of(actor)
        return [Prompt(actor, "peek", houses([h for h in g.living_houses() if h not in mine]))]

    def resolve(self, game: object) -> None:
        g = lgame(game)
        house = self.target()
        if house is not None and self.actor is not None:
            g.emit("peeked", alone(self.actor), house=house, chest=g.chest[house // 2] == house)


class WerewolfStep(Turn):
    """The Werewolf points the claw at a house; its character is slaughtered at dawn."""

    id = "werewolf"

    def begin(self, game: object) -> bool:
        g = lgame(game)
        g.emit("wake", None, step=self.id)
        if g.living_count(g.werewolf):
            self.actor = g.werewolf
        return True

    def options(self, g: LupusburgGame, actor: int) -> list[Prompt]:
        mine = g.houses_of(actor)
        own_allowed = g.living_count(actor) == 2
        targets = [h for h in g.living_houses() if own_allowed or h not in mine]
        return [Prompt(actor, "claw", houses(targets))]

    def resolve(self, game: object) -> None:
        g = lgame(game)
        g.claw = self.target()
        if g.claw is not None and self.actor is not None:
            g.emit("clawed", alone(self.actor), house=g.claw)


class Dawn(Step):
    id = "dawn"

    def resolve(self, game: object) -> None:
        g = lgame(game)
        g.emit("dawn", None, number=g.number)
        if g.claw is None:
            g.emit("no_death", None)
        else:
            g.kill_house(g.claw, "werewolf")


class WinCheck(Step):
    id = "win_check"

    def resolve(self, game: object) -> None:
        lgame(game).check_end()


class PrivilegeStep(Turn):
    """The Burgomaster may see another player's living character, and then must show
    that player one of his own living characters, his choice."""

    id = "privilege"

    def __init__(self) -> None:
        super().__init__()
        self.seen: int | None = None
        self.shown: int | None = None

    def begin(self, game: object) -> bool:
        g = lgame(game)
        b = g.burgomaster
        others = [h for h in g.living_houses() if h // 2 != b]
        if g.living_count(b) and others:
            self.actor = b
        else:
            g.emit("no_privilege", None, player=b)
        return True

    def options(self, g: LupusburgGame, actor: int) -> list[Prompt]:
        if self.seen is None:
            others = [h for h in g.living_houses() if h // 2 != actor]
            return [Prompt(actor, "privilege", houses(others)), bare(actor, "pass")]
        mine = [h for h in g.houses_of(actor) if g.alive_house[h]]
        return [Prompt(actor, "show", houses(mine))]

    def owes(self) -> bool:
        """He owes a look (or a pass), then, having looked, what he shows."""
        if self.actor is None or self.shown is not None:
            return False
        return self.choice is None or self.choice.verb != "pass"

    def act(self, game: object, action: Action) -> None:
        g = lgame(game)
        self.choice = action
        house = action.args[0] if action.args else None
        assert house is None or isinstance(house, int)
        if action.verb == "privilege" and house is not None:
            self.seen = house
            g.emit("privilege", None, player=action.actor, house=house)
            g.emit(
                "privilege_seen", alone(action.actor), house=house, character=g.characters[house]
            )
        elif action.verb == "show" and house is not None and self.seen is not None:
            self.shown = house
            owner = self.seen // 2
            g.emit(
                "privilege_shown",
                [action.actor, owner],
                player=action.actor,
                to=owner,
                house=house,
                character=g.characters[house],
            )

    def resolve(self, game: object) -> None:
        g = lgame(game)
        if self.actor is None:
            return
        if self.seen is None:
            # He passed, or the leader closed the step before he looked: the table
            # sees the privilege go unused.
            g.emit("privilege_declined", None, player=self.actor)
        elif self.shown is None:
            mine = [h for h in g.houses_of(self.actor) if g.alive_house[h]]
            self.act(g, Action(self.actor, "show", (choice(g.rng, mine),)))


class BetTurn(Turn):
    """A player's betting turn, once per game: he first decides whether to bet and on
    whom (``bet`` names a player, or ``pass``); a bet commits his seal and draws three
    coins (all that are left, if fewer), and only then does he ``keep`` one of them.
    Nobody sees a coin before committing; the table sees the bet and its target only."""

    id = "betting"

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat
        self.drawn: list[int] | None = None  # the coins in his hand, once he has bet
        self.kept: int | None = None

    def begin(self, game: object) -> bool:
        g = lgame(game)
        if g.bets[self.seat] is not None or g.finished:
            return False
        self.actor = self.seat
        return True

    def owes(self) -> bool:
        """He owes a bet or a pass, then, having bet, the coin he keeps."""
        if self.actor is None or self.kept is not None:
            return False
        return self.choice is None or self.drawn is not None

    def options(self, g: LupusburgGame, actor: int) -> list[Prompt]:
        drawn = self.drawn
        if drawn is None:
            targets = [t for t in range(g.n) if t != actor]
            return [Prompt(actor, "bet", one_each(targets)), bare(actor, "pass")]
        return [Prompt(actor, "keep", one_each(sorted(set(drawn), reverse=True)))]

    def act(self, game: object, action: Action) -> None:
        g = lgame(game)
        verb = action.verb
        if verb == "pass":
            self.choice = action
            return
        arg = action.args[0]
        assert isinstance(arg, int)
        if verb == "bet":
            self.choice = action
            # Drawing at random is drawing from a shuffled bag; with a given bag order
            # (the scenario contract) the draw takes from the front.
            if g.shuffle_draws:
                shuffle(g.rng, g.bag)
            k = g.spec.coins_drawn
            drawn = g.bag[:k]
            g.bag = g.bag[k:]
            self.drawn = drawn
            g.emit("bet", None, player=action.actor, target=arg)
            g.emit("coins_drawn", alone(action.actor), player=action.actor, coins=list(drawn))
        elif verb == "keep":
            self.keep(g, action.actor, arg, "coin_kept")

    def keep(self, g: LupusburgGame, actor: int, coin: int, kind: str) -> None:
        """He keeps ``coin`` under his seal; the other coins drawn go back to the bag
        (at its end, which matters only for a given bag order)."""
        drawn = self.drawn
        target = self.target()
        assert drawn is not None and target is not None
        rest = list(drawn)
        rest.remove(coin)
        g.bag = g.bag + rest
        self.kept = coin
        g.bets[actor] = (target, coin)
        g.emit(kind, alone(actor), player=actor, kept=coin)

    def resolve(self, game: object) -> None:
        g = lgame(game)
        actor = self.actor
        if actor is None:
            return
        if self.drawn is None:
            g.emit("no_bet", None, player=actor)
        elif self.kept is None:
            # The leader closed the turn between the bet and the coin: the game's
            # generator picks the coin he keeps.
            self.keep(g, actor, choice(g.rng, self.drawn), "coin_picked")


class TokenTurn(Turn):
    """First voting: a player's turn to lay one token on a living character."""

    id = "first_voting"

    def __init__(self, seat: int, round_: int) -> None:
        super().__init__()
        self.seat = seat
        self.round = round_

    def begin(self, game: object) -> bool:
        self.actor = self.seat
        return True

    def options(self, g: LupusburgGame, actor: int) -> list[Prompt]:
        return [Prompt(actor, "token", g.living_house_choices())]

    def recorded(self, g: LupusburgGame, action: Action) -> None:
        house = action.args[0]
        assert isinstance(house, int)
        g.tokens[house] = g.tokens.get(house, 0) + 1
        g.emit("token", None, player=action.actor, house=house, round=self.round)


class SecondVoting(Step):
    """The two most-voted characters are suspects; each unsuspected living character
    gives its owner one secret ballot; the suspect with more ballots is lynched."""

    id = "second_voting"

    def begin(self, game: object) -> bool:
        g = lgame(game)
        living = g.living_houses()
        # Most tokens first, ties to the house closer to the Burgomaster; the suspects
        # then in that clockwise order (keys built once: no key function per comparison).
        ranked = sorted([(-g.tokens.get(h, 0), g.house_order(h), h) for h in living])
        k = g.spec.suspects
        chosen = sorted([(order, h) for _, order, h in ranked[:k]])
        self.suspects = [h for _, h in chosen]
        # Told by tokens, most first (ties in the tie-break's order), with the tie at
        # the last place among the suspects, if any, and why it went as it did.
        data: dict[str, object] = {
            "houses": [h for _, _, h in ranked[:k]],
            "tokens": {h: -minus for minus, _, h in ranked if minus < 0},
        }
        if 0 < k < len(ranked) and ranked[k - 1][0] == ranked[k][0]:
            level = ranked[k][0]
            tied = [h for minus, _, h in ranked if minus == level]
            data["tie_break"] = g.tie_break(
                "house",
                -level,
                [h for h in tied if h in self.suspects],
                [h for h in tied if h not in self.suspects],
            )
        g.emit_data("suspects", None, data)
        self.owed = {
            s: sum(1 for h in g.houses_of(s) if g.alive_house[h] and h not in self.suspects)
            for s in range(g.n)
        }
        self.ballots = {h: 0 for h in self.suspects}
        self.choices = houses(self.suspects)
        self._offered: dict[int, tuple[Prompt, ...]] = {}  # a player owing two: one prompt
        self.closed = False
        return True

    def prompts(self, game: object) -> list[Prompt]:
        return [p for s in self.waiting(game) for p in self.prompts_for(game, s)]

    def prompts_for(self, game: object, actor: int) -> tuple[Prompt, ...]:
        if self.owed.get(actor, 0) <= 0:
            return ()
        offered = self._offered.get(actor)
        if offered is None:
            offered = self._offered[actor] = (Prompt(actor, "ballot", self.choices),)
        return offered

    def waiting(self, game: object) -> list[int]:
        return [s for s, owed in self.owed.items() if owed > 0]

    def first_waiting(self, game: object) -> int | None:
        for seat, owed in self.owed.items():
            if owed > 0:
                return seat
        return None

    def complete(self, game: object) -> bool:
        return self.closed or self.first_waiting(game) is None

    def act(self, game: object, action: Action) -> None:
        g = lgame(game)
        house = action.args[0]
        assert isinstance(house, int)
        self.owed[action.actor] -= 1
        self.ballots[house] += 1
        g.emit("ballot_cast", alone(action.actor), player=action.actor, house=house)

    def resolve(self, game: object) -> None:
        g = lgame(game)
        lynched = min(self.suspects, key=lambda h: (-self.ballots[h], g.house_order(h)))
        most = self.ballots[lynched]
        data: dict[str, object] = {"votes": dict(self.ballots)}
        tied = [h for h in self.suspects if self.ballots[h] == most]  # (clockwise order)
        if len(tied) > 1:
            data["tie_break"] = g.tie_break(
                "house", most, [lynched], [h for h in tied if h != lynched]
            )
        g.emit_data("ballots", None, data)
        g.kill_house(lynched, "vote")


class PassBurgomaster(Step):
    id = "burgomaster"

    def begin(self, game: object) -> bool:
        g = lgame(game)
        g.burgomaster = (g.burgomaster + 1) % g.n
        g.emit("burgomaster", None, player=g.burgomaster)
        return False


def _betting(g: LupusburgGame) -> list[Step]:
    return [BetTurn((g.burgomaster + i) % g.n) for i in range(g.n)]


def _first_voting(g: LupusburgGame) -> list[Step]:
    return [
        TokenTurn((g.burgomaster + i) % g.n, r + 1)
        for r in range(g.spec.token_rounds)
        for i in range(g.n)
    ]


STEPS: dict[str, Callable[[LupusburgGame], list[Step]]] = {
    "thief": lambda g: [ThiefStep()],
    "werewolf": lambda g: [WerewolfStep()],
    "privilege": lambda g: [PrivilegeStep()],
    "betting": _betting,
    "first_voting": _first_voting,
    "second_voting": lambda g: [SecondVoting(), PassBurgomaster()],
}


def make_steps(ids: Sequence[str], g: LupusburgGame) -> list[Step]:
    return [step for i in ids for step in STEPS[i](g)]
