"""Lupusburg's table in the browser (issue 14, item 6): a whole game on five phone-sized
pages in a real Chromium, every player tapping the board itself (the houses, the seals,
the coins), with bets and both votings, and the board checked at the key moments: the
seat's own characters and chest for his eyes only, the seals in front of players, the
first voting's tokens, the suspects' paw print and tuft of fur, the secret second
voting, the scores at the end and over the match. Screenshots of the key screens go to
artifacts/web/lupusburg/."""

from __future__ import annotations

import contextlib
import random
import re
import time
from collections import Counter
from typing import Any

from server_harness import Server
from web_harness import ARTIFACTS, Phone, browser, join, open_room, playwright_api, start_game

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SHOTS = ARTIFACTS / "lupusburg"
HOUSE_VERBS = {"peek", "claw", "privilege", "show", "token", "ballot"}


def board(phone: Phone) -> dict[str, Any]:
    """What the phone's board shows, read in one go."""
    return dict(
        phone.page.evaluate(
            """() => {
      const board = document.querySelector('.lb-board');
      if (!board) return {stage: null};
      const houses = [...board.querySelectorAll('.lb-house')].map((tile) => {
        const character = tile.querySelector('.lb-character');
        const count = (sel) => Number(tile.querySelector(sel)?.dataset.count || 0);
        return {
          house: Number(tile.dataset.house),
          character: character.dataset.character || null,
          how: character.className,
          chest: Boolean(tile.querySelector('.lb-chest')),
          noChest: Boolean(tile.querySelector('.lb-no-chest')),
          dead: Boolean(tile.querySelector('.lb-dead')),
          tokens: count('.lb-tokens'),
          suspect: tile.querySelector('.lb-suspect')?.dataset.mark || null,
          ballots: count('.lb-ballot'),
          votes: tile.querySelector('.lb-votes') ? count('.lb-votes') : null,
          looked: Boolean(tile.querySelector('.lb-looked')),
          button: tile.tagName === 'BUTTON',
        };
      });
      const lots = [...board.querySelectorAll('.lb-lot')].map((lot) => ({
        seat: Number(lot.dataset.seat),
        seal: lot.querySelector('.lb-seal').innerText,
        used: lot.querySelector('.lb-seal').classList.contains('used'),
        target: lot.querySelector('.lb-seal').dataset.target ?? null,
        before: Number(lot.querySelector('.lb-before')?.dataset.count || 0),
        burgomaster: lot.classList.contains('burgomaster'),
      }));
      const rows = (sel, key) => [...board.querySelectorAll(sel)].map(
        (row) => [Number(row.dataset.seat), Number(row.dataset[key])]);
      const scores = rows('.lb-scores tbody tr', 'score');
      const match = rows('.lb-match tbody tr', 'total');
      return {stage: board.dataset.stage, day: Number(board.dataset.day), houses, lots,
              scores, match, text: board.innerText};
    }"""
        )
    )


SNAPSHOT = """() => {
  const board = document.querySelector('.lb-board');
  const buttons = [...document.querySelectorAll('.lb-board button[data-verb]')].map(
    (b) => ({verb: b.dataset.verb, enabled: !b.disabled, tile: b.classList.contains('lb-house')}));
  return {stage: board?.dataset.stage ?? null, day: Number(board?.dataset.day || 0), buttons,
          plain: document.querySelectorAll('.decide button.choice:enabled').length,
          finished: Boolean(document.querySelector('.end'))};
}"""
BOARD_BUTTONS = ".lb-board button[data-verb]"


