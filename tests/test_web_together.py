"""A group plays to the end and everyone sees what happened (issue 24), in a real
Chromium at a phone's size: eight phones play werewolf, a Captain killed at night names
his successor and a Hunter voted out shoots, both on their own dead pages; every phone
shows the morning's victim and the vote's result without a click; the end shows every
card and a replay page anyone can open; the QR codes the pages draw themselves are the
standard's."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import segno
import segno.encoder

from server_harness import RELAXED, Server
from web_harness import ARTIFACTS, Phone, browser, join, play_out, playwright_api, start_game

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
SHOTS = ARTIFACTS / "together"


def phase_of(phone: Phone) -> str:
    """The phase's title on the phone ("Night 2", "Day 1", "The end")."""
    found = phone.page.query_selector("#phase-title")
    return found.inner_text().strip() if found is not None else ""


def buttons_of(phone: Phone) -> list[tuple[Any, str, list[Any]]]:
    """The phone's open choices: each button with its verb and args."""
    out = []
    for button in phone.choices():
        verb = button.get_attribute("data-verb") or ""
        args = json.loads(button.get_attribute("data-args") or "[]")
        out.append((button, verb, args))
    return out


Chooser = Callable[[Phone, str, list[tuple[Any, str, list[Any]]]], Any | None]


def drive(
    phones: list[Phone], choose: Chooser, until: Callable[[], bool], limit: float = 90.0
) -> None:
    """Each phone taps what ``choose`` picks among its choices, once per phase and
    choice (a choice that stays open after it was made, a vote or the pack's pick, is
    not tapped again), until ``until()``."""
    done: set[tuple[str, str, str, str]] = set()
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if until():
            return
        for phone in phones:
            with contextlib.suppress(playwright_api.Error):
                open_now = buttons_of(phone)
                if not open_now:
                    continue
                phase = phase_of(phone)
                chosen = choose(phone, phase, open_now)
                if chosen is None:
                    continue
                button, verb, args = chosen
                key = (phone.name, phase, verb, json.dumps(args))
                if key in done:
                    continue
                button.click(timeout=2000)
                done.add(key)
        time.sleep(0.05)
    for phone in phones:
        with contextlib.suppress(playwright_api.Error):
            phone.shot(f"stuck-{phone.name}")
    raise AssertionError("the game did not get there in time")


def wait_text(phone: Phone, selector: str, text: str, timeout: float = 10000) -> None:
    phone.page.wait_for_function(
        "([selector, text]) => (document.querySelector(selector)?.innerText || '').includes(text)",
        arg=[selector, text],
        timeout=timeout,
    )


