"""The host changes the table in the lobby (issue 25), in a real Chromium at a phone's
size: the home page's card editor, in the lobby's "Players, cards and rules" panel,
changes the number of players, the deck and an option; the lobby (the host's and a
player's) shows them; a deck the rules refuse is said in the panel; a reloaded page's
panel starts from the room's table, and the game starts with it. (``again`` comes back
to the same lobby: tests/test_server_table_settings.py plays it over the wire.)"""

from __future__ import annotations

from lupus.families import load
from server_harness import Server
from web_harness import ARTIFACTS, Phone, browser, start_game

SHOTS = ARTIFACTS / "table-settings"


def test_the_host_changes_size_deck_and_options_in_the_lobby(server: Server) -> None:
    created = server.create(
        rules="werewolf", players=8, host_name="Ann", timers="off", pace=0.0, bot_delay=0.0
    )
    book = load("werewolf")
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", SHOTS)
        ann.host(created)
        bob = Phone(chromium, server.http, "Bob", SHOTS)
        bob.goto(f"/?room={created['room']}")
        bob.page.fill("#name", "Bob")
        bob.page.click("form button[type=submit]")
        bob.page.wait_for_selector(".lobby")
        page = ann.page
        assert bob.page.query_selector("#table-settings") is None  # (the host's alone)
        page.click("#table-settings summary")
        # Six players: the editor shows werewolf's deck for six, under the house rule.
        page.fill("#table-players", "6")
        page.dispatch_event("#table-players", "input")
        assert page.inner_text("#cards-total") == "6 cards"
        assert page.is_visible("#house-rule")
        assert page.is_checked("#option-lift_minimum")
        page.click("#deck-edit")
        deck = book.compositions["6"]
        for rid in book.roles:
            assert page.input_value(f"#count-{rid}") == str(deck.get(rid, 0)), rid
        # One card too many: the server refuses, said in the panel; nothing changes.
        page.fill("#count-villager", str(deck["villager"] + 1))
        page.dispatch_event("#count-villager", "input")
        page.click("#table-save")
        page.wait_for_function("document.getElementById('table-problem')?.textContent")
        assert "7 cards for 6 players" in page.inner_text("#table-problem")
        assert len(page.query_selector_all(".seats .seat")) == 8
        ann.shot("refused", whole=True)
        # The right count and the Captain: saved, and everyone's lobby shows it.
        page.fill("#count-villager", str(deck["villager"]))
        page.dispatch_event("#count-villager", "input")
        page.check("#option-captain")
        page.click("#table-save")
        page.wait_for_function("document.querySelectorAll('.seats .seat').length === 6")
        bob.page.wait_for_function("document.querySelectorAll('.seats .seat').length === 6")
        for phone in (ann, bob):
            text = phone.page.inner_text(".lobby")
            for rid, count in deck.items():
                assert f"{count} × {book.name(rid)}" in text, rid
            assert book.options["captain"].help["en"] in phone.page.inner_text("#room-options")
        ann.shot("saved", whole=True)
        # Bigger again (the recommended deck for nine): free seats at the end, and a
        # reloaded page's panel starts from what the room has.
        page.click("#table-settings summary")
        page.fill("#table-players", "9")
        page.dispatch_event("#table-players", "input")
        page.click("#deck-edit")  # (the editor, at the deck recommended for nine)
        page.click("#table-save")
        page.wait_for_function("document.querySelectorAll('.seats .seat').length === 9")
        assert page.inner_text(".seat >> nth=0").startswith("Ann")
        assert page.inner_text(".seat >> nth=1").startswith("Bob")
        page.reload()
        page.wait_for_selector("#table-settings")
        page.click("#table-settings summary")
        assert page.input_value("#table-players") == "9"
        assert page.inner_text("#cards-total") == "9 cards"
        start_game(page)
        page.wait_for_selector(".game", timeout=15000)
