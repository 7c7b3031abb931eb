"""Every count of every command-line command, and of the room API, swept as a hostile
user would (Hypothesis): refused at once, with one line ``lupus: ...`` on stderr and
exit status 1, before any game is played, any composition listed or any process pool
started; and nothing left behind (no plot written, no room opened). No command reports
success on zero work. The limits are in ``lupus.engine.limits`` (docs/architecture.md,
"Limits").
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from lupus import SetupError
from lupus.cli import app
from lupus.engine.limits import (
    MAX_CARDS,
    MAX_GAMES,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MAX_SEED,
    MAX_TOP,
    MAX_WORKERS,
)
from server_harness import Server, running

runner = CliRunner()
SWEEP = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
PLOT = Path(tempfile.mkdtemp(prefix="lupus-bounds-")) / "never.png"
"""A plot a refused ``balance`` must not write."""


def invoke(args: list[str], seconds: float = 2.0) -> tuple[int, str, str]:
    """Run the command in this process; it must end within ``seconds``."""
    box: list[tuple[int, str, str]] = []

    def run() -> None:
        result = runner.invoke(app, args, input="")
        box.append((result.exit_code, result.stdout, result.stderr))

    started = time.perf_counter()
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert box, f"{args[:4]}: no answer after {seconds} s"
    assert time.perf_counter() - started < seconds
    return box[0]


def refused(args: list[str]) -> str:
    """The one line a refused command prints, at once, with exit status 1."""
    code, out, err = invoke(args)
    assert code == 1, (args[:6], code, out[-300:], err[-300:])
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lupus: "), err[-500:]
    assert len(lines[0]) <= 1000 + len("lupus: ")
    assert "Traceback" not in err
    assert not PLOT.exists()
    return lines[0]


@pytest.fixture(autouse=True, scope="module")
def warm() -> Iterator[None]:
    """Load the rulebooks and the commands once, so that timing measures the check."""
    invoke(["simulate", "--games", "0"], seconds=60)
    invoke(["balance", "--games", "0", "--rules", "lupusburg"], seconds=60)
    yield


def number_text(low: int, high: int) -> st.SearchStrategy[str]:
    """Text for an integer option that is not a number from ``low`` to ``high``."""
    return st.one_of(
        st.integers(max_value=low - 1).map(str),
        st.integers(min_value=high + 1).map(str),
        st.sampled_from([10**12, 10**100, 10**10]).filter(lambda n: n > high).map(str),
    )


# ----------------------------------------------------------------- simulate

SIMULATE: dict[str, st.SearchStrategy[str]] = {
    "--games": number_text(1, MAX_GAMES),
    "--players": number_text(3, 30),
    "--workers": number_text(1, MAX_WORKERS),
    "--seed": number_text(0, MAX_SEED),
    "--roles": st.one_of(
        st.builds(lambda n: f"werewolf={n},villager=6", number_text(0, MAX_CARDS)),
        st.builds(lambda n: f"werewolf=2,villager={n}", st.integers(-(10**6), 0).map(str)),
        st.sampled_from(
            [
                "werewolf=2,mayor=1,villager=5",
                "werewolf=2.0,villager=6",
                "werewolf=two",
                "werewolf=1,villager=1",
                "werewolf=2,villager=60",
                ",".join(f"r{i}=1" for i in range(70)),
                "werewolf=2,villager=" + "9" * 5000,
                "=3",
            ]
        ),
    ),
    "--bots": st.sampled_from(["foo", "werewolves=foo", "wolves=random", "x" * 2000, ""]),
    "--backend": st.sampled_from(["threads", "", "ray2"]),
    "--option": st.sampled_from(
        ["lift_minimum=1", "lift_minimum", "nope=true", "little_girl_catch_chance=NaN"]
    ),
}


@SWEEP
@given(data=st.data())
def test_simulate_refuses_every_bad_count_at_once(data: st.DataObject) -> None:
    """``--games 10**12`` died of MemoryError; ``--games 0`` reported success."""
    name = data.draw(st.sampled_from(sorted(SIMULATE)))
    value = data.draw(SIMULATE[name])
    extra = ["--option", "lift_minimum=true"] if name == "--roles" else []
    refused(["simulate", "--workers", "1", "--games", "5", *extra, name, value])


def test_simulate_refuses_too_many_options() -> None:
    options = [arg for i in range(MAX_OPTIONS + 1) for arg in ("--option", f"o{i}=1")]
    refused(["simulate", "--games", "5", *options])


# ----------------------------------------------------------------- balance

BALANCE: dict[str, st.SearchStrategy[str]] = {
    "--games": number_text(1, MAX_GAMES),
    "--top": number_text(1, MAX_TOP),
    "--workers": number_text(1, MAX_WORKERS),
    "--seed": number_text(0, MAX_SEED),
    "--players": st.one_of(
        st.builds(lambda n: f"8-{n}", number_text(1, 30).filter(lambda t: not t.startswith("-"))),
        st.builds(lambda n: f"{n},8", number_text(3, 30).filter(lambda t: not t.startswith("-"))),
        st.sampled_from(
            [
                "8-10000000000",
                "30,31",
                "29-31",
                "2,8",
                "12-8",
                "eight",
                "8-",
                "-8",
                "",
                ",",
                "８",
                "+8",
                "8_0",
                ",".join(["8"] * 600),
            ]
        ),
    ),
    "--pack": st.one_of(
        st.builds(lambda n: f"1-{n}", number_text(1, MAX_PLAYERS).filter(lambda t: t[0] != "-")),
        st.sampled_from(["1-999999999", "0", "0-2", "3-1", "-", "", "two", "1-2-3", "x" * 5000]),
    ),
    "--bots": st.sampled_from(["foo", "villagers=foo", "wolves=random"]),
    "--option": st.sampled_from(["lift_minimum=1", "nope=true"]),
}


@SWEEP
@given(data=st.data())
def test_balance_refuses_every_bad_count_before_it_plays(data: st.DataObject) -> None:
    """``--players 8-10000000000`` died of MemoryError, ``--pack 1-999999999`` never
    returned, ``--players 30,31`` played every 30-player game before refusing 31."""
    name = data.draw(st.sampled_from(sorted(BALANCE)))
    value = data.draw(BALANCE[name])
    args = ["balance", "--games", "3", "--workers", "1", "--plot", str(PLOT)]
    refused([*args, "--players", "30", "--option", "lift_minimum=true", name, value])


def test_balance_exits_1_when_nothing_could_be_played(tmp_path: Path) -> None:
    """No success on zero work: every composition refused prints no table of 0 games
    (three players with a pack of five Tit Albert: five and more are refused, and this
    copy of the rulebook recommends nothing: the shipped one has a deck for every
    size)."""
    text = (Path(__file__).parent.parent / "src/lupus/rulebooks/tit-albert.toml").read_text("utf-8")
    start = text.index("[compositions]")
    bare = tmp_path / "bare.toml"
    bare.write_text(text[:start] + text[text.index("\n[", start) + 1 :], "utf-8")
    message = refused(
        [
            "balance",
            "--rules",
            str(bare),
            "--players",
            "3",
            "--pack",
            "5",
            "--games",
            "3",
            "--workers",
            "1",
        ]
    )
    assert "no composition could be played" in message


# ----------------------------------------------------------------- play and serve

PLAY: dict[str, st.SearchStrategy[str]] = {
    "--players": number_text(3, 30),
    "--seat": number_text(1, 8),
    "--seed": number_text(0, MAX_SEED),
    "--bots": st.sampled_from(["foo", "", "x" * 3000]),
}


@SWEEP
@given(data=st.data())
def test_play_refuses_every_bad_value_before_dealing(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(PLAY)))
    refused(["play", name, data.draw(PLAY[name])])


@pytest.mark.parametrize(
    "args",
    [
        ["--port", "70000"],
        ["--port", "-1"],
        ["--log-level", "loud"],
        ["--host", "h" * 2000],
        ["--database", "/nonexistent/lupus.db"],
        ["--database", "d" * 300 + ".db"],
    ],
)
def test_serve_refuses_a_bad_value_before_it_listens(args: list[str]) -> None:
    refused(["serve", *args])


@pytest.mark.parametrize("plot", ["/nonexistent/plot.png", "z" * 300 + ".png"])
def test_a_plot_that_cannot_be_written_is_refused_before_the_search(plot: str) -> None:
    """It was written at the end, after every game, and a bad path was a traceback."""
    assert "--plot" in refused(["balance", "--plot", plot, "--games", "3", "--workers", "1"])


def test_the_terminal_reads_a_menu_number_of_any_length() -> None:
    """``int`` refuses 4,300 digits, and ``"²"`` is a digit to ``isdigit``."""
    from lupus.terminal import play

    answers = iter(["9" * 5000, "²", "-1", "", None])
    said: list[str] = []
    game = play("werewolf", 8, 0, lambda _: next(answers), said.append, seed=1)
    assert not game.finished and len(said) > 3


# ----------------------------------------------------------------- paths


@pytest.mark.parametrize("length", [300, 5_000])
def test_a_path_too_long_for_the_system_is_one_line(length: int, tmp_path: Path) -> None:
    """``lupus replay`` of a scenario naming such a rulebook gave a traceback, and so did
    ``rules PATH`` and ``--rules PATH``."""
    path = "p" * (length - 5) + ".toml"
    refused(["rules", path])
    refused(["replay", "q" * (length - 5) + ".json"])
    for command in ("simulate", "balance", "play"):
        refused([command, "--rules", path])
    scenario = tmp_path / "game.json"
    scenario.write_text(json.dumps({"rules": path, "players": ["Ann", "Bob", "Cid"]}))
    refused(["replay", str(scenario)])


# ----------------------------------------------------------------- the real command


def test_the_real_command_refuses_at_once_in_its_own_process() -> None:
    """The installed command, as a user runs it: no MemoryError, no endless search."""
    for args in (
        ["simulate", "--games", str(10**12)],
        ["balance", "--pack", "1-999999999", "--players", "8", "--games", "3"],
        ["balance", "--players", "30,31", "--games", "3"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "lupus", *args],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert done.returncode == 1, (args, done.stderr[-500:])
        assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_good_values_still_run() -> None:
    """The sweeps refuse only what is wrong."""
    code, out, err = invoke(
        ["simulate", "--games", "3", "--workers", "1", "--json", "--seed", str(MAX_SEED)], 60
    )
    assert code == 0, err
    assert json.loads(out)["games"] == 3


# ----------------------------------------------------------------- library ways in


def test_the_simulator_and_the_search_check_their_arguments_first() -> None:
    from lupus.sim import SimConfig, simulate
    from lupus.sim import balance as bal

    config = SimConfig("werewolf", 8)
    for games, workers in ((0, 1), (10**12, 1), (5, 0), (5, 10**6), (True, 1), (5.0, 1)):
        with pytest.raises(SetupError):
            simulate(config, games, workers=workers)  # type: ignore[arg-type]
    with pytest.raises(SetupError):
        simulate(SimConfig("werewolf", 8, bots={"*": "nobody"}), 5)
    with pytest.raises(SetupError):
        simulate(SimConfig("werewolf", 8, seed=-1), 5)
    started = time.perf_counter()
    for kwargs in (
        {"players": [30, 31]},
        {"players": [8], "pack": (1, 10**9)},
        {"players": [8], "eta": 1},
        {"players": range(10**12)},
        {"players": [8], "games": 0},
        {"players": [8.0]},
    ):
        with pytest.raises(SetupError):
            bal.search("werewolf", **{"games": 3, **kwargs})  # type: ignore[arg-type]
    assert time.perf_counter() - started < 2


# ----------------------------------------------------------------- the room API


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real ``lupus serve`` for this module's room requests."""
    with running(tmp_path_factory.mktemp("bounds") / "lupus.db") as started:
        yield started


