"""Decision datasets (``lupus.ai.export``): a line per decision, from the seat's view;
``lupus simulate --export``: every decision of a run's games, of any kinds of players."""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from tests.fake_openai import Fake, serving
from typer.testing import CliRunner

from lupus.ai.export import KEYS, decisions, outcome_of, record
from lupus.ai.export import lines as export_lines
from lupus.ai.llm.settings import LlmSettings
from lupus.ai.played import Played
from lupus.ai.tournament import played
from lupus.bots.random_bot import RandomBot
from lupus.cli import app
from lupus.cli_input import parse_bots
from lupus.engine.model import LEADER
from lupus.narration import Narrator
from lupus.rulebooks import available
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import TIMER, Table, play, set_up


@pytest.mark.parametrize("rules", available())
def test_every_decision_of_a_game_is_one_line_told_from_its_view(rules: str) -> None:
    table = Table(SimConfig(rules, 6 if rules == "lupusburg" else 8, seed=3))
    game, rng = set_up(table, 0)
    bot, taken = RandomBot(), []
    while not game.finished and len(taken) < 5000:
        seat = game.first_waiting()
        if seat is None:
            game.apply(TIMER)
            continue
        view = game.seen(seat)
        action = bot.act(view, rng)
        taken.append((view, action, record("g0", view, action, False)))
        game.apply(action)
    assert game.finished
    written = [json.loads(line) for line in export_lines([r for *_, r in taken], game)]
    assert len(written) == len(taken)
    for (view, action, _), line in zip(taken, written, strict=True):
        assert tuple(line) == KEYS
        assert line["view"] == json.loads(json.dumps(view.to_json()))
        assert line["seat"] == view.seat and line["game"] == "g0"
        offered = [(p.verb, tuple(args)) for p in view.prompts for args in p.choices]
        assert offered[line["choice"]] == (action.verb, tuple(action.args))
        assert len(line["choices"]) == len(offered) and line["sentences"]
        assert line["outcome"]["won"] == (view.seat in game.outcome.winners)


# ------------------------------------------------------------ a run's whole games
def cli(*args: str) -> Result:
    return CliRunner().invoke(app, ["simulate", *args])


def exported(path: Path) -> list[dict[str, Any]]:
    text = path.read_text("utf-8")
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def check_lines(lines: list[dict[str, Any]], games: list[Played], seed: int) -> None:
    """``lines`` are one per seat action of ``games``, in order, each telling the move
    taken, whether the stand-in took it, and how the game ended for its seat."""
    expected = [
        (one, position, action)
        for one in games
        for position, action in enumerate(one.game.history)
        if action.actor != LEADER
    ]
    assert len(lines) == len(expected)
    for line, (one, position, action) in zip(lines, expected, strict=True):
        game = one.game
        assert tuple(line) == KEYS
        assert line["game"] == f"{seed}:{one.index}" and line["seat"] == action.actor
        label = Narrator(game.rulebook, game.names).choice(action.verb, tuple(action.args))
        assert line["choices"][line["choice"]] == label
        assert line["fallback"] == (position in one.fallbacks)
        assert line["outcome"] == outcome_of(game, action.actor)
        outcome = game.outcome
        assert outcome is not None
        assert line["outcome"]["won"] == (action.actor in outcome.winners)
        assert line["outcome"]["winner"] == outcome.winner


@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_lupus_simulate_exports_every_decision_of_a_run(bots: str, tmp_path: Path) -> None:
    path = tmp_path / "decisions.jsonl"
    done = cli("--bots", bots, "--games", "3", "--seed", "5", "--export", str(path), "--json")
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    config = SimConfig("werewolf", 8, bots={"*": bots}, seed=5)
    games = list(played(config, 3))
    lines = exported(path)
    assert data["exported"] == len(lines) and data["games"] == 3
    check_lines(lines, games, 5)
    table = Table(config)
    for one in games:  # (the simulator's very games: game i of the seed)
        assert one.game.history == play(table, one.index)[0].history
        assert one.kinds == (bots,) * 8 and one.fallbacks == frozenset()
    plain = json.loads(cli("--bots", bots, "--games", "3", "--seed", "5", "--json").output)
    for key in ("wins", "no_winner", "mean_days", "mean_actions"):
        assert plain[key] == data[key]  # (the same run's numbers)
    again = tmp_path / "again.jsonl"
    assert cli("--bots", bots, "--games", "3", "--seed", "5", "--export", str(again)).exit_code == 0
    assert again.read_bytes() == path.read_bytes()


def test_lupus_simulate_exports_model_seats_with_their_fallbacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, cache = tmp_path / "decisions.jsonl", tmp_path / "replies.jsonl"
    fake = Fake("number", seed=2)
    inner = Fake("number", seed=3)

    def unsteady(request: dict[str, Any]) -> str | None:
        """A quarter of the decisions get no usable answer however often asked (chosen
        by the question itself, whatever order the games' threads ask in): the stand-in
        takes them."""
        question = request["messages"][1]["content"]
        hopeless = "response_format" in request and zlib.crc32(question.encode()) % 4 == 0
        return "no idea" if hopeless else inner.content(request)

    fake.script = unsteady
    args = ["--bots", "werewolves=llm,villagers=heuristic", "--games", "2", "--seed", "4"]
    args += ["--llm-model", "fake", "--llm-cache", str(cache), "--export", str(path), "--json"]
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    with serving(fake) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        done = cli(*args)
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    lines = exported(path)
    assert data["exported"] == len(lines) and data["fallbacks"] > 0
    assert sum(line["fallback"] for line in lines) == data["fallbacks"]
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # (nothing listens)
    settings = LlmSettings(model="fake", cache=str(cache))
    config = SimConfig("werewolf", 8, bots=parse_bots(args[1]), seed=4, llm=settings)
    games = list(played(config, 2))  # (the recorded run, replayed from its cache)
    check_lines(lines, games, 4)
    assert sum(len(one.fallbacks) for one in games) == data["fallbacks"]
    assert data["lines_said"] == sum(len(one.lines) for one in games) > 0


def test_an_exported_decision_holds_the_prompt_its_model_seat_was_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    fake = Fake("schema", seed=6)
    settings = LlmSettings(model="fake", concurrency=1, talk=2)
    config = SimConfig("werewolf", 8, bots={"*": "llm"}, seed=9, llm=settings)
    with serving(fake) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        (one,) = played(config, 1)
    records = list(decisions(one, "9:0"))
    asked = [r for r in fake.requests if "response_format" in r]
    assert len(records) == len(asked) > 0 and one.lines
    heard_any = 0
    for record_, request in zip(records, asked, strict=True):
        user = request["messages"][1]["content"]
        assert list(record_.sentences) == [line for line in user.splitlines() if line]
        heard_any += any(line.text in user for line in one.lines)
    assert heard_any > 0


def test_export_is_refused_where_it_cannot_be_done(tmp_path: Path) -> None:
    path = str(tmp_path / "d.jsonl")
    for extra, why in (
        (["--workers", "2"], "one process"),
        (["--backend", "ray"], "not on Ray"),
        (["--export", str(tmp_path / "no" / "d.jsonl")], "no folder"),
    ):
        done = cli("--games", "1", "--export", path, *extra)
        assert done.exit_code == 1 and why in done.output, done.output
    assert not (tmp_path / "d.jsonl").exists()
