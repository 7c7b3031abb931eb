"""An AI player seated from the lobby's page, in a real Chromium (``lupus serve
--llm-model`` with a fake OpenAI-compatible model on loopback): the host picks "an AI
player" in the bot menu, says yes, and the seat reads "AI player"; a server without a
model offers none; the export switch tells the other players it is on; during a game
the host lets an AI player play a person's seat, and gives it back."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.fake_openai import Fake, serving

from server_harness import Server
from web_harness import ARTIFACTS, Phone, browser, join, start_game

SHOTS = ARTIFACTS / "ai"


@pytest.fixture
def with_model(tmp_path: Path) -> Iterator[Server]:
    with serving(Fake()) as url:
        saved = {name: os.environ.get(name) for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY")}
        os.environ.update(OPENAI_BASE_URL=url, OPENAI_API_KEY="test")
        try:
            running = Server(tmp_path / "lupus.db", options=("--llm-model", "fake")).start()
        finally:
            for name, value in saved.items():
                os.environ.pop(name, None)
                if value is not None:
                    os.environ[name] = value
        try:
            yield running
        finally:
            running.stop()


def test_the_host_seats_an_ai_player_from_the_lobby(with_model: Server) -> None:
    created = with_model.create(rules="mafia-classic", players=3, host_name="Ann")
    with browser() as chromium:
        ann = Phone(chromium, with_model.http, "Ann", SHOTS)
        ann.host(created)
        page = ann.page
        page.select_option("#bot-kind", "llm")
        page.click(".seat >> nth=1 >> text=Add a bot")
        page.click("#confirm-yes")
        page.wait_for_selector(".seat >> nth=1 >> text=AI player")
        ann.shot("ai-seated")
        page.check("#settings-allow-export")
        bob = Phone(chromium, with_model.http, "Bob", SHOTS)
        join(bob, created["room"])
        bob.page.wait_for_selector("#export-allowed")


def test_without_a_model_the_lobby_offers_no_ai_player(server: Server) -> None:
    created = server.create(rules="mafia-classic", players=3, host_name="Ann")
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", SHOTS)
        ann.host(created)
        for select in ("#bot-kind", "#fill"):
            values = ann.page.eval_on_selector_all(
                f"{select} option", "all => all.map(o => o.value)"
            )
            assert values == ["heuristic", "random"], select


def test_the_host_hands_a_seat_to_an_ai_player_and_back(with_model: Server) -> None:
    """The empty seats may be filled with AI players too; in the game, beside "Let a
    bot play", Bob's seat may go to an AI player: the seat reads "AI player" until the
    host gives it back."""
    created = with_model.create(rules="mafia-classic", players=4, host_name="Ann")
    with browser() as chromium:
        ann = Phone(chromium, with_model.http, "Ann", SHOTS)
        ann.host(created)
        bob = Phone(chromium, with_model.http, "Bob", SHOTS)
        join(bob, created["room"])
        page = ann.page
        fills = page.eval_on_selector_all("#fill option", "all => all.map(o => o.value)")
        assert fills == ["heuristic", "random", "llm"]
        start_game(page)
        bobs = ".players .seat[data-seat='1']"
        page.click(f"{bobs} >> text=Let an AI player play")
        page.wait_for_selector(f"{bobs} >> text=AI player")
        bob.page.wait_for_selector("#stand-in")
        ann.shot("ai-plays-bob", of=".players")
        page.click(f"{bobs} >> text=Give the seat back")
        page.wait_for_selector(f"{bobs} >> text=Let an AI player play")
        bob.page.wait_for_selector("#stand-in", state="detached")
