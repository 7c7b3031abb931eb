"""What the pages read before a room: the interface's words in every language, the
rulebooks as the form shows them, the join link's QR code; and the pages themselves are
served, with no outside address in them."""

from __future__ import annotations

import asyncio
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from lupus.families import load
from lupus.rulebooks import available
from lupus.server import catalogue
from lupus.server.app import STATIC
from server_harness import Server, players

LOCALES = Path(catalogue.__file__).resolve().parent.parent / "locales"
OUTSIDE = re.compile(r"(?:https?:)?//(?!www\.w3\.org)[a-z0-9.-]+\.[a-z]{2,}")
JS_KEY = re.compile(r"""\bt\(\s*["'`]([a-z_]+)["'`]""")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web") / "lupus.db").start()
    try:
        yield running
    finally:
        running.stop()


def words_used() -> set[str]:
    """Every interface word a page script asks for by a literal key."""
    found = set()
    for script in (STATIC / "js").glob("*.js"):
        found |= set(JS_KEY.findall(script.read_text("utf-8")))
    return found


def test_every_language_has_every_word() -> None:
    languages = catalogue.interface_languages()
    assert languages == {"en": "English", "sv": "Svenska"}
    english = catalogue.interface_words("en")
    assert words_used() <= set(english), sorted(words_used() - set(english))
    for lang in languages:
        table = tomllib.loads((LOCALES / f"{lang}.toml").read_text("utf-8"))["ui"]
        assert set(table) == set(english), (lang, sorted(set(english) ^ set(table)))
        placeholders = {key: set(re.findall(r"\{(\w+)\}", text)) for key, text in table.items()}
        for key, text in english.items():
            fields = set(re.findall(r"\{(\w+)\}", text))
            if key.startswith("refusal_"):
                # (a refusal may say less than the English: the engine's own English
                # reason, ``detail``, or a rulebook's id, is left out of another language)
                assert placeholders[key] <= fields, (lang, key)
            else:
                assert placeholders[key] == fields, (lang, key)


def test_rulebooks_are_named_in_the_readers_language(server: Server) -> None:
    swedish = httpx.get(f"{server.http}/api/rulebooks?lang=sv").json()
    maffia = next(book for book in swedish if book["id"] == "maffia")
    assert maffia["lang"] == "sv"
    assert maffia["roles"]["detective"]["name"] == load("maffia").name("detective", "sv")
    assert maffia["roles"]["mafia"]["about"]
    for rid in ("werewolf", "tit-albert"):  # (Swedish too: its names, help and rule)
        book = next(book for book in swedish if book["id"] == rid)
        assert book["lang"] == "sv", rid
        assert book["roles"]["seer"]["name"] == load(rid).name("seer", "sv"), rid
        assert book["roles"]["seer"]["about"] == load(rid).text["sv"]["about.seer"], rid
        assert book["option_specs"]["captain"]["help"] == load(rid).options["captain"].help["sv"]
    werewolf = next(book for book in swedish if book["id"] == "werewolf")
    assert werewolf["roles"]["seer"]["name"] == "Siaren"
    assert werewolf["minimum"]["rule"].startswith("Den minsta uppsättningen")
    classic = next(book for book in swedish if book["id"] == "mafia-classic")
    assert classic["lang"] == "en"  # the rulebook has no Swedish names
    assert classic["name"] == load("mafia-classic").name("rulebook", "en")
    assert [book["id"] for book in swedish] == available()


def test_the_interface_words_are_served(server: Server) -> None:
    answer = httpx.get(f"{server.http}/api/ui/sv").json()
    assert answer["lang"] == "sv"
    assert answer["words"]["join"] == "Gå med"
    missing = httpx.get(f"{server.http}/api/ui/xx")
    assert missing.status_code == 404
    assert missing.json()["error"] == "unknown_language"


def test_the_join_link_has_a_qr_code(server: Server) -> None:
    room = server.create(rules="werewolf", players=8, host_name="Ann")
    answer = httpx.get(f"{server.http}/api/rooms/{room['room']}/qr.svg")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/svg+xml"
    assert answer.text.startswith("<?xml") or answer.text.startswith("<svg")
    assert room["join_url"] in answer.text  # its title: what the code says
    assert httpx.get(f"{server.http}/api/rooms/ZZZZZ/qr.svg").status_code == 404


def test_the_pages_are_served_and_need_no_outside_address(server: Server) -> None:
    page = httpx.get(f"{server.http}/")
    assert page.status_code == 200
    assert '<script type="module" src="/static/js/main.js">' in page.text
    for path in sorted(STATIC.rglob("*")):
        if path.suffix in {".js", ".css", ".html"}:
            text = path.read_text("utf-8")
            served = httpx.get(f"{server.http}/static/{path.relative_to(STATIC).as_posix()}")
            assert served.status_code == 200, path
            # No CDN, no outside font: the pages work on a closed network.
            assert not OUTSIDE.search(text), path


def test_a_finished_games_story_is_told_for_its_replay(server: Server) -> None:
    """The replay page's data (GET /api/games/{id}/story): the whole game as its leader
    saw it, every card, in the reader's language; never while the game is running (it
    would tell every card), nor for a game that does not exist."""
    created = server.create(
        rules="maffia",
        players=5,
        host_name="Ann",
        bot_delay=0,
        pace=0.05,
        seed=3,
        timers={"day": 0.5},
    )
    room = created["room"]
    story: dict[str, Any] = {}

    async def play() -> None:
        async with players(server, 1) as (host,):
            await host.rejoin(room, created["host_token"])
            ref = await host.send({"type": "start", "fill": "heuristic"})
            assert (await host.answer(ref))["type"] == "ack"
            view = await host.until("view")
            running = httpx.get(f"{server.http}/api/games/{view['game']}/story")
            assert running.status_code == 404, running.text
            await host.play()
            assert host.view is not None
            story["game"] = host.view["game"]

    asyncio.run(play())
    told = httpx.get(f"{server.http}/api/games/{story['game']}/story?lang=sv")
    assert told.status_code == 200, told.text
    body = told.json()
    assert body["game"] == story["game"] and body["rules"] == "maffia"
    assert body["players"][0] == "Ann"
    assert any(line.startswith("(till Ann)") or "(to Ann)" in line for line in body["lines"])
    assert body["events"][-1]["kind"] == "game_over"
    dealt = [event for event in body["events"] if event["kind"] == "role_dealt"]
    assert len(dealt) == 5  # every card, as it was dealt
    # The end's public table: every card, and who won (the replay page reads it).
    public = body["public"]
    assert all(player["card"] for player in public["players"]) and public["end"]["winners"]
    english = httpx.get(f"{server.http}/api/games/{story['game']}/story?lang=xx").json()
    assert english["events"] == body["events"]
    missing = httpx.get(f"{server.http}/api/games/{room}-9-00000000/story")
    assert missing.status_code == 404


def test_a_choice_option_is_offered_in_words() -> None:
    """A choice's id (``day``) is not shown: the rulebook words each choice, and a
    label naming no choice is refused at load."""
    from lupus.rulebooks.schema import OptionSpec
    from lupus.server.catalogue import rulebook_entry

    entry = rulebook_entry(load("mafia-classic"), "en")
    spec = entry["option_specs"]["first_phase"]  # type: ignore[index]
    assert spec["labels"] == {"day": "With a day", "night": "With a night"}
    with pytest.raises(ValueError, match="names no choice"):
        OptionSpec(type="choice", default="a", choices=("a",), labels={"en": {"b": "B"}})
