"""The tournament report (lupus.ai.report) of real self-played games."""

from __future__ import annotations

import html
import json
import random
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import pytest
from tests.test_ai_llm import card_words

from lupus.ai.llm.talk import Line
from lupus.ai.played import Cost, Played
from lupus.ai.report import build, write_report
from lupus.ai.report.arena import arena
from lupus.ai.report.ratings import Match, rate
from lupus.ai.report.seats import seats_of, village
from lupus.engine.game import Game
from lupus.scenario import parse, replay, setup
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import Table, play
from lupus.sim.stats import wilson

pytest.importorskip("openskill")
pytest.importorskip("matplotlib")

WOLVES_HEURISTIC = {"werewolves": "heuristic", "villagers": "random"}
VILLAGE_HEURISTIC = {"werewolves": "random", "villagers": "heuristic"}


def played_games(config: SimConfig, indices: range) -> list[Played]:
    table = Table(config)
    out = []
    for i in indices:
        game, _ = play(table, i)
        kinds = tuple(
            config.bots.get(side, config.bots.get("*", "random")) for side in game.sides_dealt()
        )
        out.append(Played(i, game, kinds))
    return out


def tournament() -> tuple[SimConfig, list[Played]]:
    """40 games of 8: 20 with heuristic werewolves against random villagers, 20 the
    other way round; game 0 with a made-up model's cost, a fallback and a line."""
    first = SimConfig("werewolf", 8, bots=WOLVES_HEURISTIC, seed=3)
    second = SimConfig("werewolf", 8, bots=VILLAGE_HEURISTIC, seed=3)
    played = played_games(first, range(20)) + played_games(second, range(20, 40))
    p = played[0]
    cost = Cost(
        decisions=10, calls=12, cached=2, tokens=5000, seconds=3.5, fallbacks=Counter(bad=1)
    )
    line = Line(0, "day", 1, "<b>I am no wolf</b>", None)
    played[0] = Played(p.index, p.game, p.kinds, frozenset({1}), (line,), cost)
    return first, played


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[SimConfig, list[Played], Path]:
    config, played = tournament()
    folder = tmp_path_factory.mktemp("report")
    write_report(folder, config, played, price=2.0)
    return config, played, folder


