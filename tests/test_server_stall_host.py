"""No room is stuck for want of its host, and a seat can be taken back on another
device, over the wire.

- Host powers pass on: when their holder has had no connection for ``host_grace``
  (1 s on this test's server, 60 s by default), they go to the next connected person
  in seat order after his seat (a gone person and a bot's own seat are passed over);
  everyone's lobby says who holds them (``host_seat``) and the new holder's
  commands work, the old one's are refused when he comes back (``welcome.host``
  false). ``pass_host`` hands them on, and is refused to anyone else; a game leader
  keeps his.
- They survive a restart: the holder's token, and nobody else's, still holds them.
- A creator who plays no seat: his powers pass on like anyone's; back, he watches
  without them (his lobby's ``host`` false) until their holder gives them back
  (``pass_host`` with no seat); a spectator never holds them.
- ``new_link``: the host is answered with the seat's new token and its link (and its
  QR code); the old token is refused from then on, and the seat's connections are
  told and closed at once; the new token enters the seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from tests.server_harness import Player, Server
from tests.stall_harness import QUICK, Person, four_seated

GRACE = 1.0  # QUICK's host_grace
SLACK = 3.0  # how much later than the grace a busy machine may pass them on


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    started = Server(tmp_path_factory.mktemp("host") / "lupus.db", limits=QUICK).start()
    try:
        yield started
    finally:
        started.stop()


async def table(server: Server, **settings: Any) -> tuple[str, Person, list[Person]]:
    """A mafia-classic room of four: Ann the host (seat 0), Bob, Cy and Dee."""
    return await four_seated(server, **settings)


def holder(person: Person) -> Any:
    return person.lobby and person.lobby["host_seat"]


def test_host_powers_pass_on_when_the_host_is_gone(server: Server) -> None:
    async def test() -> None:
        code, ann, (bob, cy, dee) = await table(server)
        try:
            assert holder(cy) == 0
            # Bob (seat 1) is gone too: the powers go to Cy, the next one connected.
            await bob.leave()
            token = ann.token
            assert token is not None
            await ann.leave()
            left = time.monotonic()
            await cy.wait_for(lambda: holder(cy) == 2, timeout=GRACE + SLACK)
            waited = time.monotonic() - left
            assert GRACE - 0.2 <= waited <= GRACE + SLACK, waited
            await dee.wait_for(lambda: holder(dee) == 2)
            assert (await dee.ask({"type": "start", "fill": "heuristic"}))["code"] == "not_host"
            assert (await cy.ask({"type": "add_bot", "seat": 1}))["code"] == "not_allowed"
            # Ann is back: the powers stay with Cy.
            ann = await Person(server, "Ann").start()
            welcome = await ann.enter(code, token)
            assert welcome["host"] is False and welcome["seat"] == 0
            await ann.wait_for(lambda: holder(ann) == 2)
            assert (await ann.ask({"type": "pass_host", "seat": 0}))["code"] == "not_host"
            assert (await ann.ask({"type": "kick", "seat": 3}))["code"] == "not_host"
            # Cy hands them back; a bot's own seat and a seat nobody has may not hold them.
            assert (await cy.ask({"type": "add_bot", "seat": 1}))["code"] == "not_allowed"
            assert (await cy.ask({"type": "kick", "seat": 1}))["type"] == "ack"
            assert (await cy.ask({"type": "add_bot", "seat": 1}))["type"] == "ack"
            assert (await cy.ask({"type": "pass_host", "seat": 1}))["code"] == "not_allowed"
            assert (await cy.ask({"type": "pass_host", "seat": 9}))["code"] == "not_allowed"
            assert (await cy.ask({"type": "pass_host", "seat": 0}))["type"] == "ack"
            await dee.wait_for(lambda: holder(dee) == 0)
            assert (await cy.ask({"type": "start"}))["code"] == "not_host"
            assert (await ann.ask({"type": "start"}))["type"] == "ack"
            # Mid-game too: the close of a step is Ann's, then Dee's (Bob's seat is a
            # bot's, Cy leaves with her).
            await ann.wait_for(lambda: ann.view is not None)
            await cy.leave()
            await ann.leave()
            await dee.wait_for(lambda: holder(dee) == 3, timeout=GRACE + SLACK)
            shown = dee.view
            assert shown is not None
            answer = await dee.ask({"type": "close", "state_id": shown["state_id"]})
            assert answer["type"] == "ack" or answer["code"] in ("stale", "not_allowed")
        finally:
            for person in (ann, bob, cy, dee):
                await person.leave()

    asyncio.run(test())


def test_a_creator_without_a_seat_is_given_his_powers_back(server: Server) -> None:
    async def test() -> None:
        created = server.create(rules="mafia-classic", players=3, spectators=True)
        code, token = created["room"], created["host_token"]
        assert created["host_seat"] is None
        creator = await Person(server, "creator").start()
        assert (await creator.enter(code, token))["host"] is True
        people = []
        for name in ("Ann", "Bob"):
            person = await Person(server, name).start()
            await person.enter(code, name=name)
            people.append(person)
        ann, bob = people
        watcher = await Person(server, "watcher").start()
        await watcher.send({"type": "watch", "room": code})
        watcher.listen()
        try:
            await creator.wait_for(lambda: creator.lobby and creator.lobby["host"] is True)
            assert ann.lobby and ann.lobby["host"] is False and ann.lobby["seatless_creator"]
            refused = await ann.ask({"type": "pass_host", "seat": None})
            assert refused["code"] == "not_host"
            await creator.leave()
            await ann.wait_for(lambda: ann.lobby and ann.lobby["host"] is True, GRACE + SLACK)
            await bob.wait_for(lambda: bob.lobby and bob.lobby["host_seat"] == 0)
            creator = await Person(server, "creator").start()
            welcome = await creator.enter(code, token)
            assert welcome["host"] is False and welcome["seat"] is None
            await creator.wait_for(lambda: creator.lobby and creator.lobby["host_seat"] == 0)
            assert creator.lobby["host"] is False
            assert (await creator.ask({"type": "start"}))["code"] == "not_host"
            assert (await creator.ask({"type": "pass_host", "seat": None}))["code"] == "not_host"
            # Ann gives them back: the creator's again, nobody else's.
            assert (await ann.ask({"type": "pass_host", "seat": None}))["type"] == "ack"
            await creator.wait_for(lambda: creator.lobby and creator.lobby["host"] is True)
            await ann.wait_for(lambda: ann.lobby and ann.lobby["host"] is False)
            assert creator.lobby["host_seat"] is None
            assert watcher.lobby and watcher.lobby["host"] is False
            assert (await ann.ask({"type": "start"}))["code"] == "not_host"
            assert (await watcher.ask({"type": "start"}))["code"] == "not_host"
            assert (await creator.ask({"type": "start", "fill": "heuristic"}))["type"] == "ack"
        finally:
            for person in (creator, ann, bob, watcher):
                await person.leave()

    asyncio.run(test())


def test_a_seated_creators_powers_go_back_to_his_seat_not_to_nobody(server: Server) -> None:
    async def test() -> None:
        _code, ann, (bob, cy, dee) = await table(server)
        try:
            assert ann.lobby and ann.lobby["host"] is True and not ann.lobby["seatless_creator"]
            refused = await ann.ask({"type": "pass_host", "seat": None})
            assert refused["code"] == "not_allowed"
            assert ann.lobby["host"] is True
        finally:
            for person in (ann, bob, cy, dee):
                await person.leave()

    asyncio.run(test())


def test_a_game_leader_keeps_his_powers(server: Server) -> None:
    async def test() -> None:
        names = ["Ann", "Bob", "Cy"]
        created = server.create(rules="mafia-classic", players=3, mode="leader", names=names)
        leader = await Person(server, "leader").start()
        await leader.enter(created["room"], created["host_token"])
        try:
            refused = await leader.ask({"type": "pass_host", "seat": 1})
            assert refused["code"] == "not_allowed"
            assert (await leader.ask({"type": "new_link", "seat": 1}))["code"] == "not_allowed"
        finally:
            await leader.leave()

    asyncio.run(test())


def test_host_powers_survive_a_restart(tmp_path: Path) -> None:
    server = Server(tmp_path / "lupus.db", limits=QUICK).start()

    async def before() -> tuple[str, dict[str, str]]:
        code, ann, (bob, cy, dee) = await table(server)
        assert (await ann.ask({"type": "pass_host", "seat": 2}))["type"] == "ack"
        await bob.wait_for(lambda: holder(bob) == 2)
        tokens = {p.name: p.token for p in (ann, bob, cy, dee) if p.token}
        return code, tokens

    async def after(code: str, tokens: dict[str, str]) -> None:
        cy = await Person(server, "Cy").start()
        ann = await Person(server, "Ann").start()
        try:
            assert (await cy.enter(code, tokens["Cy"]))["host"] is True
            assert (await ann.enter(code, tokens["Ann"]))["host"] is False
            await ann.wait_for(lambda: holder(ann) == 2)
            assert (await ann.ask({"type": "start"}))["code"] == "not_host"
            assert (await cy.ask({"type": "start", "fill": "heuristic"}))["type"] == "ack"
        finally:
            await cy.leave()
            await ann.leave()

    try:
        code, tokens = asyncio.run(before())
        server.kill()
        server.start()
        asyncio.run(after(code, tokens))
    finally:
        server.stop()


def test_a_new_link_takes_a_seat_back_and_revokes_the_old_token(server: Server) -> None:
    async def test() -> None:
        code, ann, (bob, cy, dee) = await table(server)
        second = await Person(server, "Bob's other tab").start()  # (the same seat, twice)
        old = bob.token
        assert old is not None
        await second.enter(code, old)
        try:
            refused = await cy.ask({"type": "new_link", "seat": 1})
            assert refused["code"] == "not_host"
            answer = await ann.ask({"type": "new_link", "seat": 1})
            assert answer["type"] == "ack", answer
            token, url = answer["token"], answer["url"]
            assert token != old and len(token) >= 32
            assert url == f"{server.http}/?room={code}#token={token}"
            assert answer["qr"].lstrip().startswith("<?xml") and "<svg" in answer["qr"]
            # Both of Bob's connections are told and closed at once.
            for tab in (bob, second):
                await tab.wait_for(lambda t=tab: t.gone, timeout=5)
                told = [f for f in tab.frames if f["type"] == "error"]
                assert told and told[-1]["code"] == "bad_token", told
            await ann.wait_for(lambda: not ann.lobby["seats"][1]["connected"])
            # The old token is refused; the new one is Bob's seat.
            stale = await Player(server).connect()
            try:
                await stale.send({"type": "rejoin", "room": code, "token": old})
                assert (await stale.until("error"))["code"] == "bad_token"
            finally:
                await stale.close()
            back = await Person(server, "Bob again").start()
            welcome = await back.enter(code, token)
            assert welcome["seat"] == 1 and welcome["host"] is False
            await back.leave()
            # A bot's own seat, or a seat nobody holds, has no link.
            assert (await ann.ask({"type": "kick", "seat": 3}))["type"] == "ack"
            assert (await ann.ask({"type": "new_link", "seat": 3}))["code"] == "not_allowed"
            assert (await ann.ask({"type": "add_bot", "seat": 3}))["type"] == "ack"
            assert (await ann.ask({"type": "new_link", "seat": 3}))["code"] == "not_allowed"
            # The holder's own seat: the powers go with its new token, and the
            # connection that asked is answered before it is closed.
            mine = await ann.ask({"type": "new_link", "seat": 0})
            assert mine["type"] == "ack"
            await ann.wait_for(lambda: ann.gone, timeout=5)
            again = await Person(server, "Ann again").start()
            assert (await again.enter(code, mine["token"]))["host"] is True
            await again.leave()
        finally:
            for person in (ann, bob, cy, dee, second):
                await person.leave()

    asyncio.run(test())


def test_a_closed_connection_of_a_revoked_seat_cannot_act(server: Server) -> None:
    """After ``new_link`` the old connections are gone: a message from one of them
    (sent before the server closed it) changes nothing, and the server is fine."""

    async def test() -> None:
        code, ann, (bob, cy, dee) = await table(server)
        try:
            answer = await ann.ask({"type": "new_link", "seat": 2})
            assert answer["type"] == "ack"
            await cy.wait_for(lambda: cy.gone, timeout=5)
            with contextlib.suppress(websockets.ConnectionClosed):
                await cy.send({"type": "chat", "text": "still here?"})
            lobby = httpx.get(f"{server.http}/api/rooms/{code}", timeout=10).json()
            assert lobby["seats"][2]["connected"] is False
        finally:
            for person in (ann, bob, cy, dee):
                await person.leave()

    asyncio.run(test())
