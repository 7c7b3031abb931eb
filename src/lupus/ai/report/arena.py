"""The metrics Kaggle's Game Arena werewolf environment reports, on lupus's events.

Game Arena (kaggle-environments, ``envs/werewolf/eval``) scores each agent by:

- IRP, identification precision: of the day-exile ballots cast by the village's
  players, the share naming a player of the other side;
- VSS, vote success: on the days a player of the other side was exiled, the share of
  the village's ballots of that day that named him;
- KSR, key-role survival: the share of key-role seats alive at the game's end (and
  WD-KSR, alive at the end and on the winning side).

Here an agent is a player kind; the village is the side of the rulebook's plain
villager and its key roles that side's other cards (``seats.village``). A day-exile
ballot is a ``ballot`` of a kind of vote that, in these games, ended in a death by
``vote`` (the day vote, the banishment; not the Captain's election); in Lupusburg the
last ``ballot_cast`` of each player in a day's second voting, aimed at a house's
player. An exile is a death (or a Lupusburg character's) by ``vote``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lupus.ai.played import Played
from lupus.ai.report.figures import Figure, rate
from lupus.ai.report.seats import Seat
from lupus.engine.game import Game

Vote = tuple[int, int, int]  # (day, voter, target seat)


def exile_kinds(played: Sequence[Played]) -> frozenset[str]:
    """The kinds of vote whose ballots ended in a death by ``vote`` somewhere here."""
    kinds: set[str] = set()
    for p in played:
        last: str | None = None
        for ev in p.game.events:
            if ev.kind == "ballot":
                last = ev.text("vote")
            elif ev.kind == "death" and ev.data.get("cause") == "vote" and last is not None:
                kinds.add(last)
    return frozenset(kinds)


def votes_and_exiles(game: Game, kinds: frozenset[str]) -> tuple[list[Vote], list[tuple[int, int]]]:
    """A game's day-exile ballots and its exiles (day, seat)."""
    votes: list[Vote] = []
    secret: dict[tuple[int, int], int] = {}  # Lupusburg: (day, voter) -> house, the last
    exiles: list[tuple[int, int]] = []
    for ev in game.events:
        if ev.phase != "day":
            continue
        if ev.kind == "ballot" and ev.text("vote") in kinds:
            target = ev.maybe_seat("target")
            if target is not None:
                votes.append((ev.number, ev.seat("player"), target))
        elif ev.kind == "ballot_cast":
            secret[(ev.number, ev.seat("player"))] = ev.seat("house")
        elif ev.kind in ("death", "character_dies") and ev.data.get("cause") == "vote":
            exiles.append((ev.number, ev.seat("player")))
    votes += [(day, voter, house // 2) for (day, voter), house in secret.items()]
    return votes, exiles


def arena(
    played: Sequence[Played], seats: Sequence[Sequence[Seat]], side: str, keys: frozenset[str]
) -> Figure:
    """IRP, VSS, KSR and WD-KSR by player kind (and ``*`` for all kinds), and KSR by
    kind and key role."""
    kinds = exile_kinds(played)
    irp: Counter[tuple[str, int]] = Counter()
    vss: Counter[tuple[str, int]] = Counter()
    ksr: Counter[tuple[str, int]] = Counter()
    wd: Counter[tuple[str, int]] = Counter()
    by_role: Counter[tuple[str, str, int]] = Counter()
    for p, table in zip(played, seats, strict=True):
        votes, exiles = votes_and_exiles(p.game, kinds)
        caught = {day: seat for day, seat in exiles if table[seat].side != side}
        for day, voter, target in votes:
            if table[voter].side != side:
                continue
            for kind in (table[voter].kind, "*"):
                irp[(kind, 0)] += 1
                irp[(kind, 1)] += table[target].side != side
                if day in caught:
                    vss[(kind, 0)] += 1
                    vss[(kind, 1)] += target == caught[day]
        for s in table:
            if s.role not in keys:
                continue
            for kind in (s.kind, "*"):
                ksr[(kind, 0)] += 1
                ksr[(kind, 1)] += s.alive
                wd[(kind, 1)] += s.alive and s.won
                by_role[(kind, s.role, 0)] += 1
                by_role[(kind, s.role, 1)] += s.alive
    names = sorted({k for k, _ in irp} | {k for k, _ in ksr})
    out: Figure = {}
    for kind in names:
        out[kind] = {
            "irp": rate(irp[(kind, 1)], irp[(kind, 0)]),
            "vss": rate(vss[(kind, 1)], vss[(kind, 0)]),
            "ksr": rate(ksr[(kind, 1)], ksr[(kind, 0)]),
            "wd_ksr": rate(wd[(kind, 1)], ksr[(kind, 0)]),
            "ksr_by_role": {
                role: rate(by_role[(k, role, 1)], by_role[(k, role, 0)])
                for (k, role, n) in sorted(by_role)
                if k == kind and n == 0
            },
        }
    return out
