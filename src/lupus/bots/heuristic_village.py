"""The heuristic bot of the village family: werewolf, tit-albert, maffia, mafia-classic.

Everything it knows comes from its own events (see ``lupus.bots.memory``):

* private facts: its role, the pack it belongs to and the pack's picks, the Seer's
  visions, the Detective's inspections, the lovers' or couple's partner, what the
  Little Girl saw, the Witch's victim, the Thief's extra cards;
* public suspicion, which every heuristic player computes identically from public
  events only. There is no chat, so ballots are the only signal. A sensible village
  follows the lead of the ballots already cast (a bandwagon) unless it suspects someone
  more; a ballot that breaks ranks (neither with the players most voted so far nor with
  the most suspected player) makes its author suspect, as does voting for oneself.
  When an eliminated player's card is revealed, those who voted for a werewolf gain
  trust, those who turned away from a werewolf the vote was leaning to gain suspicion,
  and those who opened a vote against a revealed villager gain a little.

Each decision reads the prompts it is given and picks one of their choices.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from lupus.bots.memory import Memory, Public, as_int, best, fallback, int_list, maybe_int, top_set
from lupus.engine.model import Action, Event, Prompt
from lupus.engine.views import View, role_facts
from lupus.rulebooks import load

# Suspicion a ballot that breaks ranks earns its author, by kind of ballot.
DEVIATION = {"vote": 1.0, "nominate": 1.0, "banish": 0.5, "elect": 0.5}
SELF_VOTE = 1.0
TRUST_FOR_WOLF_VOTE = 1.5
SHIELDED_WOLF = 1.0
OPENED_ON_VILLAGER = 0.5
TRUSTED = 1.5  # a player this trusted is not followed into a vote against him
FOLLOW_FLOOR = 1.0  # a suspect is followed over the ballots' lead from this suspicion on
SURE = 100.0
CLEARED = 3.0  # inspected "town" where a disguised pack role exists: likely, not sure

# What a Thief would rather be, if the extra cards offer it (he starts as a villager).
THIEF_TASTE = {"seer": 5, "witch": 4, "little-girl": 3, "hunter": 2, "cupid": 1}
# Roles the pack would rather eat, if it learns who holds them.
PACK_PREY = {"seer": 3, "detective": 3, "witch": 2, "doctor": 2, "little-girl": 1, "hunter": -1}


@dataclass(slots=True)
class BallotRecord:
    voter: int
    target: int | None
    kind: str
    leaders: frozenset[int]
    opener: bool


class Round:
    """One public round of ballots (a vote, an election, the nominations)."""

    def __init__(self, kind: str, candidates: Sequence[int] | None) -> None:
        self.kind = kind
        self.candidates = None if candidates is None else list(candidates)
        self.tally: Counter[int] = Counter()
        self.first: dict[int, int] = {}

    def add(self, target: int, weight: int = 1) -> None:
        self.tally[target] += weight
        self.first.setdefault(target, len(self.first))

    def leaders(self, among: Collection[int] | None = None) -> set[int]:
        counts = {t: c for t, c in self.tally.items() if c > 0 and (among is None or t in among)}
        if not counts:
            return set()
        top = max(counts.values())
        return {t for t, c in counts.items() if c == top}


class VillagePublic(Public):
    """Public suspicion and the public record of ballots, deaths and the captain."""

    def __init__(self, view: View) -> None:
        super().__init__(view)
        book = load(view.rulebook)
        self.pack_roles = book.tagged(book.mechanics.pack_tag)
        self.dead: set[int] = set()
        self.captain: int | None = None
        self.susp: dict[int, float] = {}
        self.round: Round | None = None
        self.nominations: Round | None = None
        self.banish_leaders: frozenset[int] = frozenset()
        self.banish_top: frozenset[int] = frozenset()
        self.history: list[BallotRecord] = []
        self.handlers = {
            "captain": self.on_captain,
            "vote_opens": self.on_vote_opens,
            "election": self.on_election,
            "nominations_open": self.on_nominations_open,
            "nomination": self.on_nomination,
            "withdrawal": self.on_withdrawal,
            "banishment_opens": self.on_banishment_opens,
            "ballot": self.on_ballot,
            "death": self.on_death,
        }

    def see(self, event: Event) -> None:
        handler = self.handlers.get(event.kind)
        if handler is not None:
            handler(event)

    def living(self) -> list[int]:
        return [s for s in range(self.n) if s not in self.dead]

    def on_captain(self, ev: Event) -> None:
        self.captain = as_int(ev.data["player"])

    def on_vote_opens(self, ev: Event) -> None:
        self.round = Round("vote", int_list(ev.data.get("candidates")))

    def on_election(self, ev: Event) -> None:
        self.round = Round("elect", int_list(ev.data.get("candidates")))

    def on_nominations_open(self, ev: Event) -> None:
        self.nominations = Round("nominate", None)
        self.round = self.nominations

    def on_nomination(self, ev: Event) -> None:
        if self.nominations is None:
            self.on_nominations_open(ev)
        assert self.nominations is not None
        self.judge(self.nominations, as_int(ev.data["player"]), as_int(ev.data["target"]))

    def on_withdrawal(self, ev: Event) -> None:
        if self.nominations is not None:
            self.nominations.tally[as_int(ev.data["target"])] -= 1

    def on_banishment_opens(self, ev: Event) -> None:
        pool = int_list(ev.data.get("candidates"))
        noms = self.nominations
        self.banish_leaders = frozenset(noms.leaders(pool) if noms else ())
        self.banish_top = frozenset(top_set(self.susp, pool, FOLLOW_FLOOR))
        self.round = Round("banish", pool)

    def on_ballot(self, ev: Event) -> None:
        voter = as_int(ev.data["player"])
        target = maybe_int(ev.data.get("target"))
        kind = str(ev.data.get("vote", "vote"))
        rnd = self.round
        if rnd is None or rnd.kind != kind:
            rnd = self.round = Round(kind, None)
        self.judge(rnd, voter, target)

    def judge(self, rnd: Round, voter: int, target: int | None) -> None:
        """Public suspicion: the ballot is weighed against what the village expected."""
        kind = rnd.kind
        if kind == "banish":
            leaders = set(self.banish_leaders) - {voter}
            expected = leaders | (set(self.banish_top) - {voter})
        elif kind == "elect":
            leaders = rnd.leaders() - {voter}
            expected = leaders | {voter} if leaders else set()
        else:
            pool = rnd.candidates if rnd.candidates is not None else self.living()
            others = [c for c in pool if c != voter and c not in self.dead]
            leaders = rnd.leaders(set(others))
            expected = leaders | top_set(self.susp, others, FOLLOW_FLOOR)
        if target is not None:
            if target == voter and kind != "elect":
                self.susp[voter] = self.susp.get(voter, 0.0) + SELF_VOTE
            elif expected and target not in expected:
                self.susp[voter] = self.susp.get(voter, 0.0) + DEVIATION.get(kind, 0.5)
            if kind != "banish":
                weight = 2 if kind == "vote" and voter == self.captain else 1
                rnd.add(target, weight)
        if kind != "elect":
            self.history.append(
                BallotRecord(voter, target, kind, frozenset(leaders), opener=not expected)
            )

    def on_death(self, ev: Event) -> None:
        seat = as_int(ev.data["player"])
        self.dead.add(seat)
        role = ev.data.get("role")
        if role is None:
            return
        wolf = str(role) in self.pack_roles
        for rec in self.history:
            if rec.target == seat:
                if wolf:
                    self.susp[rec.voter] = self.susp.get(rec.voter, 0.0) - TRUST_FOR_WOLF_VOTE
                elif rec.opener:
                    self.susp[rec.voter] = self.susp.get(rec.voter, 0.0) + OPENED_ON_VILLAGER
            elif wolf and seat in rec.leaders and rec.target is not None:
                self.susp[rec.voter] = self.susp.get(rec.voter, 0.0) + SHIELDED_WOLF


class VillageMemory(Memory[VillagePublic]):
    """One seat's private facts; the public record is shared (``self.pub``)."""

    def __init__(self, view: View, public: VillagePublic) -> None:
        super().__init__(view, public)
        book = load(view.rulebook)
        self.book = book
        self.pack_roles = book.tagged(book.mechanics.pack_tag)
        # A pack role an inspection shows as town (the Godfather): "town" is then no proof.
        self.disguised = any(
            spec.appears_as is not None and spec.appears_as != spec.faction
            for spec in book.roles.values()
        )
        self.role: str | None = None
        self.known: dict[int, str] = {}
        self.sides: dict[int, str] = {}
        self.pack: set[int] = set()
        self.partner: int | None = None
        self.partner_role: str | None = None
        self.threat: Counter[int] = Counter()  # ballots against the pack (the pack's view)
        self.failed: Counter[int] = Counter()  # the pack's victims who were saved
        self.pack_victim: int | None = None
        self.night_picks: list[tuple[int, int]] = []  # (pack member, target) in order
        self.victim: int | None = None
        self.extra_cards: list[str] = []
        self.pack_total = 0
        self.inspected: set[int] = set()
        self.handlers = {
            "game_starts": self.on_start,
            "night": self.on_night,
            "pack": self.on_pack,
            "pack_choice": self.on_pack_choice,
            "pack_victim": self.on_pack_victim,
            "failed_attempt": self.on_failed,
            "victim_shown": self.on_victim,
            "extra_cards": self.on_extra,
            "in_love": self.on_love,
            "couple": self.on_couple,
            "inspection": self.on_inspection,
            "vision": self.on_vision,
            "nomination": self.on_accusation,
            "ballot": self.on_accusation,
        }

    def new_public(self, view: View) -> VillagePublic:
        return VillagePublic(view)

    # The public record, read at decision time (never while reading events).
    @property
    def susp(self) -> dict[int, float]:
        return self.pub.susp

    @property
    def dead(self) -> set[int]:
        return self.pub.dead

    @property
    def round(self) -> Round | None:
        return self.pub.round

    @property
    def nominations(self) -> Round | None:
        return self.pub.nominations

    @property
    def banish_leaders(self) -> frozenset[int]:
        return self.pub.banish_leaders

    # ------------------------------------------------------------------ reading
    def see(self, event: Event) -> None:
        data = event.data
        if "role" in data or "roles" in data:
            for seat, role in role_facts(event):
                self.known[seat] = role
                if seat == self.me:
                    self.role = role
        handler = self.handlers.get(event.kind)
        if handler is not None:
            handler(event)

    def on_start(self, ev: Event) -> None:
        composition = ev.data.get("composition")
        if isinstance(composition, Mapping):
            self.pack_total = sum(
                as_int(c) for r, c in composition.items() if str(r) in self.pack_roles
            )

    def on_night(self, ev: Event) -> None:
        self.night_picks = []
        self.victim = None

    def on_pack(self, ev: Event) -> None:
        roles = ev.data.get("roles")
        if isinstance(roles, Mapping):
            self.pack = {as_int(s) for s in roles}
        self.night_picks = []

    def on_pack_choice(self, ev: Event) -> None:
        target = maybe_int(ev.data.get("target"))
        if target is not None:
            self.night_picks.append((as_int(ev.data["player"]), target))

    def on_pack_victim(self, ev: Event) -> None:
        self.pack_victim = maybe_int(ev.data.get("target"))

    def on_failed(self, ev: Event) -> None:
        if self.pack_victim is not None:
            self.failed[self.pack_victim] += 1

    def on_victim(self, ev: Event) -> None:
        self.victim = maybe_int(ev.data.get("target"))

    def on_extra(self, ev: Event) -> None:
        cards = ev.data.get("cards")
        if isinstance(cards, list | tuple):
            self.extra_cards = [str(c) for c in cards]

    def on_love(self, ev: Event) -> None:
        self.partner = as_int(ev.data["partner"])
        role = ev.data.get("role")
        self.partner_role = None if role is None else str(role)

    def on_couple(self, ev: Event) -> None:
        for seat in int_list(ev.data.get("players")):
            if seat != self.me:
                self.partner = seat
                self.partner_role = "couple"

    def on_inspection(self, ev: Event) -> None:
        seat = as_int(ev.data["player"])
        self.sides[seat] = str(ev.data["side"])
        self.inspected.add(seat)

    def on_vision(self, ev: Event) -> None:
        self.inspected.add(as_int(ev.data["player"]))

    def on_accusation(self, ev: Event) -> None:
        """The pack remembers who votes or nominates against its members."""
        if not self.pack:
            return
        voter = as_int(ev.data["player"])
        target = maybe_int(ev.data.get("target"))
        if target in self.pack and voter != self.me:
            self.threat[voter] += 1

    def living(self) -> list[int]:
        return self.pub.living()

    # ------------------------------------------------------------------ judging
    def in_pack(self) -> bool:
        return self.role in self.pack_roles

    def side(self) -> str:
        """'pack', 'village' or 'lovers' (a mixed couple plays for itself)."""
        mine = "pack" if self.in_pack() else "village"
        if self.partner is not None and self.partner_role != "couple":
            partner_pack = (
                self.partner in self.pack
                if self.in_pack()
                else (self.partner_role in self.pack_roles or self.bad(self.partner))
            )
            theirs = "pack" if partner_pack else "village"
            if theirs != mine:
                return "lovers"
        return mine

    def good(self, seat: int) -> bool:
        """Known (to me) not to be in the pack."""
        if seat == self.me:
            return not self.in_pack()
        role = self.known.get(seat)
        if role is not None:
            return role not in self.pack_roles
        if self.sides.get(seat) == "town" and not self.disguised:
            return True
        return seat == self.partner and self.side() != "lovers"

    def bad(self, seat: int) -> bool:
        role = self.known.get(seat)
        if role is not None:
            return role in self.pack_roles
        return self.sides.get(seat) == "mafia"

    def suspicion(self, seat: int) -> float:
        """Public suspicion plus what I know for sure (village side)."""
        if self.bad(seat):
            return SURE
        if self.good(seat):
            return -SURE
        if self.sides.get(seat) == "town":
            return self.susp.get(seat, 0.0) - CLEARED
        return self.susp.get(seat, 0.0)

    def allies(self) -> set[int]:
        side = self.side()
        if side == "pack":
            return set(self.pack) | {self.me}
        if side == "lovers":
            return {self.me} | ({self.partner} if self.partner is not None else set())
        return {s for s in range(self.n) if self.good(s)}


