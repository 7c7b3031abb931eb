"""A game-leader room in the browser (issue 14, item 5): one page, a human leader and
physical cards. The leader's page lists the deck and the deal, then scripts every step:
whom to wake, his taps for what each player points at (staged, undoable, sent when he
confirms the step), what to show, whom to put back to sleep, what to read out; the day's
nominations, the vote count and the result. Real Chromium at a phone's size; the key
screens go to artifacts/web/leader/."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from lupus.families import load
from server_harness import Server
from web_harness import ARTIFACTS, PASSIVE, Phone, browser, start_game

SHOTS = ARTIFACTS / "leader"
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
# Entries a test never picks when something else is offered.
IDLE = PASSIVE | {"withdraw"}


def open_leader_room(leader: Phone, rules: str, players: int, start: bool = True) -> str:
    """The home page's form, as a game leader fills it in: the game, the players' names
    one a line, "a game leader with cards"; then the lobby and (``start``) its start
    button."""
    leader.goto("/")
    page = leader.page
    page.wait_for_selector("#create")
    page.select_option("#rules", rules)
    page.fill("#players", str(players))
    page.select_option("#mode", "leader")
    page.fill("#names", "\n".join(NAMES[:players]))
    page.click("#create button[type=submit]")
    page.wait_for_selector(".lobby")
    code = str(page.inner_text(".room-code")).strip()
    if start:
        start_game(page)
        page.wait_for_selector(".leader-prepare")
    return code


def deal_rows(leader: Phone) -> list[list[str]]:
    """The leader's deal table: each player's name and what he was dealt."""
    rows: list[list[str]] = leader.page.eval_on_selector_all(
        "table.deal tbody tr",
        "rows => rows.map(r => [r.cells[0].innerText, r.cells[1].innerText])",
    )
    return rows


def wait_ready(leader: Phone) -> None:
    """Until the step's entries are sent and the next step is on screen (or the end)."""
    leader.page.wait_for_function(
        "document.querySelector('.end') || (document.querySelector('#leader-done')"
        " && !document.querySelector('#leader-done').disabled)",
        timeout=10000,
    )


def choose(block: Any) -> Any | None:
    buttons = block.query_selector_all("button.choice:enabled")
    for button in buttons:
        if (button.get_attribute("data-verb") or "") not in IDLE:
            return button
    return buttons[0] if buttons else None


def stage_everyone(leader: Phone) -> int:
    """Tap a choice for every seat the table waits for (the first that does something)."""
    page = leader.page
    count = len(page.query_selector_all(".leader-seat"))
    staged = 0
    for index in range(count):
        blocks = page.query_selector_all(".leader-seat")
        if index >= len(blocks) or "entered" in (blocks[index].get_attribute("class") or ""):
            continue
        button = choose(blocks[index])
        if button is None:
            continue
        button.click()
        staged += 1
    return staged


def run_game(leader: Phone, each: Callable[[Phone, str], None], limit: float = 90.0) -> int:
    """Lead the game to its end: stage every seat's choice, then confirm the step.
    (``limit`` catches a game that never ends, not a slow one: a whole game takes about
    10 s on a calm machine, and took over 35 s on a machine busy with other builds.)
    ``each(leader, moment)`` sees the screen at "step" (a step on screen) and "staged"
    (its entries made, not yet sent). Returns the number of steps confirmed."""
    page = leader.page
    deadline = time.monotonic() + limit
    steps = 0
    while not leader.finished():
        assert time.monotonic() < deadline, "the game did not end in time"
        each(leader, "step")
        if stage_everyone(leader):
            each(leader, "staged")
        page.click("#leader-done")
        steps += 1
        wait_ready(leader)
    return steps


