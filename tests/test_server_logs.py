"""``lupus serve --log-format json``: every line the process writes is one JSON object,
uvicorn's start-up lines too, and no line carries a token (or its digest), a card a
seat was dealt, an action's verb, an event told to some seats only, or a chat line.

A real server plays a whole game with people and bots at ``--log-level debug`` (every
line the server may write), stops, and its whole output is read back.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server_harness import Player, Server, players

from lupus.server.logs import JsonLines, fields_of, withheld, without_password

WORDS = "zebra-quartz-mumble"  # a chat line's words, found nowhere else


async def game(server: Server, created: dict[str, Any]) -> list[Player]:
    """The host and two friends play to the end with bots, chatting; a stale action
    is refused on the way."""
    room = created["room"]
    async with players(server, 3) as people:
        host, bob, cy = people
        await host.rejoin(room, created["host_token"])
        await bob.join(room, "Bob")
        await cy.join(room, "Cy")
        await host.answer(await host.send({"type": "chat", "text": WORDS}))
        assert (await host.answer(await host.send({"type": "start", "fill": "heuristic"})))[
            "type"
        ] == "ack"
        await bob.until("view")
        stale = {"type": "act", "verb": "vote", "args": [0], "state_id": -1}
        assert (await bob.answer(await bob.send(stale)))["type"] == "error"
        await asyncio.gather(*(person.play() for person in people))
        return people


def said(people: list[Player]) -> tuple[set[str], set[str], set[str]]:
    """Every verb prompted, every event kind told to some seats only, and the lines of
    those events (when a view's lines match its events one to one)."""
    verbs: set[str] = set()
    kinds: set[str] = set()
    lines: set[str] = set()
    for person in people:
        for frame in person.frames:
            if frame["type"] != "view":
                continue
            verbs.update(prompt["verb"] for prompt in frame["prompts"])
            events, told = frame["events"], frame["lines"]
            for n, event in enumerate(events):
                if event.get("audience") is not None:
                    kinds.add(event["kind"])
                    if len(told) == len(events) and told[n]:
                        lines.add(str(told[n]))
    return verbs, kinds, lines


def words(value: object) -> set[str]:
    """The words of a logged value (ids hold letters, digits, ``_`` and ``-``)."""
    return set(re.findall(r"[A-Za-z0-9_-]+", json.dumps(value)))


@dataclass
class Played:
    """A game played on a server of its own, and everything the server wrote."""

    output: str
    created: dict[str, Any]
    people: list[Player]
    scenario: dict[str, Any]

    def secrets(self) -> dict[str, set[str]]:
        """What no line may hold, as words: the tokens and their digests, the cards
        dealt, the verbs prompted, the kinds of events told to some seats only."""
        tokens = {self.created["host_token"], *(p.token for p in self.people if p.token)}
        cards = set(self.scenario["roles"].values()) | set(self.scenario.get("extra_cards") or [])
        verbs, kinds, _ = said(self.people)
        assert cards and verbs and kinds  # (a real game: something to find)
        return {
            "token": tokens | {hashlib.sha256(t.encode()).hexdigest() for t in tokens},
            "card": cards,
            "verb": verbs,
            "private event": kinds,
        }


def played(tmp_path: Path, log_format: str) -> Played:
    options = ("--log-format", log_format, "--log-level", "debug")
    server = Server(tmp_path / "lupus.db", options=options).start()
    try:
        created = server.create(
            rules="werewolf", players=8, host_name="Ann", bot_delay=0, pace=0.02, timers={"day": 1}
        )
        people = asyncio.run(game(server, created))
        lobby = httpx.get(f"{server.http}/api/rooms/{created['room']}").json()
        scenario = httpx.get(f"{server.http}/api/games/{lobby['game']}/scenario").json()
    finally:
        assert server.stop() == 0
    return Played(server.log.read_text(encoding="utf-8"), created, people, scenario)


def test_every_line_is_json_and_tells_no_secret(tmp_path: Path) -> None:
    run = played(tmp_path, "json")
    lines = [json.loads(line) for line in run.output.splitlines()]  # (each one object)
    assert lines and all(isinstance(line, dict) for line in lines)
    for line in lines:
        assert {"time", "level", "logger"} <= line.keys() and line.keys() & {"event", "message"}
    events = [line.get("event") for line in lines]
    assert "serving" in events and "game_started" in events and "stopped" in events
    assert any("Uvicorn running" in str(line.get("message")) for line in lines)
    assert [line["room"] for line in lines if line.get("event") == "room_opened"] == [
        run.created["room"]
    ]
    secrets = run.secrets()
    private_lines = said(run.people)[2]
    for line in lines:
        found = words({k: v for k, v in line.items() if k != "rules"})  # (the rulebook's id)
        for what, told in secrets.items():
            assert not found & told, (what, line)
        shown = json.dumps(line, ensure_ascii=False)
        assert WORDS not in shown and not any(told in shown for told in private_lines), line
        assert "composition" not in line


def test_the_text_lines_tell_no_secret_either(tmp_path: Path) -> None:
    """The default format at ``debug``: the same secrets are in no line."""
    run = played(tmp_path, "text")
    assert "lupus: serving on" in run.output and "game_started room=" in run.output
    secrets = run.secrets()
    for line in run.output.splitlines():
        found = words(line.replace("rules=werewolf", ""))  # (the rulebook's id)
        for what, told in secrets.items():
            assert not found & told, (what, line)
        assert WORDS not in line


def test_an_unknown_log_format_is_refused(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "lupus", "serve", "--log-format", "xml"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode != 0 and "--log-format" in done.stderr + done.stdout


def record(message: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord("lupus.server", logging.INFO, __file__, 1, message, args, None)


def test_fields_come_from_the_servers_own_lines() -> None:
    """An event's fields keep their types; a line of another shape keeps its message."""
    assert fields_of(record("room_opened room=%s players=%d why=gone", "K7QF", 8)) == {
        "event": "room_opened",
        "room": "K7QF",
        "players": 8,
        "why": "gone",
    }
    assert fields_of(record("Started server process [%d]", 12)) is None
    assert fields_of(record("seat room=%s", "A", "extra")) is None  # (an argument too many)
    assert fields_of(record("seat room=%s seat=%d", "A")) is None  # (one too few)
    line = json.loads(JsonLines().format(record("Uvicorn running on %s", "http://x")))
    assert line["message"] == "Uvicorn running on http://x" and line["level"] == "info"


def test_a_traceback_tells_where_but_not_what() -> None:
    """An exception's message may quote a game (a card): its traceback keeps its frames
    and types, and no message, in JSON as in text (the messages are made as the game
    would: the source lines a traceback quotes hold none)."""
    card, other = "-".join(["seer", "card"]), "-".join(["were", "wolf"])
    try:
        try:
            raise KeyError(card)
        except KeyError as exc:
            raise ValueError(other) from exc
    except ValueError:
        info = sys.exc_info()
    shown = withheld(info)
    assert "KeyError" in shown and "ValueError" in shown and "direct cause" in shown
    assert "test_a_traceback_tells_where_but_not_what" in shown
    assert card not in shown and other not in shown
    failed = logging.LogRecord("lupus.server", logging.ERROR, __file__, 1, "work_failed", (), info)
    line = json.loads(JsonLines().format(failed))
    assert line["event"] == "work_failed" and other not in line["traceback"]


@pytest.mark.parametrize(
    ("database", "shown"),
    [
        ("lupus.db", "lupus.db"),
        (
            "postgresql://ann:s3cret@db.example:5432/lupus",
            "postgresql://ann:***@db.example:5432/lupus",
        ),
        ("postgresql://db.example/lupus", "postgresql://db.example/lupus"),
    ],
)
def test_a_database_address_is_logged_without_its_password(database: str, shown: str) -> None:
    assert without_password(database) == shown


def test_a_database_out_of_reach_is_said_as_a_json_line(tmp_path: Path) -> None:
    """A server that cannot start (its database out of reach) says why on a JSON line
    like every other, and without the database's password."""
    url = "postgresql://lupus:hunter2@127.0.0.1:1/lupus"
    command = [sys.executable, "-m", "lupus", "serve", "--log-format", "json"]
    done = subprocess.run(
        [*command, "--port", "0", "--database", url],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 1
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.strip()]
    assert lines and lines[-1]["event"] == "start_failed", done.stderr
    assert "127.0.0.1:1" in lines[-1]["reason"] and "hunter2" not in done.stderr
