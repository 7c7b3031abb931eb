"""Model seats talk (``lupus.ai.llm.discussion``) against the fake OpenAI-compatible
server on loopback: games with talk finish in every rulebook, a line reaches the later
prompts of its readers and nobody else's, talk is paid from the game's budget, a failed
talk says nothing, ``--llm-talk 0`` asks nothing, and a cached run replays its lines."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from tests.fake_openai import Fake, decisions, serving, talks
from tests.test_ai_llm import card_words, detached, heuristic_views, small_table

from lupus import scenario
from lupus.ai.llm.prompt import decision
from lupus.ai.llm.settings import LlmSettings
from lupus.ai.llm.speech import speech_messages
from lupus.ai.llm.talk import Line, heard
from lupus.ai.played import Played
from lupus.ai.tournament import played
from lupus.engine.game import Game
from lupus.engine.model import LEADER
from lupus.families import family_of
from lupus.rulebooks import available
from lupus.sim import SimConfig
from lupus.sim.selfplay import Table, set_up

SEAT = re.compile(r"seat ([0-9]+)")


def config(rules: str = "werewolf", bots: dict[str, str] | None = None, **llm: Any) -> SimConfig:
    settings = LlmSettings(model="fake", **{"timeout": 5.0, "concurrency": 1, **llm})
    players = small_table(rules) + 1 if rules != "werewolf" else 8  # (a day is played)
    return SimConfig(rules, players, bots=bots or {"*": "llm"}, seed=7, llm=settings)


def run(
    url: str | None, monkeypatch: pytest.MonkeyPatch, games: int = 1, **kwargs: Any
) -> list[Played]:
    monkeypatch.setenv("OPENAI_BASE_URL", url or "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    return list(played(config(**kwargs), games))


def seat_of(request: dict[str, Any]) -> int:
    """The seat a request was made for (its system message names it: "seat 3")."""
    found = SEAT.search(request["messages"][0]["content"])
    assert found is not None
    return int(found.group(1)) - 1


def replayed(record: Played, until: int) -> Game:
    """``record``'s game after its first ``until`` actions."""
    game = scenario.setup(scenario.parse(record.game.to_scenario()))
    for action in record.game.history[:until]:
        game.apply(action)
    return game


