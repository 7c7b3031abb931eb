"""Language-model seats (``lupus.ai.llm``) against a fake OpenAI-compatible server on
loopback (tests/fake_openai.py): whole games of every rulebook finish, bad answers are
retried then replaced and counted, budgets and time-outs hold, a cached run replays
with the server gone, and a prompt tells only what its seat may know."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.fake_openai import Fake, decisions, serving, talks

from lupus.ai.llm.prompt import decision
from lupus.ai.llm.settings import LlmSettings
from lupus.bots.heuristic import HeuristicBot
from lupus.engine.errors import LupusError
from lupus.engine.game import Game
from lupus.engine.model import LEADER
from lupus.engine.views import View
from lupus.families import load
from lupus.rulebooks import available
from lupus.rulebooks.schema import Rulebook
from lupus.sim import SimConfig, simulate
from lupus.sim.selfplay import TIMER, Table, set_up


def small_table(rules: str) -> int:
    """The smallest table of ``rules`` the simulator can deal (its recommended cards)."""
    book = load(rules)
    for players in range(book.min_players, book.max_players + 1):
        try:
            SimConfig(rules=rules, players=players).check()
        except LupusError:
            continue
        return players
    raise AssertionError(rules)


def run(
    url: str | None,
    monkeypatch: pytest.MonkeyPatch,
    rules: str = "werewolf",
    games: int = 1,
    bots: dict[str, str] | None = None,
    **llm: Any,
) -> dict[str, Any]:
    monkeypatch.setenv("OPENAI_BASE_URL", url or "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    # (silent seats by default: these tests count decisions; talk: tests/test_ai_talk.py)
    settings = LlmSettings(model="fake", **{"timeout": 5.0, "concurrency": 2, "talk": 0, **llm})
    config = SimConfig(
        rules=rules, players=small_table(rules), bots=bots or {"*": "llm"}, seed=7, llm=settings
    )
    return simulate(config, games).as_dict()


@pytest.mark.parametrize("rules", available())
def test_whole_games_of_every_rulebook_finish(rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Fake("schema")
    with serving(fake) as url:
        data = run(url, monkeypatch, rules)
    assert data["games"] == 1 and data["llm_decisions"] > 0
    assert data["fallbacks"] == 0, data["fallback_reasons"]
    assert len(fake.requests) == data["llm_decisions"]
    assert data["tokens"] == 10 * len(fake.requests)
    for request in fake.requests:
        assert request["model"] == "fake"
        assert request["response_format"]["type"] == "json_schema"


def test_an_answer_by_number_counts_when_the_schema_is_ignored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with serving(Fake("number")) as url:
        data = run(url, monkeypatch)
    assert data["llm_decisions"] > 0 and data["fallbacks"] == 0


def test_bad_answers_are_retried_then_replaced_and_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = Fake("malformed")
    with serving(fake) as url:
        data = run(url, monkeypatch, bots={"werewolves": "llm", "villagers": "heuristic"})
    assert data["llm_decisions"] > 0
    assert data["fallbacks"] == data["llm_decisions"]
    assert data["fallback_reasons"] == {"bad": data["fallbacks"]}
    assert len(fake.requests) == 2 * data["llm_decisions"]  # (asked once more each)
    retried = fake.requests[1]["messages"]
    assert retried[-2] == {"role": "assistant", "content": "I would rather not say."}


def test_failed_calls_are_retried_then_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Fake("fail")
    with serving(fake) as url:
        data = run(url, monkeypatch, retries=2)
    assert data["fallback_reasons"] == {"failure": data["llm_decisions"]}
    assert len(fake.requests) == 3 * data["llm_decisions"]


def test_a_slow_model_times_out_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Fake("slow")
    fake.delay = 1.0
    with serving(fake) as url:
        data = run(url, monkeypatch, timeout=0.2, bots={"werewolves": "llm", "*": "heuristic"})
    assert data["games"] == 1
    assert data["fallback_reasons"] == {"timeout": data["llm_decisions"]}
    assert len(fake.requests) == data["llm_decisions"]  # (a time-out spends the decision)
    assert data["seconds"] < 0.2 * data["llm_decisions"] + 5


def test_the_token_budget_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Fake("schema")
    with serving(fake) as url:
        data = run(url, monkeypatch, budget=25, games=2)
    # 10 tokens a call: the fourth is past 25, three calls a game, asked or read back
    # (two games asking the very same question share one reply: ``lupus.ai.llm.cache``)
    assert data["tokens"] == 60
    assert 3 <= len(fake.requests) <= 2 * 3
    assert data["fallback_reasons"] == {"budget": data["llm_decisions"] - 6}


def test_a_cached_run_replays_identically_with_no_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "replies.jsonl"
    fake = Fake("schema", seed=3)

    def sometimes_bad(request: dict[str, Any]) -> str:
        with fake.lock:
            roll = fake.rng.random()
        return "no idea" if roll < 0.3 else f"{1 + int(roll * 1000) % 2}"

    fake.script = sometimes_bad
    with serving(fake) as url:
        first = run(url, monkeypatch, games=3, cache=str(cache))
    assert first["fallbacks"] > 0 and first["llm_decisions"] > first["fallbacks"]
    again = run(None, monkeypatch, games=3, cache=str(cache))  # (nothing listens there)
    for data in (first, again):
        data.pop("seconds"), data.pop("games_per_second")
    assert again == first


# ------------------------------------------------------------------ secrecy
def card_words(book: Rulebook) -> dict[str, re.Pattern[str]]:
    """Each card -> the words naming it in every language (as tests/test_server_leaks)."""
    words: dict[str, re.Pattern[str]] = {}
    for role in book.roles:
        spelled = {role}
        for names in book.names.values():
            for key in (role, f"one.{role}", f"many.{role}"):
                if key in names:
                    spelled.add(names[key])
        alternatives = "|".join(re.escape(s) for s in sorted(spelled, key=len, reverse=True))
        words[role] = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
    return words


SENTENCE = re.compile(r"(?<=[.!?])\s+")


def detached(view: View) -> View:
    """A copy of ``view`` holding only its own events: no link to the game's ledger."""
    return View(
        view.seat,
        view.setup,
        view.phase,
        view.number,
        tuple(view.events),
        view.prompts,
        view.finished,
        view.state_id,
        _npublic=sum(1 for e in view.events if e.audience is None),
    )