class Table:
    """Taps through the game on every phone, the board's own buttons first (the tiles,
    the seals, the coins), the plain choices when the board has none. One look at each
    page per pass (``SNAPSHOT``), then one tap."""

    def __init__(self, phones: list[Phone], host: Phone) -> None:
        self.phones = phones
        self.host = host
        self.rng = random.Random(14)
        self.taps: Counter[str] = Counter()
        self.seen: dict[str, dict[str, Any]] = {}

    def tap(self, phone: Phone, snap: dict[str, Any]) -> bool:
        buttons = [(i, b) for i, b in enumerate(snap["buttons"]) if b["enabled"]]
        if not buttons:
            if not snap["plain"]:
                return False
            phone.page.locator(".decide button.choice:enabled").first.click(timeout=2000)
            self.taps["plain"] += 1
            return True
        verbs = {b["verb"] for _, b in buttons}
        if "bet" in verbs or ("pass" in verbs and "privilege" not in verbs):
            # Eve keeps her seal; everybody else bets on someone (the seal's button).
            wanted = "pass" if phone.name == "Eve" or "bet" not in verbs else "bet"
        elif "privilege" in verbs:
            wanted = "privilege"
        else:
            wanted = sorted(verbs)[0]
        index, _ = self.rng.choice([(i, b) for i, b in buttons if b["verb"] == wanted])
        phone.page.locator(BOARD_BUTTONS).nth(index).click(timeout=2000)
        self.taps[wanted] += 1
        return True

    def play(self, until: Any, each: Any = None, limit: float = 60.0) -> None:
        """Tap until ``until()`` says so (it may read ``self.seen``, each phone's last
        snapshot); ``each(phone, snapshot)`` looks at every phone first."""
        deadline = time.monotonic() + limit
        moved = time.monotonic()
        while time.monotonic() < deadline:
            # Every page is looked at before anybody taps: ``until`` sees one moment.
            for phone in self.phones:
                with contextlib.suppress(playwright_api.Error):
                    self.seen[phone.name] = phone.page.evaluate(SNAPSHOT)
            if len(self.seen) == len(self.phones) and until():
                return
            for phone in self.phones:
                with contextlib.suppress(playwright_api.Error):
                    snap = self.seen[phone.name]
                    if each is not None:
                        each(phone, snap)
                    if self.tap(phone, snap):
                        moved = time.monotonic()
            if time.monotonic() - moved > 10:
                close = self.host.page.query_selector("#close-step")
                if close is not None:
                    with contextlib.suppress(playwright_api.Error):
                        close.click(timeout=2000)
                        self.taps["closed"] += 1
                moved = time.monotonic()
            time.sleep(0.02)
        raise AssertionError("the game did not get there in time")


