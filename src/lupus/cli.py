"""The `lupus` command: replay, rules, demo, play, simulate, balance and serve."""

from __future__ import annotations

import json
import sys
import unicodedata
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from lupus import scenario as sc
from lupus.engine.errors import LupusError
from lupus.engine.model import LEADER
from lupus.families import family_of, load
from lupus.files import printable
from lupus.narration import narrate
from lupus.rules_text import describe, listing

app = typer.Typer(
    help="lupus: the Werewolf family of hidden-role games, played exactly by the rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_lines(lines: list[str]) -> None:
    sys.stdout.write("\n".join(lines) + "\n")


def _fail(exc: LupusError) -> typer.Exit:
    """Say why on one line of stderr (anything that would not print as one plain line
    escaped), and give the exit status 1."""
    typer.echo(f"lupus: {printable(str(exc), None)}", err=True)
    return typer.Exit(1)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A scenario file (JSON); see docs/scenarios.md.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
    seat: Annotated[
        str | None, typer.Option(help="Only what this player saw (default: the leader).")
    ] = None,
    lang: Annotated[str | None, typer.Option(help="Language of the narration.")] = None,
) -> None:
    """Replay a scenario file: a narrated log ending with the full reveal, or --json.

    Exit status: 0 when every action applied, 2 on an illegal action, 1 on a bad file.
    """
    try:
        result = sc.replay(sc.read(file))
    except LupusError as exc:
        raise _fail(exc) from exc
    game = result.game
    viewer = LEADER
    if seat is not None:
        seat = unicodedata.normalize("NFC", seat)  # the form the game keeps names in
        if seat not in game.names:
            typer.echo(f"lupus: there is no player named {seat!r}", err=True)
            raise typer.Exit(1)
        viewer = game.names.index(seat)
    if as_json:
        # With --seat, only what that player saw (his view), as in the narration.
        told = sc.summary(result, None if seat is None else viewer)
        sys.stdout.write(json.dumps(told, ensure_ascii=False) + "\n")
    else:
        lines = narrate(game.view(viewer), lang)
        if result.error_index is not None:
            lines.append("")
            if viewer == LEADER or result.error_actor == viewer:
                lines.append(f"! action {result.error_index} refused: {result.error_message}")
            else:  # another player's refused move is not this player's to read
                lines.append(f"! action {result.error_index}: {sc.STOPPED}")
        _print_lines(lines)
    if result.error_index is not None:
        raise typer.Exit(2)


@app.command()
def rules(
    rulebook: Annotated[str | None, typer.Argument(help="A rulebook id or .toml path.")] = None,
    lang: Annotated[str | None, typer.Option(help="Language (default: the rulebook's).")] = None,
) -> None:
    """List the rulebooks, or explain one: roles, night order, options, compositions."""
    try:
        lines = listing(lang) if rulebook is None else describe(load(rulebook), lang)
    except LupusError as exc:
        raise _fail(exc) from exc
    _print_lines(lines)


@app.command()
def demo(
    lang: Annotated[str | None, typer.Option(help="Language of the narration.")] = None,
) -> None:
    """Replay a whole scripted game with its narration (no setup needed)."""
    source = resources.files("lupus.demos").joinpath("werewolf.json").read_text("utf-8")
    result = sc.replay(sc.parse(json.loads(source), "demo"))
    _print_lines(narrate(result.game.view(LEADER), lang))


def _parse_options(pairs: list[str]) -> dict[str, object]:
    options: dict[str, object] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep:
            raise typer.BadParameter(f"{pair!r} is not key=value", param_hint="--option")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def _parse_bots(text: str) -> dict[str, str]:
    if "=" not in text:
        return {"*": text}
    bots: dict[str, str] = {}
    for part in text.split(","):
        faction, _, kind = part.partition("=")
        bots[faction.strip()] = kind.strip()
    return bots


