"""Real pages in a real browser: Debian's Chromium driven by Playwright, against a real
``lupus serve`` on a free loopback port (``server_harness.Server``).

Each player is a browser context of his own at a phone's size (his own local storage,
so his own token), as friends around a table each hold a phone. Screenshots of the key
screens go to ``artifacts/web/<test>/`` (docs/play.md shows a chosen few).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

PHONE = {"width": 360, "height": 740}
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "web"
# As the machine's notes advise: no background traffic (the network is closed) and no
# sandbox (CI runs as root).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSIVE = {"pass", "abstain", "sleep"}
UNDOING = {"withdraw"}


def chromium_path() -> str:
    """The system's Chromium; CI installs it (.ci/run), elsewhere its absence skips."""
    found = os.environ.get("LUPUS_CHROMIUM") or shutil.which("chromium")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing: .ci/run installs Debian's chromium package")
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    return found


# What a page may log as an error without being wrong: the browser's own words for a
# connection refused while a test has the server down (the page reconnects by itself).
EXPECTED_CONSOLE = re.compile(r"WebSocket connection to .* failed")

OPEN_PHONES: list[Phone] = []


@contextlib.contextmanager
def browser() -> Iterator[Any]:
    """A Chromium for one test. Every page opened in it must end without a JS error
    (thrown, or logged to the console): the test fails otherwise."""
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        OPEN_PHONES.clear()
        try:
            yield launched
            errors = [f"{phone.name}: {error}" for phone in OPEN_PHONES for error in phone.errors]
            assert not errors, "a page had a JS error:\n" + "\n".join(errors)
        finally:
            OPEN_PHONES.clear()
            launched.close()


class Phone:
    """One player's page (a browser context of its own)."""

    def __init__(self, browser: Any, base: str, name: str, shots: Path, lang: str = "en") -> None:
        self.name = name
        self.context = browser.new_context(viewport=PHONE, locale=lang, device_scale_factor=1)
        # The interface's language, as the page's picker would keep it.
        self.context.add_init_script(f"localStorage.setItem('lupus:lang', '{lang}')")
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self.console)
        OPEN_PHONES.append(self)
        self.base = base
        self.shots = shots

    def console(self, message: Any) -> None:
        if message.type == "error" and not EXPECTED_CONSOLE.search(message.text):
            self.errors.append(f"console: {message.text}")

    def shot(self, label: str, *, whole: bool = False, of: str | None = None) -> Path:
        """The phone's screen as its player sees it (``whole``: the whole page; ``of``:
        the element of that selector, scrolled into view)."""
        self.shots.mkdir(parents=True, exist_ok=True)
        path = self.shots / f"{label}.png"
        if of is not None:
            self.page.locator(of).screenshot(path=str(path))
        else:
            self.page.screenshot(path=str(path), full_page=whole)
        return path

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def host(self, created: dict[str, Any]) -> None:
        """Open, as its host, a room made over HTTP (``Server.create``): the page is
        given the host's token as the home page's form would have kept it."""
        code, kept = created["room"], json.dumps({"token": created["host_token"], "host": True})
        self.page.goto(self.base + "/")
        self.page.evaluate(f"localStorage.setItem('lupus:room:{code}', '{kept}')")
        self.goto(f"/?room={code}")
        self.page.wait_for_selector(".lobby")

    def choices(self) -> list[Any]:
        return list(self.page.query_selector_all(".decide button.choice:enabled"))

    def finished(self) -> bool:
        return self.page.query_selector(".end") is not None

    def phase(self) -> str:
        found = self.page.query_selector(".game")
        if found is None:
            return ""
        classes = found.get_attribute("class") or ""
        match = re.search(r"phase-(\w+)", classes)
        return match.group(1) if match else ""


