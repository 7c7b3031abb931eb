"""``lupus simulate``'s options for language-model seats, decision datasets and
tournament reports (``--llm-*``, ``--export``, ``--report``; docs/ai.md) and its run,
apart from the command so that the command stays short."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from lupus.engine.errors import SetupError
from lupus.files import shown_path

if TYPE_CHECKING:
    from lupus.ai.llm.settings import LlmSettings
    from lupus.ai.played import Played
    from lupus.sim.config import SimConfig, SimResult

Bots = Annotated[
    str, typer.Option(help="random | heuristic | llm, or per faction: werewolves=llm,...")
]
LlmModel = Annotated[
    str | None, typer.Option(help="The model of --bots llm (OPENAI_BASE_URL, OPENAI_API_KEY).")
]
LlmTimeout = Annotated[float, typer.Option(help="Seconds per model decision.")]
LlmBudget = Annotated[
    int | None, typer.Option(help="Tokens per game; past it the heuristic bot decides.")
]
LlmConcurrency = Annotated[int, typer.Option(help="Model games (and calls) at once.")]
LlmCache = Annotated[
    Path | None, typer.Option(help="JSONL of every reply: replays a run with no model.")
]
LlmTalk = Annotated[
    int,
    typer.Option(
        help="Lines each model seat says in each discussion, the day's and its pack's at "
        "night (0: model seats never talk)."
    ),
]
Export = Annotated[
    Path | None,
    typer.Option(help="Write every decision of every game as JSON lines (one process)."),
]
Report = Annotated[
    Path | None,
    typer.Option(help="Write a tournament report (tables, plots, replay pages) to this folder."),
]
LlmPrice = Annotated[
    float | None, typer.Option(help="Price per million tokens, for the report's cost.")
]


def llm_settings(
    model: str | None,
    timeout: float,
    budget: int | None,
    concurrency: int,
    cache: Path | None,
    talk: int,
) -> LlmSettings | None:
    """The model seats' settings, if a model was named (checked with the run)."""
    if model is None:
        return None
    from lupus.ai.llm.settings import LlmSettings

    return LlmSettings(
        model=model,
        timeout=timeout,
        budget=budget,
        concurrency=concurrency,
        cache=None if cache is None else str(cache),
        talk=talk,
    )


def check_recorded(
    export: Path | None,
    report: Path | None,
    backend: str,
    workers: int | None,
    price: float | None = None,
) -> None:
    """SetupError unless ``--export`` and ``--report`` can be done as asked: their games
    are played in this process (each whole game is kept, to be told decision by
    decision or rated and replayed), so neither Ray nor a pool of processes; the file's
    folder exists; the report's folder is not a file; a price is a price."""
    from lupus.cli_input import writable

    if price is not None and not 0 <= price < 1e9:
        raise SetupError(f"--llm-price: a price per million tokens, not {price}")

    for flag, given in (("--export", export), ("--report", report)):
        if given is None:
            continue
        if backend != "processes":
            raise SetupError(f"{flag}: the games are played in this process, not on Ray")
        if workers is not None and workers != 1:
            raise SetupError(f"{flag}: the games are played in one process (drop --workers)")
    if export is not None:
        writable(export, "--export")
    if report is not None:
        if report.exists() and not report.is_dir():
            raise SetupError(f"--report: {shown_path(report)} is a file, not a folder")
        # (a folder that is not there yet is made: its parent must be)
        writable(report / "report.md" if report.exists() else report, "--report")


def recorded_lines(export: Path | None, exported: int | None, report: Path | None) -> list[str]:
    """What a run's report says of its dataset and its tournament report."""
    lines = []
    if export is not None:
        lines.append(f"exported: {exported} decisions to {shown_path(export)}")
    if report is not None:
        lines.append(f"report: {shown_path(report / 'report.md')}")
    return lines


def run_recorded(
    config: SimConfig,
    games: int,
    export: Path | None,
    report: Path | None,
    price: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[SimResult, int | None]:
    """The run, every decision of its games written to ``export`` (UTF-8 JSON lines,
    game after game) and its report to ``report``; its result and the number of lines
    exported (None without ``export``). The report keeps every game until the end."""
    from lupus.ai.export import decisions, write
    from lupus.ai.tournament import simulated

    lang = config.llm.lang if config.llm is not None else None
    kept: list[Played] = []
    written = 0
    try:
        out = None if export is None else export.open("w", encoding="utf-8")
        try:

            def each(played: Played) -> None:
                nonlocal written
                if out is not None:
                    game_id = f"{config.seed}:{played.index}"
                    written += write(decisions(played, game_id, lang), out)
                if report is not None:
                    kept.append(played)

            result = simulated(config, games, each, progress)
        finally:
            if out is not None:
                out.close()
    except OSError as exc:
        where = shown_path(export) if export is not None else "the file"
        raise SetupError(f"--export: cannot write {where}: {exc.strerror}") from exc
    if report is not None:
        from lupus.ai.report import write_report

        try:
            write_report(report, config, kept, price)
        except OSError as exc:
            problem = f"cannot write {shown_path(report)}: {exc.strerror}"
            raise SetupError(f"--report: {problem}") from exc
    return result, (written if export is not None else None)


def simulated_run(
    config: SimConfig,
    games: int,
    workers: int,
    backend: str,
    ray_address: str | None,
    export: Path | None,
    show: bool,
    report: Path | None = None,
    price: float | None = None,
) -> tuple[SimResult, int | None]:
    """The run, with a progress bar if ``show``; with ``export``, every decision
    written there too, and how many; with ``report``, its tournament report (a run
    without model seats then plays in this process)."""
    from rich.progress import Progress

    from lupus.sim import simulate as run

    with Progress(transient=True, disable=not show) as bar:
        task = bar.add_task("playing", total=games)

        def advance(n: int) -> None:
            bar.advance(task, n)

        if export is not None or report is not None:
            return run_recorded(config, games, export, report, price, advance)
        return run(config, games, workers, backend, ray_address, advance), None
