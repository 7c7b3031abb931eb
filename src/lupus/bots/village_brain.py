"""The heuristic bot's decisions in the village family: werewolf, tit-albert, maffia,
mafia-classic.

Each role says how the bot plays its verbs (``Role.bot``, a ``Play``: in the role's
module); this module is what those plays are made of. ``VillageBrain`` holds one seat's
view, memory (``lupus.bots.village_memory``) and the public suspicion
(``lupus.bots.village_suspicion``), the helpers a play picks with, and the plays
several roles share: the pack's kill, a shot, the day's ballots. ``shield`` and
``probe`` make plays for a new role's protection or inspection.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from lupus.bots.den import lead
from lupus.bots.memory import as_int, best, fallback
from lupus.bots.village_memory import VillageMemory
from lupus.bots.village_suspicion import FOLLOW_FLOOR, TRUSTED, Round
from lupus.engine.model import Action, Prompt
from lupus.engine.views import View
from lupus.families import village_plays

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


def targets(prompt: Prompt) -> list[int]:
    return [as_int(c[0]) for c in prompt.choices if c]


class VillageBrain:
    """Picks one action from the prompts, for one seat, with its memory."""

    def __init__(self, view: View, memory: VillageMemory, rng: random.Random) -> None:
        self.view = view
        self.m = memory
        self.rng = rng
        self.prompts = {p.verb: p for p in view.prompts}
        self.plays = village_plays()

    def act(self) -> Action:
        """The play its role declares for the first of the seat's prompts that has one
        (``Role.bot``: one play answers all the prompts of its step, the Witch's heal,
        poison and pass), else a random legal choice that is not a pass."""
        decisions = self.plays.decisions
        for prompt in self.view.prompts:
            decision = decisions.get(prompt.verb)
            if decision is not None:
                action: Action | None = decision(self)
                return action or fallback(self.view, self.rng)
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
    def shielded(self, verb: str) -> Action | None:
        """Protect someone with ``verb``: the village's own holder protects himself
        when he may, else the player he trusts most; a holder of another side, his
        ally."""
        m = self.m
        cands = targets(self.prompts[verb])
        if m.side() != "village":
            allies = [c for c in cands if c in m.allies()]
            return self.one(verb, allies[0] if allies else None)
        if m.me in cands:
            return self.one(verb, m.me)
        pool = [c for c in cands if not m.bad(c) and c not in m.dead]
        return self.one(verb, best(pool, lambda s: -m.suspicion(s), self.rng))

    def probed(self, verb: str) -> Action | None:
        """Look into someone with ``verb``: a player not looked into yet and not known
        (his partner neither), the most suspected of them."""
        m = self.m
        cands = targets(self.prompts[verb])
        fresh = [c for c in cands if c not in m.inspected and c not in m.known and c != m.partner]
        pool = fresh or [c for c in cands if c not in m.inspected] or cands
        return self.one(verb, best(pool, lambda s: m.susp.get(s, 0.0), self.rng))

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
            taste = self.plays.prey.get(role, 0) if role else 0
            saved = 5.0 * m.failed[s]  # protected before: try someone else
            return 10.0 * taste + m.threat[s] - 0.5 * m.susp.get(s, 0.0) - saved

        return self.one("kill", best(pool, prey, self.rng))

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


def shield(verb: str) -> Callable[[VillageBrain], Action | None]:
    """The play of a role whose ``verb`` protects a player (the Doctor's ``protect``):
    see ``VillageBrain.shielded``."""

    def play(bot: VillageBrain) -> Action | None:
        return bot.shielded(verb)

    return play


def probe(verb: str) -> Callable[[VillageBrain], Action | None]:
    """The play of a role whose ``verb`` looks into a player (the Seer's and the
    Detective's ``inspect``): see ``VillageBrain.probed``."""

    def play(bot: VillageBrain) -> Action | None:
        return bot.probed(verb)

    return play


INSPECT: Final = probe("inspect")
"""The one play of ``inspect``, which the Seer and the Detective share."""
