"""What a heuristic seat of Lupusburg remembers: characters under houses, chests, coins
and tokens.

What it knows comes from its own events only: its two characters and its chest, what
it saw with the Burgomaster's privilege or was shown, what the Thief's peeks told
(a chest house never hides the Werewolf or the Thief: ``chest yes`` clears that house
and ``chest no`` marks the only house of that player that may hide the Werewolf), and
the public record: privileges, bets, tokens, the suspects and the totals of the secret
ballots.

Public suspicion is computed identically by every heuristic player: laying a token on
one's own character, or a token that breaks ranks (neither on the houses most voted
so far nor on the most suspected player's), makes its author suspect; a bet names a
suspect; and a Burgomaster who opens the tokens on the player he just used his
privilege on says, by the convention of sensible townsfolk, that he saw the Werewolf.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import ClassVar

from lupus.bots.memory import Memory, Public, as_int, int_list, maybe_int
from lupus.engine.model import Event
from lupus.engine.views import View

WEREWOLF = "werewolf"
THIEF = "thief"
TOWNSFOLK = "townsfolk"

SELF_TOKEN = 2.0
DEVIATION = 1.0
FOUND_SIGNAL = 3.0
FRAMED = 5.0  # he opened on me after looking at my house: he lies, I know I am no werewolf
FOLLOW_FLOOR = 1.0
SURE = 100.0


class LupusburgPublic(Public):
    """The public record: living characters, the Burgomaster, tokens, privileges, bets
    and the public suspicion every heuristic player computes the same way."""

    def __init__(self, view: View) -> None:
        super().__init__(view)
        self.alive = [True] * (2 * self.n)
        self.burgomaster = 0
        self.susp: dict[int, float] = {}
        self.tokens: Counter[int] = Counter()
        self.privileged: tuple[int, int] | None = None
        self.found_by: dict[int, set[int]] = {}  # accused -> who opened on him
        self.bets: dict[int, int] = {}
        self.suspects: list[int] = []

    def see(self, event: Event) -> None:
        handler = self.HANDLERS.get(event.kind)
        if handler is not None:
            handler(self, event)

    def on_start(self, event: Event) -> None:
        self.burgomaster = as_int(event.data.get("burgomaster", 0))

    def on_phase(self, event: Event) -> None:
        self.tokens = Counter()
        self.privileged = None
        if "burgomaster" in event.data:
            self.burgomaster = as_int(event.data["burgomaster"])

    def on_dies(self, event: Event) -> None:
        self.alive[as_int(event.data["house"])] = False

    def on_privilege(self, event: Event) -> None:
        self.privileged = (as_int(event.data["player"]), as_int(event.data["house"]))

    def on_bet(self, event: Event) -> None:
        # A bet says whom the bettor suspects, but piling suspicion on bets would let
        # bets follow bets; public suspicion comes from tokens and privileges only.
        self.bets[as_int(event.data["player"])] = as_int(event.data["target"])

    def bump(self, seat: int, amount: float) -> None:
        self.susp[seat] = self.susp.get(seat, 0.0) + amount

    def on_token(self, event: Event) -> None:
        player = as_int(event.data["player"])
        house = as_int(event.data["house"])
        owner = house // 2
        if owner == player:
            self.bump(player, SELF_TOKEN)
        elif not self.tokens:
            # The opening token: on the player whose character he has just seen?
            priv = self.privileged
            if priv is not None and priv[0] == player and priv[1] // 2 == owner:
                self.bump(owner, FOUND_SIGNAL)
                self.found_by.setdefault(owner, set()).add(player)
        else:
            expected = self.expected(player)
            if expected and house not in expected:
                self.bump(player, DEVIATION)
        self.tokens[house] += 1

    def expected(self, player: int) -> set[int]:
        """The houses a sensible player would lay a token on now."""
        others = [h for h in self.living_houses() if h // 2 != player]
        counts = {h: self.tokens[h] for h in others if self.tokens[h] > 0}
        found: set[int] = set()
        if counts:
            top = max(counts.values())
            found = {h for h, c in counts.items() if c == top}
        owners = {h // 2 for h in others}
        if owners:
            high = max(self.susp.get(s, 0.0) for s in owners)
            if high >= FOLLOW_FLOOR:
                found |= {h for h in others if self.susp.get(h // 2, 0.0) == high}
        return found

    def on_suspects(self, event: Event) -> None:
        self.suspects = int_list(event.data.get("houses"))

    def on_burgomaster(self, event: Event) -> None:
        self.burgomaster = as_int(event.data["player"])

    def living_houses(self) -> list[int]:
        return [h for h in range(2 * self.n) if self.alive[h]]

    # What each kind of event tells (functions of the class, not bound methods: a
    # table of bound methods would make every memory a reference cycle).
    HANDLERS: ClassVar[dict[str, Callable[[LupusburgPublic, Event], None]]] = {
        "game_starts": on_start,
        "night": on_phase,
        "day": on_phase,
        "character_dies": on_dies,
        "privilege": on_privilege,
        "bet": on_bet,
        "token": on_token,
        "suspects": on_suspects,
        "burgomaster": on_burgomaster,
    }


class LupusburgMemory(Memory[LupusburgPublic]):
    """One seat's private facts: its characters, what it saw and what the chests say."""

    def __init__(self, view: View, public: LupusburgPublic) -> None:
        super().__init__(view, public)
        self.mine: dict[int, str] = {}
        self.chest_house: int | None = None
        self.seen: dict[int, str] = {}
        self.chest: dict[int, bool] = {}
        self.wolf: int | None = None
        self.cleared: set[int] = set()
        self.threat: Counter[int] = Counter()
        self.informed: set[int] = set()

    def new_public(self, view: View) -> LupusburgPublic:
        return LupusburgPublic(view)

    # The public record, read at decision time (never while reading events).
    @property
    def alive(self) -> list[bool]:
        return self.pub.alive

    @property
    def burgomaster(self) -> int:
        return self.pub.burgomaster

    @property
    def susp(self) -> dict[int, float]:
        return self.pub.susp

    @property
    def tokens(self) -> Counter[int]:
        return self.pub.tokens

    @property
    def privileged(self) -> tuple[int, int] | None:
        return self.pub.privileged

    @property
    def bets(self) -> dict[int, int]:
        return self.pub.bets

    def expected(self, player: int) -> set[int]:
        return self.pub.expected(player)

    # ------------------------------------------------------------------ reading
    def see(self, event: Event) -> None:
        handler = self.HANDLERS.get(event.kind)
        if handler is not None:
            handler(self, event)

    def on_dealt(self, event: Event) -> None:
        if as_int(event.data["player"]) != self.me:
            return
        chars = event.data.get("characters")
        if isinstance(chars, Mapping):
            self.mine = {as_int(h): str(c) for h, c in chars.items()}
        self.chest_house = maybe_int(event.data.get("chest"))
        if WEREWOLF in self.mine.values():
            self.wolf = self.me

    def on_peek(self, event: Event) -> None:
        house = as_int(event.data["house"])
        chest = bool(event.data["chest"])
        self.chest[house] = chest
        self.chest[house ^ 1] = not chest
        self.learn(house ^ 1 if chest else house)

    def on_privilege(self, event: Event) -> None:
        if self.mine.get(as_int(event.data["house"])) == WEREWOLF:
            self.informed.add(as_int(event.data["player"]))

    def on_seen(self, event: Event) -> None:
        house = as_int(event.data["house"])
        self.seen[house] = str(event.data["character"])
        self.learn(house)

    def on_shown(self, event: Event) -> None:
        if as_int(event.data["to"]) != self.me:
            return
        house = as_int(event.data["house"])
        self.seen[house] = str(event.data["character"])
        self.learn(house)

    def on_token(self, event: Event) -> None:
        player = as_int(event.data["player"])
        if as_int(event.data["house"]) // 2 == self.me and player != self.me:
            self.threat[player] += 1

    def learn(self, house: int) -> None:
        """What a seen character and the chests say about its owner."""
        owner = house // 2
        if owner == self.me:
            return
        char = self.seen.get(house)
        if char == WEREWOLF:
            self.wolf = owner
        elif char == THIEF:
            self.cleared.add(owner)
        elif char == TOWNSFOLK and self.chest.get(house) is False:
            self.cleared.add(owner)  # his only house that could hide the Werewolf

    def liars(self) -> set[int]:
        """Who opened the tokens on me as if he had seen the Werewolf under my house."""
        if self.wolf == self.me:
            return set()
        return self.pub.found_by.get(self.me, set())

    # ------------------------------------------------------------------ judging
    def living_houses(self) -> list[int]:
        return [h for h in range(2 * self.n) if self.alive[h]]

    def living_count(self, seat: int) -> int:
        return int(self.alive[2 * seat]) + int(self.alive[2 * seat + 1])

    def is_wolf(self) -> bool:
        return self.wolf == self.me

    def suspicion(self, seat: int) -> float:
        """How likely ``seat`` is the Werewolf, to a townsfolk player."""
        if seat == self.me:
            return -SURE
        if self.wolf is not None:
            return SURE if seat == self.wolf else -SURE
        if seat in self.cleared:
            return -SURE
        return self.susp.get(seat, 0.0) + FRAMED * (seat in self.liars())

    # What each kind of event tells (functions of the class, not bound methods: a
    # table of bound methods would make every memory a reference cycle).
    HANDLERS: ClassVar[dict[str, Callable[[LupusburgMemory, Event], None]]] = {
        "characters_dealt": on_dealt,
        "peeked": on_peek,
        "privilege": on_privilege,
        "privilege_seen": on_seen,
        "privilege_shown": on_shown,
        "token": on_token,
    }