@app.command()
def simulate(
    rules: Annotated[str, typer.Option("--rules", help="Rulebook id or .toml path.")] = "werewolf",
    players: Annotated[int, typer.Option(help="Players (the recommended composition).")] = 8,
    roles: Annotated[
        str | None, typer.Option(help="Composition instead: role=count,... (thief: +2 cards).")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Rulebook option key=value (repeat).")
    ] = None,
    bots: Annotated[
        str, typer.Option(help="random | heuristic, or per faction: werewolves=heuristic,...")
    ] = "random",
    games: Annotated[int, typer.Option(help="Games to play.")] = 10_000,
    seed: Annotated[int, typer.Option(help="Same seed, same numbers, whatever --workers.")] = 0,
    workers: Annotated[int | None, typer.Option(help="Processes (default: all cores).")] = None,
    backend: Annotated[str, typer.Option(help="processes | ray")] = "processes",
    ray_address: Annotated[str | None, typer.Option(help="An existing Ray cluster.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Self-play many seeded games and report win rates with 95% confidence intervals."""
    import os

    from rich.progress import Progress

    from lupus.engine.deal import parse_counts
    from lupus.sim import SimConfig
    from lupus.sim import simulate as run
    from lupus.sim.runner import MAX_ACTIONS

    try:
        book = load(rules)
        counts = parse_counts(roles) if roles else {}
        if roles:
            players = sum(counts.values()) - (2 if "thief" in counts else 0)
        config = SimConfig(
            rules=book,  # (the rulebook itself: workers play it, they do not read it again)
            players=players,
            counts=counts,
            options=_parse_options(option or []),  # type: ignore[arg-type]
            bots=_parse_bots(bots),
            seed=seed,
        )
        config.composition()
        from lupus.sim.runner import play_one

        play_one(config, 0, book)  # a bad setup fails here, before any worker starts
    except (LupusError, ValueError) as exc:
        typer.echo(f"lupus: {exc}", err=True)
        raise typer.Exit(1) from exc
    n_workers = workers or os.cpu_count() or 1
    show = not as_json and games >= 2000 and sys.stderr.isatty()
    try:
        with Progress(transient=True, disable=not show) as bar:
            task = bar.add_task("playing", total=games)
            result = run(
                config,
                games,
                workers=n_workers,
                backend=backend,
                ray_address=ray_address,
                progress=lambda done: bar.advance(task, done),
            )
    except LupusError as exc:  # (no game played is no success)
        raise _fail(exc) from exc
    data = result.as_dict()
    if as_json:
        sys.stdout.write(json.dumps(data) + "\n")
        return
    lines = [
        f"{book.name('rulebook')}: {players} players, {data['games']} games "
        f"({data['games_per_second']:.0f}/s on {n_workers} {backend} worker(s)), seed {seed}",
        f"composition: {', '.join(f'{n} {r}' for r, n in config.composition().items())}",
    ]
    for faction, rate in data["win_rate"].items():  # type: ignore[attr-defined]
        lo, hi = rate["ci95"]
        wins = data["wins"][faction]  # type: ignore[index]
        lines.append(f"  {book.name(faction):24} {wins:>8}  {rate['p']:.3f}  [{lo:.3f}, {hi:.3f}]")
    if data["no_winner"]:
        lines.append(f"  stalemates (no winner after {MAX_ACTIONS} actions): {data['no_winner']}")
    lines.append(f"mean game length: {data['mean_days']:.2f} days")
    _print_lines(lines)


def parse_players(text: str) -> list[int]:
    """``8-12`` or ``8,10,12`` or ``8`` -> player counts (``lupus balance --players``)."""
    from lupus.engine.errors import SetupError

    found: list[int] = []
    try:
        for part in text.split(","):
            lo, sep, hi = part.strip().partition("-")
            if sep:
                found.extend(range(int(lo), int(hi) + 1))
            elif lo:
                found.append(int(lo))
    except ValueError as exc:
        raise SetupError(f"--players: {text!r} is not like 8-12 or 8,10,12") from exc
    if not found:
        raise SetupError("--players: no player count")
    return sorted(set(found))


def parse_range(text: str) -> tuple[int | None, int | None]:
    """``2-4``, ``2-`` (2 to the default), ``-4`` or ``3`` -> (low, high); None: default
    (``lupus balance --pack``)."""
    from lupus.engine.errors import SetupError

    lo, sep, hi = text.strip().partition("-")
    try:
        low = int(lo) if lo else None
        high = (int(hi) if hi else None) if sep else low
    except ValueError as exc:
        raise SetupError(f"--pack: {text!r} is not like 1-3, 2- or 3") from exc
    if low is None and high is None:
        raise SetupError("--pack: give at least one pack size")
    return low, high


@app.command()
def balance(
    rules: Annotated[str, typer.Option("--rules", help="Rulebook id or .toml path.")] = "werewolf",
    players: Annotated[str, typer.Option(help="Player counts: 8-12, or 8,10,12.")] = "8-12",
    games: Annotated[int, typer.Option(help="Games for each finalist and the recommended.")] = 1000,
    top: Annotated[int, typer.Option(help="Compositions to show per player count.")] = 3,
    pack: Annotated[
        str | None,
        typer.Option(help="Pack sizes to try: 1-4, or 2- (default: 1 to a third of the table)."),
    ] = None,
    bots: Annotated[
        str, typer.Option(help="random | heuristic, or per faction: werewolves=heuristic,...")
    ] = "random",
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Rulebook option key=value (repeat).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Same seed, same numbers, whatever --workers.")] = 0,
    workers: Annotated[int | None, typer.Option(help="Processes (default: all cores).")] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write a PNG of win rate by player count.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Search compositions for even odds: per player count, the closest ones with their
    win rate and 95% interval, and the rulebook's recommended composition for comparison.

    Fair is a 50% win rate for the village (villagers, town); in Lupusburg, whose deck is
    fixed, a Werewolf win rate of 1/players (the Werewolf card worth any other deal).
    """
    import os

    from lupus.sim import balance as bal

    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError as exc:
            typer.echo(
                "lupus: --plot needs matplotlib: pip install 'lupus[plot]' "
                "(or pip install matplotlib)",
                err=True,
            )
            raise typer.Exit(1) from exc
    n_workers = workers or os.cpu_count() or 1
    try:
        book = load(rules)
        counts = parse_players(players)
        result = bal.search(
            book,
            counts,
            games=games,
            top=top,
            bots=_parse_bots(bots),
            options=_parse_options(option or []),  # type: ignore[arg-type]
            seed=seed,
            workers=n_workers,
            pack=parse_range(pack) if pack else None,
            progress=None if as_json or not sys.stderr.isatty() else typer.echo,
        )
    except (LupusError, ValueError) as exc:
        typer.echo(f"lupus: {exc}", err=True)
        raise typer.Exit(1) from exc
    if plot is not None:
        bal.plot(result, str(plot))
    if as_json:
        sys.stdout.write(json.dumps(result.as_dict()) + "\n")
        return
    fair = family_of(book).fair_label()
    kinds = ", ".join(k if f == "*" else f"{f}={k}" for f, k in result.bots.items())
    lines = [
        f"{book.name('rulebook')}: win rate of {book.name(result.faction)} (fair: {fair}); "
        f"{kinds} bots, {games} games per finalist, seed {seed}, "
        f"{result.seconds:.0f}s on {n_workers} worker(s)",
    ]

    def row(label: str, s: bal.Scored) -> str:
        lo, hi = s.ci95
        return f"  {label:>5}  {s.p:.3f} [{lo:.3f}, {hi:.3f}]  {s.games:>6}  {bal.key(s.counts)}"

    for c in result.counts:
        lines.append(
            f"{c.players} players (fair {c.goal:.3f}): {c.candidates} composition(s), "
            f"{c.games_played} games"
        )
        lines += [row(f"#{i}", s) for i, s in enumerate(c.best, 1)]
        if c.recommended is not None:
            lines.append(row("rec.", c.recommended))
        else:
            lines.append("   rec.  (the rulebook recommends none)")
    if plot is not None:
        lines.append(f"plot: {plot}")
    _print_lines(lines)


@app.command()
def play(
    rules: Annotated[str, typer.Option("--rules", help="Rulebook id or .toml path.")] = "werewolf",
    players: Annotated[int, typer.Option(help="Players at the table (you included).")] = 8,
    seat: Annotated[int, typer.Option(help="Your seat, 1 = first clockwise.")] = 1,
    lang: Annotated[str | None, typer.Option(help="Language (default: the rulebook's).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed, to play the same deal again.")] = None,
    bots: Annotated[str, typer.Option(help="Bot kind for the other seats.")] = "random",
) -> None:
    """Play a game in the terminal against bots: your view only, menus at your prompts."""
    from lupus.terminal import play as run

    if not 1 <= seat <= players:
        typer.echo(f"lupus: --seat is 1 to {players}", err=True)
        raise typer.Exit(1)

    def ask(question: str) -> str | None:
        try:
            return input(question + " ")
        except EOFError:
            return None

    try:
        run(rules, players, seat - 1, ask, typer.echo, lang=lang, seed=seed, bots=bots)
    except (LupusError, ValueError) as exc:
        typer.echo(f"lupus: {exc}", err=True)
        raise typer.Exit(1) from exc


@app.command()
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0: every network of the machine).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Annotated[
        Path, typer.Option(help="SQLite file keeping every room and game (made if missing).")
    ] = Path("lupus.db"),
    log_level: Annotated[str, typer.Option(help="debug | info | warning | error")] = "info",
) -> None:
    """Run the game server: rooms, live play over WebSockets, durable games.

    Open the printed address; friends on the same network join with the room's link.
    Every room and game is kept in --database, and a restart resumes them all.
    """
    from lupus.server.serving import run as run_server

    run_server(host, port, database, log_level)


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
