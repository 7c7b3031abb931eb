"""What players expect of a phone at night (issue 25, item 4), in real Chromium at a
phone's size: axe-core finds no serious or critical violation on any page (home, lobby,
game by night and by day, end, replay, help, a game leader's room), in English and in
Swedish; the night screen is dark; at 200% text nothing is cut or overlaps; the pages
install (a web app manifest and its icons); the screen is kept awake during a game;
and at one table every living phone buzzes at every night step."""

from __future__ import annotations

import contextlib
import json
import re
import struct
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from server_harness import Server
from web_harness import ARTIFACTS, Phone, browser, play_out, start_game

axe_api = pytest.importorskip("axe_playwright_python.sync_playwright")

SHOTS = ARTIFACTS / "habits"
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SERIOUS = {"serious", "critical"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("habits") / "lupus.db").start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One browser for the whole module (every page in it must end without a JS error)."""
    with browser() as launched:
        yield launched


def violations(phone: Phone, where: str) -> list[str]:
    """axe-core's serious and critical findings on the page as drawn now."""
    found = axe_api.Axe().run(phone.page).response["violations"]
    return [
        f"{where}: {v['id']} ({v['impact']}): "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"][:4])
        for v in found
        if v["impact"] in SERIOUS
    ]


def night_is_dark(phone: Phone) -> bool:
    """The page's ground and its game screen are dark (relative luminance < 0.05)."""
    return bool(
        phone.page.evaluate(
            """() => {
              const lum = (text) => {
                const [r, g, b] = text.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number)
                  .map((v) => v / 255)
                  .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
                return 0.2126 * r + 0.7152 * g + 0.0722 * b;
              };
              const ground = getComputedStyle(document.documentElement).backgroundColor;
              const cards = [...document.querySelectorAll('.game .card')]
                .map((el) => getComputedStyle(el).backgroundColor);
              return lum(ground) < 0.05 && cards.length > 0 && cards.every((c) => lum(c) < 0.05);
            }"""
        )
    )


def until_phase(phone: Phone, phase: str, limit: float = 60) -> None:
    play_out([phone], phone, limit=limit, stall=1.5, until=lambda: phone.phase() == phase)


def help_roles(phone: Phone) -> list[str]:
    names = phone.page.eval_on_selector_all(".help-role h4", "els => els.map(e => e.innerText)")
    return list(names)


