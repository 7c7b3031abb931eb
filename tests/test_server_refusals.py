"""Every refusal the server can send has words in every language the interface speaks,
and those words ask for no field the server does not fill (``lupus.server.refusals``).

The reasons are read from the server's own code: every ``ProtocolError``, ``Refusal``,
``send_error`` and HTTP ``problem`` names its reason as a literal, so a new refusal
without words in some locale fails here before a page shows its key."""

from __future__ import annotations

import ast
import asyncio
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server_harness import Player, Server

from lupus.messages import locale
from lupus.server import catalogue
from lupus.server.refusals import PREFIX, Refusal, words

SERVER = Path(__file__).resolve().parent.parent / "src" / "lupus" / "server"

# The argument that names the reason, by the callee's name.
REASON_AT = {"ProtocolError": 1, "Refusal": 0, "send_error": 1, "problem": 2, "free_seat": 1}


def callee(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def literals(node: ast.expr) -> list[str] | None:
    """The reasons an argument may be: a literal, or either side of ``a if x else b``;
    None when it is something else (a ``Refusal`` made elsewhere, passed on)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = literals(node.body), literals(node.orelse)
        if body is not None and orelse is not None:
            return body + orelse
    return None


def sent() -> dict[str, set[str]]:
    """Every reason the server's code names -> the fields some call gives it."""
    found: dict[str, set[str]] = {}
    passed_on = 0
    for path in sorted(SERVER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = callee(node)
            if name not in REASON_AT or len(node.args) <= REASON_AT[name]:
                continue
            argument = node.args[REASON_AT[name]]
            reasons = literals(argument)
            if reasons is None:
                # (a Refusal made where its reason is a literal, or a variable holding one)
                assert isinstance(argument, ast.Name | ast.Attribute), (path.name, node.lineno)
                passed_on += 1
                continue
            given = {keyword.arg for keyword in node.keywords if keyword.arg is not None}
            for reason in reasons:
                found.setdefault(reason, set()).update(given)
    assert passed_on > 0  # (the scan sees the calls that pass a refusal on)
    return found


REASONS = sent()


def test_the_scan_finds_the_server_s_refusals() -> None:
    # A scan that found nothing would pass every test below.
    assert len(REASONS) > 60
    assert {"room_full", "bad_token", "no_seat", "players_range", "rules"} <= set(REASONS)


@pytest.mark.parametrize("lang", sorted(catalogue.interface_languages()))
def test_every_refusal_has_words_in_every_language(lang: str) -> None:
    table = locale(lang)["ui"]
    missing = sorted(reason for reason in REASONS if PREFIX + reason not in table)
    assert not missing, f"{lang} has no words for {missing}"
    for reason, given in REASONS.items():
        asked = set(re.findall(r"\{(\w+)\}", table[PREFIX + reason]))
        assert asked <= given, (lang, reason, asked - given)


def test_no_language_keeps_words_for_a_refusal_the_server_no_longer_sends() -> None:
    for lang in catalogue.interface_languages():
        kept = {key[len(PREFIX) :] for key in locale(lang)["ui"] if key.startswith(PREFIX)}
        assert kept <= set(REASONS), (lang, sorted(kept - set(REASONS)))


def test_the_english_message_is_the_english_words_filled() -> None:
    said = Refusal("players_range", rules="werewolf", low=3, high=30, players=2)
    assert said.message == "werewolf is played by 3 to 30 players, not 2"
    assert said.to_json() == {
        "message": said.message,
        "reason": "players_range",
        "fields": {"rules": "werewolf", "low": 3, "high": 30, "players": 2},
    }
    assert words("no_seat", {"n": 9}, "sv") == "Det finns ingen plats 9."
    with pytest.raises(KeyError):
        Refusal("no_such_reason")


def test_refusals_over_the_wire_carry_their_reason_and_english_words(tmp_path: Path) -> None:
    """A few refusals as a client meets them (WebSocket and HTTP): each frame's reason
    has words in every language, and its message is the English words filled in."""
    server = Server(tmp_path / "lupus.db").start()
    try:
        created = server.create(rules="mafia-classic", players=3, host_name="Ann")

        async def provoke() -> list[dict[str, Any]]:
            player = await Player(server).connect()
            try:
                await player.socket.send("{not json")
                await player.send({"type": "chat", "text": "hi"})  # (not in a room)
                await player.send({"type": "rejoin", "room": "ZZZZZ", "token": "x"})
                await player.send({"type": "rejoin", "room": created["room"], "token": "x"})
                return [await player.until("error") for _ in range(4)]
            finally:
                await player.close()

        frames = asyncio.run(provoke())
        refused = httpx.post(
            f"{server.http}/api/rooms", json={"rules": "maffia", "players": 3}, timeout=5
        ).json()
    finally:
        server.stop()
    reasons = [frame["reason"] for frame in frames]
    assert reasons == ["not_json", "join_first", "unknown_room", "bad_token"], frames
    assert refused["reason"] == "players_range" and refused["fields"]["players"] == 3
    for said in [*frames, refused]:
        assert said["message"] == words(said["reason"], said["fields"]), said
        for lang in catalogue.interface_languages():
            assert words(said["reason"], said["fields"], lang), (lang, said)