def open_room(host: Phone, rules: str, players: int, **more: Any) -> str:
    """The host fills in the home page's form; the room's code."""
    host.goto("/")
    page = host.page
    page.wait_for_selector("#create")
    page.select_option("#rules", rules)
    page.fill("#players", str(players))
    page.fill("#host-name", host.name)
    page.click("#create summary")
    page.fill("#pace", str(more.get("pace", 0.3)))
    if not more.get("timers"):
        # The rulebook's timers last up to minutes a step: these games are played
        # without them unless a test asks for them.
        page.check("#no-timers")
    if more.get("table"):
        page.check("#table")
    if more.get("spectators"):
        page.check("#spectators")  # (off unless the host allows them)
    for option in more.get("options", ()):
        page.check(f"#option-{option}")
    host.shot("home")
    page.click("#create button[type=submit]")
    page.wait_for_selector(".lobby")
    code = page.inner_text(".room-code").strip()
    assert re.fullmatch(r"[A-Z2-9]{5}", code), code
    return code


def join(phone: Phone, code: str) -> None:
    phone.goto(f"/?room={code}")
    phone.page.fill("#name", phone.name)
    phone.page.click("form button[type=submit]")
    phone.page.wait_for_selector(".lobby")


def gather(phones: list[Phone], rules: str, players: int, **more: Any) -> str:
    """The first phone opens a room (``open_room``), the others join it; its code."""
    code = open_room(phones[0], rules, players, **more)
    for phone in phones[1:]:
        join(phone, code)
    return code


def pick(buttons: list[Any]) -> Any | None:
    """The first choice that does something (a vote, a target) rather than pass; never
    taking back what was done (a nomination withdrawn and made again would go on
    forever): a player who can only withdraw waits for the step's end."""
    verbs = [button.get_attribute("data-verb") or "" for button in buttons]
    for button, verb in zip(buttons, verbs, strict=True):
        if verb not in PASSIVE and verb not in UNDOING:
            return button
    for button, verb in zip(buttons, verbs, strict=True):
        if verb not in UNDOING:
            return button
    return None


def close_step(host: Phone) -> None:
    """The host closes the open step from his page, as a host at a table would when
    nothing moves (a page without the button, or gone meanwhile, is left alone)."""
    close = host.page.query_selector("#close-step")
    if close is not None:
        with contextlib.suppress(playwright_api.Error):
            close.click(timeout=2000)


def play_out(
    phones: list[Phone],
    host: Phone,
    *,
    limit: float = 240.0,
    stall: float = 4.0,
    each: Callable[[Phone], None] | None = None,
    until: Callable[[], bool] | None = None,
) -> None:
    """Tap through the game on every phone until every page shows the end (or
    ``until`` says so): each phone with a choice taps one; if nothing moved for
    ``stall`` seconds the host closes the step, as a host at a table would."""
    deadline = time.monotonic() + limit
    moved = time.monotonic()
    # What each phone tapped last: a choice that stays open once made (a vote may be
    # changed until the step closes) is not tapped again and again, so that a step
    # waiting for someone else stalls, and the host closes it.
    tapped: dict[str, tuple[str, str, str]] = {}
    while time.monotonic() < deadline:
        if until is not None and until():
            return
        if all(phone.finished() for phone in phones):
            return
        for phone in phones:
            if each is not None:
                each(phone)
            chosen = pick(phone.choices())
            if chosen is not None:
                with contextlib.suppress(playwright_api.Error):
                    # (the phase, and at one table the night's step: a tap each)
                    where = chosen.evaluate(
                        "b => (document.getElementById('phase-title')?.innerText || '')"
                        " + '|' + (b.closest('.decide')?.dataset.step || '')"
                    )
                    key = (
                        str(where),
                        chosen.get_attribute("data-verb") or "",
                        chosen.get_attribute("data-args") or "",
                    )
                    if tapped.get(phone.name) == key:
                        continue
                    chosen.click(timeout=2000)
                    tapped[phone.name] = key
                    moved = time.monotonic()
        if time.monotonic() - moved > stall:
            close_step(host)
            moved = time.monotonic()
        time.sleep(0.05)
    for phone in phones:  # what each page showed when it stalled
        with contextlib.suppress(playwright_api.Error):
            phone.shot(f"stuck-{phone.name}")
    raise AssertionError("the game did not end in time")


def start_game(page: Any) -> None:
    """The host taps Start; with empty seats the page asks first whether bots take
    them (issue 25), and he says yes."""
    page.click("#start")
    confirm = page.query_selector("#confirm-yes")
    if confirm is not None:
        confirm.click()
