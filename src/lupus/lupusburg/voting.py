"""Lupusburg's two votes: first voting lays tokens turn by turn, second voting casts
secret ballots on the suspects, and lynches one."""

from __future__ import annotations

from lupus.engine.interned import alone
from lupus.engine.model import Action, Prompt
from lupus.engine.offers import Offers
from lupus.lupusburg.game import LupusburgGame
from lupus.lupusburg.steps import LupusburgStep, Turn, houses


class TokenTurn(Turn):
    """First voting: a player's turn to lay one token on a living character."""

    id = "first_voting"

    def __init__(self, seat: int, round_: int) -> None:
        super().__init__()
        self.seat = seat
        self.round = round_

    def begin(self, game: LupusburgGame) -> bool:
        self.actor = self.seat
        return True

    def options(self, game: LupusburgGame, actor: int) -> list[Prompt]:
        return [Prompt(actor, "token", game.living_house_choices())]

    def recorded(self, game: LupusburgGame, action: Action) -> None:
        house = action.args[0]
        assert isinstance(house, int)
        game.tokens[house] = game.tokens.get(house, 0) + 1
        game.emit("token", None, player=action.actor, house=house, round=self.round)


class SecondVoting(LupusburgStep):
    """The two most-voted characters are suspects; each unsuspected living character
    gives its owner one secret ballot; the suspect with more ballots is lynched."""

    id = "second_voting"

    def begin(self, game: LupusburgGame) -> bool:
        living = game.living_houses()
        # Most tokens first, ties to the house closer to the Burgomaster; the suspects
        # then in that clockwise order (keys built once: no key function per comparison).
        ranked = sorted([(-game.tokens.get(h, 0), game.house_order(h), h) for h in living])
        k = game.spec.suspects
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
            data["tie_break"] = game.tie_break(
                "house",
                -level,
                [h for h in tied if h in self.suspects],
                [h for h in tied if h not in self.suspects],
            )
        game.emit_data("suspects", None, data)
        self.owed = {
            s: sum(1 for h in game.houses_of(s) if game.alive_house[h] and h not in self.suspects)
            for s in range(game.n)
        }
        self.ballots = {h: 0 for h in self.suspects}
        self.choices = houses(self.suspects)
        # One prompt for a player however many ballots he owes; nothing once he has
        # cast them all (``act``).
        self.offers = Offers()
        self.offers.start(game.n, [s for s, owed in self.owed.items() if owed > 0])
        self.closed = False
        return True

    def prompts(self, game: LupusburgGame) -> list[Prompt]:
        return [p for s in self.waiting(game) for p in self.prompts_for(game, s)]

    def prompts_for(self, game: LupusburgGame, actor: int) -> tuple[Prompt, ...]:
        offered = self.offers.kept(actor)
        if offered is None:
            offered = self.offers.keep(actor, (Prompt(actor, "ballot", self.choices),))
        return offered

    def waiting(self, game: LupusburgGame) -> list[int]:
        return [s for s, owed in self.owed.items() if owed > 0]

    def first_waiting(self, game: LupusburgGame) -> int | None:
        for seat, owed in self.owed.items():
            if owed > 0:
                return seat
        return None

    def complete(self, game: LupusburgGame) -> bool:
        return self.closed or self.first_waiting(game) is None

    def act(self, game: LupusburgGame, action: Action) -> None:
        actor = action.actor
        house = action.args[0]
        assert isinstance(house, int)
        self.owed[actor] -= 1
        if self.owed[actor] <= 0:
            self.offers.keep(actor, ())  # his ballots are all cast
        self.ballots[house] += 1
        game.emit("ballot_cast", alone(actor), player=actor, house=house)

    def resolve(self, game: LupusburgGame) -> None:
        lynched = min(self.suspects, key=lambda h: (-self.ballots[h], game.house_order(h)))
        most = self.ballots[lynched]
        data: dict[str, object] = {"votes": dict(self.ballots)}
        tied = [h for h in self.suspects if self.ballots[h] == most]  # (clockwise order)
        if len(tied) > 1:
            data["tie_break"] = game.tie_break(
                "house", most, [lynched], [h for h in tied if h != lynched]
            )
        game.emit_data("ballots", None, data)
        game.kill_house(lynched, "vote")
