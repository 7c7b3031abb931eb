"""At one table every phone counts down the same time (issue 25), in real Chromium.

A night step's timer is the same for every seat, but a phone counts it down on its own
clock, from how far that clock is from the server's. A frame carries the time of the
latest public event (the same for every reader), not the moment it was sent: a phone
that was sent a frame of its own later (its holder tapped, the pack's choice changed)
must not take that frame's time as the server's clock, or its countdown runs a second
or two behind its neighbours', and says who acted.
"""

from __future__ import annotations

import contextlib
import time

from server_harness import Server
from web_harness import ARTIFACTS, Phone, browser, join, playwright_api, start_game

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]

# The step a phone shows and its countdowns' deadlines, read at one moment (a step that
# closes between two reads would pair one step's deadline with the next one's).
DEADLINES = """() => ({
  step: document.querySelector('.table-night')?.dataset.step || '',
  ends: [...document.querySelectorAll('.countdown')].map((el) => Number(el.dataset.deadline)),
})"""


def test_every_phone_counts_down_the_same_time_after_its_taps(server: Server) -> None:
    shots = ARTIFACTS / "countdown"
    created = server.create(
        rules="maffia",
        players=5,
        host_name=NAMES[0],
        table=True,
        timers={"night": 6, "day": 60},
        composition={"mafia": 1, "doctor": 1, "detective": 1, "villager": 2},
    )
    with browser() as chromium:
        phones = [Phone(chromium, server.http, name, shots) for name in NAMES]
        phones[0].host(created)
        for phone in phones[1:]:
            join(phone, created["room"])
        start_game(phones[0].page)
        compared = 0
        deadline = time.monotonic() + 120  # (a loaded machine: tests run side by side)
        while compared < 2 and time.monotonic() < deadline:
            steps = {
                phone.page.evaluate("document.querySelector('.table-night')?.dataset.step || ''")
                for phone in phones
            }
            step = steps.pop() if len(steps) == 1 else ""
            if not step or step.endswith(".1"):  # (the first step: wait for the next)
                time.sleep(0.1)
                continue
            # Halfway through the step every phone taps all it is asked (the actors'
            # taps are sent): the actors' phones are sent a frame of their own.
            time.sleep(2.0)
            for phone in phones:
                for _ in range(2):
                    tiles = phone.page.query_selector_all(".table-night button.choice")
                    if tiles:
                        with contextlib.suppress(playwright_api.Error):  # (it closed)
                            tiles[0].click(timeout=2000)
            time.sleep(0.5)
            now = [phone.page.evaluate(DEADLINES) for phone in phones]
            if any(shown["step"] != step or len(shown["ends"]) != 1 for shown in now):
                continue  # (the step closed meanwhile, on some phone at least)
            ends = [shown["ends"][0] for shown in now]
            for phone in phones:
                phone.shot(f"{step}-{phone.name}")
            assert max(ends) - min(ends) < 0.3, (step, dict(zip(NAMES, ends, strict=True)))
            compared += 1
            while all(
                phone.page.evaluate("document.querySelector('.table-night')?.dataset.step || ''")
                == step
                for phone in phones
            ):
                time.sleep(0.1)
        assert compared == 2
