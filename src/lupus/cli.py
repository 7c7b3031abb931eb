"""The `lupus` command: replay, rules, demo (play, simulate, balance and serve come later)."""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from lupus import scenario as sc
from lupus.engine.errors import LupusError
from lupus.engine.model import LEADER
from lupus.narration import narrate
from lupus.rulebooks import load
from lupus.rules_text import describe, listing

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
        str | None, typer.Option(help="Narrate what this player saw (default: the leader).")
    ] = None,
    lang: Annotated[str | None, typer.Option(help="Language of the narration.")] = None,
) -> None:
    """Replay a scenario file: a narrated log ending with the full reveal, or --json.

    Exit status: 0 when every action applied, 2 on an illegal action, 1 on a bad file.
    """
    try:
        result = sc.replay(sc.read(file))
    except LupusError as exc:
        typer.echo(f"lupus: {exc}", err=True)
        raise typer.Exit(1) from exc
    game = result.game
    if as_json:
        sys.stdout.write(json.dumps(sc.summary(result), ensure_ascii=False) + "\n")
    else:
        viewer = LEADER
        if seat is not None:
            if seat not in game.names:
                typer.echo(f"lupus: there is no player named {seat!r}", err=True)
                raise typer.Exit(1)
            viewer = game.names.index(seat)
        lines = narrate(game.view(viewer), lang)
        if result.error_index is not None:
            lines.append("")
            lines.append(f"! action {result.error_index} refused: {result.error_message}")
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
        typer.echo(f"lupus: {exc}", err=True)
        raise typer.Exit(1) from exc
    _print_lines(lines)


@app.command()
def demo(
    lang: Annotated[str | None, typer.Option(help="Language of the narration.")] = None,
) -> None:
    """Replay a whole scripted game with its narration (no setup needed)."""
    source = resources.files("lupus.demos").joinpath("werewolf.json").read_text("utf-8")
    result = sc.replay(sc.parse(json.loads(source), "demo"))
    _print_lines(narrate(result.game.view(LEADER), lang))


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
