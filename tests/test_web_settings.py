"""The host changes the timers in the lobby (issue 24), in a real Chromium: the lobby's
panel shows the room's timers (the rulebook's, each step under "each step"), switches
them off with the plain-words warning, or sets its own; another phone sees the room's
timers read-only; the game started then has no countdown, or the host's."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx

from lupus.families import load
from server_harness import Server
from web_harness import ARTIFACTS, Phone, browser, join, start_game

SHOTS = ARTIFACTS / "settings"
ROOM = {
    "rules": "mafia-classic",
    "players": 3,
    "host_name": "Ann",
    "pace": 0.1,
    "bot_delay": 0.1,
    "timers": "default",  # (the rulebook's, as a room opened from the home page has)
}


def shown(server: Server, code: str, timers: Any) -> None:
    """Waits until the room's lobby (as the server sends it) has these timers."""
    deadline = time.monotonic() + 10
    while True:
        lobby = httpx.get(f"{server.http}/api/rooms/{code}", timeout=5).json()
        if lobby["timers"] == timers:
            return
        assert time.monotonic() < deadline, lobby["timers"]
        time.sleep(0.05)


def test_the_host_switches_the_timers_off_then_sets_his_own(server: Server) -> None:
    """The panel shows the rulebook's night and day (and its steps); "No timers"
    shows the warning and, saved, every phone's lobby says it; the game then shows no
    countdown. In another room the host sets the day to 30 s: its first step counts
    down from 30 s; "The rulebook's timers" gives the rulebook's back."""
    spec = load("mafia-classic").timers
    untimed, timed = server.create(**ROOM), server.create(**ROOM)
    with browser() as chromium:
        ann = Phone(chromium, server.http, "Ann", SHOTS)
        bob = Phone(chromium, server.http, "Bob", SHOTS)
        ann.host(untimed)
        page = ann.page
        assert page.input_value("#settings-night") == f"{spec.night:g}"
        assert page.input_value("#settings-day") == f"{spec.day:g}"
        assert page.query_selector("#settings-warning").is_hidden()
        page.click("#timers summary")
        assert page.input_value("#settings-step-lynch") == f"{spec.steps['lynch']:g}"
        page.check("#settings-no-timers")
        assert "stops the game" in page.inner_text("#settings-warning")
        assert page.is_disabled("#settings-night")
        ann.shot("no-timers")
        page.click("#settings-save")
        shown(server, untimed["room"], None)
        page.wait_for_selector("#timers.no-timers")
        join(bob, untimed["room"])
        # Bob is no host: the room's timers read-only, the same warning.
        bob.page.wait_for_selector("#timers.no-timers")
        assert bob.page.query_selector("#timers input") is None
        assert "stops the game" in bob.page.inner_text("#timers")
        start_game(page)
        page.wait_for_selector(".game")
        page.wait_for_timeout(500)
        assert page.query_selector(".countdown") is None

        ann.host(timed)
        page.fill("#settings-day", "30")
        page.fill("#settings-night", "")
        page.click("#settings-save")
        # (the rulebook's steps keep their own times, as the panel shows them)
        steps = dict(spec.steps)
        shown(server, timed["room"], {"night": None, "day": 30.0, "steps": steps})
        assert page.input_value("#settings-night") == ""
        assert page.input_value("#settings-day") == "30"
        page.click("#settings-default")
        page.wait_for_function(
            f"document.querySelector('#settings-night').value === '{spec.night:g}'"
        )
        page.fill("#settings-day", "30")
        page.click("#timers summary")
        page.fill("#settings-step-lynch", "")  # (the day's first step: the day's time)
        page.click("#settings-save")
        steps = {step: seconds for step, seconds in spec.steps.items() if step != "lynch"}
        shown(server, timed["room"], {"night": spec.night, "day": 30.0, "steps": steps})
        start_game(page)
        page.wait_for_selector(".game.phase-day .countdown")
        left = page.inner_text(".countdown")
        assert re.fullmatch(r"0:[0-3]\d left", left), left
        ann.shot("countdown")
