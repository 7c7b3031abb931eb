"""The server's refusals read in the page's language (issue 25), in a real Chromium at a
phone's size: on Swedish pages, a room the rules refuse (the home page's form), a deck
and a timer the host's lobby panels send and the server refuses, and a name the server
refuses at the join form are all said in Swedish, and no English word of the interface
is on any of those pages (the toasts included)."""

from __future__ import annotations

from lupus.families import load
from lupus.rulebooks import available
from server_harness import Server
from test_web_lobby import choose_size, english_in, readable, ui_words
from web_harness import ARTIFACTS, Phone, browser

SHOTS = ARTIFACTS / "refusals"
SV = ui_words("sv")


def said(template: str) -> str:
    """The Swedish words before their first field (what a page shows of them)."""
    return template.split("{")[0]


def test_swedish_pages_say_the_servers_refusals_in_swedish(server: Server) -> None:
    with browser() as chromium:
        asa = Phone(chromium, server.http, "Åsa", SHOTS, lang="sv")
        asa.goto("/")
        page = asa.page
        names = {"English", "Svenska", "Åsa", "Bo", "Leader"}
        # A room of three: maffia is played by four or more (the server says so).
        choose_size(page, "maffia", 3)
        page.fill("#host-name", "Åsa")
        page.click("#create button[type=submit]")
        page.wait_for_function("document.getElementById('deck-problem').textContent")
        assert page.inner_text("#deck-problem") == "Regelboken spelas av 4 till 30 spelare, inte 3."
        # (the browser logs the refused request itself: the one console error expected)
        refused = [e for e in asa.errors if "status of 400" in e]
        assert len(refused) == 1
        asa.errors.remove(refused[0])
        page.click("#create summary")
        # (the other rulebooks' names in the menu are their own: English ones)
        others = {word for rid in available() for word in load(rid).name("rulebook", "sv").split()}
        assert english_in(readable(asa), names | others) == []
        asa.shot("home-players")
        # A maffia room; its lobby's panels send what the server refuses.
        choose_size(page, "maffia", 6)
        page.check("#no-timers")
        page.click("#create button[type=submit]")
        page.wait_for_selector(".lobby")
        page.click("#table-settings summary")
        page.click("#deck-edit")
        villager = page.query_selector_all("#deck input[type=number]")[-1]
        villager.fill("9")
        villager.dispatch_event("input")
        page.click("#table-save")
        page.wait_for_function("document.getElementById('table-problem')?.textContent")
        assert page.inner_text("#table-problem") == SV["refusal_rules"]
        assert english_in(readable(asa), names) == []
        asa.shot("lobby-deck", whole=True)
        page.click("#deck-edit")  # (the recommended deck again: nothing was changed)
        page.uncheck("#settings-no-timers")
        page.fill("#settings-night", "5000")
        page.dispatch_event("#settings-night", "input")
        page.click("#settings-save")
        page.wait_for_function("document.getElementById('settings-problem')?.textContent")
        assert page.inner_text("#settings-problem") == SV["refusal_malformed"]
        assert english_in(readable(asa), names) == []
        asa.shot("lobby-timer", whole=True)
        # A name the server refuses (the game leader's own), at the join form.
        code = page.inner_text(".room-code").strip()
        bo = Phone(chromium, server.http, "Bo", SHOTS, lang="sv")
        bo.goto(f"/?room={code}")
        bo.page.wait_for_selector("#name")
        bo.page.fill("#name", "Leader")
        bo.page.click("form button[type=submit]")
        bo.page.wait_for_function("document.querySelector('form .problem')?.textContent")
        assert bo.page.inner_text("form .problem") == said(SV["refusal_bad_name"])
        assert english_in(readable(bo), names) == []
        bo.shot("join-name")
