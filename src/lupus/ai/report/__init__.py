"""The tournament report of ``lupus simulate ... --report DIR``.

``write_report(folder, config, played, price=None)`` writes, from the games alone (so
the seed and the answer cache reproduce it byte for byte):

- ``report.json``: every figure (``figures``, ``ratings``, ``arena``), machine-readable;
- ``report.md``: every figure as a markdown table;
- ``wins.png``, ``roles.png``, ``kinds.png``, ``ratings.png``, ``role_ratings.png``;
- ``games.jsonl``: per game its index, scenario, kinds, fallbacks, lines and outcome;
- ``games/<index>.html`` and ``games/index.html``: the replay pages (``replay``).

docs/ai.md, "Tournament reports", defines each figure.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from lupus.ai.played import Played
from lupus.ai.report import arena, figures, plots, ratings, replay, seats, tables
from lupus.narration import Narrator
from lupus.sim.config import SimConfig

__all__ = ["build", "write_report"]


def matches(table: list[seats.Seat], by_role: bool) -> ratings.Match:
    def player(s: seats.Seat) -> str:
        return f"{s.kind}@{s.role}" if by_role else s.kind

    won = tuple((s.seat, player(s)) for s in table if s.won)
    lost = tuple((s.seat, player(s)) for s in table if not s.won)
    return ratings.Match(won, lost)


def build(config: SimConfig, played: list[Played], price: float | None = None) -> dict[str, object]:
    """Every figure of the report, as report.json holds it (games in index order)."""
    played = sorted(played, key=lambda p: p.index)
    book = config.book
    tables_ = [seats.seats_of(book, p) for p in played]
    flat = [s for t in tables_ for s in t]
    rated = [
        t for t, p in zip(tables_, played, strict=True) if p.game.outcome and any(s.won for s in t)
    ]
    side, keys = seats.village(book)
    return {
        "config": {
            "rules": book.id,
            "players": config.players,
            "games": len(played),
            "seed": config.seed,
            "bots": dict(sorted(config.bots.items())),
            "options": dict(sorted(config.options.items())),
        },
        "sides": figures.sides(book, played),
        "roles": figures.wins(flat, lambda s: s.role),
        "kinds": figures.wins(flat, lambda s: s.kind),
        "kind_roles": figures.wins(flat, lambda s: f"{s.kind}@{s.role}"),
        "survival": figures.survival(flat),
        "ratings": ratings.rate([matches(t, False) for t in rated]),
        "role_ratings": ratings.rate([matches(t, True) for t in rated]),
        "rated_games": len(rated),
        "village": {"side": side, "key_roles": sorted(keys)},
        "arena": arena.arena(played, tables_, side, keys),
        "fallbacks": figures.fallbacks(played),
        "cost": figures.cost(played, price),
        "per_game": figures.per_game(played),
    }


def game_line(p: Played) -> str:
    outcome = p.game.outcome
    line = {
        "index": p.index,
        "scenario": p.game.to_scenario(),
        "kinds": list(p.kinds),
        "fallbacks": sorted(p.fallbacks),
        "lines": [dict(x.to_json(), at=getattr(x, "at", None)) for x in p.lines],
        "outcome": None
        if outcome is None
        else {
            "winner": outcome.winner,
            "winners": list(outcome.winners),
            "reason": outcome.reason,
            "scores": {str(k): v for k, v in outcome.scores.items()},
        },
    }
    return json.dumps(line, sort_keys=True, ensure_ascii=False)


def write_report(
    folder: str | Path, config: SimConfig, played: Iterable[Played], price: float | None = None
) -> Path:
    """Write the report of ``played`` (the run ``config`` describes) into ``folder``
    (made if need be); return the path of its report.md."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    games = sorted(played, key=lambda p: p.index)
    report = build(config, games, price)
    (out / "report.json").write_text(
        json.dumps(report, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    n = Narrator(config.book, ())
    path = out / "report.md"
    path.write_text(tables.markdown(n, report), encoding="utf-8")
    for name, key, title in (
        ("wins", "sides", "report_factions"),
        ("roles", "roles", "report_roles"),
        ("kinds", "kinds", "report_kinds"),
    ):
        plots.rates_png(out / f"{name}.png", n.t(title), report[key])  # type: ignore[arg-type]
    plots.ratings_png(out / "ratings.png", n.t("report_ratings"), report["ratings"])  # type: ignore[arg-type]
    plots.ratings_png(out / "role_ratings.png", n.t("report_role_ratings"), report["role_ratings"])  # type: ignore[arg-type]
    (out / "games.jsonl").write_text("".join(game_line(p) + "\n" for p in games), encoding="utf-8")
    replay.write_pages(out, games, [seats.seats_of(config.book, p) for p in games])
    return path