@pytest.mark.parametrize(("lang", "rules"), [("en", "werewolf"), ("sv", "maffia")])
def test_no_page_has_a_serious_accessibility_violation(
    server: Server, chromium: Any, lang: str, rules: str
) -> None:
    problems: list[str] = []
    phone = Phone(chromium, server.http, "Ann", SHOTS / f"axe-{lang}", lang=lang)
    try:
        phone.goto("/")
        phone.page.wait_for_selector("#create")
        phone.page.click("#create summary")
        problems += violations(phone, "home")
        # The home page's Rules: the rulebook chosen in the form.
        phone.page.select_option("#rules", rules)
        assert phone.page.get_attribute("#help-link", "href") == f"/?help={rules}"
        room = server.create(
            rules=rules,
            players=8,
            host_name="Ann",
            bot_delay=0.05,
            pace=1.5,
            lang=lang,
            seed=24,  # (the same deal every run: Ann lives to see the first day)
        )
        phone.host(room)
        problems += violations(phone, "lobby")
        start_game(phone.page)
        phone.page.wait_for_selector(".game.phase-night")
        phone.page.click(".reveal")
        # The card shows its short description, in the rulebook's words.
        phone.page.wait_for_selector("#role-card .about")
        phone.shot("night")
        assert night_is_dark(phone), "the night screen is not dark"
        problems += violations(phone, "game by night")
        until_phase(phone, "day")
        # (read at one moment: the day may be short where bots alone decide it)
        drawn, dark = phone.page.evaluate(
            "[document.querySelector('.game').className,"
            " document.documentElement.classList.contains('night')]"
        )
        assert "phase-day" in drawn and not dark, f"the day screen is dark: {drawn}"
        phone.shot("day")
        problems += violations(phone, "game by day")
        play_out([phone], phone, limit=120, stall=1.5)
        problems += violations(phone, "end")
        replay = phone.page.get_attribute("#replay-link", "href")
        assert replay
        phone.page.goto(replay)
        phone.page.wait_for_selector(".replay")
        problems += violations(phone, "replay")
        # The help page: one tap from the room (the header's link), every role of the
        # rulebook on it, in its words.
        phone.goto(f"/?room={room['room']}")
        phone.page.wait_for_selector("#help-link")
        href = phone.page.get_attribute("#help-link", "href")
        assert href == f"/?help={rules}"
        phone.goto(href)
        phone.page.wait_for_selector(".help-role")
        problems += violations(phone, "help")
        books = httpx.get(f"{server.http}/api/rulebooks?lang={lang}").json()
        book = next(b for b in books if b["id"] == rules)
        assert help_roles(phone) == [role["name"] for role in book["roles"].values()]
        text = phone.page.inner_text(".help")
        for role in book["roles"].values():
            assert role["about"][1:] in text
        phone.shot("help", whole=True)
        leader = server.create(
            rules=rules,
            players=8,
            mode="leader",
            names=["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"],
            lang=lang,
        )
        phone.host(leader)
        problems += violations(phone, "leader lobby")
        start_game(phone.page)
        phone.page.wait_for_selector(".leader-prepare")
        problems += violations(phone, "leader room")
        # At one table the night's screen (every living phone alike) is dark and clean too.
        table = server.create(
            rules=rules, players=8, host_name="Ann", bot_delay=0.05, pace=3, lang=lang, table=True
        )
        phone.host(table)
        start_game(phone.page)
        phone.page.wait_for_selector(".game.phase-night")
        assert night_is_dark(phone), "the night screen at one table is not dark"
        problems += violations(phone, "at one table by night")
        phone.shot("table-night")
        # Lupusburg's table by night: its tiles and tags dark too, still readable.
        burg = server.create(rules="lupusburg", players=6, host_name="Ann", bot_delay=0.05, pace=3)
        phone.host(burg)
        start_game(phone.page)
        phone.page.wait_for_selector(".game.phase-night .lb-board")
        assert night_is_dark(phone), "Lupusburg's night screen is not dark"
        problems += violations(phone, "lupusburg by night")
        phone.shot("lupusburg-night", whole=True)
    finally:
        phone.context.close()
    assert not problems, "\n".join(problems)


# What a reader's browser does at 200% text: the root's size doubled.
LARGE_TEXT = "html { font-size: 212.5% !important; }"

# Runs in the page: the controls cut (their text wider than their box, or reaching past
# the screen's edge) or overlapping another, as sentences.
CLIPPED = """() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  // (a closed <details> keeps its content laid out, unseen: only its summary shows)
  const folded = (el) => {
    const details = el.parentElement?.closest('details:not([open])');
    return Boolean(details) && !el.closest('summary');
  };
  const shown = [...document.querySelectorAll('button, a, input, select, label, summary, h2, h3')]
    .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden'
      && !el.closest('.hidden-label') && !folded(el));
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${
    (el.innerText || el.value || '').trim().slice(0, 30)}"`;
  for (const el of shown) {
    const box = el.getBoundingClientRect();
    if (box.left < -1 || box.right > width + 1) problems.push(`past the edge: ${name(el)}`);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible'
        && el.tagName !== 'SELECT') problems.push(`cut: ${name(el)}`);
  }
  // No text runs past the screen's edge (the page would scroll sideways).
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || parent.closest('.hidden-label, noscript')) continue;
    if (folded(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width && (box.left < -1 || box.right > width + 1)) {
      problems.push(`text past the edge: "${node.textContent.trim().slice(0, 30)}"`);
    }
  }
  if (document.documentElement.scrollWidth > width + 1) problems.push('the page scrolls sideways');
  const controls = shown.filter((el) => el.matches('button, a, input, select, summary'));
  for (let i = 0; i < controls.length; i++) {
    for (let j = i + 1; j < controls.length; j++) {
      const [a, b] = [controls[i], controls[j]];
      if (a.contains(b) || b.contains(a)) continue;
      const p = a.getBoundingClientRect();
      const q = b.getBoundingClientRect();
      const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (x > 2 && y > 2) problems.push(`overlap: ${name(a)} and ${name(b)}`);
    }
  }
  return problems;
}"""


