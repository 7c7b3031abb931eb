"""The `lupus` command: replay, rules, demo, play, simulate, balance and serve."""

from __future__ import annotations

import contextlib
import json
import sys
import unicodedata
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from lupus import scenario as sc
from lupus.engine.errors import LupusError, SetupError
from lupus.engine.limits import (
    MAX_ARGUMENT_TEXT,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MAX_PORT,
    MAX_SEED,
    MAX_WORKERS,
)
from lupus.engine.model import LEADER
from lupus.engine.untrusted import cut, exact_int, quoted
from lupus.families import family_of, load
from lupus.files import path_problem, printable, shown_path
from lupus.narration import narrate
from lupus.rules_text import describe, listing

if TYPE_CHECKING:
    from lupus.rulebooks.schema import Rulebook
    from lupus.server.limits import ServerLimits
    from lupus.sim import SimConfig
    from lupus.sim.balance import BalanceResult

app = typer.Typer(
    help="lupus: the Werewolf family of hidden-role games, played exactly by the rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_lines(lines: list[str]) -> None:
    sys.stdout.write("\n".join(lines) + "\n")


def _refuse(message: str) -> typer.Exit:
    """Say why on one line of stderr (anything that would not print as one plain line
    escaped, and cut at ``MAX_MESSAGE``), and give the exit status 1."""
    typer.echo(f"lupus: {printable(cut(message), None)}", err=True)
    return typer.Exit(1)


def _fail(exc: Exception) -> typer.Exit:
    """``_refuse`` with an error's message."""
    return _refuse(str(exc) or type(exc).__name__)


def _workers(workers: int | None) -> int:
    """The worker processes asked for, or all cores (at most ``MAX_WORKERS``)."""
    import os

    if workers is None:
        return max(1, min(os.cpu_count() or 1, MAX_WORKERS))
    return exact_int(workers, "--workers", 1, MAX_WORKERS)


def _writable(path: Path, what: str) -> None:
    """SetupError unless a file could be written at ``path`` (its folder exists, its
    name is not too long for the system), asked before the work whose result it keeps."""
    import os

    problem = path_problem(path)
    if problem is None:
        try:
            if not path.parent.is_dir():
                problem = f"no folder {shown_path(path.parent)}"
            elif len(os.fsencode(path.name)) > os.pathconf(path.parent, "PC_NAME_MAX"):
                problem = f"{shown_path(path)}: the name is too long for the system"
        except (OSError, ValueError) as exc:
            problem = f"{shown_path(path)}: {getattr(exc, 'strerror', None) or exc}"
    if problem:
        raise SetupError(f"{what}: {problem}")


def _seed(seed: int) -> int:
    return exact_int(seed, "--seed", 0, MAX_SEED)


def _text(value: str, what: str) -> str:
    """A command-line value of at most ``MAX_ARGUMENT_TEXT`` characters."""
    if len(value) > MAX_ARGUMENT_TEXT:
        raise SetupError(f"{what}: at most {MAX_ARGUMENT_TEXT} characters, not {len(value)}")
    return value


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
            raise _refuse(f"there is no player named {quoted(seat)}")
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
    """``--option key=value`` (repeated) -> options; a value is read as JSON when it is
    (``true``, ``2``, ``0.5``), else as text. At most ``MAX_OPTIONS``, each at most
    ``MAX_ARGUMENT_TEXT`` characters; the rulebook checks the rest."""
    if len(pairs) > MAX_OPTIONS:
        raise SetupError(f"--option: at most {MAX_OPTIONS} options, not {len(pairs)}")
    options: dict[str, object] = {}
    for pair in pairs:
        key, sep, raw = _text(pair, "--option").partition("=")
        if not sep:
            raise SetupError(f"--option: {quoted(pair)} is not key=value")
        try:
            options[key] = json.loads(raw)
        except (ValueError, RecursionError):  # (not JSON: the text itself)
            options[key] = raw
    return options


def _parse_bots(text: str) -> dict[str, str]:
    """``random``, or ``werewolves=heuristic,villagers=random``: the rulebook's
    factions and the known kinds are checked by ``SimConfig.check``."""
    _text(text, "--bots")
    if "=" not in text:
        return {"*": text.strip()}
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
    """Self-play many seeded games and report win rates with 95% confidence intervals.

    Every value is checked before a game is played or a worker started (games from 1
    to 100,000,000, workers from 1 to 256: docs/architecture.md, "Limits")."""
    from rich.progress import Progress

    from lupus.sim import simulate as run
    from lupus.sim.runner import check_run

    try:
        n_workers = _workers(workers)
        check_run(games, n_workers, backend)
        config = _sim_config(rules, players, roles, option or [], bots, seed)
    except (LupusError, ValueError) as exc:
        raise _fail(exc) from exc
    book, players = config.book, config.players
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
    header = (
        f"{book.name('rulebook')}: {players} players, {data['games']} games "
        f"({data['games_per_second']:.0f}/s on {n_workers} {backend} worker(s)), seed {seed}"
    )
    _print_lines(_simulation_lines(header, config, data))


def _sim_config(
    rules: str, players: int, roles: str | None, option: list[str], bots: str, seed: int
) -> SimConfig:
    """The run ``lupus simulate`` was asked for, checked whole and tried on one game
    (a set-up that fails in play fails here, before any worker starts)."""
    from lupus.engine.deal import parse_counts
    from lupus.sim import SimConfig
    from lupus.sim.runner import play_one

    book = load(rules)
    counts = parse_counts(roles) if roles is not None else {}
    if roles is not None:
        players = sum(counts.values()) - (2 if counts.get("thief") else 0)
    config = SimConfig(
        rules=book,  # (the rulebook itself: workers play it, they do not read it again)
        players=players,
        counts=counts,
        options=_parse_options(option),  # type: ignore[arg-type]
        bots=_parse_bots(bots),
        seed=_seed(seed),
    )
    config.check()  # the table, the cards, the options, the bots
    play_one(config, 0, book)
    return config


def _simulation_lines(header: str, config: SimConfig, data: dict[str, Any]) -> list[str]:
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
    return lines


def _count(text: str, what: str, example: str) -> int:
    """A whole number written in digits, from 1 to ``MAX_PLAYERS`` (a table's size, a
    pack's), read without ``int``'s leniency (no sign, no underscore, no other script)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()):
        raise SetupError(f"{what}: {quoted(text)} is not like {example}")
    if len(text) > 4 or not 1 <= int(text) <= MAX_PLAYERS:
        raise SetupError(f"{what}: a table has 1 to {MAX_PLAYERS} players, not {quoted(text)}")
    return int(text)


def parse_players(text: str) -> list[int]:
    """``8-12`` or ``8,10,12`` or ``8`` -> player counts (``lupus balance --players``),
    each from 1 to ``MAX_PLAYERS``, read before any is played (the rulebook's bounds are
    checked for all of them by the search, before it starts)."""
    example = "8-12 or 8,10,12"
    found: set[int] = set()
    for part in _text(text, "--players").split(","):
        lo, sep, hi = part.strip().partition("-")
        if sep:
            low, high = _count(lo, "--players", example), _count(hi, "--players", example)
            if low > high:
                raise SetupError(f"--players: {quoted(part.strip())} goes down, not up")
            found.update(range(low, high + 1))
        elif lo:
            found.add(_count(lo, "--players", example))
    if not found:
        raise SetupError("--players: no player count")
    return sorted(found)


def parse_range(text: str) -> tuple[int | None, int | None]:
    """``2-4``, ``2-`` (2 to the default), ``-4`` or ``3`` -> (low, high); None: default
    (``lupus balance --pack``), each size from 1 to ``MAX_PLAYERS``."""
    example = "1-3, 2- or 3"
    lo, sep, hi = _text(text, "--pack").strip().partition("-")
    low = _count(lo, "--pack", example) if lo.strip() else None
    high = (_count(hi, "--pack", example) if hi.strip() else None) if sep else low
    if low is None and high is None:
        raise SetupError("--pack: give at least one pack size")
    if low is not None and high is not None and low > high:
        raise SetupError(f"--pack: {quoted(text.strip())} goes down, not up")
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
    from lupus.sim import balance as bal

    try:
        n_workers = _workers(workers)
        if plot is not None:  # (written at the end: a path that cannot be is refused now)
            _need_matplotlib()
            _writable(plot, "--plot")
        book = load(rules)
        counts = parse_players(players)
        # (the search checks every value, for every player count, before it plays one)
        result = bal.search(
            book,
            counts,
            games=games,
            top=top,
            bots=_parse_bots(bots),
            options=_parse_options(option or []),  # type: ignore[arg-type]
            seed=_seed(seed),
            workers=n_workers,
            pack=parse_range(pack) if pack is not None else None,
            progress=None if as_json or not sys.stderr.isatty() else typer.echo,
        )
    except (LupusError, ValueError) as exc:
        raise _fail(exc) from exc
    _check_played(result, plot)
    if as_json:
        sys.stdout.write(json.dumps(result.as_dict()) + "\n")
        return
    run = f"{games} games per finalist, seed {seed}, {result.seconds:.0f}s on {n_workers} worker(s)"
    _print_lines(_balance_lines(book, run, result) + ([f"plot: {plot}"] if plot else []))


def _need_matplotlib() -> None:
    """``--plot`` needs matplotlib, an extra: said before any game is played."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        typer.echo(
            "lupus: --plot needs matplotlib: pip install 'lupus[plot]' (or pip install matplotlib)",
            err=True,
        )
        raise typer.Exit(1) from exc


