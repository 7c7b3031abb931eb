"""Accessibility of the pages (issue 14, item 8), checked in the browser on what it
really draws: every text's contrast against its background passes WCAG AA (4.5:1, 3:1
for large text), every control has a label or a name, and a room is opened and a game
played from the keyboard alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from server_harness import Server
from web_harness import ARTIFACTS, Phone, browser, start_game

# Runs in the page: the problems found, as sentences.
AUDIT = (Path(__file__).parent / "web_audit.js").read_text("utf-8")


def audit(phone: Phone, where: str) -> list[str]:
    return [f"{where}: {problem}" for problem in phone.page.evaluate(AUDIT)]


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_every_screen_passes_the_audit(server: Server, lang: str) -> None:
    problems: list[str] = []
    with browser() as chromium:
        phone = Phone(chromium, server.http, "Ann", ARTIFACTS / f"access-{lang}", lang=lang)
        phone.goto("/")
        phone.page.wait_for_selector("#create")
        phone.page.click("#create summary")  # the settings folded away too
        problems += audit(phone, "home")
        for rules in ("werewolf", "lupusburg", "maffia"):
            room = server.create(
                rules=rules,
                players=6 if rules != "werewolf" else 8,
                host_name="Ann",
                bot_delay=0.05,
                pace=0,
                options={"lift_minimum": True} if rules == "werewolf" else {},
            )
            phone.host(room)
            problems += audit(phone, f"{rules} lobby")
            start_game(phone.page)
            phone.page.wait_for_selector(".game")
            phone.page.click(".reveal")
            problems += audit(phone, f"{rules} game")
            phone.page.click(".reveal")
    assert not problems, "\n".join(problems)


def test_a_room_from_the_keyboard_alone(server: Server) -> None:
    with browser() as chromium:
        phone = Phone(chromium, server.http, "Ann", ARTIFACTS / "keyboard")
        page = phone.page
        phone.goto("/")
        page.wait_for_selector("#create")
        page.focus("#host-name")
        page.keyboard.type("Ann")
        page.keyboard.press("Enter")  # submits the form it is in
        page.wait_for_selector(".lobby")
        page.focus("#fill")
        # Tab from the bots' choice reaches the start button; Enter presses it.
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "start"
        page.keyboard.press("Enter")
        # The page asks first whether bots take the empty seats: its "yes" has the focus.
        page.wait_for_selector("#confirm-yes")
        assert page.evaluate("document.activeElement.id") == "confirm-yes"
        page.keyboard.press("Enter")
        page.wait_for_selector(".game")
        page.focus(".reveal")
        page.wait_for_timeout(1500)  # views arrive and redraw the screen meanwhile
        assert page.evaluate("document.activeElement.dataset.focus") == "reveal"
        page.keyboard.press("Enter")
        page.wait_for_selector("#role-card:not([hidden])")
