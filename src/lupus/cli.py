"""The `lupus` command: replay, rules, demo, play, simulate, balance, serve and export."""

from __future__ import annotations

import json
import sys
import unicodedata
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from lupus import scenario as sc
from lupus.cli_export import export
from lupus.cli_input import (
    checked_seed,
    fail,
    parse_bots,
    parse_options,
    parse_players,
    parse_range,
    refuse,
    worker_count,
    writable,
)
from lupus.cli_reports import balance_lines, simulation_lines
from lupus.cli_serve import db_app, serve
from lupus.cli_simulate import (
    Bots,
    Export,
    LlmBudget,
    LlmCache,
    LlmConcurrency,
    LlmModel,
    LlmPrice,
    LlmTalk,
    LlmTimeout,
    Report,
    check_recorded,
    llm_settings,
    recorded_lines,
    simulated_run,
)
from lupus.engine.errors import LupusError, SetupError
from lupus.engine.model import LEADER
from lupus.engine.untrusted import exact_int, quoted
from lupus.families import load
from lupus.files import shown_path
from lupus.narration import narrate
from lupus.rules_text import describe, listing

if TYPE_CHECKING:
    from lupus.ai.llm.settings import LlmSettings
    from lupus.rulebooks.schema import Rulebook
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
        raise fail(exc) from exc
    game = result.game
    viewer = LEADER
    if seat is not None:
        seat = unicodedata.normalize("NFC", seat)  # the form the game keeps names in
        if seat not in game.names:
            raise refuse(f"there is no player named {quoted(seat)}")
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
        raise fail(exc) from exc
    _print_lines(lines)


@app.command()
def demo(
    lang: Annotated[str | None, typer.Option(help="Language of the narration.")] = None,
) -> None:
    """Replay a whole scripted game with its narration (no setup needed)."""
    source = resources.files("lupus.demos").joinpath("werewolf.json").read_text("utf-8")
    result = sc.replay(sc.parse(json.loads(source), "demo"))
    _print_lines(narrate(result.game.view(LEADER), lang))


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
    bots: Bots = "random",
    games: Annotated[int, typer.Option(help="Games to play.")] = 10_000,
    seed: Annotated[int, typer.Option(help="Same seed, same numbers, whatever --workers.")] = 0,
    workers: Annotated[int | None, typer.Option(help="Processes (default: all cores).")] = None,
    backend: Annotated[str, typer.Option(help="processes | ray")] = "processes",
    ray_address: Annotated[str | None, typer.Option(help="An existing Ray cluster.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    llm_model: LlmModel = None,
    llm_timeout: LlmTimeout = 30.0,
    llm_budget: LlmBudget = None,
    llm_concurrency: LlmConcurrency = 4,
    llm_cache: LlmCache = None,
    llm_talk: LlmTalk = 1,
    export: Export = None,
    report: Report = None,
    llm_price: LlmPrice = None,
) -> None:
    """Self-play many seeded games and report win rates with 95% confidence intervals.

    Every value is checked before a game is played or a worker started (games from 1 to
    100,000,000, workers from 1 to 256: docs/architecture.md, "Limits")."""
    from lupus.sim.runner import check_run

    try:
        recorded = export is not None or report is not None
        n_workers = 1 if recorded else worker_count(workers)
        check_run(games, n_workers, backend)
        check_recorded(export, report, backend, workers, llm_price)
        llm = llm_settings(llm_model, llm_timeout, llm_budget, llm_concurrency, llm_cache, llm_talk)
        config = _sim_config(rules, players, roles, option or [], bots, seed, llm)
    except (LupusError, ValueError) as exc:
        raise fail(exc) from exc
    show = not as_json and games >= 2000 and sys.stderr.isatty()
    try:  # (no game played is no success)
        result, exported = simulated_run(
            config, games, n_workers, backend, ray_address, export, show, report, llm_price
        )
    except LupusError as exc:
        raise fail(exc) from exc
    data = result.as_dict()
    if exported is not None:
        data["exported"] = exported
    if as_json:
        sys.stdout.write(json.dumps(data) + "\n")
        return
    header = (
        f"{config.book.name('rulebook')}: {config.players} players, {data['games']} games "
        f"({data['games_per_second']:.0f}/s on {n_workers} {backend} worker(s)), seed {seed}"
    )
    _print_lines(simulation_lines(header, config, data) + recorded_lines(export, exported, report))


def _sim_config(
    rules: str,
    players: int,
    roles: str | None,
    option: list[str],
    bots: str,
    seed: int,
    llm: LlmSettings | None = None,
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
        options=parse_options(option),  # type: ignore[arg-type]
        bots=parse_bots(bots),
        seed=checked_seed(seed),
        llm=llm,
    )
    config.check()  # the table, the cards, the options, the bots
    if not config.uses_llm:  # (a trial game of a model would ask it: the deal is checked)
        play_one(config, 0, book)
    return config


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
        str, typer.Option(help="random | heuristic | llm, or per faction: werewolves=llm,...")
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
    field: Annotated[
        int | None,
        typer.Option(help="Play only the N compositions nearest even by the roles' points."),
    ] = None,
) -> None:
    """Search compositions for even odds: per player count, the closest ones with their
    win rate and 95% interval, and the rulebook's recommended composition for comparison.

    Fair is a 50% win rate for the village (villagers, town); in Lupusburg, whose deck is
    fixed, a Werewolf win rate of 1/players (the Werewolf card worth any other deal).
    """
    from lupus.sim import balance as bal

    try:
        n_workers = worker_count(workers)
        if plot is not None:  # (written at the end: a path that cannot be is refused now)
            _need_matplotlib()
            writable(plot, "--plot")
        book = load(rules)
        counts = parse_players(players)
        # (the search checks every value, for every player count, before it plays one)
        result = bal.search(
            book,
            counts,
            games=games,
            top=top,
            bots=parse_bots(bots),
            options=parse_options(option or []),  # type: ignore[arg-type]
            seed=checked_seed(seed),
            workers=n_workers,
            pack=parse_range(pack) if pack is not None else None,
            progress=None if as_json or not sys.stderr.isatty() else typer.echo,
            field=field,
        )
    except (LupusError, ValueError) as exc:
        raise fail(exc) from exc
    _check_played(result, plot)
    _balance_report(book, result, n_workers, as_json, plot)