def open_room(server: Server, body: dict[str, object]) -> httpx.Response:
    return httpx.post(f"{server.http}/api/rooms", json=body, timeout=10)


def rooms(server: Server) -> int:
    return int(httpx.get(f"{server.http}/healthz", timeout=10).json()["rooms"])


ROOM_COMPOSITIONS = st.one_of(
    st.dictionaries(
        st.sampled_from(["werewolf", "villager", "seer"]),
        st.one_of(st.integers(max_value=-1), st.integers(min_value=MAX_CARDS + 1)),
        min_size=1,
        max_size=3,
    ),
    st.just({"werewolf": 9_999_999_999, "villager": 6}),
    st.just({"werewolf": True, "villager": 7}),
    st.just({"werewolf": 2.0, "villager": 6}),
    st.just({"werewolf": "2", "villager": 6}),
    st.just({"w" * 500: 1}),
    st.just({f"r{i}": 0 for i in range(100)}),
    st.just({"werewolf": 200, "villager": 200}),
    st.just({"ghost": 8}),
)


@SWEEP
@given(composition=ROOM_COMPOSITIONS)
def test_a_room_with_bad_card_counts_is_refused_at_once(
    server: Server, composition: object
) -> None:
    """A host's counts went straight to the dealer: 100 bytes stalled every room and
    added 150 MB; negative counts were accepted."""
    before = rooms(server)
    started = time.perf_counter()
    answer = open_room(server, {"rules": "werewolf", "players": 8, "composition": composition})
    assert time.perf_counter() - started < 1
    assert answer.status_code == 400, answer.text
    assert len(answer.json()["message"]) <= 400
    assert rooms(server) == before  # no room was opened


@pytest.mark.parametrize(
    "change",
    [
        {"seed": -1},
        {"seed": 2**64},
        {"pace": True},
        {"bot_delay": "1"},
        {"options": {f"o{i}": True for i in range(MAX_OPTIONS + 1)}},
        {"options": {"lift_minimum": "y" * 1000}},
        {"timers": {"steps": {f"s{i}": 5 for i in range(MAX_OPTIONS + 1)}}},
        {"timers": {"night": True}},
        {"players": 41},
        {"names": ["n" * 100] * 8, "mode": "leader"},
    ],
)
def test_every_room_setting_has_a_bound(server: Server, change: dict[str, object]) -> None:
    answer = open_room(server, {"rules": "werewolf", "players": 8, **change})
    assert answer.status_code == 400, answer.text
    assert len(answer.json()["message"]) <= 400


def test_a_good_room_still_opens(server: Server) -> None:
    composition = {"werewolf": 2, "villager": 5, "seer": 1}
    answer = open_room(server, {"rules": "werewolf", "players": 8, "composition": composition})
    assert answer.status_code == 201, answer.text