@pytest.mark.parametrize("rules", available())
def test_games_with_talk_finish_in_every_rulebook(
    rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = Fake("schema")
    with serving(fake) as url:
        (record,) = run(url, monkeypatch, rules=rules)
    assert record.game.finished
    day = [line for line in record.lines if line.channel == "day"]
    assert day and record.cost.said == len(record.lines) == len(talks(fake.requests))
    assert record.cost.talks == len(talks(fake.requests))
    assert record.cost.decisions == len(decisions(fake.requests))
    assert record.cost.tokens == 10 * len(fake.requests)
    # A discussion (its lines share their place in the game): every living model seat
    # once, in seat order, when a step the rulebook's table talks before opens, once a
    # day each.
    opened = set()
    for at in sorted({line.at for line in day}):
        said = [line.seat for line in day if line.at == at]
        game = replayed(record, at)
        assert said == [seat for seat in range(game.n) if game.alive[seat]]
        assert game.phase == "day" and game.step is not None
        assert game.step.id in game.rulebook.talk
        assert (game.number, game.step.id) not in opened
        opened.add((game.number, game.step.id))
    for line in record.lines:
        if line.channel == "pack":
            game = replayed(record, line.at)
            assert line.readers == tuple(sorted(family_of(game.rulebook).awake_together(game)))
            assert line.seat in line.readers and game.phase == "night"
    has_pack = rules in ("werewolf", "tit-albert", "maffia", "mafia-classic")
    assert any(line.channel == "pack" for line in record.lines) == has_pack


def test_a_line_reaches_only_the_later_prompts_of_its_readers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = Fake("schema", seed=2)
    with serving(fake) as url:
        (record,) = run(url, monkeypatch, talk=2)
    requests = fake.requests
    asked = [i for i, r in enumerate(requests) if "response_format" not in r]
    assert len(asked) == len(record.lines) > 0  # (every talk answered: one line each)
    assert {line.channel for line in record.lines} == {"day", "pack"}
    assert len({line.text for line in record.lines}) == len(record.lines)
    for line, said_at in zip(record.lines, asked, strict=True):
        told = f"{record.game.names[line.seat]}: {line.text}"
        for i, request in enumerate(requests):
            seat = seat_of(request)
            user = request["messages"][1]["content"]
            if i <= said_at or not line.read_by(seat):
                assert told not in user, (line, i, seat)
            else:
                assert told in user, (line, i, seat)
    pack = [line for line in record.lines if line.channel == "pack"]
    assert pack and all(line.readers != tuple(range(record.game.n)) for line in pack)
    # --llm-talk 2: two rounds of every discussion, the pack's too.
    for at in {line.at for line in record.lines}:
        said = [line.seat for line in record.lines if line.at == at]
        half = len(said) // 2
        assert said[:half] == said[half:] == sorted(set(said)), said


def test_a_talk_prompt_is_the_seats_view_and_the_lines_it_may_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = Fake("number", seed=5)
    with serving(fake) as url:
        (record,) = run(url, monkeypatch, talk=1)
    asked = talks(fake.requests)
    assert len(asked) == len(record.lines) > 0
    for index, (line, request) in enumerate(zip(record.lines, asked, strict=True)):
        game = replayed(record, line.at)
        view = game.seen(line.seat)
        before = list(record.lines[:index])
        expected = speech_messages(view, before, line.channel)
        assert request["messages"] == list(expected)
        alone = speech_messages(detached(view), heard(before, line.seat), line.channel)
        assert alone == expected  # (nothing but the view and the readable lines)


def told(game: Game, seat: int, text: str, words: dict[str, re.Pattern[str]]) -> None:
    """AssertionError if a sentence of ``text`` names another seat beside a card it
    holds that ``seat`` does not know of (as the decision prompts' secrecy test)."""
    truth, known = game.view(LEADER).known_roles(), game.seen(seat).known_roles()
    for other, role in truth.items():
        if other == seat or known.get(other) == role:
            continue
        name = re.compile(rf"(?<!\w){re.escape(game.names[other])}(?!\w)")
        for sentence in re.split(r"(?<=[.!?])\s+", text.replace("\n", " ")):
            assert not (name.search(sentence) and words[role].search(sentence)), sentence


@pytest.mark.parametrize("rules", available())
def test_a_talk_prompt_tells_only_what_its_seat_may_know(rules: str) -> None:
    table = Table(SimConfig(rules=rules, players=small_table(rules), seed=13))
    words = card_words(table.book)
    secret = [Line(0, "pack", 1, "only seat zero reads this", readers=(0,))]
    checked = 0
    for game, view in heuristic_views(table, 3):
        seat = view.seat
        for channel in ("day", "pack"):
            messages = speech_messages(view, secret, channel)
            assert messages == speech_messages(detached(view), heard(secret, seat), channel)
            user = messages[1]["content"]
            assert ("only seat zero" in user) == (seat == 0)
            told(game, seat, user.replace(table.book.name("rulebook"), ""), words)
        checked += 1
    assert checked > 4
    # (the check sees a card beside another's name: a line that tells one is caught)
    fresh = set_up(table, 0)[0]
    truth, known = fresh.view(LEADER).known_roles(), fresh.seen(0).known_roles()
    hidden = [(s, r) for s, r in truth.items() if s != 0 and known.get(s) != r]
    assert hidden or table.book.family == "lupusburg"  # (its cards are no roles)
    for other, role in hidden[:1]:
        with pytest.raises(AssertionError):
            told(fresh, 0, f"{fresh.names[other]} holds the {role}.", words)


def test_no_talk_is_asked_with_llm_talk_0(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Fake("schema")
    with serving(fake) as url:
        (record,) = run(url, monkeypatch, talk=0)
    assert not talks(fake.requests) and record.lines == ()
    assert record.cost.talks == 0 and len(fake.requests) == record.cost.decisions > 0


def test_seats_of_other_kinds_say_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Fake("schema")
    with serving(fake) as url:
        (record,) = run(url, monkeypatch, bots={"werewolves": "llm", "*": "heuristic"})
    wolves = {seat for seat, kind in enumerate(record.kinds) if kind == "llm"}
    assert len(wolves) == 2 and record.lines
    assert {line.seat for line in record.lines} <= wolves
    assert all(seat_of(request) in wolves for request in fake.requests)


def test_talk_is_paid_from_the_games_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Fake("schema")
    with serving(fake) as url:
        (record,) = run(url, monkeypatch, budget=25)
    assert len(fake.requests) == 3 and record.cost.tokens == 30  # (then nobody is asked)
    assert talks(fake.requests)  # (the pack talked first: the first night)
    assert record.cost.fallbacks["budget"] == record.cost.decisions - len(decisions(fake.requests))
    assert record.game.finished


@pytest.mark.parametrize("mode", ["fail", "malformed"])
def test_a_talk_that_fails_says_nothing_and_the_game_goes_on(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = Fake(mode)
    with serving(fake) as url:
        (record,) = run(url, monkeypatch, retries=0)
    assert record.game.finished and record.lines == ()
    assert record.cost.talks == len(talks(fake.requests)) > 0
    assert len(record.fallbacks) == record.cost.decisions  # (every decision fell back)


def test_a_slow_talk_times_out_and_says_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Fake("slow")
    fake.delay = 1.0
    with serving(fake) as url:
        wolves = {"werewolves": "llm", "*": "heuristic"}
        (record,) = run(url, monkeypatch, timeout=0.05, bots=wolves)
    assert record.game.finished and record.lines == () and record.cost.talks > 0


def test_a_cached_run_replays_its_lines_with_no_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = str(tmp_path / "replies.jsonl")
    inner, fake = Fake("schema", seed=4), Fake("schema", seed=9)

    def unsteady(request: dict[str, Any]) -> str | None:
        with fake.lock:
            roll = fake.rng.random()
        if roll < 0.15:
            return None  # (a failure: a talk says nothing, a decision is asked again)
        return "" if roll < 0.3 else inner.content(request)

    fake.script = unsteady
    with serving(fake) as url:
        first = run(url, monkeypatch, games=2, cache=cache, concurrency=2)
    again = run(None, monkeypatch, games=2, cache=cache, concurrency=2)
    assert any(one.lines for one in first) and any(one.fallbacks for one in first)
    assert any(one.cost.talks > one.cost.said for one in first)
    for one, two in zip(first, again, strict=True):
        assert two.game.history == one.game.history and two.lines == one.lines
        assert two.fallbacks == one.fallbacks and two.kinds == one.kinds
        assert dataclasses.replace(two.cost, cached=0) == dataclasses.replace(one.cost, cached=0)
        assert two.cost.cached == two.cost.calls


def test_a_decision_hears_the_lines_said_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Fake("schema", seed=1)
    with serving(fake) as url:
        (record,) = run(url, monkeypatch)
    asked = decisions(fake.requests)
    game = replayed(record, 0)
    made = []
    for position, action in enumerate(record.game.history):
        if action.actor != LEADER:
            before = [line for line in record.lines if line.at <= position]
            made.append(decision(game.seen(action.actor), None, before).messages)
        game.apply(action)
    assert [list(m) for m in made] == [r["messages"] for r in asked]
