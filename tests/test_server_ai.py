"""AI players in a room (``lupus serve --llm-model``), over the wire: a real server, a
fake OpenAI-compatible model on loopback (tests/fake_openai.py), scripted people and
bots playing whole games.

- The host seats an AI player (the lobby says so); it plays to the end with people and
  bots; its lines are in the game's chat on the channels its seat speaks on (a pack
  line reaches the pack alone), it answers a person's line, and what it was asked
  holds the lines its seat may read and no card its seat does not know.
- A model that fails every call still finishes the game (the heuristic bot stands in).
- The store keeps who played each action, and `lupus export` marks the decisions the
  stand-in took for the AI seat (its model answered nothing legal) as ``fallback``;
  the model's own, the bots' and the people's are not.
- The host hands a person's seat to an AI player mid-game: it decides for that seat
  (the model is asked the decision the seat owes), and the person plays again once
  given it back; a start that fills the empty seats with AI players plays with them.
- Without a model the host cannot seat one (``add_bot``, ``hand_over``, ``start``'s
  ``fill``): refused, and the lobby offers none.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.fake_openai import Fake, serving
from tests.server_harness import Player, Server, ask, moved_on, players
from tests.test_ai_llm import SENTENCE, card_words
from typer.testing import CliRunner

from lupus import scenario as sc
from lupus.cli import app
from lupus.engine.model import LEADER
from lupus.families import deal, load
from lupus.server.ai_seats import LINES
from lupus.server.store import AI_FALLBACK

Frame = dict[str, Any]

COMPOSITION = {"werewolf": 2, "seer": 1, "villager": 5}
SETTINGS: dict[str, Any] = {
    "rules": "werewolf",
    "players": 8,
    "composition": COMPOSITION,
    "host_name": "Ann",
    "bot_delay": 0.05,
    "pace": 0.4,  # (each night step is shown this long at least: the pack's line comes)
    "timers": {"day": 2.5},
}
AI_SEAT = 1
HOST_LINE = "Good morning everyone, who did we lose tonight?"
PACK_LINE = "Let us take the quiet one tonight."


def wolves_at(*seats: int) -> int:
    """A room seed whose first deal gives ``seats`` the werewolves' cards (the server
    deals game 1 of seed S from ``Random("S-1")``)."""
    return dealt_as({seat: "werewolf" for seat in seats})


def dealt_as(roles: dict[int, str]) -> int:
    """A room seed whose first deal gives each seat of ``roles`` its card."""
    book = load("werewolf")
    for seed in range(1000):
        dealt = deal(book, 8, COMPOSITION, random.Random(f"{seed}-1"), {})
        if all(dealt.roles[seat] == role for seat, role in roles.items()):
            return seed
    raise AssertionError("no such seed")


SEER_CHECK = "Look at the card of"
"""How a seer's choices read in the model's prompt (English: the model's language)."""


class Model:
    """The fake model's answers: a random legal choice for a decision, a numbered
    line for a talk request (no ``response_format``); ``failing``: no answer at all."""

    def __init__(self) -> None:
        self.rng = random.Random(3)
        self.lock = threading.Lock()
        self.said = 0
        self.failing = False
        self.seer_only = False  # (every decision but a seer's check answered badly)

    def __call__(self, request: dict[str, Any]) -> str | None:
        if self.failing:
            return None
        with self.lock:
            if "response_format" not in request:
                self.said += 1
                return f"Line {self.said}: I only want what is best for the village."
            schema = request["response_format"]["json_schema"]["schema"]
            enum = schema["properties"]["choice"]["enum"]
            if self.seer_only and not any(SEER_CHECK in choice for choice in enum):
                return "I would rather not say."  # (no choice: the stand-in decides)
            return json.dumps({"choice": self.rng.choice(playing(enum))})


def playing(choices: list[Any]) -> list[Any]:
    """The choices of a player who plays: all but the last, the pass ("Stay asleep",
    "Abstain"), when there are others (a pack that sleeps starves: the game is over)."""
    return choices[:-1] if len(choices) > 1 else choices


@pytest.fixture(scope="module")
def model() -> Iterator[tuple[Fake, Model, str]]:
    fake, answers = Fake(), Model()
    fake.script = answers
    with serving(fake) as url:
        yield fake, answers, url


@contextlib.contextmanager
def model_env(url: str | None) -> Iterator[None]:
    """The environment naming the fake model's endpoint (``url``), while a server
    starts (it reads it then)."""
    saved = {name: os.environ.get(name) for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY")}
    if url is not None:
        os.environ.update(OPENAI_BASE_URL=url, OPENAI_API_KEY="test")
    try:
        yield
    finally:
        for name, value in saved.items():
            os.environ.pop(name, None)
            if value is not None:
                os.environ[name] = value


@contextlib.contextmanager
def started(database: Path, options: tuple[str, ...], url: str | None) -> Iterator[Server]:
    with model_env(url):
        server = Server(database, options=options).start()
    try:
        yield server
    finally:
        server.stop()


OPTIONS = ("--llm-model", "fake", "--llm-timeout", "5")


@pytest.fixture(scope="module")
def server(
    store_kind: str, tmp_path_factory: pytest.TempPathFactory, model: tuple[Fake, Model, str]
) -> Iterator[Server]:
    with started(tmp_path_factory.mktemp("ai") / "lupus.db", OPTIONS, model[2]) as running:
        yield running


async def play_along(
    player: Player,
    line: str | None = None,
    pack: str | None = None,
    timeout: float = 90,
    spare: int | None = None,
) -> None:
    """Answer prompts at random to the end, saying ``line`` once the first day is shown
    and ``pack`` to the pack once, before its first choice of a victim (``spare``: a
    seat never chosen, while there is another choice)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while player.view is None or not player.view["finished"]:
        view = player.view
        wolf = view is not None and any(p["verb"] == "kill" for p in view["prompts"])
        if pack is not None and wolf and view is not None and view["waiting"]:
            await player.send({"type": "chat", "text": pack})
            pack = None
        elif line is not None and view is not None and view["phase"] == "day":
            await player.send({"type": "chat", "text": line})
            line = None
        elif view is not None and view["waiting"] and view["prompts"]:
            await act(player, view, spare)
        else:
            await player.receive(max(0.1, deadline - loop.time()))


async def act(player: Player, view: Frame, spare: int | None = None) -> None:
    """A random choice of a prompt, never its pass (``playing``), nor ``spare``."""
    prompt = player.rng.choice(view["prompts"])
    choices = playing(prompt["choices"])
    choices = [c for c in choices if spare not in c["args"]] or choices
    choice = player.rng.choice(choices)
    action = {"type": "act", "verb": prompt["verb"], "args": choice["args"]}
    reply = await ask(player, **action, state_id=view["state_id"])
    assert reply["type"] == "ack" or moved_on(reply), reply


async def seat_ai_and_play(server: Server, seed: int) -> tuple[str, Player, Player]:
    """Ann (host, seat 0), the AI player (seat 1), Bo (seat 2), bots elsewhere: the
    whole game; its id, Ann and Bo with every frame they received."""
    created = server.create(**SETTINGS, seed=seed)
    async with players(server, 2) as (ann, bo):
        await ann.rejoin(created["room"], created["host_token"])
        added = await ask(ann, type="add_bot", kind="llm", seat=AI_SEAT)
        assert added["type"] == "ack", added
        assert (await bo.join(created["room"], "Bo"))["seat"] == 2
        assert ann.lobby is not None and ann.lobby["ai"] is True
        assert ann.lobby["seats"][AI_SEAT]["bot"] == "llm"
        assert (await ask(ann, type="start", fill="heuristic"))["type"] == "ack"
        await asyncio.gather(play_along(ann, HOST_LINE, PACK_LINE), play_along(bo))
    lobby = httpx.get(f"{server.http}/api/rooms/{created['room']}").json()
    assert lobby["status"] == "finished"
    return str(lobby["game"]), ann, bo


def user_texts(requests: list[dict[str, Any]]) -> list[str]:
    return [m["content"] for r in requests for m in r["messages"] if m["role"] == "user"]


def assert_nothing_unknown(server: Server, game_id: str, requests: list[dict[str, Any]]) -> None:
    """No request names another player beside a card the AI's seat never knew (what it
    knew at the end: a card once known stays known)."""
    stored = httpx.get(f"{server.http}/api/games/{game_id}/scenario").json()
    game = sc.replay(sc.parse(stored)).game  # (over: every card shown)
    # (the last action ended it: before it, what the seat knew when last asked)
    before = sc.replay(sc.parse({**stored, "actions": stored["actions"][:-1]})).game
    assert game.finished and not before.finished
    book = load("werewolf")
    words = card_words(book)
    known = before.view(AI_SEAT).known_roles()
    truth = game.view(LEADER).known_roles()
    names = {s: re.compile(rf"(?<!\w){re.escape(n)}(?!\w)") for s, n in enumerate(game.names)}
    secret = {s: r for s, r in truth.items() if s != AI_SEAT and known.get(s) != r}
    assert secret  # (the seer's card, at least, is never the AI's to know)
    for text in user_texts(requests):
        for sentence in SENTENCE.split(text.replace(book.name("rulebook"), "").replace("\n", " ")):
            for other, role in secret.items():
                assert not (names[other].search(sentence) and words[role].search(sentence)), (
                    other,
                    role,
                    sentence,
                )


def test_an_ai_player_plays_and_talks_by_its_seats_rules(
    server: Server, model: tuple[Fake, Model, str]
) -> None:
    fake, answers, _ = model
    fake.requests.clear()
    answers.said = 0
    game_id, ann, bo = asyncio.run(seat_ai_and_play(server, wolves_at(0, AI_SEAT)))
    requests = list(fake.requests)
    store = server.store()
    try:
        chat = store.chat(game_id)
    finally:
        store.close()
    mine = [line for line in chat if line["seat"] == AI_SEAT]
    channels = {str(line["channel"]) for line in mine}
    assert channels <= {"day", "pack"} and channels == {"day", "pack"}, mine
    assert all(str(line["text"]).startswith("Line ") for line in mine)
    for line in mine:
        if line["channel"] == "pack":  # (the pack awake: the wolves alive, Ann and the AI)
            assert AI_SEAT in line["seats"] and set(line["seats"]) <= {0, AI_SEAT}, line
    got = {
        name: [f for f in p.frames if f["type"] == "chat"] for name, p in (("ann", ann), ("bo", bo))
    }
    assert not [f for f in got["bo"] if f["channel"] == "pack"]
    # (Ann reads the pack's lines while she is alive: a later night's pack is the AI alone)
    pack_lines = {line["text"] for line in mine if line["channel"] == "pack" and 0 in line["seats"]}
    assert pack_lines <= {f["text"] for f in got["ann"] if f["channel"] == "pack"}
    assert {line["text"] for line in mine if line["channel"] == "day"} <= {
        f["text"] for f in got["bo"]
    }
    days = sc.replay(
        sc.parse(httpx.get(f"{server.http}/api/games/{game_id}/scenario").json())
    ).game.number
    day_lines = [line for line in mine if line["channel"] == "day"]
    assert 2 <= len(day_lines) <= LINES["day"] * days  # (one as day 1 opened, one answer)
    talk = [r for r in requests if "response_format" not in r]
    decisions = [r for r in requests if "response_format" in r]
    assert len(talk) == answers.said and talk and decisions
    assert any(HOST_LINE in text for text in user_texts(talk))  # (people's lines heard)
    # Ann's line to the pack: the AI, her packmate, is asked to answer it; Bo never reads it.
    assert any(PACK_LINE in text for text in user_texts(talk))
    assert PACK_LINE not in {f["text"] for f in got["bo"]}
    assert len([line for line in mine if line["channel"] == "pack"]) <= LINES["pack"] * days
    assert any(HOST_LINE in text for text in user_texts(decisions))
    assert_nothing_unknown(server, game_id, requests)


def test_a_failing_model_still_finishes_the_game(
    server: Server, model: tuple[Fake, Model, str]
) -> None:
    fake, answers, _ = model
    fake.requests.clear()
    answers.failing = True
    try:
        game_id, _, _ = asyncio.run(seat_ai_and_play(server, wolves_at(AI_SEAT)))
    finally:
        answers.failing = False
    assert fake.requests  # (asked, and every call failed)
    store = server.store()
    try:
        chat = store.chat(game_id)
    finally:
        store.close()
    assert not [line for line in chat if line["seat"] == AI_SEAT]  # (no answer: no line)


def test_without_a_model_no_ai_player_is_seated(store_kind: str, tmp_path: Path) -> None:
    with started(tmp_path / "lupus.db", (), None) as plain:
        created = plain.create(**SETTINGS)

        async def try_it() -> tuple[list[Frame], Frame | None]:
            async with players(plain, 1) as (ann,):
                await ann.rejoin(created["room"], created["host_token"])
                return [
                    await ask(ann, type="add_bot", kind="llm", seat=AI_SEAT),
                    await ask(ann, type="hand_over", kind="llm", seat=0),
                    await ask(ann, type="start", fill="llm"),
                ], ann.lobby

        refusals, lobby = asyncio.run(try_it())
    for refused in refusals:
        assert refused["type"] == "error" and refused["code"] == "not_allowed"
        assert refused["reason"] == "no_ai_model", refused
        assert "--llm-model" in refused["message"]
    assert lobby is not None and lobby["ai"] is False and lobby["seats"][AI_SEAT] is None
    assert lobby["status"] == "lobby" and lobby["seats"][0]["bot"] is None


def test_a_restarted_server_resumes_its_ai_player(
    store_kind: str, tmp_path: Path, model: tuple[Fake, Model, str]
) -> None:
    """Killed as the first day opens, the server comes back with the room, its AI seat
    plays on (it decides again, asking the model), and the game ends."""
    fake, _, url = model
    with started(tmp_path / "lupus.db", OPTIONS, url) as server:
        created = server.create(**SETTINGS, seed=wolves_at(AI_SEAT))
        room = created["room"]

        async def until_day() -> list[str | None]:
            async with players(server, 2) as (ann, bo):
                await ann.rejoin(room, created["host_token"])
                assert (await ask(ann, type="add_bot", kind="llm", seat=AI_SEAT))["type"] == "ack"
                await bo.join(room, "Bo")
                assert (await ask(ann, type="start", fill="heuristic"))["type"] == "ack"
                while ann.view is None or ann.view["phase"] != "day":
                    view = ann.view
                    if view is not None and view["waiting"] and view["prompts"]:
                        await act(ann, view)
                    else:
                        await ann.receive()
                return [ann.token, bo.token]

        tokens = asyncio.run(until_day())
        server.kill()
        fake.requests.clear()
        with model_env(url):
            server.start()

        async def to_the_end() -> None:
            async with players(server, 2) as (ann, bo):
                for player, token in zip((ann, bo), tokens, strict=True):
                    assert token is not None
                    await player.rejoin(room, token)
                await asyncio.gather(play_along(ann), play_along(bo))

        asyncio.run(to_the_end())
        lobby = httpx.get(f"{server.http}/api/rooms/{room}").json()
    assert lobby["status"] == "finished" and lobby["seats"][AI_SEAT]["bot"] == "llm"
    assert [r for r in fake.requests if "response_format" in r]  # (it decided again)


async def seer_game(server: Server) -> tuple[str, str]:
    """The AI player is the seer (seat 1), Ann and Bo the wolves, who never choose it
    (it checks a card by night, and votes by day), in a room that allows export: its
    code and its game's id once over."""
    created = server.create(
        **SETTINGS, seed=dealt_as({0: "werewolf", AI_SEAT: "seer", 2: "werewolf"})
    )
    room = created["room"]
    async with players(server, 2) as (ann, bo):
        await ann.rejoin(room, created["host_token"])
        assert (await ask(ann, type="settings", allow_export=True))["type"] == "ack"
        assert (await ask(ann, type="add_bot", kind="llm", seat=AI_SEAT))["type"] == "ack"
        assert (await bo.join(room, "Bo"))["seat"] == 2
        assert (await ask(ann, type="start", fill="heuristic"))["type"] == "ack"
        await asyncio.gather(play_along(ann, spare=AI_SEAT), play_along(bo, spare=AI_SEAT))
    lobby = httpx.get(f"{server.http}/api/rooms/{room}").json()
    assert lobby["status"] == "finished"
    return str(room), str(lobby["game"])


def test_the_export_marks_the_decisions_the_stand_in_took(
    server: Server, model: tuple[Fake, Model, str]
) -> None:
    """The model checks the seer's cards well and answers every vote with no choice:
    the stand-in votes. The store says who played each action, and the export marks
    the stand-in's votes ``fallback``, never the model's checks, the bots' or Ann's and
    Bo's decisions."""
    _, answers, _ = model
    answers.seer_only = True
    try:
        room, game_id = asyncio.run(seer_game(server))
    finally:
        answers.seer_only = False
    store = server.store()
    try:
        scenario = store.scenario(game_id)
        by = store.played_by(game_id)
    finally:
        store.close()
    assert scenario is not None
    actors = [action[0] for action in scenario[1]]
    for index, actor in enumerate(actors):
        if actor in (0, 2) or actor == LEADER:  # (a person's, or a close)
            assert index not in by, (index, actor, by.get(index))
        elif actor == AI_SEAT:
            assert by[index] in ("llm", AI_FALLBACK), by[index]
        else:
            assert by[index] == "heuristic", by[index]
    exported = CliRunner().invoke(app, ["export", "--database", server.address, "--room", room])
    assert exported.exit_code == 0, exported.output
    lines = [json.loads(line) for line in exported.stdout.splitlines() if line.startswith("{")]
    assert lines and {line["game"] for line in lines} == {game_id}
    ai = [line for line in lines if line["seat"] == AI_SEAT]
    checks = [line for line in ai if line["view"]["phase"] == "night"]
    votes = [line for line in ai if line["view"]["phase"] == "day"]
    assert checks and votes, ai
    assert not any(line["fallback"] for line in checks)
    assert all(line["fallback"] for line in votes)
    assert not any(line["fallback"] for line in lines if line["seat"] != AI_SEAT)


BO = 1
"""Bo's seat, which the host hands to an AI player for the first night."""


def test_the_host_hands_a_persons_seat_to_an_ai_player_and_back(
    server: Server, model: tuple[Fake, Model, str]
) -> None:
    """Bo, the seer, is idle as the game starts: Ann hands his seat to an AI player,
    which checks a card for him (the model asked the decision his seat owed); as the
    day opens she gives the seat back, and Bo plays it to the end himself (the wolves,
    Ann and a bot that follows her lead, spare him: he votes on day 1 at least)."""
    seed = dealt_as({0: "werewolf", BO: "seer", 3: "werewolf"})
    created = server.create(**SETTINGS, seed=seed)
    room = created["room"]

    async def play() -> None:
        async with players(server, 2) as (ann, bo):
            await ann.rejoin(room, created["host_token"])
            assert (await bo.join(room, "Bo"))["seat"] == BO
            assert (await ask(ann, type="start", fill="heuristic"))["type"] == "ack"
            handed = await ask(ann, type="hand_over", seat=BO, kind="llm")
            assert handed["type"] == "ack", handed
            assert ann.lobby is not None and ann.lobby["seats"][BO]["bot"] == "llm"
            while ann.view is None or ann.view["phase"] != "day":
                view = ann.view
                if view is not None and view["waiting"] and view["prompts"]:
                    await act(ann, view, spare=BO)  # (the wolves spare the seer)
                else:
                    await ann.receive()
            back = await ask(ann, type="hand_over", seat=BO, kind=None)
            assert back["type"] == "ack", back
            assert ann.lobby is not None and ann.lobby["seats"][BO]["bot"] is None
            await asyncio.gather(play_along(ann, spare=BO), play_along(bo))

    asyncio.run(play())
    store = server.store()
    try:
        game_id = str(httpx.get(f"{server.http}/api/rooms/{room}").json()["game"])
        scenario = store.scenario(game_id)
        by = store.played_by(game_id)
    finally:
        store.close()
    assert scenario is not None
    bos = [(index, by.get(index)) for index, a in enumerate(scenario[1]) if a[0] == BO]
    assert bos and bos[0][1] == "llm", bos  # (the AI player checked a card for him)
    first_person = next(n for n, (_, who) in enumerate(bos) if who is None)
    assert all(who == "llm" for _, who in bos[:first_person])
    assert all(who is None for _, who in bos[first_person:])  # (Bo's own, to the end)


def test_a_start_fills_the_empty_seats_with_ai_players(server: Server) -> None:
    """Ann alone, the other seven seats AI players: the model decides for them."""
    created = server.create(**SETTINGS)

    async def play() -> Frame | None:
        async with players(server, 1) as (ann,):
            await ann.rejoin(created["room"], created["host_token"])
            assert (await ask(ann, type="start", fill="llm"))["type"] == "ack"
            lobby = ann.lobby
            await play_along(ann)
            return lobby

    lobby = asyncio.run(play())
    assert lobby is not None
    assert [seat["bot"] for seat in lobby["seats"]] == [None] + ["llm"] * 7
    store = server.store()
    try:
        game_id = str(httpx.get(f"{server.http}/api/rooms/{created['room']}").json()["game"])
        by = store.played_by(game_id)
    finally:
        store.close()
    assert "llm" in by.values() and set(by.values()) <= {"llm", AI_FALLBACK}