def test_a_lupusburg_game_with_bets_and_both_votings(server: Server) -> None:
    with browser() as chromium:
        phones = [Phone(chromium, server.http, name, SHOTS) for name in NAMES]
        host = phones[0]
        code = open_room(host, "lupusburg", len(phones), pace=0.2, spectators=True)
        for phone in phones[1:]:
            join(phone, code)
        host.page.wait_for_selector(f"text=At the table: {len(phones)} of {len(phones)}")
        start_game(host.page)
        for phone in phones:
            phone.page.wait_for_selector(".lb-board .lb-house")

        # The deal: each phone's own houses hold its characters, hidden until it shows
        # its card; every other house is unknown to it.
        dealt: list[str] = []
        for seat, phone in enumerate(phones):
            shown = board(phone)
            assert len(shown["houses"]) == 2 * len(phones)
            for tile in shown["houses"]:
                if tile["house"] // 2 == seat:
                    assert "secret" in tile["how"] and not tile["chest"], tile
                else:
                    assert "unknown" in tile["how"] and tile["character"] is None, tile
            phone.page.click(".reveal")
            shown = board(phone)
            own = [tile for tile in shown["houses"] if tile["house"] // 2 == seat]
            assert all("own" in tile["how"] and tile["character"] for tile in own), own
            assert sum(tile["chest"] for tile in own) == 1
            assert sum(tile["noChest"] for tile in own) == 1
            # The Werewolf and the Thief never live under the chest's house.
            assert all(tile["character"] == "townsfolk" for tile in own if tile["chest"])
            others = [tile for tile in shown["houses"] if tile["house"] // 2 != seat]
            assert all(t["character"] is None and not t["chest"] for t in others), others
            dealt += [tile["character"] for tile in own]
            if phone is host:
                host.shot("deal", of=".lb-board")
        assert Counter(dealt) == {"werewolf": 1, "thief": 1, "townsfolk": 8}
        names_on_board = [lot["seat"] for lot in board(host)["lots"]]
        assert names_on_board == list(range(len(phones)))

        table = Table(phones, host)
        shots: set[str] = set()

        def look(phone: Phone, snap: dict[str, Any]) -> None:
            """Screens of the key moments, once each."""
            verbs = {b["verb"] for b in snap["buttons"] if b["enabled"] and b["tile"]}
            key = None
            if any(b["verb"] == "keep" for b in snap["buttons"]):
                key = "coins"
            elif any(b["verb"] == "bet" for b in snap["buttons"]):
                key = "bet"
            elif "token" in verbs:
                key = "first-voting"
            elif "ballot" in verbs:
                key = "second-voting"
            elif verbs & {"claw", "peek", "privilege"}:
                key = sorted(verbs)[0]
            if key and key not in shots:
                shots.add(key)
                phone.shot(key, of=".lb-board")

        def day_one_over() -> bool:
            # (The board keeps the day's marks through the night, until the next day.)
            return all(
                s["stage"] in ("night", "over") and s["day"] >= 1 for s in table.seen.values()
            )

        table.play(day_one_over, each=look)

        # Day 1 is over on every phone (the board keeps its marks until the next day).
        seen = [board(phone) for phone in phones]
        cast: list[dict[int, int]] = []
        n = len(phones)
        for seat, (phone, mine) in enumerate(zip(phones, seen, strict=True)):
            houses = mine["houses"]
            # The first voting: every player laid two tokens, one per round.
            assert sum(tile["tokens"] for tile in houses) == 2 * n, houses
            # Two suspects, one with the paw print and one with the tuft of fur, the same
            # on every phone.
            marks = {tile["house"]: tile["suspect"] for tile in houses if tile["suspect"]}
            assert sorted(marks.values()) == ["fur", "paw"]
            assert marks == {t["house"]: t["suspect"] for t in seen[0]["houses"] if t["suspect"]}
            # The secret second voting: each phone shows its own ballots alone, on the
            # suspects, one per living unsuspected character of its own; the
            # revealed votes are every phone's secret ballots together.
            mine_cast = {t["house"]: t["ballots"] for t in houses if t["ballots"]}
            assert set(mine_cast) <= set(marks)
            unsuspected = [
                t for t in houses if t["house"] // 2 == seat and not t["dead"] and not t["suspect"]
            ]
            if not table.taps["closed"]:  # (a step the host closed may miss ballots)
                assert sum(mine_cast.values()) == len(unsuspected), (phone.name, houses)
            cast.append(mine_cast)
            votes = {t["house"]: t["votes"] for t in houses if t["votes"] is not None}
            assert set(votes) == set(marks)
            assert votes == {
                t["house"]: t["votes"] for t in seen[0]["houses"] if t["votes"] is not None
            }
            # The seals: everybody but Eve bet; each bet's seal lies in front of its
            # target; the coin under it is seen by its owner only.
            lots = mine["lots"]
            assert [lot["used"] for lot in lots] == [name != "Eve" for name in NAMES]
            for lot in lots:
                if lot["used"]:
                    coin = "coin face down" not in lot["seal"] and "coin hidden" not in lot["seal"]
                    assert coin == (lot["seat"] == seat or mine["stage"] == "over"), (
                        phone.name,
                        lot,
                    )
                else:
                    assert "Seal unused" in lot["seal"]
            targets = Counter(int(lot["target"]) for lot in lots if lot["used"])
            assert {lot["seat"]: lot["before"] for lot in lots if lot["before"]} == dict(targets)
            # Two characters are out of the game: the night's and the lynched one.
            assert sum(tile["dead"] for tile in houses) >= 2 or mine["stage"] == "over"
        everybody = Counter[int]()
        for mine_cast in cast:
            everybody.update(mine_cast)
        assert everybody == Counter(votes) and sum(votes.values()) > 0, (cast, votes)
        # The Burgomaster's privilege: the table saw him look at one house.
        looked = [t["house"] for t in seen[0]["houses"] if t["looked"]]
        if table.taps["privilege"]:
            assert len(looked) == 1
            assert all([t["house"] for t in s["houses"] if t["looked"]] == looked for s in seen)
        host.shot("after-day-1", of=".lb-board")

        table.play(lambda: all(s["finished"] for s in table.seen.values()), each=look)
        ends = [board(phone) for phone in phones]
        scores = ends[0]["scores"]
        assert len(scores) == n
        assert all(end["scores"] == scores for end in ends)
        assert max(score for _, score in scores) == scores[0][1]
        for end in ends:
            # Every character and chest is shown at the end, with every seal's coin.
            assert all(tile["character"] for tile in end["houses"])
            assert sum(tile["chest"] for tile in end["houses"]) == n
            assert "coin face down" not in end["text"] and "coin hidden" not in end["text"]
            # The match so far: this game alone.
            assert sorted(end["match"]) == sorted(scores)
            assert "Games played in this room: 1." in end["text"]
        # One player wins, by name and points: no side "lost" or "won".
        for phone in phones:
            result = phone.page.inner_text(".end")
            assert "Your side" not in result, result
            assert re.search(r"\w wins( with \d+ points)?\.", result), result
            assert re.search(r"You won!|You did not win this time\.", result), result
        host.shot("end")
        host.shot("end-board", of=".lb-board")
        phones[1].shot("end-scores", of=".lb-scores")

        # Play again: the match keeps the first game's points on this page.
        # ("Play again" goes back to the lobby, same seats; the host starts from there.)
        host.page.click("#again")
        host.page.wait_for_selector(".lobby #start")
        start_game(host.page)
        host.page.wait_for_selector(".lb-board[data-stage=night], .lb-board[data-stage=setup]")
        host.page.wait_for_function(
            "document.querySelector('.lb-match summary') !== null", timeout=10000
        )
        host.page.click(".lb-match summary")
        again = board(host)
        assert sorted(again["match"]) == sorted(scores)
        assert "Games played in this room: 1." in again["text"]
        host.shot("match", of=".lb-match")
        # A page arriving now (a spectator) is told the match too: the lobby keeps it.
        late = Phone(chromium, server.http, "Sam", ARTIFACTS / "lupusburg")
        late.goto(f"/?room={code}")
        late.page.click("text=Watch")
        late.page.wait_for_function(
            "document.querySelector('.lb-match summary') !== null", timeout=10000
        )
        late.page.click(".lb-match summary")
        assert sorted(board(late)["match"]) == sorted(scores)
        for phone in phones:
            assert not phone.errors, phone.errors


CAPTURE = """(() => {
  // The latest view frame the page was sent, kept beside the page's own handler (which
  // is added later, so runs after this one: the board drawn from it follows at once).
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const frame = JSON.parse(event.data);
        if (frame.type === 'view') window.lastView = frame;
      });
    }
  };
})();"""

SHOWN = """() => {
  const frame = window.lastView || null;
  const board = document.querySelector('.lb-board');
  if (!frame || !board) return {frame, board: null};
  const count = (tile, sel) => tile.querySelector(sel)
    ? Number(tile.querySelector(sel).dataset.count || 0) : null;
  const houses = [...board.querySelectorAll('.lb-house')].map((tile) => ({
    house: Number(tile.dataset.house),
    tokens: count(tile, '.lb-tokens') || 0,
    suspect: tile.querySelector('.lb-suspect')?.dataset.mark || null,
    votes: count(tile, '.lb-votes'),
    ballots: count(tile, '.lb-ballot') || 0,
    looked: Boolean(tile.querySelector('.lb-looked')),
    claw: Boolean(tile.querySelector('.lb-claw')),
    dead: Boolean(tile.querySelector('.lb-dead')),
    character: tile.querySelector('.lb-character').dataset.character || null,
  }));
  const lots = [...board.querySelectorAll('.lb-lot')].map((lot) => ({
    seat: Number(lot.dataset.seat),
    target: lot.querySelector('.lb-seal').dataset.target ?? null,
    burgomaster: lot.classList.contains('burgomaster'),
  }));
  return {frame, board: {stage: board.dataset.stage, day: Number(board.dataset.day), houses,
          lots, bag: board.querySelector('.lb-bag')?.innerText || ''}};
}"""


def differences(frame: dict[str, Any], shown: dict[str, Any], opened: bool) -> list[str]:
    """Where the drawn board says other than the view it was drawn from: the public
    board (``view.public.board``), the houses and titles (``view.public``) and what the
    seat alone knows (``view.own``)."""
    public, own = frame["public"], frame["own"]
    board, found = public["board"], []
    if (shown["stage"], shown["day"]) != (board["stage"], board["day"]):
        found.append(f"stage {shown['stage']}/{shown['day']} for {board['stage']}/{board['day']}")
    suspects = {house: mark for house, mark in zip(board["suspects"], ("paw", "fur"), strict=False)}
    votes = board["votes"] or {}
    deaths = {h["house"]: h["death"] for p in public["players"] for h in p["houses"]}
    for tile in shown["houses"]:
        house = tile["house"]
        expected = {
            "tokens": len(board["tokens"].get(str(house), [])),
            "suspect": suspects.get(house),
            "votes": votes.get(str(house)),
            "ballots": own["ballots"].get(str(house), 0),
            "looked": board["looked"] == house,
            "claw": own["claw"] == house or board["slaughtered"] == house,
            "dead": deaths[house] is not None,
        }
        mine = own["characters"].get(str(house))
        if opened and mine is not None:
            expected["character"] = mine["character"]
        drawn = {key: tile[key] for key in expected}
        if drawn != expected:
            found.append(f"house {house}: {drawn} for {expected}")
    bets = (
        board["bets"]
        if public["end"] is None
        else {seat: bet[0] for seat, bet in public["end"]["bets"].items()}
    )
    holder = [p["seat"] for p in public["players"] if "burgomaster" in p["titles"]]
    for lot in shown["lots"]:
        target = bets.get(str(lot["seat"]))
        if lot["target"] != (None if target is None else str(target)):
            found.append(f"seat {lot['seat']}'s seal on {lot['target']} for {target}")
        if lot["burgomaster"] != (lot["seat"] in holder):
            found.append(f"seat {lot['seat']} Burgomaster: {lot['burgomaster']}")
    hand = own["drawn"]
    bag = board["bag"] - (len(hand) - 1 if hand else 0)
    if not shown["bag"].startswith(f"The bag: {bag} of {len(board['coins'])} coins"):
        found.append(f"the bag {shown['bag']!r} for {bag}")
    return found


def test_the_board_shows_what_the_view_says(server: Server) -> None:
    """One person at a table of bots: at every moment of a whole game his board is
    the view he was last sent, drawn (``view.public.board``, ``view.public``'s houses
    and Burgomaster, ``view.own``), with nothing read again from the events."""
    with browser() as chromium:
        phone = Phone(chromium, server.http, "Ann", SHOTS)
        phone.context.add_init_script(CAPTURE)
        open_room(phone, "lupusburg", 5, pace=0.1)
        start_game(phone.page)
        phone.page.wait_for_selector(".lb-board .lb-house")
        phone.page.click(".reveal")  # (his own characters are on screen from now on)
        # His card: his two characters and his chest, as his own part of the board says.
        card = phone.page.evaluate(
            """() => ({own: window.lastView.own,
                       houses: [...document.querySelectorAll('#role-card .house')].map(
                         (row) => [row.querySelector('strong').innerText,
                                   Boolean(row.querySelector('.tag'))])})"""
        )
        own = card["own"]
        mine = sorted(int(h) for h, told in own["characters"].items() if told["how"] == "own")
        assert mine == [2 * own["seat"], 2 * own["seat"] + 1], own
        chests = [own["chests"][str(h)]["chest"] for h in mine]
        assert [has for _, has in card["houses"]] == chests and sum(chests) == 1, card
        assert all(name for name, _ in card["houses"]), card
        table = Table([phone], phone)
        stages: Counter[str] = Counter()

        def compare(_: Phone, snap: dict[str, Any]) -> None:
            problems: list[str] = []
            for _attempt in range(20):  # (a frame may come between the two looks)
                seen = phone.page.evaluate(SHOWN)
                if seen["board"] is None:
                    return
                problems = differences(seen["frame"], seen["board"], True)
                if not problems:
                    stages[seen["board"]["stage"]] += 1
                    return
                time.sleep(0.05)
            raise AssertionError(problems)

        table.play(lambda: table.seen["Ann"]["finished"], each=compare, limit=120.0)
        compare(phone, {})
        assert {"betting", "first_voting", "over"} <= set(stages), stages
        assert not phone.errors, phone.errors
