"""Lupusburg's day before the votes: the Burgomaster's privilege, then the bets."""

from __future__ import annotations

from lupus.engine.draw import choice, shuffle
from lupus.engine.interned import alone, bare, one_each
from lupus.engine.model import Action, Prompt
from lupus.lupusburg.game import LupusburgGame
from lupus.lupusburg.steps import Turn, houses


class PrivilegeStep(Turn):
    """The Burgomaster may see another player's living character, and then must show
    that player one of his own living characters, his choice."""

    id = "privilege"

    def __init__(self) -> None:
        super().__init__()
        self.seen: int | None = None
        self.shown: int | None = None

    def begin(self, game: LupusburgGame) -> bool:
        burgomaster = game.burgomaster
        others = [h for h in game.living_houses() if h // 2 != burgomaster]
        if game.living_count(burgomaster) and others:
            self.actor = burgomaster
        else:
            game.emit("no_privilege", None, player=burgomaster)
        return True

    def options(self, game: LupusburgGame, actor: int) -> list[Prompt]:
        if self.seen is None:
            others = [h for h in game.living_houses() if h // 2 != actor]
            return [Prompt(actor, "privilege", houses(others)), bare(actor, "pass")]
        mine = [h for h in game.houses_of(actor) if game.alive_house[h]]
        return [Prompt(actor, "show", houses(mine))]

    def owes(self) -> bool:
        """He owes a look (or a pass), then, having looked, what he shows."""
        if self.actor is None or self.shown is not None:
            return False
        return self.choice is None or self.choice.verb != "pass"

    def act(self, game: LupusburgGame, action: Action) -> None:
        self.choice = action
        house = action.args[0] if action.args else None
        assert house is None or isinstance(house, int)
        if action.verb == "privilege" and house is not None:
            self.seen = house
            game.emit("privilege", None, player=action.actor, house=house)
            game.emit(
                "privilege_seen", alone(action.actor), house=house, character=game.characters[house]
            )
        elif action.verb == "show" and house is not None and self.seen is not None:
            self.shown = house
            owner = self.seen // 2
            game.emit(
                "privilege_shown",
                [action.actor, owner],
                player=action.actor,
                to=owner,
                house=house,
                character=game.characters[house],
            )

    def resolve(self, game: LupusburgGame) -> None:
        if self.actor is None:
            return
        if self.seen is None:
            # He passed, or the leader closed the step before he looked: the table
            # sees the privilege go unused.
            game.emit("privilege_declined", None, player=self.actor)
        elif self.shown is None:
            mine = [h for h in game.houses_of(self.actor) if game.alive_house[h]]
            self.act(game, Action(self.actor, "show", (choice(game.rng, mine),)))


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

    def begin(self, game: LupusburgGame) -> bool:
        if game.bets[self.seat] is not None or game.finished:
            return False
        self.actor = self.seat
        return True

    def owes(self) -> bool:
        """He owes a bet or a pass, then, having bet, the coin he keeps."""
        if self.actor is None or self.kept is not None:
            return False
        return self.choice is None or self.drawn is not None

    def options(self, game: LupusburgGame, actor: int) -> list[Prompt]:
        drawn = self.drawn
        if drawn is None:
            targets = [t for t in range(game.n) if t != actor]
            return [Prompt(actor, "bet", one_each(targets)), bare(actor, "pass")]
        return [Prompt(actor, "keep", one_each(sorted(set(drawn), reverse=True)))]

    def act(self, game: LupusburgGame, action: Action) -> None:
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
            if game.shuffle_draws:
                shuffle(game.rng, game.bag)
            k = game.spec.coins_drawn
            drawn = game.bag[:k]
            game.bag = game.bag[k:]
            self.drawn = drawn
            game.emit("bet", None, player=action.actor, target=arg)
            game.emit("coins_drawn", alone(action.actor), player=action.actor, coins=list(drawn))
        elif verb == "keep":
            self.keep(game, action.actor, arg, "coin_kept")

    def keep(self, game: LupusburgGame, actor: int, coin: int, kind: str) -> None:
        """He keeps ``coin`` under his seal; the other coins drawn go back to the bag
        (at its end, which matters only for a given bag order)."""
        drawn = self.drawn
        target = self.target()
        assert drawn is not None and target is not None
        rest = list(drawn)
        rest.remove(coin)
        game.bag = game.bag + rest
        self.kept = coin
        game.bets[actor] = (target, coin)
        game.emit(kind, alone(actor), player=actor, kept=coin)

    def resolve(self, game: LupusburgGame) -> None:
        actor = self.actor
        if actor is None:
            return
        if self.drawn is None:
            game.emit("no_bet", None, player=actor)
        elif self.kept is None:
            # The leader closed the turn between the bet and the coin: the game's
            # generator picks the coin he keeps.
            self.keep(game, actor, choice(game.rng, self.drawn), "coin_picked")
