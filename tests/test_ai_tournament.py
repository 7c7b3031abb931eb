"""A researcher's one command: a seeded tournament of a model against the heuristic
bots (a fake OpenAI-compatible server on loopback), with a report and a dataset; the
same command replayed from the answer cache, with no model reachable, gives the same
report and the same dataset."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.fake_openai import Fake, serving
from typer.testing import CliRunner

from lupus.cli import app

NOWHERE = "http://127.0.0.1:9/v1"  # (nothing listens there)


def tournament(folder: Path, cache: Path, url: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    """The run's --json, its report's figures and its dataset, from one command."""
    folder.mkdir()
    args = ["simulate", "--rules", "werewolf", "--players", "8", "--games", "3", "--seed", "5"]
    args += ["--bots", "werewolves=llm,villagers=heuristic", "--llm-model", "fake"]
    args += ["--llm-cache", str(cache), "--llm-price", "2.5", "--json"]
    args += ["--report", str(folder / "report"), "--export", str(folder / "decisions.jsonl")]
    done = CliRunner().invoke(app, args, env={"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "t"})
    assert done.exit_code == 0, done.output
    figures = json.loads((folder / "report" / "report.json").read_text("utf-8"))
    return json.loads(done.output), figures, (folder / "decisions.jsonl").read_text("utf-8")


def without_cached(value: Any) -> Any:
    """``value`` without its ``cached`` counts (replies read back: all of them in a
    replay, none in the recorded run; nothing else may differ)."""
    if isinstance(value, dict):
        return {k: without_cached(v) for k, v in value.items() if k != "cached"}
    if isinstance(value, list):
        return [without_cached(v) for v in value]
    return value


def test_a_model_tournament_gives_a_report_and_a_dataset_and_replays(tmp_path: Path) -> None:
    fake = Fake("number", seed=4)
    inner = Fake("schema", seed=5)

    def unsteady(request: dict[str, Any]) -> str | None:
        with fake.lock:
            roll = fake.rng.random()
        return "no idea" if roll < 0.5 and "response_format" in request else inner.content(request)

    fake.script = unsteady
    cache = tmp_path / "replies.jsonl"
    with serving(fake) as url:
        data, figures, dataset = tournament(tmp_path / "first", cache, url)
    assert data["games"] == 3 and data["fallbacks"] > 0 and data["lines_said"] > 0
    assert set(figures["ratings"]) == {"llm", "heuristic"}
    assert all(r["sigma"] > 0 and r["games"] == 3 for r in figures["ratings"].values())
    assert figures["fallbacks"]["replaced"] == data["fallbacks"]
    cost = figures["cost"]
    assert cost["tokens"] == data["tokens"] > 0 and cost["price_per_million"] == 2.5
    lines = [json.loads(line) for line in dataset.splitlines()]
    assert sum(line["fallback"] for line in lines) == data["fallbacks"]
    assert data["exported"] == len(lines)
    pages = sorted(p.name for p in (tmp_path / "first" / "report" / "games").iterdir())
    assert pages == ["0.html", "1.html", "2.html", "index.html"]
    talked = (tmp_path / "first" / "report" / "games" / "0.html").read_text("utf-8")
    assert "Line " in talked  # (the fake's lines: what the model seats said is shown)

    again, replayed, redone = tournament(tmp_path / "again", cache, NOWHERE)
    assert redone == dataset
    assert without_cached(replayed) == without_cached(figures)
    for key in ("games", "wins", "fallbacks", "tokens", "lines_said"):
        assert again[key] == data[key]
    for name in ("report.md", "games.jsonl", "games/0.html"):
        first, second = (tmp_path / run / "report" / name for run in ("first", "again"))
        assert without_cached_rows(second) == without_cached_rows(first), name


def without_cached_rows(path: Path) -> list[str]:
    return [line for line in path.read_text("utf-8").splitlines() if "| cached |" not in line]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--workers", "2"], "one process"),
        (["--backend", "ray"], "not on Ray"),
        (["--llm-price", "-1"], "--llm-price"),
    ],
)
def test_a_report_that_cannot_be_made_is_refused_first(
    args: list[str], says: str, tmp_path: Path
) -> None:
    folder = tmp_path / "report"
    done = CliRunner().invoke(app, ["simulate", "--games", "2", "--report", str(folder), *args])
    assert done.exit_code != 0 and says in done.output
    assert not folder.exists()
    (tmp_path / "file").write_text("x")
    done = CliRunner().invoke(app, ["simulate", "--games", "2", "--report", str(tmp_path / "file")])
    assert done.exit_code != 0 and "is a file" in done.output
