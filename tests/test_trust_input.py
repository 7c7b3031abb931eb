"""The engine as a trust boundary: what strangers type is refused cleanly, never crashes.

Names are text a person typed (one shared check for every family, see
``lupus.engine.names``); options are checked by exact type and value; scenario files and
rulebook files that are not what they claim give exit status 1 and one line on stderr,
never a traceback. The rules are documented in docs/scenarios.md ("Names, limits and
errors").
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import unicodedata
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from lupus import scenario as sc
from lupus.cli import app
from lupus.engine.errors import RulebookError, SetupError
from lupus.engine.game import Game
from lupus.engine.names import MAX_NAME_LENGTH, name_key
from lupus.engine.options import resolve_options
from lupus.families import new_game
from lupus.rulebooks import available, load, load_file
from lupus.rulebooks.facts import memos
from lupus.rulebooks.schema import OptionSpec

runner = CliRunner()
LIFTED: dict[str, Any] = {"lift_minimum": True}
F, W, T = "townsfolk", "werewolf", "thief"


def village(names: Sequence[str]) -> Game:
    """A werewolf game (house rules: any table from 3) for these names."""
    roles = ["werewolf", "seer", *["villager"] * (len(names) - 2)][: len(names)]
    return new_game("werewolf", names, roles, options=LIFTED)


def lupusburg(names: Sequence[str]) -> Game:
    n = len(names)
    characters = [[F, W], [T, F]] + [[F, F]] * (n - 2)
    return new_game(
        "lupusburg", names, characters=characters[:n], chests=([1, 2] + [1] * (n - 2))[:n]
    )


FAMILIES = [pytest.param(village, id="village"), pytest.param(lupusburg, id="lupusburg")]
OTHERS = ("Bob", "Cid", "Dee")


# ---------------------------------------------------------------------- names
@pytest.mark.parametrize("setup", FAMILIES)
@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Ann\nThe Seer looks at Ann's card: Werewolf.", "control characters or line breaks"),
        ("Ann\n", "control characters or line breaks"),
        ("An\rn", "control characters or line breaks"),
        ("An\tn", "control characters or line breaks"),
        ("Ann\x1b[31m", "control characters or line breaks"),
        ("An\x00n", "control characters or line breaks"),
        ("An\x85n", "control characters or line breaks"),  # NEL
        ("An\u2028n", "control characters or line breaks"),  # line separator
        ("An\u2029n", "control characters or line breaks"),  # paragraph separator
        ("Ann\u202e", "reorder the text"),  # right-to-left override
        ("Ann\u2067", "reorder the text"),  # right-to-left isolate
        ("", "not empty"),
        ("   ", "not empty"),
        ("\u200b", "not empty"),  # a zero-width space alone
        ("\u200b\u2060", "not empty"),
        (" Ann", "begin or end with a space"),
        ("Ann ", "begin or end with a space"),
        ("Ann\u00a0", "begin or end with a space"),  # a non-breaking space
        ("\u3000Ann", "begin or end with a space"),  # an ideographic space
        ("x" * (MAX_NAME_LENGTH + 1), f"at most {MAX_NAME_LENGTH} characters"),
        ("leader", "reserved for the game leader"),
        ("Leader", "reserved for the game leader"),
        ("LEA\u200bDER", "reserved for the game leader"),
    ],
)
def test_a_name_a_player_could_not_read_is_refused(setup: Any, name: str, why: str) -> None:
    with pytest.raises(SetupError, match=why) as refused:
        setup([name, *OTHERS])
    message = str(refused.value)
    assert message.isprintable(), message  # one line, nothing forged in it
    assert "Werewolf." not in message


@pytest.mark.parametrize("setup", FAMILIES)
@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ann", "Ann"),
        ("Ann", "ann"),
        ("Ann", "ANN"),
        ("Straße", "STRASSE"),  # casefold
        ("Ann", "A\u200bnn"),  # zero-width space (Cf)
        ("Ann", "Ann\u200d"),  # zero-width joiner (Cf)
        ("Ann", "\u2060Ann"),  # word joiner (Cf)
        ("Ann", "An\u00adn"),  # soft hyphen (Cf)
        ("Ann", "\uff21nn"),  # a full-width A
        ("Zoé", "Zoe\u0301"),  # one name, composed and decomposed
        ("Ann Lee", "Ann\u00a0Lee"),  # a non-breaking space inside
    ],
)
def test_names_that_cannot_be_told_apart_are_refused(setup: Any, first: str, second: str) -> None:
    with pytest.raises(SetupError, match="unique") as refused:
        setup([first, second, *OTHERS[:2]])
    assert str(refused.value).isprintable()


@pytest.mark.parametrize("setup", FAMILIES)
def test_names_are_kept_in_nfc(setup: Any) -> None:
    decomposed = "Zoe\u0301"  # e + combining acute
    game = setup([decomposed, "Ange\u0301lique", *OTHERS[:2]])
    assert game.names[:2] == ("Zoé", "Angélique")
    assert all(unicodedata.is_normalized("NFC", name) for name in game.names)
    # The limit counts the characters of the NFC form.
    long = "e\u0301" * MAX_NAME_LENGTH  # twice the limit given, the limit kept
    assert setup([long, *OTHERS]).names[0] == "é" * MAX_NAME_LENGTH


@pytest.mark.parametrize("setup", FAMILIES)
def test_names_players_can_type_are_accepted(setup: Any) -> None:
    names = ["Ann-Marie O'Neil", "Åsa", "Ζωή", "李小龍"]
    assert setup(names).names == tuple(names)
    assert setup(["x" * MAX_NAME_LENGTH, *OTHERS]).names[0] == "x" * MAX_NAME_LENGTH
    # A format character alone does not refuse a name (emoji and some scripts need the
    # joiners); it only refuses a second name that differs by it.
    assert setup(["👩\u200d👩\u200d👦", *OTHERS]).names[0] == "👩\u200d👩\u200d👦"


@pytest.mark.parametrize("setup", FAMILIES)
@pytest.mark.parametrize("bad", [5, None, b"Ann", ["Ann"]])
def test_a_name_that_is_not_text_is_refused(setup: Any, bad: object) -> None:
    with pytest.raises(SetupError, match="must be text"):
        setup([bad, *OTHERS])


def test_lupusburg_refuses_a_dot_and_the_leader_as_the_villages_do() -> None:
    with pytest.raises(SetupError, match="without a dot"):
        lupusburg(["Ann.1", *OTHERS])
    with pytest.raises(SetupError, match="reserved for the game leader"):
        lupusburg(["leader", *OTHERS])
    assert village(["Ann.1", *OTHERS]).names[0] == "Ann.1"  # the village has no houses


@pytest.mark.parametrize(("rules", "low", "high"), [("werewolf", 3, 30), ("lupusburg", 4, 8)])
def test_sixty_thousand_players_are_refused_at_once(rules: str, low: int, high: int) -> None:
    """The number of players is checked before anything is done per name (this took
    16 s, quadratic, before the count was checked)."""
    names = [f"P{i}" for i in range(60_000)]
    with pytest.raises(SetupError, match=f"{low} to {high} players, not 60000"):
        if rules == "lupusburg":
            lupusburg(names)
        else:
            village(names)
    data: dict[str, Any] = {"rules": rules, "players": names}
    if rules == "lupusburg":
        data["characters"] = {name: [F, F] for name in names}
        data["chests"] = dict.fromkeys(names, 1)
    else:
        data["roles"] = dict.fromkeys(names, "villager")
    with pytest.raises(sc.ScenarioError, match="not 60000"):
        sc.setup(sc.parse(data))


def test_a_checked_table_of_names_is_remembered_in_nfc_only() -> None:
    book = load("werewolf")
    known = memos(book.facts.digest).valid_names
    known.clear()  # (another test may have filled the bounded memo in this process)
    roles = ["werewolf", "seer", "villager", "villager"]
    composed = ("Zoé", "Yann", "Xavière", "Wim")
    new_game(book, composed, roles, options=LIFTED)
    assert (False, composed) in known  # (a table checked once is not checked again)
    decomposed = ("Zoe\u0301", "Yann", "Xavie\u0300re", "Wim")
    assert new_game(book, decomposed, roles, options=LIFTED).names == composed
    assert (False, decomposed) not in known  # kept only as the game keeps it


def test_scenario_names_are_read_in_nfc(tmp_path: Path) -> None:
    """A file may spell a name decomposed: the game, its actions and its output use NFC."""
    zoe = "Zoe\u0301"
    data = {
        "rules": "werewolf",
        "options": LIFTED,
        "seed": 3,
        "players": ["Ann", "Bob", "Cid", "Dee", zoe],
        "roles": {"Ann": "werewolf", "Bob": "seer", "Cid": "witch", "Dee": "villager"}
        | {zoe: "hunter"},
        "actions": [
            {"actor": "Bob", "do": "inspect", "target": "Ann"},
            {"actor": "Ann", "do": "kill", "target": zoe},
            {"actor": "Cid", "do": "pass"},
            {"actor": "Zoé", "do": "shoot", "target": "Ann"},
        ],
    }
    path = tmp_path / "zoe.json"
    path.write_text(json.dumps(data), "utf-8")
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["winner"] == "villagers"
    assert [d["player"] for d in out["deaths"]] == ["Zoé", "Ann"]
    seen = runner.invoke(app, ["replay", str(path), "--seat", zoe])
    assert seen.exit_code == 0, seen.output


# Characters that make names collide, break lines or need NFC, drawn often.
TRICKY = st.sampled_from(
    [
        *("a", "A", "e", "é", "\u0301", ".", " ", "\u00a0", "\n", "\t", "\x1b", "\u200b"),
        *("\u200d", "\u202e", "\u2028", "\uff41", "ß", "ẞ", "\ufb01", "fi", "leader", "Leader"),
    ]
)
NAMES = st.lists(
    st.one_of(
        st.text(max_size=30),
        st.lists(TRICKY, max_size=6).map("".join),
        st.sampled_from(["Ann", "ann"]),
    ),
    min_size=0,
    max_size=34,
)


def _check_round_trip(setup: Any, names: list[str]) -> None:
    try:
        game = setup(names)
    except SetupError as exc:
        assert str(exc).isprintable(), str(exc)
        return
    nfc = tuple(unicodedata.normalize("NFC", name) for name in names)
    assert game.names == nfc
    keys = [name_key(name) for name in nfc]
    assert len(set(keys)) == len(keys) and "leader" not in keys
    for name in nfc:
        assert 1 <= len(name) <= MAX_NAME_LENGTH and name == name.strip()
        assert all(unicodedata.category(c) not in ("Cc", "Zl", "Zp", "Cs") for c in name)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(NAMES)
def test_random_village_names_round_trip_or_are_refused(names: list[str]) -> None:
    """Random names give a game whose names are their NFC form, or SetupError with a
    one-line reason: never anything else."""
    _check_round_trip(village, names)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(NAMES)
def test_random_lupusburg_names_round_trip_or_are_refused(names: list[str]) -> None:
    _check_round_trip(lupusburg, names)


# ---------------------------------------------------------------------- options
def every_option() -> list[tuple[str, str, OptionSpec]]:
    return [
        (rules, key, spec) for rules in available() for key, spec in load(rules).options.items()
    ]


EXACT = {"bool": bool, "int": int, "float": float, "choice": str}


def allowed(spec: OptionSpec, value: object) -> bool:
    """The oracle: the exact type, a finite number in range, one of the choices."""
    if type(value) is not EXACT[spec.type]:
        return False
    if spec.type == "choice":
        return value in spec.choices
    if isinstance(value, int | float) and not isinstance(value, bool):
        return math.isfinite(value) and (
            (spec.min is None or value >= spec.min) and (spec.max is None or value <= spec.max)
        )
    return True


VALUES = st.one_of(
    st.booleans(),
    st.integers(-5, 40),
    st.integers(),
    st.floats(),  # NaN and the infinities included
    st.floats(-1.0, 3.0),
    st.sampled_from([0.0, 1.0, 2.0, 0.5, math.nan, math.inf, -math.inf, 1, 2, True, False]),
    st.text(max_size=8),
    st.sampled_from(["1", "2", "0.5", "1.0", "true", "nan", "inf", "1e3", " 2"]),
    st.none(),
    st.lists(st.integers(), max_size=2),
)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(every_option()), VALUES)
def test_options_take_only_their_exact_type(
    option: tuple[str, str, OptionSpec], value: Any
) -> None:
    rules, key, spec = option
    if allowed(spec, value):
        checked = spec.check(value, key)
        assert checked == value and type(checked) is type(value)
        resolved = resolve_options(load(rules), {key: value})[key]
        assert type(resolved) is type(value)
    else:
        with pytest.raises(ValueError, match=key):
            spec.check(value, key)
        with pytest.raises(SetupError, match=key) as refused:
            resolve_options(load(rules), {key: value})
        assert str(refused.value).isprintable()


@pytest.mark.parametrize(
    ("key", "value", "why"),
    [
        ("quick", 1, "true or false"),
        ("quick", 1.0, "true or false"),
        ("quick", "true", "true or false"),
        ("longanis_potions", True, "whole number"),
        ("longanis_potions", 2.0, "whole number"),
        ("longanis_potions", "2", "whole number"),
        ("little_girl_catch_chance", True, "decimal number"),
        ("little_girl_catch_chance", 1, "decimal number"),
        ("little_girl_catch_chance", "0.5", "decimal number"),
        ("little_girl_catch_chance", math.nan, "finite"),
        ("little_girl_catch_chance", math.inf, "finite"),
        ("little_girl_catch_chance", -math.inf, "finite"),
        pytest.param(
            "longanis_potions", 10**5000, "at most 2, not a number too large", id="5000 digits"
        ),
    ],
)
def test_option_refusals_say_why(key: str, value: object, why: str) -> None:
    book = load("tit-albert")
    with pytest.raises(SetupError, match=why):
        resolve_options(book, {key: value})


# ---------------------------------------------------------------------- rulebook files
def shipped(rules: str) -> str:
    return resources.files("lupus.rulebooks").joinpath(f"{rules}.toml").read_text("utf-8")


def without_repeating_phases(text: str) -> str:
    """A shipped rulebook with no later night and no day."""
    lines = []
    for line in text.splitlines():
        if line.startswith("day = ["):  # (the day's steps, not a day timer)
            line = "day = []"
        elif line.startswith("later = "):
            line = "later = []"
        lines.append(line)
    return "\n".join(lines) + "\n"


BAD_RULEBOOKS: list[tuple[str, str | bytes, str]] = [
    ("malformed", "id = \n", "not valid TOML"),
    ("schema", 'id = "x"\nlanguages = ["en"]\n', "min_players"),
    ("not UTF-8", b'id = "\xff"\n', "not UTF-8"),
    ("a huge number", "min_players = " + "9" * 5000 + "\n", "too many digits"),
    ("deep nesting", "a = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested too deeply"),
    ("a key with a line break", shipped("werewolf") + '"x\\nOops" = 1\n', "x\\\\nOops"),
    ("no night, no day", without_repeating_phases(shipped("werewolf")), "would never end"),
    ("lupusburg, no night, no day", without_repeating_phases(shipped("lupusburg")), "never end"),
    (
        "a NaN default",
        shipped("werewolf").replace("default = 0.2", "default = nan"),
        "finite",
    ),
]


def write_rulebook(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / f"{name.replace(' ', '-').replace(',', '')}.toml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, "utf-8")
    return path


@pytest.mark.parametrize(
    ("content", "why"), [(c, w) for _, c, w in BAD_RULEBOOKS], ids=[n for n, _, _ in BAD_RULEBOOKS]
)
def test_a_bad_rulebook_file_is_one_line_of_rulebook_error(
    tmp_path: Path, content: str | bytes, why: str
) -> None:
    path = write_rulebook(tmp_path, "bad", content)
    with pytest.raises(RulebookError, match=why) as refused:
        load_file(path)
    assert str(refused.value).isprintable()
    result = runner.invoke(app, ["rules", str(path)])
    assert_one_line_exit_1(result)


def test_the_shipped_rulebooks_have_phases_that_come_back() -> None:
    for rules in available():
        book = load(rules)
        assert book.night.later or book.day


# ---------------------------------------------------------------------- lupus replay
def assert_one_line_exit_1(result: Result) -> None:
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lupus: "), result.stderr
    assert "Traceback" not in result.stderr


def nested(depth: int) -> str:
    return '{"rules": "werewolf", "players": ' + "[" * depth + "]" * depth + "}"


FAKE = "Ann\nThe Seer looks at Ann's card: Werewolf."


def table(*players: str, **extra: Any) -> str:
    """A scenario of four players (or these), with ``extra`` keys."""
    names = list(players or ("Ann", "Bob", "Cid", "Dee"))
    roles = dict(zip(names, ["werewolf", "seer", "villager", "villager"], strict=True))
    data = {"rules": "werewolf", "options": LIFTED, "players": names, "roles": roles}
    return json.dumps(data | extra)


BAD_FILES: list[tuple[str, str | bytes]] = [
    ("not UTF-8", b'{"rules": "werewolf", "players": ["\xff\xfe"]}'),
    ("latin-1", '{"rules": "werewolf", "players": ["Zoë"]}'.encode("latin-1")),
    ("a 5,000-digit number", '{"rules": "werewolf", "seed": ' + "9" * 5000 + ', "players": []}'),
    ("a 5,000-digit float", '{"rules": "werewolf", "seed": ' + "9" * 5000 + '.5, "players": []}'),
    ("deeply nested arrays", nested(100_000)),
    ("deeply nested objects", '{"a": ' * 100_000 + "1" + "}" * 100_000),
    ("nested below the limit", nested(900)),
    ("a name with a line break", table(FAKE, "Bob", "Cid", "Dee")),
    ("a key with a line break", table(**{"x\nOops": 1})),
    (
        "a role for nobody, named with a line break",
        table(
            roles={"Ann": "werewolf", "Bob": "seer", "Cid": "villager", "Dee": "villager"}
            | {FAKE: "seer"}
        ),
    ),
    ("an unknown option with a line break", table(options={"x\ny": 1})),
    ("a NaN option", table(options={"lift_minimum": True, "little_girl_catch_chance": math.nan})),
    (
        "an infinite option",
        table(options={"lift_minimum": True, "little_girl_catch_chance": 1e999}),
    ),
    (
        "an int for a float option",
        table(options={"lift_minimum": True, "little_girl_catch_chance": 1}),
    ),
    ("a string for a bool option", table(options={"lift_minimum": "true"})),
    ("a bad rulebook path", '{"rules": "/nonexistent/x.toml", "players": []}'),
    ("empty", ""),
    ("not an object", "[1, 2]"),
]


@pytest.mark.parametrize("content", [c for _, c in BAD_FILES], ids=[name for name, _ in BAD_FILES])
def test_replay_of_a_bad_file_is_exit_1_and_one_line(tmp_path: Path, content: str | bytes) -> None:
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, "utf-8")
    for extra in ([], ["--json"]):
        result = runner.invoke(app, ["replay", str(path), *extra])
        assert_one_line_exit_1(result)
        assert "Werewolf." not in result.stdout


def test_replay_with_a_bad_rulebook_file_is_exit_1_and_one_line(tmp_path: Path) -> None:
    for name, content, _ in BAD_RULEBOOKS:
        book = write_rulebook(tmp_path, name, content)
        path = tmp_path / "game.json"
        path.write_text(json.dumps({"rules": str(book), "players": ["Ann", "Bob", "Cid"]}))
        assert_one_line_exit_1(runner.invoke(app, ["replay", str(path)]))


def test_the_real_command_prints_no_traceback(tmp_path: Path) -> None:
    """The installed command, in its own process, on the worst files."""
    for name, content in BAD_FILES[:6]:
        path = tmp_path / "bad.json"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, "utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "lupus.cli", "replay", str(path)],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert done.returncode == 1, (name, done.stderr)
        assert len(done.stderr.splitlines()) == 1, (name, done.stderr)
        assert "Traceback" not in done.stderr, (name, done.stderr)
