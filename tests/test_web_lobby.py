"""Small groups and clear settings (issue 25), in a real Chromium at a phone's size:
werewolf's lobby at 5, 6 and 7 players starts from a ready deck under the house rule
that lifts its minimum, said in plain words, with no internal name on the page; the
card editor starts at the recommended deck and follows the size; the Swedish home page
and maffia lobby read in Swedish; a blank or taken name is told by its field; a bot
takes a seat only once the host says yes; Copy link works without the clipboard."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from typing import Any

import pytest

from lupus.families import load
from lupus.rulebooks import available
from server_harness import Server
from web_harness import ARTIFACTS, Phone, browser, play_out, start_game

SHOTS = ARTIFACTS / "lobby"

# Everything a reader may read on a page: its text, its fields' labels, its choices'
# texts, what a screen reader says of a control.
READABLE = """() => [
  document.body.innerText,
  ...[...document.querySelectorAll('label, option, legend, summary')].map(e => e.textContent),
  ...[...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')),
  ...[...document.querySelectorAll('[placeholder]')].map(e => e.getAttribute('placeholder')),
  ...[...document.querySelectorAll('[title]')].map(e => e.getAttribute('title')),
].join('\\n')"""


def ui_words(lang: str) -> dict[str, str]:
    text = resources.files("lupus.locales").joinpath(f"{lang}.toml").read_text("utf-8")
    return dict(tomllib.loads(text)["ui"])


def internal_names() -> set[str]:
    """Ids a player must never read: every rulebook's option ids and role ids that are
    no word (``lift_minimum``, ``little-girl``), and the interface's keys."""
    names = {key for key in ui_words("en") if "_" in key}
    for rid in available():
        book = load(rid)
        names |= set(book.options)
        names |= {role for role in book.roles if "-" in role or "_" in role}
    return names


INTERNAL = internal_names()


def leaked(text: str) -> list[str]:
    return sorted(
        name for name in INTERNAL if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)
    )


def readable(phone: Phone) -> str:
    return str(phone.page.evaluate(READABLE))


def choose_size(page: Any, rules: str, players: int) -> None:
    page.wait_for_selector("#create")
    page.select_option("#rules", rules)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "input")


@pytest.mark.parametrize("players", [5, 6, 7])
def test_werewolf_at_5_6_7_starts_from_a_ready_deck_in_plain_words(
    server: Server, players: int
) -> None:
    """The home page shows werewolf's recommended deck for the size and says, in
    words, that a house rule lifts the 8-player minimum (its box ticked and held);
    the card editor starts from that deck; the room opens, its lobby shows the deck,
    and the game starts with bots (once the host said yes). No option id, role id or
    interface key is on either page, in its text or its labels."""
    deck = load("werewolf").compositions[str(players)]
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", SHOTS)
        ann.goto("/")
        page = ann.page
        choose_size(page, "werewolf", players)
        assert page.is_visible("#house-rule")
        assert "8 players" in page.inner_text("#house-rule")
        assert page.is_checked("#option-lift_minimum") and page.is_disabled("#option-lift_minimum")
        assert page.inner_text("#cards-total") == f"{players} cards"
        page.click("#deck button")  # "Choose the cards": the editor starts at the deck
        for rid in load("werewolf").roles:
            assert page.input_value(f"#count-{rid}") == str(deck.get(rid, 0)), rid
        page.click("#create summary")
        assert leaked(readable(ann)) == []
        ann.shot(f"home-{players}", whole=True)
        page.click("#deck button")  # (the recommended deck again)
        page.fill("#host-name", "Ann")
        page.check("#no-timers")
        page.click("#create button[type=submit]")
        page.wait_for_selector(".lobby")
        assert page.inner_text("#start-problem") == ""
        text = readable(ann)
        assert leaked(text) == []
        for rid, count in deck.items():
            assert f"{count} × {load('werewolf').name(rid)}" in text, rid
        assert "minimum" in page.inner_text("#room-options")
        ann.shot(f"lobby-{players}", whole=True)
        start_game(page)
        page.wait_for_selector(".game", timeout=15000)


def test_the_card_editor_follows_the_size(server: Server) -> None:
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", SHOTS)
        ann.goto("/")
        page = ann.page
        choose_size(page, "werewolf", 9)
        page.click("#deck button")
        assert page.input_value("#count-villager") == "5"
        page.fill("#players", "12")
        page.dispatch_event("#players", "input")
        deck = load("werewolf").compositions["12"]
        for rid in load("werewolf").roles:
            assert page.input_value(f"#count-{rid}") == str(deck.get(rid, 0)), rid
        assert page.inner_text("#cards-total") == "12 cards"
        assert not page.is_visible("#house-rule")
        assert not page.is_disabled("#option-lift_minimum")


def test_a_rulebook_without_options_shows_no_empty_options_box(server: Server) -> None:
    """Under "More settings", maffia and Lupusburg (no options) show no empty "Options"
    box; werewolf shows its options there."""
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", SHOTS)
        ann.goto("/")
        page = ann.page
        page.wait_for_selector("#create")
        page.click("#create summary")
        for rules, shown in (("maffia", False), ("lupusburg", False), ("werewolf", True)):
            page.select_option("#rules", rules)
            assert page.is_visible("#options-box") is shown, rules
        assert page.is_visible("#option-captain")


def english_only() -> set[str]:
    """Words of the English interface that the Swedish one never uses."""

    def words(table: dict[str, str]) -> set[str]:
        found: set[str] = set()
        for text in table.values():
            found |= {w.lower() for w in re.findall(r"[A-Za-zÅÄÖåäö]{4,}", text)}
        return found

    return words(ui_words("en")) - words(ui_words("sv"))


