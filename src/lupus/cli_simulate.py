"""``lupus simulate``'s options for language-model seats and decision datasets
(``--llm-*``, ``--export``; docs/ai.md) and its run, apart from the command so that the
command stays short."""

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
    int, typer.Option(help="Lines each model seat says a day (0: model seats never talk).")
]
Export = Annotated[
    Path | None,
    typer.Option(help="Write every decision of every game as JSON lines (one process)."),
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


def check_export(path: Path, backend: str, workers: int | None) -> None:
    """SetupError unless ``--export`` can be done as asked: its games are played in
    this process (each whole game is kept to be told decision by decision), so neither
    Ray nor a pool of processes."""
    from lupus.cli_input import writable

    if backend != "processes":
        raise SetupError("--export: the games are played in this process, not on Ray")
    if workers is not None and workers != 1:
        raise SetupError("--export: the games are played in one process (drop --workers)")
    writable(path, "--export")


def run_export(
    config: SimConfig, games: int, path: Path, progress: Callable[[int], None] | None = None
) -> tuple[SimResult, int]:
    """The run, every decision of its games written to ``path`` (UTF-8 JSON lines, game
    after game); its result and the number of lines."""
    from lupus.ai.export import decisions, write
    from lupus.ai.tournament import simulated

    lang = config.llm.lang if config.llm is not None else None
    written = 0
    try:
        with path.open("w", encoding="utf-8") as out:

            def each(played: Played) -> None:
                nonlocal written
                written += write(decisions(played, f"{config.seed}:{played.index}", lang), out)

            result = simulated(config, games, each, progress)
    except OSError as exc:
        raise SetupError(f"--export: cannot write {shown_path(path)}: {exc.strerror}") from exc
    return result, written


def simulated_run(
    config: SimConfig,
    games: int,
    workers: int,
    backend: str,
    ray_address: str | None,
    export: Path | None,
    show: bool,
) -> tuple[SimResult, int | None]:
    """The run, with a progress bar if ``show``; with ``export``, every decision
    written there too, and how many (a run without model seats then plays in this
    process)."""
    from rich.progress import Progress

    from lupus.sim import simulate as run

    with Progress(transient=True, disable=not show) as bar:
        task = bar.add_task("playing", total=games)

        def advance(n: int) -> None:
            bar.advance(task, n)

        if export is not None:
            return run_export(config, games, export, advance)
        return run(config, games, workers, backend, ray_address, advance), None