def test_the_captain_and_the_hunter_decide_on_their_own_dead_pages(server: Server) -> None:
    """The Captain, killed in the night, names his successor on his dead page; the
    Hunter, voted out, shoots from his; every phone shows the morning's victim and the
    vote's count without a click; the end lists every card and links a replay."""
    room = server.create(
        rules="werewolf",
        players=8,
        host_name="Ann",
        options={"captain": True},
        composition={"werewolf": 2, "seer": 1, "hunter": 1, "villager": 4},
        pace=0.1,
        bot_delay=0.1,
        timers={},
        seed=24,  # (the same deal every run; the players' taps follow the cards dealt)
    )
    with browser() as chromium:
        phones = [Phone(chromium, server.http, name, SHOTS) for name in NAMES]
        host = phones[0]
        host.host(room)
        for phone in phones[1:]:
            join(phone, room["room"])
        host.page.wait_for_selector("text=At the table: 8 of 8")
        start_game(host.page)
        cards: dict[str, str] = {}
        for phone in phones:
            phone.page.wait_for_selector(".game")
            phone.page.click(".reveal")
            cards[phone.name] = phone.page.inner_text(".role-name")
            phone.page.click(".reveal")
        seat = {name: number for number, name in enumerate(NAMES)}
        wolves = [name for name in NAMES if cards[name] == "Werewolf"]
        hunter = next(name for name in NAMES if cards[name] == "Hunter")
        villagers = [name for name in NAMES if cards[name] == "Simple Villager"]
        captain, first_victim, successor = villagers[0], villagers[1], villagers[2]
        seer = phones[NAMES.index(next(name for name in NAMES if cards[name] == "Seer"))]
        seen: set[str] = set()

        def pick(
            phone: Phone, verb: str, choices: list[tuple[Any, str, list[Any]]], *names: str
        ) -> Any | None:
            for name in names:
                for choice in choices:
                    if choice[1] == verb and choice[2] == [seat[name]]:
                        return choice
            return next((choice for choice in choices if choice[1] == verb), None)

        def choose(phone: Phone, phase: str, choices: list[tuple[Any, str, list[Any]]]) -> Any:
            verbs = {verb for _, verb, _ in choices}
            dead_here = phone.page.query_selector(".players .seat.you.gone") is not None
            # (a later Captain dying names his own successor: the first is the one)
            if "appoint" in verbs:
                assert dead_here and (phone.name == captain or "appoint" in seen), phone.name
                if "appoint" not in seen:
                    phone.shot("captain-dead-appoints")
                    # The morning, while the dead Captain decides (the day's vote
                    # comes after): every phone names him without a click.
                    for other in phones:
                        wait_text(other, "#outcome", captain)
                    host.shot("morning", of="#outcome")
                    # The Seer's answer is a card on his own screen.
                    answer = seer.page.inner_text("#answer")
                    assert any(card in answer for card in set(cards.values())), answer
                seen.add("appoint")
                return pick(phone, "appoint", choices, successor, *NAMES)
            if "shoot" in verbs:
                assert phone.name == hunter and dead_here, (phone.name, phase)
                if "shoot" not in seen:
                    shot_now(phone)
                seen.add("shoot")
                phone.shot("hunter-dead-shoots")
                return pick(phone, "shoot", choices, wolves[0])
            if "elect" in verbs:
                return pick(phone, "elect", choices, captain)
            if "kill" in verbs:
                target = {"Night 1": first_victim, "Night 2": captain}.get(phase)
                others = [name for name in NAMES if name not in wolves]
                return pick(phone, "kill", choices, *([target] if target else others))
            if "inspect" in verbs:
                return pick(phone, "inspect", choices)
            if "vote" in verbs or "abstain" in verbs:
                if phase == "Day 1":
                    return pick(phone, "abstain", choices) or pick(phone, "vote", choices)
                if phase == "Day 2":
                    return pick(phone, "vote", choices, hunter, wolves[0])
                return pick(phone, "vote", choices, wolves[1], *villagers)
            return pick(phone, next(iter(sorted(verbs))), choices)

        def shot_now(hunter_phone: Phone) -> None:
            """While the Hunter voted out aims: the voters still see their own vote,
            every phone the vote's result with its count, and the list of players
            (one tap away) the new Captain and the dead one."""
            wait_text(phones[seat[successor]], ".mine", f"You voted {hunter}")
            for other in phones:
                wait_text(other, "#outcome", hunter)
                assert "votes" in other.page.inner_text("#outcome")
            host.shot("vote-result", of="#outcome")
            host.page.click("#players-button")
            wait_text(host, "#players-sheet", successor)
            row = host.page.inner_text(f"#players-sheet .seat[data-seat='{seat[successor]}']")
            assert "Captain" in row, row
            gone = host.page.inner_text(f"#players-sheet .seat[data-seat='{seat[captain]}']")
            assert "dead" in gone, gone
            host.shot("players-sheet")
            host.page.click("#players-close")

        # Night 1 and day 1: a victim, a Captain elected, nobody voted out; night 2:
        # the Captain killed (his dead page asks for his successor: the morning is
        # checked then); day 2: the Hunter voted out (his dead page asks for his shot:
        # the vote's result is checked then); then on to the end.
        drive(phones, choose, until=lambda: all(phone.finished() for phone in phones))
        assert {"appoint", "shoot"} <= seen, seen

        # The end: the last phase's outcome (the death that ended it) above every card,
        # the winners, the replay.
        for phone in phones:
            above = phone.page.evaluate(
                "() => { const o = document.querySelector('#outcome'),"
                " e = document.querySelector('.end');"
                " return Boolean(o && e && (o.compareDocumentPosition(e) & 4)); }"
            )
            assert above, phone.name
            rows = phone.page.query_selector_all(".end .all-cards tbody tr")
            assert len(rows) == 8
            table = phone.page.inner_text(".end .all-cards")
            for name in NAMES:
                assert name in table and cards[name] in table
        host.shot("end", whole=True)
        link = host.page.get_attribute("#replay-link", "href")
        assert link is not None and "replay=" in link
        host.page.click("#replay-link")
        host.page.wait_for_selector(".replay")
        shown = host.page.inner_text(".replay")
        assert "Night 1" in shown and "Day 2" in shown
        assert "is dealt the card: Hunter" in shown  # every card, as it was dealt
        replayed = host.page.inner_text(".replay .all-cards")  # (the end's public table)
        assert all(name in replayed and cards[name] in replayed for name in NAMES)
        host.shot("replay")
        # Anyone with the link opens it: a stranger's browser too.
        stranger = Phone(chromium, server.http, "Stranger", SHOTS)
        stranger.page.goto(link)
        stranger.page.wait_for_selector(".replay")
        assert stranger.page.inner_text(".replay .all-cards") == host.page.inner_text(
            ".replay .all-cards"
        )


