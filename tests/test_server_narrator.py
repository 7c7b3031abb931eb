"""Who narrates at one table, over the wire (issue 25, item 2).

- ``narrator`` (a host command) chooses the host's device (the default), a person's
  phone (``by: seat``) or a separate screen (``by: screen``, answered with the screen's
  link and QR code); everyone's lobby says which (``lobby.narrator``). Refused to
  anyone but the host (``not_host``), in a room not played at one table, for a seat no
  person holds or that does not exist (``not_allowed``).
- The chosen phone's token, or the screen's, may ``watch`` a room that refuses
  spectators: a spectator's connection, the public view and nothing else; a screen's
  token holds no seat (``rejoin`` refuses it). Chosen again, the right taken back is
  refused and its connections are told and closed.
- The choice survives a restart (the screen's token too).
- Every view carries ``spoken``, a mark per line: ballots are never said aloud, a
  card's wake begins a step, deaths and the end are said.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server_harness import Player, Server
from tests.stall_harness import QUICK, Person, four_seated


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    started = Server(tmp_path_factory.mktemp("narrator") / "lupus.db", limits=QUICK).start()
    try:
        yield started
    finally:
        started.stop()


async def table(server: Server, **settings: Any) -> tuple[str, Person, list[Person]]:
    """A mafia-classic room of four at one table: Ann the host (seat 0), Bob, Cy, Dee."""
    return await four_seated(server, **{"table": True, **settings})


async def watch(server: Server, code: str, token: str | None) -> tuple[Person, dict[str, Any]]:
    """A new connection that watches ``code`` with ``token``: it and the answer (the
    welcome, or the error)."""
    person = await Person(server, "screen").start()
    message: dict[str, Any] = {"type": "watch", "room": code}
    if token is not None:
        message["token"] = token
    await person.send(message)
    while True:
        frame = await person.receive()
        if frame["type"] in ("welcome", "error"):
            break
    if frame["type"] == "welcome":
        person.listen()
    return person, frame


def test_the_host_chooses_a_phone_or_a_screen_to_narrate(server: Server) -> None:
    async def test() -> None:
        code, ann, (bob, cy, dee) = await table(server)
        opened: list[Person] = []
        try:
            assert ann.lobby is not None and ann.lobby["narrator"] == {"by": "host", "seat": None}
            # Only the host chooses.
            assert (await bob.ask({"type": "narrator", "by": "seat", "seat": 1}))[
                "code"
            ] == "not_host"
            # Bob's phone narrates: everyone is told; his token watches a room that
            # has no spectators, Cy's does not.
            assert (await ann.ask({"type": "narrator", "by": "seat", "seat": 1}))["type"] == "ack"
            for person in (ann, bob, cy, dee):
                await person.wait_for(
                    lambda p=person: p.lobby["narrator"] == {"by": "seat", "seat": 1}
                )
            assert bob.token is not None and cy.token is not None
            voice, welcome = await watch(server, code, bob.token)
            opened.append(voice)
            assert welcome["type"] == "welcome" and welcome["seat"] is None
            assert welcome["host"] is False
            other, refused = await watch(server, code, cy.token)
            opened.append(other)
            assert refused["type"] == "error" and refused["code"] == "not_allowed"
            # A screen: its link and QR code, to the host alone; Bob's right is gone.
            answer = await ann.ask({"type": "narrator", "by": "screen"})
            assert answer["type"] == "ack", answer
            token, url = answer["token"], answer["url"]
            assert len(token) >= 32 and url == f"{server.http}/?screen={code}#token={token}"
            assert "<svg" in answer["qr"]
            await voice.wait_for(lambda: voice.gone, timeout=5)
            told = [f for f in voice.frames if f["type"] == "error"]
            assert told and told[-1]["code"] == "bad_token", told
            again, refused = await watch(server, code, bob.token)
            opened.append(again)
            assert refused["type"] == "error" and refused["code"] == "not_allowed"
            await ann.wait_for(lambda: ann.lobby["narrator"] == {"by": "screen", "seat": None})
            assert all(token not in str(frame) for p in (bob, cy, dee) for frame in p.frames)
            screen, welcome = await watch(server, code, token)
            opened.append(screen)
            assert welcome["type"] == "welcome" and welcome["seat"] is None
            assert welcome["host"] is False
            # The screen's token holds no seat, and no host powers.
            stray = await Player(server).connect()
            try:
                await stray.send({"type": "rejoin", "room": code, "token": token})
                assert (await stray.until("error"))["code"] == "bad_token"
            finally:
                await stray.close()
            assert (await screen.ask({"type": "start", "fill": "random"}))["code"] == "not_host"
            assert (await screen.ask({"type": "narrator", "by": "host"}))["code"] == "not_host"
            # The game, on the screen: the public view alone.
            for person in (bob, cy, dee):
                assert (await ann.ask({"type": "hand_over", "seat": person.seat}))["type"] == "ack"
            assert (await ann.ask({"type": "start"}))["type"] == "ack"
            await screen.wait_for(lambda: screen.views(), timeout=10)
            await asyncio.sleep(0.5)
            for view in screen.views():
                assert view["seat"] is None and view["prompts"] == [] and not view["waiting"]
                assert all(event["audience"] is None for event in view["events"])
                assert len(view["spoken"]) == len(view["lines"])
            # A screen chosen again: a new link, the old one refused at once.
            answer = await ann.ask({"type": "narrator", "by": "screen"})
            assert answer["token"] != token
            await screen.wait_for(lambda: screen.gone, timeout=5)
            old, refused = await watch(server, code, token)
            opened.append(old)
            assert refused["type"] == "error" and refused["code"] == "not_allowed"
            fresh, welcome = await watch(server, code, answer["token"])
            opened.append(fresh)
            assert welcome["type"] == "welcome"
            # Back to the host's device: the screen's right is gone too.
            assert (await ann.ask({"type": "narrator", "by": "host"}))["type"] == "ack"
            await fresh.wait_for(lambda: fresh.gone, timeout=5)
        finally:
            for person in (ann, bob, cy, dee, *opened):
                await person.leave()

    asyncio.run(test())


def test_what_the_narrator_command_refuses(server: Server) -> None:
    async def test() -> None:
        code, ann, (bob, cy, dee) = await table(server)
        try:
            for message in (
                {"type": "narrator", "by": "seat"},  # which seat?
                {"type": "narrator", "by": "seat", "seat": 4},  # no such seat
                {"type": "narrator", "by": "seat", "seat": -1},
                {"type": "narrator", "by": "host", "seat": 1},  # a seat, not by seat
                {"type": "narrator", "by": "screen", "seat": 2},
            ):
                assert (await ann.ask(message))["code"] == "not_allowed", message
            # A bot's own seat has no phone to narrate.
            await dee.leave()
            assert (await ann.ask({"type": "kick", "seat": 3}))["type"] == "ack"
            assert (await ann.ask({"type": "add_bot", "seat": 3}))["type"] == "ack"
            bot = await ann.ask({"type": "narrator", "by": "seat", "seat": 3})
            assert bot["code"] == "not_allowed"
            for junk in (
                {"type": "narrator", "by": "tv"},
                {"type": "narrator"},
                {"type": "narrator", "by": "seat", "seat": "1"},
                {"type": "narrator", "by": "host", "token": "x"},
            ):
                assert (await ann.ask(junk))["code"] == "malformed", junk
            # A narrating seat given away: the host narrates again, and the phone that
            # watched by its right is closed.
            assert (await ann.ask({"type": "narrator", "by": "seat", "seat": 2}))["type"] == "ack"
            assert cy.token is not None
            voice, welcome = await watch(server, code, cy.token)
            assert welcome["type"] == "welcome"
            assert (await ann.ask({"type": "kick", "seat": 2}))["type"] == "ack"
            await voice.wait_for(lambda: voice.gone, timeout=5)
            await ann.wait_for(lambda: ann.lobby["narrator"] == {"by": "host", "seat": None})
            await voice.leave()
            # A swap moves the narrating person with his seat.
            assert (await ann.ask({"type": "narrator", "by": "seat", "seat": 1}))["type"] == "ack"
            assert (await ann.ask({"type": "swap", "seat": 1, "other": 2}))["type"] == "ack"
            await ann.wait_for(lambda: ann.lobby["narrator"] == {"by": "seat", "seat": 2})
            assert bob.token is not None
            moved, welcome = await watch(server, code, bob.token)
            assert welcome["type"] == "welcome"
            await moved.leave()
        finally:
            for person in (ann, bob, cy, dee):
                await person.leave()
        # A room not played at one table has no narrator to choose.
        created = server.create(rules="mafia-classic", players=4, host_name="Ann")
        host = await Person(server, "Ann").start()
        await host.enter(created["room"], created["host_token"])
        try:
            refused = await host.ask({"type": "narrator", "by": "screen"})
            assert refused["code"] == "not_allowed"
        finally:
            await host.leave()

    asyncio.run(test())


def test_the_narrator_survives_a_restart(tmp_path: Path) -> None:
    server = Server(tmp_path / "lupus.db", limits=QUICK).start()
    try:

        async def choose() -> tuple[str, str, str]:
            code, ann, others = await table(server)
            answer = await ann.ask({"type": "narrator", "by": "screen"})
            seat_room, host, (bob, *rest) = await table(server)
            assert (await host.ask({"type": "narrator", "by": "seat", "seat": 1}))["type"] == "ack"
            assert bob.token is not None
            for person in (ann, *others, host, bob, *rest):
                await person.leave()
            return code, answer["token"], f"{seat_room} {bob.token}"

        code, screen_token, seat_room = asyncio.run(choose())
        server.kill()
        server.start()

        async def after() -> None:
            screen, welcome = await watch(server, code, screen_token)
            assert welcome["type"] == "welcome" and welcome["seat"] is None
            await screen.wait_for(lambda: screen.lobby)
            assert screen.lobby is not None
            assert screen.lobby["narrator"] == {"by": "screen", "seat": None}
            await screen.leave()
            room, bob_token = seat_room.split()
            voice, welcome = await watch(server, room, bob_token)
            assert welcome["type"] == "welcome"
            await voice.wait_for(lambda: voice.lobby)
            assert voice.lobby is not None
            assert voice.lobby["narrator"] == {"by": "seat", "seat": 1}
            await voice.leave()

        asyncio.run(after())
    finally:
        server.stop()


def test_a_narrators_view_marks_what_is_said_aloud(server: Server) -> None:
    """A table of bots played to its end, watched by the host's device: a mark per
    line, ballots never said, each card's wake a new step, deaths and the end said."""

    async def test() -> None:
        created = server.create(
            rules="werewolf", players=8, table=True, bot_delay=0.0, pace=0.02, seed=5
        )
        code = created["room"]
        host = await Person(server, "host").start()
        await host.enter(code, created["host_token"])
        voice, welcome = await watch(server, code, created["host_token"])
        try:
            assert welcome["type"] == "welcome"
            assert (await host.ask({"type": "start", "fill": "heuristic"}))["type"] == "ack"
            await voice.wait_for(lambda: voice.view and voice.view["finished"], timeout=60)
            marked: list[tuple[str, str | None]] = []
            for view in voice.views():
                assert len(view["spoken"]) == len(view["lines"]), view
                marked += zip(view["lines"], view["spoken"], strict=True)
            said = {line: mark for line, mark in marked}
            assert any(" votes against " in line for line in said)
            for line, mark in marked:
                if " votes against " in line or line.startswith("==") or not line:
                    assert mark is None, line
                if "wakes up" in line or "wake up" in line or line.startswith("Night "):
                    assert mark == "step", line
                if " is dead " in line or line.startswith(("The game is over", "Votes:")):
                    assert mark == "say", line
            assert any(line.startswith("The game is over") for line, _ in marked)
            assert any(" is dead " in line for line, _ in marked)
        finally:
            await voice.leave()
            await host.leave()

    asyncio.run(test())


def test_each_event_names_its_sentence() -> None:
    """``told`` pairs each event of a frame with its sentence, counted over every line
    the client was sent (the page no longer pairs them by guessing: ``align``)."""
    from lupus.engine.model import LEADER
    from lupus.families import new_game
    from lupus.server.frame import Sent, view_frame

    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    roles = ["werewolf"] * 2 + ["seer"] + ["villager"] * 5
    game = new_game("werewolf", names, roles, seed=3)
    sent = Sent()
    frame = view_frame(sent, "en", game, game.view(LEADER), "g", False, None)
    assert frame is not None
    assert len(frame.told) == len(frame.events)
    for at in frame.told:
        assert at is None or 0 <= at < len(frame.lines)
    assert view_frame(sent, "en", game, game.view(LEADER), "g", False, None) is None
