"""The reports of `lupus simulate` and `lupus balance` in words (``--json`` prints
the same figures as one object)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lupus.families import family_of

if TYPE_CHECKING:
    from lupus.rulebooks.schema import Rulebook
    from lupus.sim import SimConfig
    from lupus.sim.balance import BalanceResult


def simulation_lines(header: str, config: SimConfig, data: dict[str, Any]) -> list[str]:
    """``lupus simulate``'s report in words: the run, the deck, each faction's wins."""
    from lupus.sim.runner import MAX_ACTIONS

    book = config.book
    lines = [
        header,
        f"composition: {', '.join(f'{n} {r}' for r, n in config.composition().items())}",
    ]
    for faction, rate in data["win_rate"].items():
        lo, hi = rate["ci95"]
        wins = data["wins"][faction]
        lines.append(f"  {book.name(faction):24} {wins:>8}  {rate['p']:.3f}  [{lo:.3f}, {hi:.3f}]")
    if data["no_winner"]:
        lines.append(f"  stalemates (no winner after {MAX_ACTIONS} actions): {data['no_winner']}")
    lines.append(f"mean game length: {data['mean_days']:.2f} days")
    if "fallbacks" in data:  # (language-model seats: lupus.ai.llm)
        why = ", ".join(f"{k} {n}" for k, n in data["fallback_reasons"].items())
        lines.append(
            f"model decisions: {data['llm_decisions']}, by the heuristic bot instead: "
            f"{data['fallbacks']}{f' ({why})' if why else ''}; tokens: {data['tokens']}; "
            f"lines said: {data['lines_said']}"
        )
    return lines


def balance_lines(book: Rulebook, run: str, result: BalanceResult) -> list[str]:
    """``lupus balance``'s report in words: per player count, the closest compositions
    and the rulebook's recommended one."""
    from lupus.sim import balance as bal

    fair = family_of(book).fair_label()
    kinds = ", ".join(k if f == "*" else f"{f}={k}" for f, k in result.bots.items())
    lines = [
        f"{book.name('rulebook')}: win rate of {book.name(result.faction)} (fair: {fair}); "
        f"{kinds} bots, {run}"
    ]

    def row(label: str, s: bal.Scored) -> str:
        lo, hi = s.ci95
        deck = f"{bal.key(s.counts)} ({s.points:+d} points)"
        return f"  {label:>5}  {s.p:.3f} [{lo:.3f}, {hi:.3f}]  {s.games:>6}  {deck}"

    for c in result.counts:
        played = "" if c.field_size is None else f", the {c.field_size} nearest even by points"
        lines.append(
            f"{c.players} players (fair {c.goal:.3f}): {c.candidates} composition(s){played}, "
            f"{c.games_played} games"
        )
        lines += [row(f"#{i}", s) for i, s in enumerate(c.best, 1)]
        if c.recommended is not None:
            lines.append(row("rec.", c.recommended))
        else:
            lines.append("   rec.  (the rulebook recommends none)")
    return lines