def _check_played(result: BalanceResult, plot: Path | None) -> None:
    """No success on zero work: a search that played nothing fails; then the plot."""
    from lupus.sim import balance as bal

    if not any(c.games_played for c in result.counts):
        why = next((w for c in result.counts for w in c.rejected.values()), "")
        raise _refuse(
            "no composition could be played" + (f": {why}" if why else " (none is accepted)")
        )
    if plot is not None:
        try:
            bal.plot(result, str(plot))
        except OSError as exc:
            raise _refuse(f"--plot: cannot write {shown_path(plot)}: {exc.strerror}") from exc


def _balance_lines(book: Rulebook, run: str, result: BalanceResult) -> list[str]:
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
    return lines


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
    from lupus.bots.kinds import KINDS
    from lupus.engine.deal import table_size
    from lupus.terminal import play as run

    try:  # every value before the game is dealt
        table_size(load(rules), players)
        exact_int(seat, "--seat", 1, players)
        if seed is not None:
            _seed(seed)
        if bots not in KINDS:
            raise SetupError(f"--bots: unknown bot kind {quoted(bots)} ({', '.join(KINDS)})")
    except LupusError as exc:
        raise _fail(exc) from exc

    def ask(question: str) -> str | None:
        try:
            return input(question + " ")
        except EOFError:
            return None

    try:
        run(rules, players, seat - 1, ask, typer.echo, lang=lang, seed=seed, bots=bots)
    except (LupusError, ValueError) as exc:
        raise _fail(exc) from exc


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
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address players reach the server at (http://host:port): join links "
            "and QR codes use it (by default, the Host a request names, if it is a host name)."
        ),
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            help="NAME=VALUE: one of the server's limits (docs/protocol.md, Limits), such "
            "as rooms_per_client=50; may be given for several."
        ),
    ] = None,
) -> None:
    """Run the game server: rooms, live play over WebSockets, durable games.

    Open the printed address; friends on the same network join with the room's link.
    Every room and game is kept in --database, and a restart resumes them all.
    """
    from lupus.server.links import checked_public_url
    from lupus.server.serving import run as run_server

    levels = ("debug", "info", "warning", "error", "critical")
    try:
        exact_int(port, "--port", 0, MAX_PORT)
        _text(host, "--host")
        _writable(database, "--database")
        if log_level not in levels:
            raise SetupError(f"--log-level: {quoted(log_level)} is not {' | '.join(levels)}")
        if public_url is not None:
            try:
                public_url = checked_public_url(_text(public_url, "--public-url"))
            except ValueError as exc:
                raise SetupError(str(exc)) from exc
        limits = _server_limits(limit or [])
    except LupusError as exc:
        raise _fail(exc) from exc
    run_server(host, port, database, log_level, limits=limits, public_url=public_url)


def _server_limits(given: list[str]) -> ServerLimits:
    """``--limit NAME=VALUE``s as the server's limits (the defaults for the others)."""
    from pydantic import ValidationError

    from lupus.server.limits import ServerLimits
    from lupus.server.protocol import explain

    names = sorted(ServerLimits.model_fields)
    if len(given) > len(names):
        raise SetupError(f"--limit: at most {len(names)}")
    values: dict[str, object] = {}
    for text in given:
        name, equals, value = _text(text, "--limit").partition("=")
        if not equals or name not in names:
            raise SetupError(
                f"--limit: {quoted(text)} is not NAME=VALUE with a NAME of {', '.join(names)}"
            )
        values[name] = value
        with contextlib.suppress(ValueError):
            values[name] = int(value) if value.strip().lstrip("-").isdigit() else float(value)
    try:
        return ServerLimits.model_validate(values)
    except ValidationError as exc:
        raise SetupError(f"--limit {explain(exc)}") from exc


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