def heuristic_views(table: Table, games: int) -> Iterator[tuple[Game, View]]:
    """Every view a seat decides from in ``games`` games of ``table`` played by the
    heuristic bot (each yielded before its seat acts), the leader's timer closing the
    steps that wait on nobody or stall."""
    for index in range(games):
        game, rng = set_up(table, index)
        bot = HeuristicBot(table.book)
        while not game.finished:
            seat = game.first_waiting()
            if seat is None or (game.step is not None and game.step.stalled(game)):
                game.apply(TIMER)
                continue
            view = game.seen(seat)
            yield game, view
            game.apply(bot.act(view, rng))


@pytest.mark.parametrize("rules", available())
def test_a_prompt_tells_only_what_its_seat_may_know(rules: str) -> None:
    config = SimConfig(rules=rules, players=small_table(rules), seed=11)
    table = Table(config)
    words = card_words(table.book)
    checked = own = 0
    for game, view in heuristic_views(table, 3):
        seat = view.seat
        pattern = {s: re.compile(rf"(?<!\w){re.escape(n)}(?!\w)") for s, n in enumerate(game.names)}
        asked = decision(view)
        assert asked == dataclasses.replace(decision(detached(view)), narrator=asked.narrator)
        known = view.known_roles()
        truth = game.view(LEADER).known_roles()
        # (the rulebook's own name, "Werewolf", names no card: it is left out)
        told = asked.messages[1]["content"].replace(table.book.name("rulebook"), "")
        for sentence in SENTENCE.split(told.replace("\n", " ")):
            mine = truth.get(seat)
            if mine and pattern[seat].search(sentence) and words[mine].search(sentence):
                own += 1  # (the check sees a card beside a name: its own, here)
            for other, role in truth.items():
                if other == seat or known.get(other) == role:
                    continue
                if pattern[other].search(sentence) and words[role].search(sentence):
                    raise AssertionError((rules, seat, other, role, sentence))
        checked += 1
    assert checked > 4
    assert own > 0 or table.book.family == "lupusburg"


def test_a_prompt_names_its_seat_and_numbers_the_choices() -> None:
    table = Table(SimConfig(rules="werewolf", players=8, seed=1))
    game, _ = set_up(table, 0)
    seat = game.first_waiting()
    assert seat is not None
    asked = decision(game.seen(seat))
    system, user = (m["content"] for m in asked.messages)
    assert system.startswith(f"You are {game.names[seat]}, seat {seat + 1}")
    assert all(f"{i}. {label}" in user for i, label in enumerate(asked.labels, 1))
    enum = asked.response_format["json_schema"]["schema"]["properties"]["choice"]["enum"]  # type: ignore[index]
    assert enum == asked.enum and len(set(enum)) == len(enum)
    assert asked.pick(json.dumps({"choice": enum[1]})) == 1
    assert asked.pick("2") == 1 and asked.pick("I pick 1.") == 0
    assert asked.pick("0") is None and asked.pick(str(len(enum) + 1)) is None
    assert asked.pick("maybe") is None and asked.pick("²") is None


def test_a_plain_run_never_imports_openai() -> None:
    code = (
        "import sys, lupus, lupus.cli\n"
        "from lupus.sim import SimConfig, simulate\n"
        "simulate(SimConfig(rules='werewolf', players=8), 3)\n"
        "assert not [m for m in sys.modules if m.startswith(('openai', 'lupus.ai'))]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_llm_seats_need_a_model() -> None:
    with pytest.raises(LupusError, match="llm-model"):
        SimConfig(rules="werewolf", players=8, bots={"*": "llm"}).check()


def test_lupus_simulate_plays_model_seats_per_faction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from lupus.cli import app

    args = ["simulate", "--bots", "werewolves=llm,villagers=heuristic", "--games", "2"]
    args += ["--llm-model", "fake", "--llm-cache", str(tmp_path / "c.jsonl"), "--json"]
    fake = Fake("number")
    with serving(fake) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    assert data["games"] == 2 and data["fallbacks"] == 0
    assert data["llm_decisions"] == len(decisions(fake.requests)) > 0
    assert data["lines_said"] == len(talks(fake.requests)) > 0  # (--llm-talk: 1 a day)
    assert data["tokens"] == 10 * len(fake.requests)
    refused = CliRunner().invoke(app, ["simulate", "--bots", "llm", "--games", "1"])
    assert refused.exit_code != 0 and "--llm-model" in refused.output
