"""A replay page of each game: for every seat its name, card and kind, and step by step
what it saw (its own view's story, told as the pages tell it), what it said and what it
chose, marked where the fallback chose for a model seat.

The views come from replaying the game's scenario from its start (``parse``,
``setup``, then its history action by action), each taken just before the seat's own
action: exactly what that seat could know then. Everything shown is escaped, and a
page is one self-contained file (inline style, no script, no outside link).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from lupus.ai.played import Played
from lupus.ai.report.seats import Seat
from lupus.narration import Narrator
from lupus.scenario import parse, setup

STYLE = (
    "body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em}"
    "section{border-top:1px solid #999;margin-top:1em}"
    ".saw{color:#444;font-size:90%}.fallback{color:#a40}li{margin:.2em 0}"
)


def page(title: str, body: str, lang: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f"<body><h1>{html.escape(title)}</h1>\n{body}</body></html>\n"
    )


def steps(played: Played) -> list[list[tuple[list[str], str, bool, int]]]:
    """For each seat, its actions in order: (what it saw, what it chose, fallback, at)."""
    game = played.game
    replayed = setup(parse(game.to_scenario()))
    book = game.rulebook
    narrators = [Narrator(book, game.names) for _ in range(game.n)]
    out: list[list[tuple[list[str], str, bool, int]]] = [[] for _ in range(game.n)]
    seen = [0] * game.n  # sentences already shown to each seat
    for at, action in enumerate(game.history):
        seat = action.actor
        if 0 <= seat < game.n:
            story = narrators[seat].lines(replayed.seen(seat))
            chose = narrators[seat].choice(action.verb, action.args)
            out[seat].append((story[seen[seat] :], chose, at in played.fallbacks, at))
            seen[seat] = len(story)
        replayed.apply(action)
    return out


def game_page(played: Played, seats: Sequence[Seat]) -> str:
    game = played.game
    n = Narrator(game.rulebook, game.names)
    e = html.escape
    parts: list[str] = []
    for seat, actions in enumerate(steps(played)):
        info = seats[seat]
        said = [line for line in played.lines if line.seat == seat]
        parts.append(
            f'<section id="seat{seat}"><h2>{e(game.names[seat])}</h2><p>'
            f"{e(n.t('report_card'))}: {e(n.role(info.role))} · "
            f"{e(n.t('report_kind'))}: {e(info.kind)} · "
            f"{e(n.t('report_won') if info.won else n.t('report_lost'))}</p><ol>"
        )
        for saw, chose, fallback, at in actions:
            heard = [
                line
                for line in said
                if getattr(line, "at", None) is not None and getattr(line, "at", 0) <= at
            ]
            said = [line for line in said if line not in heard]
            parts.append(
                "<li>"
                + "".join(f'<div class="saw">{e(s)}</div>' for s in saw if s)
                + "".join(f"<div>{e(n.t('report_said'))}: {e(x.text)}</div>" for x in heard)
                + f"<div><b>{e(n.t('report_chose'))}</b>: {e(chose)}"
                + (
                    f' <span class="fallback">{e(n.t("report_by_fallback"))}</span>'
                    if fallback
                    else ""
                )
                + "</div></li>"
            )
        parts += [f"<li>{e(n.t('report_said'))}: {e(x.text)}</li>" for x in said]
        parts.append("</ol></section>\n")
    return page(n.t("report_game", index=played.index), "".join(parts), n.lang)


def write_pages(folder: Path, played: Sequence[Played], seats: Sequence[Sequence[Seat]]) -> None:
    games = folder / "games"
    games.mkdir(parents=True, exist_ok=True)
    links: list[str] = []
    for p, table in zip(played, seats, strict=True):
        (games / f"{p.index}.html").write_text(game_page(p, table), encoding="utf-8")
        n = Narrator(p.game.rulebook, p.game.names)
        winner = p.game.outcome.winner if p.game.outcome is not None else None
        result = n.side(winner) if winner else n.t("report_no_winner")
        links.append(
            f'<li><a href="{p.index}.html">{html.escape(n.t("report_game", index=p.index))}'
            f"</a>: {html.escape(result)}</li>"
        )
    n0 = Narrator(played[0].game.rulebook, ()) if played else None
    title = n0.t("report_games_list") if n0 else "games"
    lang = n0.lang if n0 else "en"
    (games / "index.html").write_text(
        page(title, "<ul>" + "".join(links) + "</ul>", lang), encoding="utf-8"
    )
