"""The heuristic bot's decisions in the village family: werewolf, tit-albert, maffia,
mafia-classic.

Each decision reads the prompts it is given and picks one of their choices, from what
the seat remembers (``lupus.bots.village_memory``) and the public suspicion
(``lupus.bots.village_suspicion``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from lupus.bots.den import lead
from lupus.bots.memory import as_int, best, fallback
from lupus.bots.village_memory import VillageMemory
from lupus.bots.village_suspicion import FOLLOW_FLOOR, TRUSTED, Round
from lupus.engine.model import Action, Prompt
from lupus.engine.views import View

# What a Thief would rather be, if the extra cards offer it (he starts as a villager).
THIEF_TASTE = {"seer": 5, "witch": 4, "little-girl": 3, "hunter": 2, "cupid": 1}
# A ballot's own weighing (``ballot_pick``): the hunch of the moment, at most; a grudge
# per ballot cast against this player; the pull of each ballot already cast for a
# candidate, and of all of them together at most; the pack's dislike of a player per
# ballot he cast against one of them.
HUNCH = 1.0
GRUDGE = 0.5
FOLLOW = 0.4
FOLLOW_MOST = 0.8
THREAT = 0.3
PACK_PULL = 2.0  # the pull of a ballot cast by one of the pack, for the pack
# Roles the pack would rather eat, if it learns who holds them.
PACK_PREY = {"seer": 3, "detective": 3, "witch": 2, "doctor": 2, "little-girl": 1, "hunter": -1}


def targets(prompt: Prompt) -> list[int]:
    return [as_int(c[0]) for c in prompt.choices if c]


class VillageBrain:
    """Picks one action from the prompts, for one seat, with its memory."""

    def __init__(self, view: View, memory: VillageMemory, rng: random.Random) -> None:
        self.view = view
        self.m = memory
        self.rng = rng
        self.prompts = {p.verb: p for p in view.prompts}

    def act(self) -> Action:
        for verb, decision in DECISIONS.items():
            if verb in self.prompts:
                return decision(self) or fallback(self.view, self.rng)
        return fallback(self.view, self.rng)

    # ------------------------------------------------------------------ helpers
    def one(self, verb: str, target: int | None) -> Action | None:
        if target is None:
            return None
        prompt = self.prompts.get(verb)
        if prompt is None or not prompt.allows((target,)):
            return None
        return Action(self.view.seat, verb, (target,))

    def plain(self, verb: str) -> Action | None:
        prompt = self.prompts.get(verb)
        if prompt is None or not prompt.allows(()):
            return None
        return Action(self.view.seat, verb, ())

    def enemy_pick(self, cands: list[int], rnd: Round | None = None) -> int | None:
        """Whom to eliminate among ``cands``: a sure enemy, else the best suspect."""
        m = self.m
        allies = m.allies()
        pool = [c for c in cands if c not in allies and c != m.me]
        if not pool:
            return None
        if m.side() == "village":
            return best(pool, lambda s: m.suspicion(s) + self.weight(rnd, s), self.rng)
        # The pack and the lovers: the village's favourite suspect, not a friend.
        return best(pool, lambda s: m.susp.get(s, 0.0) + self.weight(rnd, s), self.rng)

    @staticmethod
    def weight(rnd: Round | None, seat: int) -> float:
        return 0.0 if rnd is None else 0.01 * rnd.tally.get(seat, 0)

    def ballot_pick(self, cands: list[int], rnd: Round | None) -> int | None:
        """A ballot in a public round: a sure enemy, else the candidate this player
        finds worst, by his own lights.

        Every player weighs the same public suspicion, but adds his own: a grudge
        against those who voted against him (``VillageMemory.grudge``), his hunch of the
        moment (a draw of his own, up to ``HUNCH``), and the pull of the ballots already
        cast (``FOLLOW`` a ballot, not more than ``FOLLOW_MOST``: a lead draws votes
        without deciding them). So a table agrees on a clear suspect and splits where
        nothing is clear, as people do, instead of voting as one block behind whoever
        voted first."""
        m = self.m
        side = m.side()
        allies = m.allies()
        pool = [c for c in cands if c not in allies and c != m.me]
        if not pool:
            return None
        if side == "village":
            sure = [c for c in pool if m.bad(c)]
            if sure:
                return best(sure, lambda s: self.weight(rnd, s), self.rng)
            scores = {c: m.suspicion(c) for c in pool}
        else:
            # The pack and the lovers: the village's suspects, and whoever threatens them.
            scores = {c: m.susp.get(c, 0.0) + THREAT * m.threat[c] for c in pool}
        if rnd is not None and rnd.kind == "banish":
            # (the banishment's ballots are shown at its close: the nominations lead)
            lead = m.nominations.tally if m.nominations is not None else {}
        else:
            lead = rnd.tally if rnd is not None else {}
        rng = self.rng
        if side == "village":
            own = {c: GRUDGE * m.grudge[c] + HUNCH * rng.random() for c in pool}
            trusted: float | None = -TRUSTED
        else:
            # The pack keeps its hunches to itself: it votes with its own (it sees their
            # ballots), the first of them setting the target, a tie going to the lower
            # seat, so that the pack's votes never split for nothing.
            cast = rnd.ballots if rnd is not None else {}
            own = {c: -0.001 * c for c in pool}
            for voter, target in cast.items():
                if voter in allies and voter != m.me and target in own:
                    own[target] += PACK_PULL
            trusted = None

        def worth(seat: int) -> float:
            score = scores[seat]
            if trusted is not None and score <= trusted:
                return score + own[seat]  # (no bandwagon against a player I trust)
            pull = min(FOLLOW_MOST, FOLLOW * max(0, lead.get(seat, 0)))
            return score + own[seat] + pull

        return best(pool, worth, rng)

    # ------------------------------------------------------------------ decisions
    def thief(self) -> Action | None:
        take = self.prompts.get("take")
        cards = [str(c[0]) for c in take.choices] if take else []
        taste = {c: THIEF_TASTE.get(c, 0) for c in cards if c not in self.m.pack_roles}
        if taste:
            card = max(sorted(taste), key=lambda c: taste[c])
            if taste[card] > 0 or "keep" not in self.prompts:
                return Action(self.view.seat, "take", (card,))
        keep = self.plain("keep")
        if keep is not None:
            return keep
        if cards:  # both extra cards are werewolves: he must take one
            return Action(self.view.seat, "take", (cards[0],))
        return None

    def cupid(self) -> Action | None:
        prompt = self.prompts["link"]
        me = self.m.me
        mine = [c for c in prompt.choices if me in c]
        pool = mine or list(prompt.choices)
        if not pool:
            return None

        def trust(pair: tuple[int | str, ...]) -> float:
            other = [as_int(s) for s in pair if s != me]
            return -sum(self.m.susp.get(s, 0.0) for s in other)

        pair = best(pool, trust, self.rng)
        return None if pair is None else Action(me, "link", pair)

    def little_girl(self) -> Action | None:
        m = self.m
        chance = self.view.options.get("little_girl_catch_chance", 0.2)
        risk = float(chance) if isinstance(chance, int | float) else 0.2
        known_wolves = sum(1 for r in m.known.values() if r in m.pack_roles)
        if risk <= 0.35 and known_wolves < max(1, m.pack_total):
            return self.plain("spy")
        return self.plain("pass")

    def kill(self) -> Action | None:
        m = self.m
        cands = targets(self.prompts["kill"])
        allies = m.allies()
        if m.side() == "village":  # not a pack member after all (should not happen)
            return self.one("kill", self.enemy_pick(cands))
        pool = [c for c in cands if c not in allies]
        if m.side() == "lovers":
            # A mixed couple's werewolf eats villagers first, his pack last.
            outside = [c for c in pool if c not in m.pack]
            pool = outside or pool
        if not pool:
            return self.plain("sleep") or self.one("kill", cands[0] if cands else None)
        picks = dict(m.night_picks)
        mine = picks.get(m.me)
        if mine is None:
            # The first pick of the night that suits me: the pack agrees at once.
            for _, pick in m.night_picks:
                if pick in pool:
                    return self.one("kill", pick)
        else:
            # Asked again: the pack disagrees. Join the target the others name most now
            # (a tie: the latest named), as the den shows it in my own view.
            joined = lead(self.view)
            if joined is not None and joined in pool:
                return self.one("kill", joined)
            if mine in pool:
                return self.one("kill", mine)

        def prey(s: int) -> float:
            role = m.known.get(s)
            taste = PACK_PREY.get(role, 0) if role else 0
            saved = 5.0 * m.failed[s]  # protected before: try someone else
            return 10.0 * taste + m.threat[s] - 0.5 * m.susp.get(s, 0.0) - saved

        return self.one("kill", best(pool, prey, self.rng))

    def witch(self) -> Action | None:
        m = self.m
        victim = m.victim
        if "heal" in self.prompts and victim is not None and m.side() != "pack":
            mine = victim == m.me or victim == m.partner
            worth = not m.bad(victim) and m.suspicion(victim) < FOLLOW_FLOOR
            if mine or (worth and m.side() == "village"):
                return self.plain("heal")
        if "poison" in self.prompts:
            cands = [c for c in targets(self.prompts["poison"]) if c != m.me]
            if m.side() == "village":
                sure = [c for c in cands if m.bad(c)]
                if sure:
                    return self.one("poison", sure[0])
                pool = [c for c in cands if not m.good(c)]
                if pool:
                    ranked = sorted((m.suspicion(c) for c in pool), reverse=True)
                    second = ranked[1] if len(ranked) > 1 else 0.0
                    if ranked[0] >= 2.0 and ranked[0] >= second + 1.0:
                        return self.one("poison", self.enemy_pick(pool))
        return self.plain("pass")

    def inspect(self) -> Action | None:
        m = self.m
        cands = targets(self.prompts["inspect"])
        fresh = [c for c in cands if c not in m.inspected and c not in m.known and c != m.partner]
        pool = fresh or [c for c in cands if c not in m.inspected] or cands
        return self.one("inspect", best(pool, lambda s: m.susp.get(s, 0.0), self.rng))

    def protect(self) -> Action | None:
        m = self.m
        cands = targets(self.prompts["protect"])
        if m.side() != "village":
            allies = [c for c in cands if c in m.allies()]
            return self.one("protect", allies[0] if allies else None)
        if m.me in cands:
            return self.one("protect", m.me)
        pool = [c for c in cands if not m.bad(c) and c not in m.dead]
        return self.one("protect", best(pool, lambda s: -m.suspicion(s), self.rng))

    def shoot(self) -> Action | None:
        m = self.m
        cands = targets(self.prompts["shoot"])
        must = "pass" not in self.prompts
        pick = self.enemy_pick(cands)
        if pick is None:
            return None if must else self.plain("pass")
        sure = m.bad(pick) if m.side() == "village" else True
        if must or sure or m.susp.get(pick, 0.0) >= 0.5:
            return self.one("shoot", pick)
        return self.plain("pass")

    def elect(self) -> Action | None:
        m = self.m
        cands = targets(self.prompts["elect"])
        rnd = m.round if m.round is not None and m.round.kind == "elect" else None
        allies = m.allies()
        leaders = rnd.leaders(cands) if rnd else set()
        if m.side() == "village":
            ok = [c for c in leaders if not m.bad(c) and m.suspicion(c) < FOLLOW_FLOOR]
            if ok:
                return self.one("elect", best(ok, lambda s: -m.suspicion(s), self.rng))
            if m.me in cands:
                return self.one("elect", m.me)
            return self.one("elect", best(cands, lambda s: -m.suspicion(s), self.rng))
        friends = [c for c in cands if c in allies and rnd is not None and rnd.tally[c] > 0]
        if friends:
            return self.one("elect", best(friends, lambda s: rnd.tally[s] if rnd else 0, self.rng))
        if leaders:
            return self.one("elect", best(leaders, lambda s: 0.0, self.rng))
        if m.me in cands:
            return self.one("elect", m.me)
        # Nobody leads yet, and he may not vote for himself (werewolf): an ally, else
        # anyone (a wolf's vote in the open must look like a villager's).
        mine = [c for c in cands if c in allies] or cands
        return self.one("elect", best(mine, lambda s: 0.0, self.rng) if mine else None)

    def decide(self) -> Action | None:
        """The captain must name one of the tied: an enemy, else (only friends and
        himself are tied) a friend before himself."""
        tied = targets(self.prompts["decide"])
        pick = self.enemy_pick(tied)
        if pick is None:
            others = [t for t in tied if t != self.m.me] or tied
            pick = best(others, lambda s: 0.0, self.rng) if others else None
        return self.one("decide", pick)

    def appoint(self) -> Action | None:
        m = self.m
        cands = targets(self.prompts["appoint"])
        allies = m.allies()
        friends = [c for c in cands if c in allies and c != m.me]
        if friends:
            return self.one("appoint", best(friends, lambda s: -m.susp.get(s, 0.0), self.rng))
        if m.side() == "village":
            return self.one("appoint", best(cands, lambda s: -m.suspicion(s), self.rng))
        return self.one("appoint", best(cands, lambda s: m.susp.get(s, 0.0), self.rng))

    def nominate(self) -> Action | None:
        m = self.m
        cands = targets(self.prompts["nominate"])
        pick = self.ballot_pick(cands, m.nominations or Round("nominate", None))
        if pick is None:
            # Everyone left looks cleared (the Godfather looks like town): the most
            # suspected of them, since somebody must be nominated.
            pool = [c for c in cands if c not in m.allies() or m.side() == "village"]
            pick = best(pool or cands, lambda s: m.susp.get(s, 0.0), self.rng)
        return self.one("nominate", pick)

    def vote(self) -> Action | None:
        m = self.m
        cands = targets(self.prompts["vote"])
        rnd = m.round
        pick = self.ballot_pick(cands, rnd)
        if pick is None:
            return self.plain("abstain") or self.one("vote", cands[0] if cands else None)
        return self.one("vote", pick)


# The decision each prompt calls for, by verb. A seat may hold several prompts at once:
# the first verb of this table among them picks the decision (the order is their
# precedence), which answers them all (the Witch's heal, poison and pass; a vote and its
# abstention).
DECISIONS: dict[str, Callable[[VillageBrain], Action | None]] = {
    "take": VillageBrain.thief,
    "keep": VillageBrain.thief,
    "link": VillageBrain.cupid,
    "spy": VillageBrain.little_girl,
    "kill": VillageBrain.kill,
    "heal": VillageBrain.witch,
    "poison": VillageBrain.witch,
    "inspect": VillageBrain.inspect,
    "protect": VillageBrain.protect,
    "shoot": VillageBrain.shoot,
    "elect": VillageBrain.elect,
    "decide": VillageBrain.decide,
    "appoint": VillageBrain.appoint,
    "nominate": VillageBrain.nominate,
    "vote": VillageBrain.vote,
}
