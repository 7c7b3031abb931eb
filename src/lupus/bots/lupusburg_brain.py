"""The heuristic bot's decisions in Lupusburg, from what the seat remembers
(``lupus.bots.lupusburg_memory``): each decision reads the prompts it is given and picks
one of their choices.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from lupus.bots.lupusburg_memory import FOLLOW_FLOOR, TOWNSFOLK, LupusburgMemory
from lupus.bots.memory import as_int, best, fallback
from lupus.engine.model import Action
from lupus.engine.views import View

BET_FLOOR = 4.0  # public suspicion to bet on without having seen the Werewolf


class LupusburgBrain:
    """Picks one action from the prompts, for one seat, with its memory."""

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
        for verb, decision in DECISIONS.items():
            if verb in self.prompts:
                return decision(self) or fallback(self.view, self.rng)
        return fallback(self.view, self.rng)

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


# The decision each prompt calls for, by verb. A seat may hold several prompts at once:
# the first verb of this table among them picks the decision (the order is their
# precedence), which answers them all (a bet and its pass).
DECISIONS: dict[str, Callable[[LupusburgBrain], Action | None]] = {
    "peek": LupusburgBrain.peek,
    "claw": LupusburgBrain.claw,
    "privilege": LupusburgBrain.privilege,
    "show": LupusburgBrain.show,
    "bet": LupusburgBrain.bet,
    "keep": LupusburgBrain.keep,
    "token": LupusburgBrain.token,
    "ballot": LupusburgBrain.ballot,
}
