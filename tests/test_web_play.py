"""Playing in the browser: whole games on phone-sized pages in a real Chromium (eight
people at werewolf, six at maffia in Swedish, one person and bots at every rulebook),
a page reloaded mid-night, the server killed and restarted under open pages."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from lupus.families import load
from lupus.rulebooks import available
from server_harness import Server
from web_harness import ARTIFACTS, Phone, browser, gather, play_out, start_game

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def table_of(chromium: object, server: Server, shots: Path, count: int) -> list[Phone]:
    return [Phone(chromium, server.http, name, shots) for name in NAMES[:count]]


def test_a_whole_werewolf_game_on_eight_phones(server: Server) -> None:
    shots = ARTIFACTS / "werewolf"
    with browser() as chromium:
        phones = table_of(chromium, server, shots, 8)
        host = phones[0]
        gather(phones, "werewolf", 8, options=["captain"])
        host.page.wait_for_selector("text=At the table: 8 of 8")
        host.shot("lobby")
        start_game(host.page)
        for phone in phones:
            phone.page.wait_for_selector(".game")
        # Every phone has its own card, shown only when asked.
        cards = []
        for phone in phones:
            assert phone.page.query_selector(".role-name") is None
            phone.page.click(".reveal")
            cards.append(phone.page.inner_text(".role-name"))
            if phone is host:
                host.shot("card")
            phone.page.click(".reveal")
        assert sorted(cards).count("Werewolf") == 2
        assert "Seer" in cards

        seen: set[str] = set()

        def screens(phone: Phone) -> None:
            phase = phone.phase()
            if phone.choices() and f"{phase}-choice" not in seen:
                seen.add(f"{phase}-choice")
                phone.shot(f"{phase}-choice")

        def election(phone: Phone) -> None:
            screens(phone)
            if "election" not in seen and phone.page.query_selector(".tally"):
                seen.add("election")
                assert "The election" in phone.page.inner_text(".tally")
                phone.shot("election")
            if "captain" not in seen and phone.page.query_selector(".players >> text=Captain"):
                seen.add("captain")

        play_out(phones, host, each=election)
        host.shot("end")
        # The Captain was elected (the rulebook's option), and the pages said who.
        assert {"election", "captain"} <= seen
        for phone in phones:
            text = phone.page.inner_text(".end")
            assert "won" in text or "lost" in text
            assert not phone.errors, phone.errors
        # The whole story names every card once it is over.
        story = host.page.inner_text(".timeline")
        assert "The game is over" in story
        assert {"night-choice", "day-choice"} <= seen


def test_a_reloaded_page_lands_back_in_its_seat(server: Server) -> None:
    with browser() as chromium:
        phones = table_of(chromium, server, ARTIFACTS / "reload", 3)
        host = phones[0]
        gather(phones, "mafia-classic", 3)
        start_game(host.page)
        bob = phones[1]
        bob.page.wait_for_selector(".game")
        play_out(phones, host, until=lambda: bob.phase() == "night")
        bob.page.click(".reveal")
        card = bob.page.inner_text(".role-name")
        bob.page.reload()
        bob.page.wait_for_selector(".game")
        assert bob.page.inner_text(".seat.you .seat-name") == "Bob"
        bob.page.click(".reveal")
        assert bob.page.inner_text(".role-name") == card
        bob.shot("after-reload")
        assert not bob.errors


def test_pages_carry_on_after_the_server_is_killed(server: Server) -> None:
    with browser() as chromium:
        phones = table_of(chromium, server, ARTIFACTS / "restart", 3)
        host = phones[0]
        gather(phones, "mafia-classic", 3)
        start_game(host.page)
        for phone in phones:
            phone.page.wait_for_selector(".game")
        server.kill()
        for phone in phones:
            phone.page.wait_for_selector("text=reconnecting", timeout=10000)
        time.sleep(0.5)
        server.start()
        for phone in phones:
            phone.page.wait_for_function(
                "!document.getElementById('where').textContent.includes('·')", timeout=15000
            )
        play_out(phones, host)
        for phone in phones:
            assert phone.finished()


def test_a_maffia_game_in_swedish(server: Server) -> None:
    """The Swedish seed played in Swedish: the interface's words, the rulebook's names
    and the narration all in Swedish, on every phone."""
    shots = ARTIFACTS / "maffia-sv"
    with browser() as chromium:
        phones = [Phone(chromium, server.http, name, shots, lang="sv") for name in NAMES[:6]]
        host = phones[0]
        gather(phones, "maffia", 6)
        assert host.page.inner_text("#lobby-title") == "Maffia a.k.a. Varulv"
        host.page.wait_for_selector("text=Vid bordet: 6 av 6")
        host.shot("lobby")
        start_game(host.page)
        cards = []
        for phone in phones:
            phone.page.wait_for_selector(".game")
            phone.page.click(".reveal")
            cards.append(phone.page.inner_text(".role-name"))
            phone.page.click(".reveal")
        book = load("maffia")
        dealt = [
            book.name(rid, "sv") for rid, n in book.compositions["6"].items() for _ in range(n)
        ]
        assert sorted(cards) == sorted(dealt), cards
        seen: set[str] = set()

        def screens(phone: Phone) -> None:
            phase = phone.phase()
            if phone.choices() and phase not in seen:
                seen.add(phase)
                phone.shot(f"{phase}-choice")
            # The day's panel, from the table's step under way (`view.public.step`):
            # the nominations with who nominated whom, the banishment's votes needed.
            tally = phone.page.query_selector(".tally")
            text = tally.inner_text() if tally else ""
            if "Nomineringar" in text:
                seen.add("nominations")
                if phone.page.query_selector(".tally .counts li"):
                    seen.add("nominated")
            if "Förvisas med" in text:
                seen.add("needed")

        play_out(phones, host, each=screens)
        host.shot("end")
        assert {"nominations", "nominated", "needed"} <= seen, seen
        for phone in phones:
            assert phone.page.inner_text(".end .result") in {
                "Din sida vann!",
                "Din sida förlorade.",
            }
            assert not phone.errors, phone.errors
        assert "Hela historien" in host.page.inner_text(".timeline summary")


@pytest.mark.parametrize("rules", available())
def test_every_rulebook_to_the_end_with_bots(server: Server, rules: str) -> None:
    """One person and bots in every other seat, on the page, every rulebook."""
    book = load(rules)
    players = max(book.min_players, (book.minimum.players if book.minimum else 0), 5)
    room = server.create(rules=rules, players=players, host_name="Ann", bot_delay=0.05, pace=0.1)
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", ARTIFACTS / f"bots-{rules}")
        ann.host(room)
        start_game(ann.page)
        ann.page.wait_for_selector(".game")
        play_out([ann], ann)
        assert ann.finished() and not ann.errors, ann.errors
        ann.shot("end")
