"""`lupus balance`: candidate compositions, the successive-halving search, its output."""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lupus.cli import app
from lupus.cli_input import parse_players, parse_range
from lupus.engine.errors import SetupError
from lupus.families import load
from lupus.sim import SimConfig, simulate
from lupus.sim import balance as bal

runner = CliRunner()


@pytest.mark.parametrize(
    ("rules", "players"),
    [("werewolf", 8), ("werewolf", 12), ("tit-albert", 5), ("tit-albert", 14), ("maffia", 9)],
)
def test_candidates_respect_the_rulebook(rules: str, players: int) -> None:
    book = load(rules)
    found = bal.candidates(book, players)
    assert found, "no composition at all"
    assert len({bal.key(c) for c in found}) == len(found), "a composition listed twice"
    lo, hi = bal.default_pack_range(book, players)
    for counts in found:
        thief = counts.get("thief", 0)
        assert sum(counts.values()) == players + (2 if thief else 0), counts
        assert lo <= bal.pack_size(book, counts) <= hi, counts
        for role, n in counts.items():
            spec = book.roles[role]
            assert n > 0
            assert spec.max is None or n <= spec.max, counts
            assert n % spec.comes_in == 0, counts
        assert bal.acceptable(book, players, counts) is None


def test_candidates_cover_the_special_roles() -> None:
    book = load("werewolf")
    found = bal.candidates(book, 10, pack=(2, 2))
    # The seed's minimum configuration holds a Seer: every subset of the five other
    # special roles, with the Seer, 2 werewolves and villagers for the rest.
    assert len(found) == 2**5
    assert all(c["seer"] == 1 for c in found)
    assert {"werewolf": 2, "seer": 1, "villager": 7} in found
    # "2-": from 2 werewolves to the default (a third of the table, rounded up).
    assert {c["werewolf"] for c in bal.candidates(book, 10, pack=(2, None))} == {2, 3, 4}
    with_thief = [c for c in found if "thief" in c]
    assert len(with_thief) == 16
    assert all(sum(c.values()) == 12 for c in with_thief)


def test_couple_cards_come_in_pairs_and_the_godfather_counts_in_the_pack() -> None:
    book = load("maffia")
    found = bal.candidates(book, 9, pack=(2, 2))
    assert {c.get("couple", 0) for c in found} == {0, 2}
    assert {c.get("godfather", 0) for c in found} == {0, 1}
    assert all(c.get("mafia", 0) + c.get("godfather", 0) == 2 for c in found)


def test_candidates_follow_the_minimum_configuration_unless_lifted() -> None:
    book = load("werewolf")
    assert bal.candidates(book, 7) == []  # "The minimum configuration is: ... 8 players"
    small = bal.candidates(book, 6, options={"lift_minimum": True})
    assert small and any("seer" not in c for c in small)
    assert any(c["werewolf"] == 1 for c in small)
    assert all(c.get("seer") == 1 and c["werewolf"] >= 2 for c in bal.candidates(book, 9))


def test_candidates_follow_the_setup_and_its_options() -> None:
    tit = load("tit-albert")
    assert max(c["werewolf"] for c in bal.candidates(tit, 18, pack=(1, 9))) == 4
    quick = bal.candidates(tit, 8, options={"quick": True})
    assert quick and not any("thief" in c or "cupid" in c for c in quick)
    classic = load("mafia-classic")
    # With 4 players, 2 mafia have already won: only 1 mafia is left.
    assert bal.candidates(classic, 4, pack=(1, 3)) == [{"mafia": 1, "villager": 3}]
    assert bal.candidates(load("lupusburg"), 5) == [{"werewolf": 1, "thief": 1, "townsfolk": 8}]
    assert bal.acceptable(load("werewolf"), 8, {"werewolf": 2, "villager": 5}) is not None


def test_the_schedule_halves_down_to_the_finalists() -> None:
    plan = bal.schedule(192, 1000, 3)
    assert plan[0][0] == 192 and plan[-1] == (3, 1000)
    sizes = [n for n, _ in plan]
    games = [g for _, g in plan]
    assert sizes == sorted(sizes, reverse=True) and games == sorted(games)
    assert bal.schedule(1, 500, 3) == [(1, 500)]
    assert bal.schedule(2, 50, 3) == [(2, 50)]


def search(workers: int) -> dict[str, object]:
    result = bal.search("maffia", [6], games=30, top=3, seed=7, workers=workers, pack=(1, 1))
    data = result.as_dict()
    data.pop("seconds")
    data.pop("workers")
    return data


def test_search_is_reproducible_whatever_the_workers() -> None:
    one = search(1)
    assert one == search(1)
    assert one == search(2)


def test_search_ranks_by_distance_from_even_odds() -> None:
    result = bal.search("werewolf", [8], games=40, top=4, seed=3, pack=(1, 3))
    (count,) = result.counts
    # The minimum configuration: 2 or 3 werewolves (not 1), the Seer and any of the others.
    assert count.candidates == 2 * 2**5
    assert len(count.best) == 4
    # (ranked by the distance to 12 places, then by composition: 0.55 and 0.45 are as far)
    distances = [round(s.distance, 12) for s in count.best]
    assert distances == sorted(distances)
    assert all(s.games == 40 for s in count.best)
    assert all(abs(s.p - 0.5) == pytest.approx(s.distance) for s in count.best)
    assert count.recommended is not None and count.recommended.games == 40
    assert count.recommended.counts == load("werewolf").compositions["8"]
    # The finalists are at least as close as any composition dropped at the last round.
    assert count.games_played > 4 * 40