def test_the_pages_qr_codes_are_the_standards(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The QR code a page draws for a seat's new link (js/qr.js) is module for module
    the one segno makes with the same settings (byte mode, level M, mask 0)."""
    texts = [
        "http://127.0.0.1:35861/?room=3GUE7",
        "https://lupus.example/?room=ABCDE&token=aCUEg_SsopXnEdEKF_4_4XuvsMBjbavf",
        "x" * 150,  # version 8: two block sizes, the version's own bits
        "y" * 300,
        "z" * 600,  # version 19
    ]
    with browser() as chromium:
        phone = Phone(chromium, server.http, "Ann", SHOTS)
        phone.goto("/")
        drawn = phone.page.evaluate(
            """async (texts) => {
              const { qrMatrix } = await import('/static/js/qr.js');
              return texts.map((text) => qrMatrix(text).map((row) => row.map(Number).join('')));
            }""",
            texts,
        )
    # segno pads a stream that ends on a codeword's boundary with a whole zero byte
    # more; the standard (7.4.10) and qr.js add padding bits only to reach one.
    monkeypatch.setattr(
        segno.encoder,
        "write_padding_bits",
        lambda buff, version, length: buff.extend([0] * ((8 - length % 8) % 8)),
    )
    for text, rows in zip(texts, drawn, strict=True):
        made = segno.make(text, error="m", mask=0, micro=False, boost_error=False, mode="byte")
        assert rows == ["".join(str(bit) for bit in row) for row in made.matrix], text


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[Server]:
    """A server whose host powers pass on after 1.5 s without the holder (60 s as
    shipped), and whose absent players' seats go to a bot after 1.5 s."""
    limits = {**RELAXED, "host_grace": 1.5, "absent_grace": 1.5}
    running = Server(tmp_path / "lupus.db", limits=limits).start()
    try:
        yield running
    finally:
        running.stop()


def holder_text(phone: Phone) -> str:
    found = phone.page.query_selector("#host-holder")
    return found.inner_text() if found is not None else ""


def test_the_host_leaves_and_another_player_finishes_and_restarts(quick_server: Server) -> None:
    """The host closes his tab mid-game: his powers pass to the next person in seat
    order, everyone sees who holds them, that player closes the steps, finishes the
    game and starts the next one; the first host, back, does not take them back."""
    server = quick_server
    room = server.create(rules="mafia-classic", players=5, host_name="Ann", pace=0.1, bot_delay=0.1)
    with browser() as chromium:
        phones = [Phone(chromium, server.http, name, SHOTS) for name in NAMES[:3]]
        ann, bob, cy = phones
        ann.host(room)
        for phone in (bob, cy):
            join(phone, room["room"])
        ann.page.wait_for_selector("text=At the table: 3 of 5")
        start_game(ann.page)  # (two bots fill the empty seats)
        for phone in phones:
            phone.page.wait_for_selector(".game")
        assert "You hold" in holder_text(ann)
        wait_text(bob, "#host-holder", "Ann")
        play_out(phones, ann, until=lambda: bob.phase() == "day")
        ann.page.close()  # mid-game, the tab closed: Ann's phone is gone
        wait_text(bob, "#host-holder", "You hold", timeout=15000)
        wait_text(cy, "#host-holder", "Bob", timeout=15000)
        bob.page.wait_for_selector("#close-step")
        bob.shot("host-passed")
        play_out([bob, cy], bob)
        bob.page.click("#again")  # (back to the lobby, same seats: Bob starts again)
        bob.page.wait_for_selector(".lobby #start")
        start_game(bob.page)
        for phone in (bob, cy):
            phone.page.wait_for_function("!document.querySelector('.end')", timeout=15000)
        # Ann comes back (the same phone, its storage kept): Bob keeps the powers.
        ann.page = ann.context.new_page()
        ann.page.on("pageerror", lambda error: ann.errors.append(str(error)))
        ann.page.on("console", ann.console)
        ann.goto(f"/?room={room['room']}")
        ann.page.wait_for_selector(".game")
        wait_text(ann, "#host-holder", "Bob")
        assert ann.page.query_selector("#close-step") is None


def test_a_seat_is_taken_back_on_another_device_from_a_new_link(server: Server) -> None:
    """A player whose browser lost its storage gets his seat back: the host shows a new
    link and its QR code for that seat; a fresh browser opens it and lands in the seat;
    the old link's page is turned away at once."""
    room = server.create(rules="mafia-classic", players=3, host_name="Ann", pace=0.1)
    with browser() as chromium:
        phones = [Phone(chromium, server.http, name, SHOTS) for name in NAMES[:3]]
        ann, bob, cy = phones
        ann.host(room)
        for phone in (bob, cy):
            join(phone, room["room"])
        ann.page.wait_for_selector("text=At the table: 3 of 3")
        start_game(ann.page)
        for phone in phones:
            phone.page.wait_for_selector(".game")
        # The host lets a bot play Cy's seat: her page says so, until he gives it back.
        ann.page.click(".players .seat[data-seat='2'] >> text=Let a bot play")
        wait_text(cy, "#stand-in", "let a bot play your seat")
        ann.page.click(".players .seat[data-seat='2'] >> text=Give the seat back")
        cy.page.wait_for_selector("#stand-in", state="detached", timeout=10000)
        ann.page.click(".players .new-link[data-seat='1']")
        ann.page.wait_for_selector("#new-link-card svg.qr")
        url = ann.page.get_attribute("#new-link-url", "href")
        assert url is not None and f"room={room['room']}" in url
        ann.shot("new-link", of="#new-link-card")
        # Bob's old page is turned away, and told why: it is no longer in the seat.
        bob.page.wait_for_selector("text=This room's game has started", timeout=10000)
        assert "given a new link" in bob.page.inner_text("#seat-lost")
        again = Phone(chromium, server.http, "Bob", SHOTS)
        again.page.goto(url)
        again.page.wait_for_selector(".game")
        assert again.page.inner_text(".seat.you .seat-name") == "Bob"
        assert "token" not in again.page.url  # (taken out of the address bar)
        again.shot("seat-back")
        play_out([ann, again, cy], ann)


def test_the_pack_sees_each_others_choice_live_and_agrees(server: Server) -> None:
    """Werewolves on their phones: each sees his partner marked and what the other
    points at, as it changes; the step stays open while they disagree and closes when
    they name the same victim."""
    room = server.create(
        rules="werewolf",
        players=5,
        host_name="Ann",
        options={"lift_minimum": True},
        composition={"werewolf": 2, "villager": 3},
        pace=0.1,
    )
    with browser() as chromium:
        phones = [Phone(chromium, server.http, name, SHOTS) for name in NAMES[:5]]
        phones[0].host(room)
        for phone in phones[1:]:
            join(phone, room["room"])
        phones[0].page.wait_for_selector("text=At the table: 5 of 5")
        start_game(phones[0].page)
        cards = {}
        for phone in phones:
            phone.page.wait_for_selector(".game")
            phone.page.click(".reveal")
            cards[phone.name] = phone.page.inner_text(".role-name")
            phone.page.click(".reveal")
        first, second = [phone for phone in phones if cards[phone.name] == "Werewolf"]
        seat = {name: number for number, name in enumerate(NAMES)}
        x, y = [name for name in NAMES[:5] if cards[name] != "Werewolf"][:2]
        for wolf, mate in ((first, second), (second, first)):
            mark = f".players .seat[data-seat='{seat[mate.name]}'] .partner-tag"
            wolf.page.wait_for_selector(mark)
            wolf.page.wait_for_selector(".decide button[data-verb=kill]")
        chosen = ".pack-choices li[data-seat='{}'][data-target='{}']"
        first.page.click(f".decide button[data-verb=kill][data-args='[{seat[x]}]']")
        second.page.wait_for_selector(chosen.format(seat[first.name], seat[x]))
        second.page.click(f".decide button[data-verb=kill][data-args='[{seat[y]}]']")
        first.page.wait_for_selector(chosen.format(seat[second.name], seat[y]))
        first.page.wait_for_selector(".decide button.chosen[data-verb=kill]")
        first.shot("pack-disagrees")
        # (the panel names the pack in the rulebook's words, as the maffia's "Maffian")
        title = first.page.inner_text(".pack-choices > .hint")
        assert title == "The Werewolves point at:", title
        time.sleep(1.0)  # they disagree: the step stays open, for both
        for wolf in (first, second):
            assert wolf.page.query_selector(".decide button[data-verb=kill]") is not None
        second.page.click(f".decide button[data-verb=kill][data-args='[{seat[x]}]']")
        for wolf in (first, second):
            wolf.page.wait_for_function(
                "!document.querySelector('.decide button[data-verb=kill]')", timeout=10000
            )
        for phone in phones:
            wait_text(phone, "#outcome", x, timeout=15000)


def test_a_timed_step_counts_down_and_an_untimed_room_warns(server: Server) -> None:
    """A step with a timer shows its countdown (`view.deadline`), the same on a phone
    whose clock is ten minutes fast (it counts the server's time); a room without
    timers shows none, and its lobby warns in plain words what that means."""
    timed = server.create(
        rules="mafia-classic", players=3, host_name="Ann", pace=0.1, timers={"day": 30.0}
    )
    untimed = server.create(rules="mafia-classic", players=3, host_name="Ann", pace=0.1)
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", SHOTS)
        fast = Phone(chromium, server.http, "Bob", SHOTS)
        fast.context.clock.install(time=time.time() + 600)
        ann.host(timed)
        join(fast, timed["room"])
        start_game(ann.page)
        for phone in (ann, fast):
            phone.page.wait_for_selector(".game.phase-day .countdown")  # (day 1 comes first)
            left = phone.page.inner_text(".countdown")
            shown = re.fullmatch(r"0:([0-3]\d) left", left)
            assert shown and 15 <= int(shown[1]) <= 30, (phone.name, left)
        ann.shot("countdown")
        ann.host(untimed)
        warning = ann.page.inner_text("#timers")
        assert "stops the game" in warning, warning
        start_game(ann.page)
        ann.page.wait_for_selector(".game")
        ann.page.wait_for_timeout(500)
        assert ann.page.query_selector(".countdown") is None


def test_the_home_forms_night_time_scales_every_night_steps_timer(server: Server) -> None:
    """A host who asks for 5 s nights on the home page gets them: every night step's own
    timer of the rulebook (the pack's 45 s, the Seer's 20 s) in the same measure."""
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", SHOTS)
        ann.goto("/")
        page = ann.page
        page.wait_for_selector("#create")
        page.select_option("#rules", "werewolf")
        page.fill("#host-name", "Ann")
        page.click("#create summary")
        page.fill("#timer-night", "5")
        page.click("#create button[type=submit]")
        page.wait_for_selector(".lobby")
        code = page.inner_text(".room-code").strip()
    lobby = httpx.get(f"{server.http}/api/rooms/{code}", timeout=10).json()
    timers = lobby["timers"]
    assert timers["night"] == 5
    books = httpx.get(f"{server.http}/api/rulebooks", timeout=10).json()
    book = next(b for b in books if b["id"] == "werewolf")
    for step in book["night_steps"]:
        own = book["timers"]["steps"].get(step)
        if own is not None:
            scaled = own * 5 / book["timers"]["night"]
            assert timers["steps"][step] == max(1, int(scaled + 0.5)), step  # (rounded up)
    assert timers["steps"]["werewolves"] < book["timers"]["steps"]["werewolves"]