def test_a_whole_maffia_game_led_from_one_page_in_swedish(server: Server) -> None:
    with browser() as chromium:
        leader = Phone(chromium, server.http, "Spelledaren", SHOTS, lang="sv")
        open_leader_room(leader, "maffia", 7)
        page = leader.page
        # Before the game: the deck, the roles to explain (the rulebook's Swedish names
        # and explanations), and whom to give which card.
        deck = page.inner_text(".leader-deck")
        for name in ("Maffia", "Läkaren", "Detektiv", "Bybo"):
            assert name in deck
        assert "mördar på natten" in deck
        assert "På varje sida" in deck
        rows = page.query_selector_all(".deal tbody tr")
        assert [row.query_selector("th").inner_text() for row in rows] == NAMES[:7]
        cards = [row.query_selector("td").inner_text() for row in rows]
        assert sorted(cards).count("Bybo") == 4 and "Maffia" in cards
        leader.shot("1-deck")
        page.click("#leader-begin")

        # The first night step: wake the Maffia (named with his card), tap his pick.
        page.wait_for_selector(".leader-step")
        assert "Väck:" in page.inner_text(".leader-wake")
        assert "(Maffia)" in page.inner_text(".leader-wake")
        assert "Maffian vaknar" in page.inner_text(".leader-step")
        seen: set[str] = set()

        def screens(phone: Phone, moment: str) -> None:
            text = page.inner_text(".screen")
            phase = phone.phase()
            if moment == "staged" and phase == "night" and "night-tap" not in seen:
                seen.add("night-tap")
                assert page.query_selector(".leader-seat button[aria-pressed=true]") is not None
                phone.shot("2-night-tap")
            step = moment == "step"
            shows = page.query_selector(".leader-recap .leader-show") is not None
            if step and shows and phase == "night" and "night-show" not in seen:
                seen.add("night-show")
                assert "Visa" in page.inner_text(".leader-recap")
                phone.shot("3-night-show")
            if step and phase == "day" and "Nu är det morgon" in text and "morning" not in seen:
                seen.add("morning")
                recap = page.inner_text(".leader-recap")
                # The Detective's answer is a thumb, up or down, with the side's name.
                assert "Tumme upp" in recap or "Tumme ner" in recap
                assert "Läs upp:" in recap and "Somnar igen" in recap
                phone.shot("4-morning")
            if moment == "staged" and page.query_selector(".leader-tally") and "vote" not in seen:
                seen.add("vote")
                assert "Rösterna hittills" in page.inner_text(".leader-tally")
                phone.shot("5-vote")
            recapped = page.query_selector(".leader-recap") is not None
            if step and "vote" in seen and "result" not in seen and recapped:
                recap = page.inner_text(".leader-recap")
                if "Rösterna räknas" in recap:
                    seen.add("result")
                    phone.shot("6-result")

        steps = run_game(leader, screens)
        assert steps >= 5  # three night steps, the nominations, the vote at least
        leader.shot("7-end")
        assert page.inner_text(".end")
        # The end's script: the last step's news to read out, the cards revealed.
        assert "Läs upp:" in page.inner_text(".leader-recap")
        story = page.text_content(".timeline")
        assert "Spelet är slut" in story or "vinner" in story
        assert {"night-tap", "night-show", "morning", "vote"} <= seen, seen
        assert not leader.errors, leader.errors
        # Every word on the page is Swedish: none of the English interface's.
        assert "Done" not in page.inner_text(".screen")


def test_a_mistaken_entry_is_undone_before_the_step_closes(server: Server) -> None:
    with browser() as chromium:
        leader = Phone(chromium, server.http, "Spelledaren", SHOTS, lang="sv")
        open_leader_room(leader, "maffia", 5)
        page = leader.page
        page.click("#leader-begin")
        page.wait_for_selector(".leader-seat")
        block = ".leader-seat"
        names = [b.inner_text() for b in page.query_selector_all(f"{block} button.choice")]
        assert len(names) == 5
        # A mistaken tap: staged, marked in words (a check mark) and as pressed, not sent.
        page.click(f"{block} button.choice >> nth=0")
        chosen = page.query_selector(f"{block} button[aria-pressed=true]")
        assert chosen is not None and chosen.inner_text().startswith("✓")
        assert len(page.query_selector_all(".leader-entries li")) == 1
        leader.shot("undo-1-mistake")
        page.click(".leader-undo")
        assert page.query_selector(f"{block} button[aria-pressed=true]") is None
        assert page.query_selector(".leader-entries li") is None
        # Another tap, then a change of mind on the same seat: one entry, the last.
        page.click(f"{block} button.choice >> nth=1")
        page.click(f"{block} button.choice >> nth=2")
        entries = page.query_selector_all(".leader-entries li")
        assert len(entries) == 1
        target = names[2]
        assert target in entries[0].inner_text()
        leader.shot("undo-2-corrected")
        # Nothing reached the server yet: the mafia's step is still open.
        story = page.text_content(".timeline")
        assert not [name for name in names if f"pekar på {name}." in story]
        page.click("#leader-done")
        wait_ready(leader)
        story = page.text_content(".timeline")
        assert f"pekar på {target}." in story
        for other in (names[0], names[1]):
            assert f"pekar på {other}." not in story
        # What to show the Maffia now: the victim he chose, to approve with a thumb.
        recap = page.inner_text(".leader-recap")
        assert f"Peka på offret, {target}" in recap
        leader.shot("undo-3-sent")
        # A reload keeps the leader's place: the deal done, the step and what to show.
        page.reload()
        page.wait_for_selector(".leader-step")
        assert page.query_selector(".leader-prepare") is None
        assert f"Peka på offret, {target}" in page.inner_text(".leader-recap")

        # The keyboard alone: a choice, its undo, another, then Done.
        page.wait_for_selector(".leader-seat")
        page.focus(".leader-seat button.choice >> nth=0")
        page.keyboard.press("Enter")
        page.wait_for_selector(".leader-undo")
        page.focus(".leader-undo")
        page.keyboard.press("Enter")
        assert page.query_selector(".leader-undo") is None
        page.focus(".leader-seat button.choice >> nth=1")
        page.keyboard.press("Space")
        assert len(page.query_selector_all(".leader-entries li")) == 1
        page.focus("#leader-done")
        page.keyboard.press("Enter")
        wait_ready(leader)
        assert not leader.errors, leader.errors