def test_a_composition_scores_what_lupus_simulate_reports() -> None:
    counts = {"werewolf": 2, "seer": 1, "witch": 1, "villager": 4}
    config = SimConfig("werewolf", 8, counts, {}, {"*": "random"}, 5)
    player = bal._Player(1)
    player.play([(config, 15), (config, 15)])  # asked twice, played once
    player.play([(config, 40)])  # then topped up to 40 games
    tally = player.tally(config)
    assert tally is not None and tally.games == 40
    assert tally.wins == simulate(config, 40).tally.wins


def test_lupusburg_is_scored_against_one_over_players() -> None:
    result = bal.search("lupusburg", [4], games=12, top=2)
    (count,) = result.counts
    assert result.faction == "werewolf" and count.goal == pytest.approx(0.25)
    assert count.candidates == 1 and len(count.best) == 1
    assert count.recommended is not None
    assert count.recommended.as_dict() == count.best[0].as_dict()


def test_bad_player_counts_are_refused() -> None:
    with pytest.raises(SetupError):
        parse_players("eight")
    assert parse_players("8-10,12") == [8, 9, 10, 12]
    assert parse_range("2-") == (2, None) and parse_range("3") == (3, 3)
    with pytest.raises(SetupError):
        parse_range("two")
    result = runner.invoke(app, ["balance", "--rules", "lupusburg", "--players", "3-4"])
    assert result.exit_code == 1
    assert "4 to 8 players" in result.output


def test_balance_json_shape() -> None:
    args = ["balance", "--rules", "mafia-classic", "--players", "6-7", "--games", "20"]
    result = runner.invoke(app, [*args, "--top", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rules"] == "mafia-classic" and data["faction"] == "town"
    assert data["fair"] == 0.5 and data["games"] == 20 and data["top"] == 2
    assert [c["players"] for c in data["counts"]] == [6, 7]
    for count in data["counts"]:
        assert count["target"] == 0.5
        assert 1 <= len(count["best"]) <= 2
        for entry in [*count["best"], count["recommended"]]:
            assert set(entry) >= {
                "composition",
                "games",
                "p",
                "ci95",
                "distance",
                "win_rate",
                "no_winner",
            }
            lo, hi = entry["ci95"]
            assert lo <= entry["p"] <= hi
            assert set(entry["win_rate"]) == {"town", "mafia"}
    text = runner.invoke(app, [*args, "--top", "2", "--workers", "1"])
    assert text.exit_code == 0, text.output
    assert "rec." in text.stdout and "mafia=1,villager=5" in text.stdout


def test_balance_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "balance.png"
    args = ["balance", "--rules", "mafia-classic", "--players", "5-7", "--games", "20"]
    result = runner.invoke(app, [*args, "--workers", "1", "--plot", str(out)])
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert 300 <= width <= 2000 and 200 <= height <= 2000
    assert 2_000 < len(data) < 500_000


def test_balance_plot_says_how_to_install_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = runner.invoke(app, ["balance", "--rules", "mafia-classic", "--plot", "x.png"])
    assert result.exit_code == 1
    assert "pip install 'lupus[plot]'" in result.output


def test_a_table_below_the_minimum_is_refused_with_the_rule() -> None:
    with pytest.raises(SetupError, match="minimum configuration is: 2 Werewolves"):
        bal.search("werewolf", [6], games=10)
    lifted = bal.search("werewolf", [6], games=10, top=1, options={"lift_minimum": True})
    assert lifted.counts[0].candidates > 0


def test_points_come_from_the_roles_and_a_field_keeps_the_nearest_even() -> None:
    """A deck's points sum its cards' weights (``Role.weight``); ``field`` plays only
    the candidates nearest 0 points, and the report says how many there were."""
    book = load("werewolf")
    assert bal.points(book, {"werewolf": 2, "seer": 1, "villager": 5}) == 0
    assert bal.points(book, {"werewolf": 2, "witch": 1, "villager": 5}) == -3
    pool = bal.candidates(book, 8)
    kept = bal.closest_by_points(book, pool, 5)
    assert len(kept) == 5 and all(c in pool for c in kept)
    worst_kept = max(abs(bal.points(book, c)) for c in kept)
    assert all(abs(bal.points(book, c)) >= worst_kept for c in pool if c not in kept)
    result = bal.search("werewolf", [8], games=24, top=2, field=5, seed=1)
    (count,) = result.counts
    assert count.candidates == len(pool) and count.field_size == 5
    assert count.rounds[0][0] == 5
    shown = count.as_dict()
    assert shown["field"] == 5
    best = shown["best"]
    assert isinstance(best, list) and "points" in best[0]
    with pytest.raises(SetupError, match="field"):
        bal.search("werewolf", [8], games=24, field=0)
