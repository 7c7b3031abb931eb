"""The heuristic bot of Lupusburg: characters under houses, chests, coins and tokens.

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

import random
from collections import Counter
from collections.abc import Mapping

from lupus.bots.memory import Memory, Public, as_int, best, fallback, int_list, maybe_int
from lupus.engine.model import Action, Event
from lupus.engine.views import View

WEREWOLF = "werewolf"
THIEF = "thief"
TOWNSFOLK = "townsfolk"

SELF_TOKEN = 2.0
DEVIATION = 1.0
FOUND_SIGNAL = 3.0
FRAMED = 5.0  # he opened on me after looking at my house: he lies, I know I am no werewolf
BET_FLOOR = 4.0  # public suspicion to bet on without having seen the Werewolf
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
        self.handlers = {
            "game_starts": self.on_start,
            "night": self.on_phase,
            "day": self.on_phase,
            "character_dies": self.on_dies,
            "privilege": self.on_privilege,
            "bet": self.on_bet,
            "token": self.on_token,
            "suspects": self.on_suspects,
            "burgomaster": self.on_burgomaster,
        }

    def see(self, event: Event) -> None:
        handler = self.handlers.get(event.kind)
        if handler is not None:
            handler(event)

    def on_start(self, ev: Event) -> None:
        self.burgomaster = as_int(ev.data.get("burgomaster", 0))

    def on_phase(self, ev: Event) -> None:
        self.tokens = Counter()
        self.privileged = None
        if "burgomaster" in ev.data:
            self.burgomaster = as_int(ev.data["burgomaster"])

    def on_dies(self, ev: Event) -> None:
        self.alive[as_int(ev.data["house"])] = False

    def on_privilege(self, ev: Event) -> None:
        self.privileged = (as_int(ev.data["player"]), as_int(ev.data["house"]))

    def on_bet(self, ev: Event) -> None:
        # A bet says whom the bettor suspects, but piling suspicion on bets would let
        # bets follow bets; public suspicion comes from tokens and privileges only.
        self.bets[as_int(ev.data["player"])] = as_int(ev.data["target"])

    def bump(self, seat: int, amount: float) -> None:
        self.susp[seat] = self.susp.get(seat, 0.0) + amount

    def on_token(self, ev: Event) -> None:
        player = as_int(ev.data["player"])
        house = as_int(ev.data["house"])
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

    def on_suspects(self, ev: Event) -> None:
        self.suspects = int_list(ev.data.get("houses"))

    def on_burgomaster(self, ev: Event) -> None:
        self.burgomaster = as_int(ev.data["player"])

    def living_houses(self) -> list[int]:
        return [h for h in range(2 * self.n) if self.alive[h]]


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
        self.handlers = {
            "characters_dealt": self.on_dealt,
            "peeked": self.on_peek,
            "privilege": self.on_privilege,
            "privilege_seen": self.on_seen,
            "privilege_shown": self.on_shown,
            "token": self.on_token,
        }

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
        handler = self.handlers.get(event.kind)
        if handler is not None:
            handler(event)

    def on_dealt(self, ev: Event) -> None:
        if as_int(ev.data["player"]) != self.me:
            return
        chars = ev.data.get("characters")
        if isinstance(chars, Mapping):
            self.mine = {as_int(h): str(c) for h, c in chars.items()}
        self.chest_house = maybe_int(ev.data.get("chest"))
        if WEREWOLF in self.mine.values():
            self.wolf = self.me

    def on_peek(self, ev: Event) -> None:
        house = as_int(ev.data["house"])
        chest = bool(ev.data["chest"])
        self.chest[house] = chest
        self.chest[house ^ 1] = not chest
        self.learn(house ^ 1 if chest else house)

    def on_privilege(self, ev: Event) -> None:
        if self.mine.get(as_int(ev.data["house"])) == WEREWOLF:
            self.informed.add(as_int(ev.data["player"]))

    def on_seen(self, ev: Event) -> None:
        house = as_int(ev.data["house"])
        self.seen[house] = str(ev.data["character"])
        self.learn(house)

    def on_shown(self, ev: Event) -> None:
        if as_int(ev.data["to"]) != self.me:
            return
        house = as_int(ev.data["house"])
        self.seen[house] = str(ev.data["character"])
        self.learn(house)

    def on_token(self, ev: Event) -> None:
        player = as_int(ev.data["player"])
        if as_int(ev.data["house"]) // 2 == self.me and player != self.me:
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


class LupusburgBrain:
    def __init__(self, view: View, memory: LupusburgMemory, rng: random.Random) -> None:
        self.view = view
        self.m = memory
        self.rng = rng
        self.prompts = {p.verb: p for p in view.prompts}

    def houses(self, verb: str) -> list[int]:
        prompt = self.prompts.get(verb)
        return [as_int(c[0]) for c in prompt.choices if c] if prompt else []

    def one(self, verb: str, house: int | None) -> Action | None:
        prompt = self.prompts.get(verb)
        if house is None or prompt is None or not prompt.allows((house,)):
            return None
        return Action(self.view.seat, verb, (house,))

    def plain(self, verb: str) -> Action | None:
        prompt = self.prompts.get(verb)
        if prompt is None or not prompt.allows(()):
            return None
        return Action(self.view.seat, verb, ())

    def act(self) -> Action:
        p = self.prompts
        choice: Action | None = None
        if "peek" in p:
            choice = self.peek()
        elif "claw" in p:
            choice = self.claw()
        elif "privilege" in p:
            choice = self.privilege()
        elif "show" in p:
            choice = self.show()
        elif "bet" in p:
            choice = self.bet()
        elif "keep" in p:
            choice = self.keep()
        elif "token" in p:
            choice = self.token()
        elif "ballot" in p:
            choice = self.ballot()
        return choice or fallback(self.view, self.rng)

    # ------------------------------------------------------------------ night
    def peek(self) -> Action | None:
        m = self.m
        houses = [h for h in self.houses("peek") if h // 2 != m.me]

        def worth(h: int) -> float:
            owner = h // 2
            unknown = h not in m.chest
            return 10.0 * unknown + m.suspicion(owner) * (owner not in m.cleared)

        return self.one("peek", best(houses, worth, self.rng))

    def claw(self) -> Action | None:
        m = self.m
        houses = self.houses("claw")
        others = [h for h in houses if h // 2 != m.me] or houses
        # Tomorrow's Burgomaster (already named tonight) loses his privilege with his
        # last character; the players who saw the Werewolf or accuse him come first.
        chief = m.burgomaster

        def prey(h: int) -> float:
            owner = h // 2
            score = 10.0 * (owner in m.informed) + float(m.threat[owner])
            score += 2.0 * (owner in m.bets and m.bets[owner] == m.me)
            if owner == chief and m.living_count(owner) == 1:
                score += 3.0
            score -= 0.5 * m.susp.get(owner, 0.0)  # the village will lynch him anyway
            return score

        return self.one("claw", best(others, prey, self.rng))

    # ------------------------------------------------------------------ day
    def privilege(self) -> Action | None:
        m = self.m
        houses = self.houses("privilege")
        if m.is_wolf():
            pool = [h for h in houses if h // 2 != m.me]
            return self.one("privilege", best(pool, lambda h: m.susp.get(h // 2, 0.0), self.rng))
        if m.wolf is not None:
            return self.plain("pass")
        pool = [
            h
            for h in houses
            if h not in m.seen and m.chest.get(h) is not True and h // 2 not in m.cleared
        ]
        if not pool:
            return self.plain("pass")

        def worth(h: int) -> float:
            return m.suspicion(h // 2) + 0.5 * (m.chest.get(h) is False)

        return self.one("privilege", best(pool, worth, self.rng))

    def show(self) -> Action | None:
        m = self.m
        houses = self.houses("show")
        plain = [h for h in houses if m.mine.get(h) == TOWNSFOLK]
        pool = plain or houses
        return self.one("show", pool[0] if pool else None)

    def bet(self) -> Action | None:
        """Whether to bet, and on whom, before seeing any coin (the coin comes after)."""
        m = self.m
        if m.is_wolf():
            # The Werewolf bets only to confuse: on the village's suspect.
            others = [s for s in range(m.n) if s != m.me]
            target = best(others, lambda s: m.susp.get(s, 0.0), self.rng)
            if target is not None and m.susp.get(target, 0.0) >= FOLLOW_FLOOR:
                return self.one("bet", target)
            return self.plain("pass")
        if m.wolf is not None:
            return self.one("bet", m.wolf)
        others = [s for s in range(m.n) if s != m.me and s not in m.cleared]
        ranked = sorted(others, key=lambda s: -m.suspicion(s))
        if ranked:
            top = m.suspicion(ranked[0])
            second = m.suspicion(ranked[1]) if len(ranked) > 1 else 0.0
            if top >= BET_FLOOR and top >= second + 2.0:
                return self.one("bet", ranked[0])
        return self.plain("pass")

    def keep(self) -> Action | None:
        """The best coin drawn: it pays a right bet, and for the Werewolf, whose score
        does not depend on it, it is a coin less for those who bet on him."""
        coins = [as_int(c[0]) for c in self.prompts["keep"].choices if c]
        return self.one("keep", max(coins) if coins else None)

    def token(self) -> Action | None:
        m = self.m
        houses = self.houses("token")
        others = [h for h in houses if h // 2 != m.me]
        if not others:
            return self.one("token", houses[0] if houses else None)
        if m.is_wolf():
            return self.one("token", self.wolf_token(others))
        if m.wolf is not None:
            wolf = [h for h in others if h // 2 == m.wolf]
            if wolf:
                return self.one("token", best(wolf, lambda h: m.tokens[h], self.rng))
        pool = [h for h in others if h // 2 not in m.cleared] or others
        priv = m.privileged
        if not m.tokens and priv is not None and priv[0] == m.me:
            # Opening after a privilege that did not find the Werewolf: not on that
            # player (opening on him says "I saw the Werewolf there").
            pool = [h for h in pool if h // 2 != priv[1] // 2] or pool
        owners = {h // 2 for h in pool}
        scores = {o: m.suspicion(o) for o in owners}
        score = {h: scores[h // 2] for h in pool}
        counts = {h: m.tokens[h] for h in pool if m.tokens[h] > 0}
        high = max(scores.values())
        tops = [h for h in pool if score[h] == high] if high >= FOLLOW_FLOOR else []
        if counts:
            most = max(counts.values())
            leaders = [h for h, c in counts.items() if c == most]
            lead_high = max(score[h] for h in leaders)
            if not (tops and high >= lead_high + FOLLOW_FLOOR):
                return self.one("token", best(leaders, score.__getitem__, self.rng))
        if tops:
            return self.one("token", best(tops, lambda h: m.tokens[h], self.rng))
        return self.one("token", best(pool, score.__getitem__, self.rng))

    def wolf_token(self, others: list[int]) -> int | None:
        m = self.m
        priv = m.privileged
        if not m.tokens and priv is not None and priv[0] == m.me:
            # Opening on the player he looked at: "I saw the Werewolf there".
            framed = [h for h in others if h // 2 == priv[1] // 2]
            if framed:
                return framed[0]
        expected = [h for h in m.expected(m.me) if h in others]
        if expected:
            return best(expected, lambda h: m.tokens[h], self.rng)
        return best(others, lambda h: m.threat[h // 2] + 10.0 * (h // 2 in m.informed), self.rng)

    def ballot(self) -> Action | None:
        m = self.m
        houses = self.houses("ballot")
        others = [h for h in houses if h // 2 != m.me] or houses
        if m.is_wolf():
            return self.one(
                "ballot",
                best(others, lambda h: 10.0 * (h // 2 in m.informed) + m.tokens[h], self.rng),
            )
        return self.one(
            "ballot", best(others, lambda h: m.suspicion(h // 2) + 0.01 * m.tokens[h], self.rng)
        )