def test_a_werewolf_game_led_in_english(server: Server) -> None:
    with browser() as chromium:
        leader = Phone(chromium, server.http, "Leader", SHOTS, lang="en")
        open_leader_room(leader, "werewolf", 8)
        page = leader.page
        deck = page.inner_text(".leader-deck")
        assert "Werewolf" in deck and "Seer" in deck
        leader.shot("werewolf-1-deck")
        page.click("#leader-begin")
        page.wait_for_selector(".leader-step")
        seen: set[str] = set()

        def screens(phone: Phone, moment: str) -> None:
            if moment != "step" or "seer" in seen:
                return
            recap = page.query_selector(".leader-recap")
            if recap is not None and "The card of" in recap.inner_text():
                seen.add("seer")
                phone.shot("werewolf-2-seer")

        run_game(leader, screens)
        leader.shot("werewolf-3-end")
        assert "seer" in seen
        assert "The game is over" in page.text_content(".timeline")
        assert not leader.errors, leader.errors


def test_a_confirmation_that_fails_keeps_the_entries(server: Server) -> None:
    """The connection is lost as the leader confirms: the page says so, keeps his
    entries, and sends them once it is back (the server restarted on its database)."""
    with browser() as chromium:
        leader = Phone(chromium, server.http, "Spelledaren", SHOTS, lang="sv")
        open_leader_room(leader, "maffia", 4)
        page = leader.page
        page.click("#leader-begin")
        page.wait_for_selector(".leader-seat")
        page.click(".leader-seat button.choice >> nth=1")
        target = page.inner_text(".leader-seat button[aria-pressed=true]").lstrip("✓ ")
        server.kill()
        page.wait_for_selector("text=ansluter igen", timeout=10000)
        page.click("#leader-done")
        page.wait_for_selector("#leader-problem:has-text('Inte godtaget')")
        assert len(page.query_selector_all(".leader-entries li")) == 1
        leader.shot("refused-kept")
        server.start()
        page.wait_for_function(
            "!document.getElementById('where').textContent.includes('·')", timeout=15000
        )
        # Back: the same step, the entry still staged; now it goes through.
        assert page.query_selector(".leader-seat button[aria-pressed=true]") is not None
        page.click("#leader-done")
        wait_ready(leader)
        assert f"pekar på {target}." in page.text_content(".timeline")
        assert not leader.errors, leader.errors


def test_a_leader_deals_his_own_cards(server: Server) -> None:
    """A leader who shuffled and dealt his physical cards enters who got which before
    the start: the game is dealt exactly so."""
    with browser() as chromium:
        leader = Phone(chromium, server.http, "Leader", SHOTS)
        page = leader.page
        open_leader_room(leader, "maffia", 5, start=False)
        page.click(".hand-deal summary")
        roles = ["villager", "avenger", "detective", "doctor", "mafia"]
        for seat, role in enumerate(roles):
            page.select_option(f"#hand-{seat}", role)
        leader.shot("hand-deal", of=".hand-deal")
        start_game(page)
        page.wait_for_selector(".leader-prepare")
        rows = deal_rows(leader)
        book = load("maffia")
        assert rows == [
            [name, book.name(role, "en")] for name, role in zip(NAMES, roles, strict=False)
        ]
        assert not leader.errors


def test_a_leader_deals_lupusburg_by_hand(server: Server) -> None:
    """Lupusburg's hand deal: each player's two characters house by house, his chest's
    house and the first Burgomaster, entered before the start; the game is dealt so."""
    characters = [
        ("townsfolk", "werewolf"),
        ("thief", "townsfolk"),
        ("townsfolk", "townsfolk"),
        ("townsfolk", "townsfolk"),
        ("townsfolk", "townsfolk"),
    ]
    chests = [1, 2, 1, 2, 1]
    with browser() as chromium:
        leader = Phone(chromium, server.http, "Leader", SHOTS)
        page = leader.page
        open_leader_room(leader, "lupusburg", 5, start=False)
        page.click(".hand-deal summary")
        for seat, (first, second) in enumerate(characters):
            page.select_option(f"#hand-{seat}-1", first)
            page.select_option(f"#hand-{seat}-2", second)
            page.select_option(f"#hand-chest-{seat}", str(chests[seat]))
        page.select_option("#hand-burgomaster", "2")
        leader.shot("lupusburg-hand-deal", of=".hand-deal")
        start_game(page)
        page.wait_for_selector(".leader-prepare")
        rows = deal_rows(leader)
        book = load("lupusburg")
        assert rows == [
            [
                name,
                f"house 1: {book.name(first, 'en')}, house 2: {book.name(second, 'en')}; "
                f"the chest under house {chest}",
            ]
            for name, (first, second), chest in zip(NAMES, characters, chests, strict=False)
        ]
        leader.shot("lupusburg-dealt")
        # The first Burgomaster is the one the leader chose: his script reads it out.
        page.click("#leader-begin")
        page.wait_for_function(
            "document.body.textContent.includes('The first Burgomaster is')", timeout=10_000
        )
        assert f"The first Burgomaster is {NAMES[2]}." in str(page.text_content("body"))
        assert not leader.errors, leader.errors