def english_in(text: str, allowed: set[str]) -> list[str]:
    english = english_only()
    text = re.sub(r"https?://\S+", " ", text)  # (the room's link is an address)
    found = {w.lower() for w in re.findall(r"[A-Za-zÅÄÖåäö]{4,}", text)}
    return sorted(found & english - {a.lower() for a in allowed})


def test_the_swedish_home_page_and_maffia_lobby_read_in_swedish(server: Server) -> None:
    """Every word of the Swedish home page (maffia chosen) and of a maffia lobby is
    Swedish: none of the English interface's words that Swedish never uses."""
    with browser() as chromium:
        asa = Phone(chromium, server.http, "Åsa", SHOTS, lang="sv")
        asa.goto("/")
        page = asa.page
        choose_size(page, "maffia", 6)
        page.click("#create summary")
        names = {"English", "Svenska", "Åsa"}
        # (the other rulebooks' names in the menu are their own: English ones)
        others = " ".join(load(rid).name("rulebook", "sv") for rid in available())
        allowed = names | set(re.findall(r"\w+", others))
        assert english_in(readable(asa), allowed) == []
        assert "Svenska" in page.inner_text("#room-lang")
        asa.shot("home-sv", whole=True)
        page.fill("#host-name", "Åsa")
        page.check("#no-timers")
        page.click("#create button[type=submit]")
        page.wait_for_selector(".lobby")
        assert english_in(readable(asa), names) == []
        asa.shot("lobby-sv", whole=True)


def test_a_blank_or_taken_name_is_told_by_its_field(server: Server) -> None:
    created = server.create(rules="mafia-classic", players=3, host_name="Ann")
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", SHOTS)
        ann.goto("/")
        page = ann.page
        page.wait_for_selector("#create")
        page.fill("#host-name", "   ")
        page.click("#create button[type=submit]")
        assert page.inner_text("#host-name-problem") == "Type a name first."
        bob = Phone(chromium, server.http, "Bob", SHOTS)
        bob.goto(f"/?room={created['room']}")
        bob.page.wait_for_selector("#name")
        bob.page.click("form button[type=submit]")
        assert bob.page.inner_text("form .problem") == "Type a name first."
        bob.page.fill("#name", "ann")
        bob.page.click("form button[type=submit]")
        assert "has that name already" in bob.page.inner_text("form .problem")
        bob.shot("name-taken")


def test_a_bot_takes_a_seat_only_once_the_host_says_yes(server: Server) -> None:
    created = server.create(rules="mafia-classic", players=3, host_name="Ann")
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", SHOTS)
        ann.host(created)
        page = ann.page
        page.click(".seat >> nth=1 >> text=Add a bot")
        assert "Seat 2 goes to a bot" in page.inner_text("#confirm-text")
        ann.shot("bot-confirm")
        page.click("#confirm-no")
        assert page.query_selector("#confirm") is None
        assert "free seat" in page.inner_text(".seat >> nth=1")
        page.click(".seat >> nth=1 >> text=Add a bot")
        page.click("#confirm-yes")
        page.wait_for_selector(".seat >> nth=1 >> text=bot")
        page.click("#start")
        assert "empty seat" in page.inner_text("#confirm-text")
        page.click("#confirm-no")
        assert page.query_selector(".game") is None
        start_game(page)
        page.wait_for_selector(".game", timeout=15000)


def test_copy_link_without_the_clipboard_selects_the_link(server: Server) -> None:
    """On a LAN's http:// address a page has no clipboard: the link is put in a field,
    selected, and copied the old way (or left selected with words to copy it)."""
    created = server.create(rules="mafia-classic", players=3, host_name="Ann")
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", SHOTS)
        ann.context.add_init_script(
            "Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined});"
            "Object.defineProperty(window, 'isSecureContext', {get: () => false});"
        )
        ann.host(created)
        page = ann.page
        page.click("#copy-link")
        assert page.is_visible("#join-link-field")
        link = page.input_value("#join-link-field")
        assert link.endswith(f"/?room={created['room']}")
        selected = page.evaluate(
            "() => { const f = document.getElementById('join-link-field');"
            " return [f.selectionStart, f.selectionEnd]; }"
        )
        assert selected == [0, len(link)]
        assert page.inner_text("#copy-status") in {"Link copied.", ui_words("en")["copy_manually"]}
        ann.shot("copy-fallback")


def test_play_again_goes_back_to_the_lobby_with_the_same_table(server: Server) -> None:
    """After the end, "Play again" shows the lobby (not a new game): the same seats
    (bots too) and settings, the host's seat controls back; Start plays the next game."""
    created = server.create(
        rules="mafia-classic", players=3, host_name="Ann", pace=0.1, bot_delay=0.1, timers="off"
    )
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", SHOTS)
        ann.host(created)
        page = ann.page
        start_game(page)
        page.wait_for_selector(".game")
        play_out([ann], ann, limit=120)
        page.click("#again")
        page.wait_for_selector(".lobby #start")
        names = page.eval_on_selector_all(".seat .seat-name", "els => els.map(e => e.textContent)")
        assert names[0] == "Ann" and len(names) == 3 and "free seat" not in names, names
        assert page.is_checked("#settings-no-timers")  # (the room's settings, kept)
        assert page.query_selector(".seat .controls button") is not None  # (seats to arrange)
        ann.shot("again-lobby", whole=True)
        start_game(page)
        page.wait_for_selector(".game")
        assert page.query_selector(".end") is None