def test_at_double_text_size_no_control_is_cut(server: Server, chromium: Any) -> None:
    phone = Phone(chromium, server.http, "Ann", SHOTS / "large-text", lang="sv")
    phone.context.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => {"
        f" const s = document.createElement('style'); s.textContent = {json.dumps(LARGE_TEXT)};"
        " document.head.append(s); });"
    )
    problems: list[str] = []
    try:

        def check(where: str) -> None:
            phone.page.wait_for_timeout(100)
            problems.extend(f"{where}: {p}" for p in phone.page.evaluate(CLIPPED))
            phone.shot(where, whole=True)

        phone.goto("/")
        phone.page.wait_for_selector("#create")
        assert phone.page.evaluate("getComputedStyle(document.body).fontSize") == "34px"
        phone.page.click("#create summary")
        check("home")
        room = server.create(rules="maffia", players=8, host_name="Ann", bot_delay=0.05, pace=3)
        phone.host(room)
        check("lobby")
        start_game(phone.page)
        phone.page.wait_for_selector(".game.phase-night")
        phone.page.click(".reveal")
        check("night")
        until_phase(phone, "day")
        check("day")  # (or the end, if the night's deaths ended the game)
        phone.goto("/?help=maffia")
        phone.page.wait_for_selector(".help-role")
        check("help")
    finally:
        phone.context.close()
    assert not problems, "\n".join(problems)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_pages_install_as_an_app(server: Server) -> None:
    page = httpx.get(server.http + "/").text
    assert re.search(r'<link rel="manifest" href="/manifest.webmanifest">', page)
    answer = httpx.get(server.http + "/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"] and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    sizes: set[str] = set()
    for icon in manifest["icons"]:
        got = httpx.get(server.http + icon["src"])
        assert got.status_code == 200, icon
        assert got.headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            width, height = png_size(got.content)
            assert icon["sizes"] == f"{width}x{height}", icon
        else:
            assert icon["sizes"] == "any" and got.text.lstrip().startswith("<svg"), icon
        sizes.add(icon["sizes"])
    assert {"any", "192x192", "512x512"} <= sizes


def test_the_help_api_explains_every_rulebook_in_its_languages(server: Server) -> None:
    books = httpx.get(f"{server.http}/api/rulebooks").json()
    for book in books:
        for lang in book["languages"]:
            told = httpx.get(f"{server.http}/api/rulebooks/{book['id']}/rules?lang={lang}").json()
            listed = httpx.get(f"{server.http}/api/rulebooks?lang={lang}").json()
            roles = next(b for b in listed if b["id"] == book["id"])["roles"]
            assert told["lang"] == lang
            assert [r["id"] for r in told["roles"]] == list(roles)
            assert [r["about"] for r in told["roles"]] == [r["about"] for r in roles.values()]
            assert told["order"] and told["win"], book["id"]
            # No option id on the page: each option is told by its help text.
            said = [told[k] for k in ("minimum", "options", "notes")]
            text = json.dumps(said, ensure_ascii=False)
            for key in book["options"]:
                assert f" {key} " not in text, (book["id"], key)
    missing = httpx.get(f"{server.http}/api/rulebooks/nothing/rules")
    assert missing.status_code == 404 and missing.json()["error"] == "unknown_rulebook"


# Kept by the page's wake lock calls: navigator.wakeLock wrapped (headless Chromium may
# have none, or refuse it), and the page's visibility made a test's to set.
RECORD_WAKE_LOCK = """
window.__locks = [];
window.__visible = 'visible';
Object.defineProperty(document, 'visibilityState', { get: () => window.__visible });
const sentinel = () => {
  const lock = new EventTarget();
  lock.released = false;
  lock.release = async () => { lock.released = true; lock.dispatchEvent(new Event('release')); };
  window.__held = lock;
  return lock;
};
Object.defineProperty(navigator, 'wakeLock', {
  value: { request: async (type) => { window.__locks.push(type); return sentinel(); } },
});
"""


