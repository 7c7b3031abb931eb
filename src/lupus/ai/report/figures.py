"""The report's counts: win rates by side, role, player kind and kind at a role, with
Wilson 95% intervals; survival by role; answers replaced by the fallback; tokens, time
and cost per game. Each figure is a plain dict (report.json holds them as they are).

A role's or a kind's win rate counts seats, not games: a game of six villagers adds six
seats to the villager's row. Seats of one game are not independent, so the interval of
such a row is narrower than the games alone would give; the side's row counts games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from lupus.ai.played import Played
from lupus.ai.report.seats import Seat
from lupus.rulebooks.schema import Rulebook
from lupus.sim.stats import wilson

Figure = dict[str, object]


def rate(hits: int, count: int) -> Figure:
    low, high = wilson(hits, count)
    return {"hits": hits, "count": count, "p": hits / count if count else 0.0, "ci95": [low, high]}


def sides(book: Rulebook, played: Sequence[Played]) -> Figure:
    """Games won by each side of the rulebook, and games without a winner."""
    wins = Counter(p.game.outcome.winner for p in played if p.game.outcome is not None)
    out: Figure = {side: rate(wins.get(side, 0), len(played)) for side in book.factions}
    none = len(played) - sum(wins.get(side, 0) for side in book.factions)
    out["none"] = rate(none, len(played))
    return out


def by_seat(
    seats: Sequence[Seat], key: Callable[[Seat], str], test: Callable[[Seat], bool]
) -> Figure:
    hits: Counter[str] = Counter()
    count: Counter[str] = Counter()
    for seat in seats:
        count[key(seat)] += 1
        hits[key(seat)] += test(seat)
    return {name: rate(hits[name], count[name]) for name in sorted(count)}


def wins(seats: Sequence[Seat], key: Callable[[Seat], str]) -> Figure:
    """Seats that won, grouped by ``key``, with each group's mean points where the
    rules keep scores (Lupusburg: one player wins, the others score)."""
    out = by_seat(seats, key, lambda s: s.won)
    points: dict[str, list[int]] = {}
    for seat in seats:
        if seat.points is not None:
            points.setdefault(key(seat), []).append(seat.points)
    for name, scored in points.items():
        row = out[name]
        assert isinstance(row, dict)
        row["points"] = sum(scored) / len(scored)
    return out


def survival(seats: Sequence[Seat]) -> Figure:
    """Seats still in the game at its end, by role."""
    return by_seat(seats, lambda s: s.role, lambda s: s.alive)


def fallbacks(played: Sequence[Played]) -> Figure:
    """Model decisions asked, answers the fallback replaced (and why), and the
    replaced actions by the kind of the seat they were taken for."""
    reasons: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    decisions = 0
    for p in played:
        decisions += p.cost.decisions
        reasons.update(p.cost.fallbacks)
        for at in p.fallbacks:
            actor = p.game.history[at].actor
            by_kind[p.kinds[actor] if 0 <= actor < len(p.kinds) else "leader"] += 1
    replaced = sum(len(p.fallbacks) for p in played)
    return {
        "decisions": decisions,
        "replaced": replaced,
        "share": replaced / decisions if decisions else 0.0,
        "reasons": dict(sorted(reasons.items())),
        "by_kind": dict(sorted(by_kind.items())),
        "games_with_fallbacks": sum(1 for p in played if p.fallbacks),
    }


def cost(played: Sequence[Played], price: float | None) -> Figure:
    """Tokens, seconds, calls and (given a price per million tokens) money, in all and
    per game; the seconds are the replies' own, so a replay reports the recorded run's."""
    games = len(played) or 1
    tokens = sum(p.cost.tokens for p in played)
    seconds = sum(p.cost.seconds for p in played)
    calls = sum(p.cost.calls for p in played)
    cached = sum(p.cost.cached for p in played)
    out: Figure = {
        "tokens": tokens,
        "tokens_per_game": tokens / games,
        "seconds": seconds,
        "seconds_per_game": seconds / games,
        "calls": calls,
        "cached": cached,
        "price_per_million": price,
    }
    if price is not None:
        out["cost"] = tokens * price / 1e6
        out["cost_per_game"] = tokens * price / 1e6 / games
    return out


def per_game(played: Sequence[Played]) -> list[Figure]:
    """Each game's cost and fallbacks, for a look at the spread behind the means."""
    return [
        {
            "index": p.index,
            "tokens": p.cost.tokens,
            "seconds": p.cost.seconds,
            "calls": p.cost.calls,
            "decisions": p.cost.decisions,
            "replaced": len(p.fallbacks),
        }
        for p in played
    ]