def _balance_report(
    book: Rulebook, result: BalanceResult, workers: int, as_json: bool, plot: Path | None
) -> None:
    if as_json:
        sys.stdout.write(json.dumps(result.as_dict()) + "\n")
        return
    run = (
        f"{result.games} games per finalist, seed {result.seed}, "
        f"{result.seconds:.0f}s on {workers} worker(s)"
    )
    _print_lines(balance_lines(book, run, result) + ([f"plot: {plot}"] if plot else []))


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
        raise refuse(
            "no composition could be played" + (f": {why}" if why else " (none is accepted)")
        )
    if plot is not None:
        try:
            bal.plot(result, str(plot))
        except OSError as exc:
            raise refuse(f"--plot: cannot write {shown_path(plot)}: {exc.strerror}") from exc


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
            checked_seed(seed)
        if bots == "llm":  # (model seats play in lupus simulate, with its --llm-* flags)
            raise SetupError("--bots: llm seats play in lupus simulate --llm-model ...")
        if bots not in KINDS:
            raise SetupError(f"--bots: unknown bot kind {quoted(bots)} ({', '.join(KINDS)})")
    except LupusError as exc:
        raise fail(exc) from exc

    def ask(question: str) -> str | None:
        try:
            return input(question + " ")
        except EOFError:
            return None

    try:
        run(rules, players, seat - 1, ask, typer.echo, lang=lang, seed=seed, bots=bots)
    except (LupusError, ValueError) as exc:
        raise fail(exc) from exc


def main() -> None:  # pragma: no cover - console entry point
    app()


app.command()(serve)
app.command()(export)
app.add_typer(db_app, name="db")

if __name__ == "__main__":  # pragma: no cover
    app()
