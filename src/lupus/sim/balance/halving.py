"""Successive halving: how many compositions play how many games, and which go on.

`schedule` plans the rounds; before each cut but the last, `prune` keeps the
compositions closest to the target, each judged on its own games shrunk towards
`pooled_model`, an additive logistic model fitted on every composition's games, so that
a handful of games each is enough to drop the hopeless ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from lupus.rulebooks.schema import Rulebook
from lupus.sim.balance.candidates import Counts, fillers, key
from lupus.sim.balance.report import Scored

ETA = 3
"""Successive halving keeps the best 1/ETA of the candidates and plays ETA times more."""

MIN_FIRST_GAMES = 4


def schedule(
    n: int, games: int, top: int, eta: int = ETA, first: int = MIN_FIRST_GAMES
) -> list[tuple[int, int]]:
    """Successive halving: (candidates playing, games each so far) per round. The last
    round plays the ``top`` finalists to ``games``, each round before it ``eta`` times
    fewer, the first at least ``first``; the field shrinks geometrically from ``n``."""
    if n <= top or games < first * eta:
        return [(n, games)]
    rounds = 2
    while games / eta**rounds >= first:
        rounds += 1
    plan = []
    for i in range(rounds):
        size = max(top, math.ceil(n * (top / n) ** (i / (rounds - 1)) - 1e-9))
        plan.append((size, math.ceil(games / eta ** (rounds - 1 - i))))
    return plan


PRIOR_GAMES = 32
"""How many games' worth of weight the pooled model gets against a composition's own."""


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrices here are tiny)."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def pooled_model(
    book: Rulebook, played: Sequence[tuple[Counts, int, int]], ridge: float = 1.0
) -> Callable[[Counts], float]:
    """An additive logistic model of the win rate fitted on every composition's games:
    logit p = b0 + sum of b_role * count(role) over the roles but the filler. A
    composition with a handful of games is judged with the strength of all of them."""
    filler = fillers(book)[1]
    roles = [r for r in book.roles if r != filler]

    def features(counts: Counts) -> list[float]:
        return [1.0, *(float(counts.get(r, 0)) for r in roles)]

    rows = [(features(c), wins, games) for c, wins, games in played if games]
    beta = [0.0] * (len(roles) + 1)
    for _ in range(25):
        grad = [-ridge * b for b in beta]
        grad[0] = 0.0
        hess = [[ridge * (i == j and i > 0) for j in range(len(beta))] for i in range(len(beta))]
        for x, wins, games in rows:
            eta_ = sum(b * v for b, v in zip(beta, x, strict=True))
            mu = 1 / (1 + math.exp(-max(-30.0, min(30.0, eta_))))
            weight = games * mu * (1 - mu) + 1e-9
            for i, xi in enumerate(x):
                grad[i] += xi * (wins - games * mu)
                for j, xj in enumerate(x):
                    hess[i][j] += weight * xi * xj
        step = _solve(hess, grad)
        beta = [b + d for b, d in zip(beta, step, strict=True)]
        if max(abs(d) for d in step) < 1e-8:
            break

    def predict(counts: Counts) -> float:
        z = sum(b * v for b, v in zip(beta, features(counts), strict=True))
        return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))

    return predict


def prune(
    book: Rulebook,
    scored: Sequence[Scored],
    seen: Sequence[tuple[Counts, int, int]],
    goal: float,
    keep: int,
) -> list[Counts]:
    """The ``keep`` compositions closest to ``goal``, each judged on its own games shrunk
    towards the pooled model (worth `PRIOR_GAMES` games) fitted on ``seen``."""
    model = pooled_model(book, seen)

    def shrunk(s: Scored) -> tuple[float, str]:
        wins = s.tally.wins.get(s.faction, 0) + PRIOR_GAMES * model(s.counts)
        return (round(abs(wins / (s.games + PRIOR_GAMES) - goal), 12), key(s.counts))

    return [s.counts for s in sorted(scored, key=shrunk)[:keep]]