# ---------------------------------------------------------------------- decisions
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
        p = self.prompts
        choice: Action | None = None
        if "take" in p or "keep" in p:
            choice = self.thief()
        elif "link" in p:
            choice = self.cupid()
        elif "spy" in p:
            choice = self.little_girl()
        elif "kill" in p:
            choice = self.kill()
        elif "heal" in p or "poison" in p:
            choice = self.witch()
        elif "inspect" in p:
            choice = self.inspect()
        elif "protect" in p:
            choice = self.protect()
        elif "shoot" in p:
            choice = self.shoot()
        elif "elect" in p:
            choice = self.elect()
        elif "decide" in p:
            choice = self.decide(targets(p["decide"]))
        elif "appoint" in p:
            choice = self.appoint()
        elif "nominate" in p:
            choice = self.nominate()
        elif "vote" in p:
            choice = self.vote()
        return choice or fallback(self.view, self.rng)

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

    def decide(self, tied: list[int]) -> Action | None:
        """The captain must name one of the tied: an enemy, else (only friends and
        himself are tied) a friend before himself."""
        pick = self.enemy_pick(tied)
        if pick is None:
            others = [t for t in tied if t != self.m.me] or tied
            pick = best(others, lambda s: 0.0, self.rng) if others else None
        return self.one("decide", pick)

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
        """A ballot in a public round: the lead of the ballots or the top suspect."""
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

        if side == "village":
            scores = {c: m.suspicion(c) for c in pool}
        else:
            scores = {c: m.susp.get(c, 0.0) for c in pool}
        score = scores.__getitem__
        if rnd is not None and rnd.kind == "banish":
            leaders = set(m.banish_leaders) & scores.keys()
        else:
            leaders = rnd.leaders(scores.keys()) if rnd is not None else set()
        if side == "village":  # no bandwagon against a player I trust
            leaders = {c for c in leaders if scores[c] > -TRUSTED}
        high = max(scores.values())
        tops = [c for c in pool if scores[c] == high] if high >= FOLLOW_FLOOR else []
        if leaders:
            lead_high = max(scores[c] for c in leaders)
            if tops and high >= lead_high + FOLLOW_FLOOR:
                return best(tops, lambda s: self.weight(rnd, s), self.rng)
            firsts = rnd.first if rnd is not None else {}
            return best(leaders, lambda s: score(s) - 0.001 * firsts.get(s, 0), self.rng)
        if tops:
            return best(tops, lambda s: self.weight(rnd, s), self.rng)
        if side != "village":
            # Opening a vote as the pack: the player who most threatens it.
            return best(pool, lambda s: m.threat[s] + 0.1 * score(s), self.rng)
        return best(pool, score, self.rng)

    # ------------------------------------------------------------------ roles
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
            # Asked again: the pack disagrees. Go with the latest other pick.
            for member, pick in reversed(m.night_picks):
                if member != m.me and picks[member] == pick and pick != mine and pick in pool:
                    return self.one("kill", pick)
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