def test_the_screen_is_kept_awake_during_a_game(server: Server, chromium: Any) -> None:
    phone = Phone(chromium, server.http, "Ann", SHOTS / "awake")
    phone.context.add_init_script(RECORD_WAKE_LOCK)
    phone.context.add_init_script(RECORD_BUZZ)
    try:
        room = server.create(
            rules="werewolf", players=8, host_name="Ann", bot_delay=0.05, pace=0, seed=24
        )  # (seeded: Ann has decisions to make, at least on the first day)
        phone.host(room)
        assert phone.page.evaluate("window.__locks") == []  # not in the lobby
        # The tone is off until the player turns it on; his choice is kept.
        assert phone.page.inner_text("#sound") == "Sound: off"
        assert phone.page.get_attribute("#sound", "aria-pressed") == "false"
        phone.page.click("#sound")
        assert phone.page.get_attribute("#sound", "aria-pressed") == "true"
        phone.page.reload()
        phone.page.wait_for_selector(".lobby")
        assert phone.page.inner_text("#sound") == "Sound: on"
        assert phone.page.evaluate("localStorage.getItem('lupus:sound')") == "on"
        start_game(phone.page)
        phone.page.wait_for_selector(".game")
        phone.page.wait_for_function("window.__locks.length === 1")
        assert phone.page.evaluate("window.__locks") == ["screen"]
        # The phone lets go of the lock when the page is hidden; on its return the page
        # takes it again.
        phone.page.evaluate(
            "window.__held.release(); window.__visible = 'hidden';"
            " document.dispatchEvent(new Event('visibilitychange'))"
        )
        assert phone.page.evaluate("window.__locks.length") == 1
        phone.page.evaluate(
            "window.__visible = 'visible'; document.dispatchEvent(new Event('visibilitychange'))"
        )
        phone.page.wait_for_function("window.__locks.length === 2")
        # The game over, the lock is let go.
        play_out([phone], phone, limit=120, stall=1.5)
        phone.page.wait_for_function("window.__held.released")
        # Away from a table, the phone buzzed when its player had a decision to make
        # (and only then: never in the lobby, nor for the bots' turns).
        buzzed = phone.page.evaluate("window.__buzz")
        assert buzzed, "no buzz in a whole game"
        assert all(title for _, title, _ in buzzed)
    finally:
        phone.context.close()


# Every buzz a page asked for, with whether it was night and the phase's title then; and
# how many tones it made.
RECORD_BUZZ = """
window.__buzz = [];
navigator.vibrate = (pattern) => {
  window.__buzz.push([
    document.documentElement.classList.contains('night'),
    document.getElementById('phase-title')?.textContent || '',
    JSON.stringify(pattern),
  ]);
  return true;
};
window.__tones = 0;
const made = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.__tones++;
  return made.call(this);
};
"""


def test_at_one_table_every_living_phone_buzzes_at_every_night_step(
    server: Server, chromium: Any
) -> None:
    phones = [Phone(chromium, server.http, name, SHOTS / "buzz") for name in NAMES]
    for phone in phones:
        phone.context.add_init_script(RECORD_BUZZ)
    # Bob chose the tone; the others kept the default (none).
    phones[1].context.add_init_script("localStorage.setItem('lupus:sound', 'on')")
    try:
        room = server.create(
            rules="werewolf", players=8, host_name="Ann", bot_delay=0.05, pace=0.3, table=True
        )
        phones[0].host(room)
        for phone in phones[1:]:
            phone.goto(f"/?room={room['room']}")
            phone.page.fill("#name", phone.name)
            phone.page.click("form button[type=submit]")
            phone.page.wait_for_selector(".lobby")
        start_game(phones[0].page)
        play_out(phones, phones[0], limit=180, stall=2.0)
        game = phones[0].page.get_attribute("#replay-link", "href") or ""
        story = httpx.get(f"{server.http}/api/games/{game.split('replay=')[1]}/story").json()
        seats = {name: story["players"].index(name) for name in NAMES}
        for phone in phones:
            seat = seats[phone.name]
            # The night steps this seat was alive for: each public wake before his death.
            expected: dict[int, int] = {}
            for event in story["events"]:
                if event["audience"] is not None:
                    continue
                if event["kind"] == "death" and event["data"]["player"] == seat:
                    break
                if event["kind"] == "wake":
                    expected[event["number"]] = expected.get(event["number"], 0) + 1
            buzzed: dict[int, int] = {}
            patterns = set()
            for night, title, pattern in phone.page.evaluate("window.__buzz"):
                if night:
                    number = int(re.search(r"\d+", title).group())  # type: ignore[union-attr]
                    buzzed[number] = buzzed.get(number, 0) + 1
                patterns.add(pattern)
            assert expected, phone.name
            assert buzzed == expected, (phone.name, buzzed, expected)
            assert len(patterns) == 1  # the same buzz on every phone, whoever acts
            tones = phone.page.evaluate("window.__tones")
            assert tones == (len(phone.page.evaluate("window.__buzz")) if phone is phones[1] else 0)
    finally:
        for phone in phones:
            with contextlib.suppress(Exception):
                phone.context.close()