def test_the_report_has_every_file(run: tuple[SimConfig, list[Played], Path]) -> None:
    _, played, folder = run
    for name in ("report.md", "report.json", "games.jsonl", "games/index.html"):
        assert (folder / name).stat().st_size > 0, name
    for name in ("wins", "roles", "kinds", "ratings", "role_ratings"):
        assert (folder / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    lines = (folder / "games.jsonl").read_text().splitlines()
    assert [json.loads(x)["index"] for x in lines] == [p.index for p in played]
    first = json.loads(lines[0])
    assert first["scenario"] == played[0].game.to_scenario()
    assert first["fallbacks"] == [1] and first["lines"][0]["text"] == "<b>I am no wolf</b>"
    # the scenario replays to the very game
    assert replay(parse(first["scenario"])).game.outcome == played[0].game.outcome
    index = (folder / "games/index.html").read_text()
    for p in played:
        assert (folder / f"games/{p.index}.html").exists()
        assert f'href="{p.index}.html"' in index
    report = (folder / "report.md").read_text()
    assert report.count("\n| ") > 30 and "IRP" in report


def test_rates_agree_with_a_direct_count(run: tuple[SimConfig, list[Played], Path]) -> None:
    _, played, folder = run
    report = json.loads((folder / "report.json").read_text())
    wolves = sum(1 for p in played if p.game.outcome and p.game.outcome.winner == "werewolves")
    row = report["sides"]["werewolves"]
    assert (row["hits"], row["count"]) == (wolves, 40)
    assert row["ci95"] == list(wilson(wolves, 40))
    heuristic = [
        s in p.game.outcome.winners
        for p in played
        for s in range(8)
        if p.kinds[s] == "heuristic" and p.game.outcome
    ]
    row = report["kinds"]["heuristic"]
    assert (row["hits"], row["count"]) == (sum(heuristic), len(heuristic))
    assert row["ci95"] == list(wilson(sum(heuristic), len(heuristic)))
    alive = sum(
        p.game.alive[s]
        for p in played
        for s in range(8)
        if seats_of(p.game.rulebook, p)[s].role == "seer"
    )
    assert report["survival"]["seer"]["hits"] == alive
    assert report["fallbacks"]["replaced"] == 1 and report["fallbacks"]["reasons"] == {"bad": 1}
    assert report["cost"]["tokens"] == 5000 and report["cost"]["cost"] == pytest.approx(0.01)
    assert report["ratings"]["heuristic"]["games"] == report["rated_games"]
    # the heuristic bot, which wins most of its seats against the random one, rates higher
    assert report["ratings"]["heuristic"]["ordinal"] > report["ratings"]["random"]["mu"]
    assert report["per_game"][0] == {
        "index": 0,
        "tokens": 5000,
        "seconds": 3.5,
        "calls": 12,
        "decisions": 10,
        "replaced": 1,
    }


def test_a_kind_that_always_wins_is_rated_higher() -> None:
    rng = random.Random(7)
    matches = []
    for _ in range(60):
        seats = list(range(6))
        rng.shuffle(seats)
        matches.append(
            Match(tuple((s, "strong") for s in seats[:2]), tuple((s, "weak") for s in seats[2:]))
        )
    rated = rate(matches)
    assert rated["strong"]["mu"] > rated["weak"]["mu"] + 5
    assert rated["strong"]["ordinal"] > rated["weak"]["ordinal"]
    assert rated["strong"]["games"] == 60


def test_seat_order_alone_does_not_set_the_kinds_apart() -> None:
    """Seat 0's team always wins; kind A sits there three games in four. Equal kinds:
    uncontrolled, A is credited for the seat; controlled, hardly."""
    rng = random.Random(1)
    matches = []
    for _ in range(300):
        lucky, other = ("A", "B") if rng.random() < 0.75 else ("B", "A")
        matches.append(Match(((0, lucky), (1, lucky)), ((2, other), (3, other))))
    raw = rate(matches, control=False)
    net = rate(matches)
    raw_gap = raw["A"]["mu"] - raw["B"]["mu"]
    net_gap = abs(net["A"]["mu"] - net["B"]["mu"])
    assert raw_gap > 4
    assert net_gap < raw_gap / 3 and net_gap < net["A"]["sigma"]


def expected_arena(game: Game, kinds: tuple[str, ...]) -> dict[str, float]:
    """Game Arena's IRP, VSS and KSR of one werewolf game, counted from its events."""
    sides = game.sides_dealt()
    good = [s for s in range(game.n) if sides[s] == "villagers"]
    dealt = {ev.data["player"]: ev.data["role"] for ev in game.events if ev.kind == "role_dealt"}
    ballots = [
        (ev.number, ev.data["player"], ev.data["target"])
        for ev in game.events
        if ev.kind == "ballot" and ev.data["vote"] == "vote" and ev.data["target"] is not None
    ]
    wolf_exiled = {
        ev.number: ev.data["player"]
        for ev in game.events
        if ev.kind == "death"
        and ev.data["cause"] == "vote"
        and sides[ev.data["player"]] == "werewolves"
    }
    mine = [(d, v, t) for d, v, t in ballots if v in good]
    irp = [sides[t] == "werewolves" for _, _, t in mine]
    vss = [t == wolf_exiled[d] for d, _, t in mine if d in wolf_exiled]
    keys = [s for s in range(game.n) if dealt[s] not in ("villager", "werewolf")]
    ksr = [game.alive[s] for s in keys]
    return {
        "irp": sum(irp) / len(irp) if irp else 0.0,
        "vss": sum(vss) / len(vss) if vss else 0.0,
        "ksr": sum(ksr) / len(ksr) if ksr else 0.0,
        "irp_count": len(irp),
        "vss_count": len(vss),
    }


def test_game_arena_metrics_of_small_games() -> None:
    config = SimConfig("werewolf", 8, bots={"*": "heuristic"}, seed=11)
    book = config.book
    side, keys = village(book)
    assert side == "villagers" and "seer" in keys and "witch" in keys and "villager" not in keys
    checked = 0
    for p in played_games(config, range(6)):
        want = expected_arena(p.game, p.kinds)
        got = arena([p], [seats_of(book, p)], side, keys)["*"]
        assert isinstance(got, Mapping)
        assert (
            got["irp"]["p"] == pytest.approx(want["irp"])
            and got["irp"]["count"] == want["irp_count"]
        )
        assert (
            got["vss"]["p"] == pytest.approx(want["vss"])
            and got["vss"]["count"] == want["vss_count"]
        )
        assert got["ksr"]["p"] == pytest.approx(want["ksr"])
        checked += want["vss_count"] > 0
    assert checked  # some game exiled a werewolf


@pytest.mark.parametrize(
    ("rules", "players"), [("tit-albert", 8), ("maffia", 8), ("mafia-classic", 7), ("lupusburg", 5)]
)
def test_every_rulebook_has_a_report(rules: str, players: int, tmp_path: Path) -> None:
    config = SimConfig(rules, players, bots={"*": "heuristic"}, seed=2)
    played = played_games(config, range(6))
    write_report(tmp_path, config, played)
    report = json.loads((tmp_path / "report.json").read_text())
    assert sum(row["hits"] for row in report["sides"].values()) == 6
    assert report["ratings"]["heuristic"]["games"] == report["rated_games"]
    if rules == "lupusburg":
        assert report["village"] == {"side": "townsfolk", "key_roles": ["thief"]}
        assert "points" in report["roles"]["werewolf"]
    assert (tmp_path / "games/5.html").exists()


def sections(page: str) -> list[str]:
    return re.findall(r'<section id="seat\d+">(.*?)</section>', page, re.S)


SENTENCE = re.compile(r"(?<=[.!?])\s+")


def after_names(text: str, names: tuple[str, ...]) -> list[tuple[int, str]]:
    """Each player named in ``text``, with what follows his name up to the next name."""
    pattern = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    found = list(re.finditer(rf"(?<!\w)(?:{pattern})(?!\w)", text))
    return [
        (
            names.index(m.group()),
            text[m.end() : found[i + 1].start() if i + 1 < len(found) else None],
        )
        for i, m in enumerate(found)
    ]


def assert_pages_keep_secrets(config: SimConfig, played: list[Played], folder: Path) -> None:
    """No seat's section names another seat's card next to his name unless the seat
    knew it (its views' known roles, replayed independently here)."""
    words = card_words(config.book)
    for p in played:
        game = p.game
        seats = seats_of(config.book, p)
        known: list[set[int]] = [set() for _ in range(game.n)]
        again = setup(parse(game.to_scenario()))
        for action in game.history:
            if action.actor >= 0:
                known[action.actor] |= set(again.seen(action.actor).known_roles())
            again.apply(action)
        page = (folder / f"games/{p.index}.html").read_text()
        assert len(sections(page)) == game.n
        for seat, section in enumerate(sections(page)):
            for sentence in re.findall(r'<div class="saw">(.*?)</div>', section):
                for text in SENTENCE.split(html.unescape(sentence)):
                    for other, told in after_names(text, game.names):
                        if other != seat and other not in known[seat]:
                            assert not words[seats[other].role].search(told), (p.index, seat, text)


def test_replay_pages_show_each_seat_only_what_it_saw(
    run: tuple[SimConfig, list[Played], Path], tmp_path: Path
) -> None:
    config, played, folder = run
    assert_pages_keep_secrets(config, played[:8], folder)
    first = sections((folder / "games/0.html").read_text())[0]
    assert "&lt;b&gt;I am no wolf&lt;/b&gt;" in first
    # the action the fallback took (history position 1) is marked, and no other
    marked = (folder / "games/0.html").read_text().count('class="fallback"')
    assert marked == 1
    actor = played[0].game.history[1].actor
    assert 'class="fallback"' in sections((folder / "games/0.html").read_text())[actor]
    maffia = SimConfig("maffia", 8, bots={"*": "heuristic"}, seed=4)
    games = played_games(maffia, range(4))
    write_report(tmp_path, maffia, games)
    assert_pages_keep_secrets(maffia, games, tmp_path)


def renamed(game: Game, names: list[str]) -> Game:
    """The same game with other players' names (a scenario's names replaced)."""
    old = dict(zip(game.names, names, strict=True))

    def swap(value: object) -> object:
        if isinstance(value, str):
            return old.get(value, value)
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {old.get(k, k): swap(v) for k, v in value.items()}
        return value

    scenario = swap(game.to_scenario())
    return replay(parse(scenario)).game


def test_names_are_escaped(tmp_path: Path) -> None:
    config = SimConfig("werewolf", 8, bots={"*": "heuristic"}, seed=5)
    [p] = played_games(config, range(1))
    names = ["<b>Ann</b>", "Bob & Co", "Cid", "Dee", "Eve", "Fay", "Gus", '"Hal"']
    game = renamed(p.game, names)
    assert game.outcome == p.game.outcome
    write_report(tmp_path, config, [Played(0, game, p.kinds)])
    page = (tmp_path / "games/0.html").read_text()
    assert "<b>Ann</b>" not in page and "&lt;b&gt;Ann&lt;/b&gt;" in page
    assert "Bob &amp; Co" in page
    assert "<script" not in page and "http" not in page


def test_the_same_games_give_the_same_bytes(tmp_path: Path) -> None:
    config = SimConfig("werewolf", 8, bots=WOLVES_HEURISTIC, seed=9)
    played = played_games(config, range(8))
    write_report(tmp_path / "a", config, played, price=1.5)
    write_report(tmp_path / "b", config, played_games(config, range(8)), price=1.5)
    files = sorted(
        p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file()
    )
    assert len(files) > 10
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    assert build(config, played) == build(config, list(reversed(played)))
