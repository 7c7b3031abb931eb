"""The public table in each rulebook's notable moments, read from the scenario files of
``tests/scenarios`` (replayed whole, or up to an action): the morning after a saved
victim, two deaths in one night, a Hunter's shot, a vote with its counts, a tie, the
Captain elected, dying and succeeded, maffia's hidden cards and its Couple told,
Lupusburg's houses, its Burgomaster and its end. Expectations are the scenarios' own
stories (their descriptions), written out by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lupus import scenario as sc
from lupus.engine.model import LEADER
from lupus.families import table_of
from lupus.lupusburg.own import OwnReader

SCENARIOS = Path(__file__).parent / "scenarios"


def table(
    name: str, actions: int | None = None, seat: int | None = None, whole: bool = False
) -> dict[str, Any]:
    """The public table (as JSON, ``view.public``) after the scenario's first ``actions``
    (all: None), read from ``seat``'s view (the spectator's: None); the same, whoever
    reads it. Unless ``whole``, without the places of the outcome's events, the step
    under way and the end (``tests/test_public_table_step.py`` checks them)."""
    data = json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
    if actions is not None:
        data["actions"] = data["actions"][:actions]
    game = sc.replay(sc.parse(data)).game
    view = game.public_view() if seat is None else game.view(seat)
    shown = table_of(view)
    assert shown == table_of(game.public_view()) == table_of(game.view(LEADER))
    found: dict[str, Any] = json.loads(json.dumps(shown.to_json()))
    return found if whole else bare(found)


def bare(found: dict[str, Any]) -> dict[str, Any]:
    """A table's JSON without the places of its outcome's events, its step and its end."""
    del found["step"], found["end"]
    outcome = found["outcome"]
    if outcome is not None:
        del outcome["nobody_event"], outcome["failed_event"]
        for told in outcome["deaths"]:
            del told["event"]
    return found


def death(seat: int, cause: str | None, card: str | None, **house: int) -> dict[str, Any]:
    return {"seat": seat, "cause": cause, "card": card, **house}


def votes(*counts: tuple[int, int]) -> list[dict[str, int]]:
    return [{"seat": seat, "votes": n} for seat, n in counts]


def alive(found: dict[str, Any]) -> list[bool]:
    return [p["alive"] for p in found["players"]]


def cards(found: dict[str, Any]) -> list[str | None]:
    return [p["card"] for p in found["players"]]


def titled(found: dict[str, Any], title: str) -> list[int]:
    return [p["seat"] for p in found["players"] if title in p["titles"]]


# ---------------------------------------------------------------------- werewolf
def test_the_shape_of_a_seat_and_of_a_night() -> None:
    found = table("werewolf/witch-poison-two-deaths", seat=2, whole=True)
    assert found["players"][0] == {
        "seat": 0,
        "name": "Alice",
        "alive": False,
        "card": "werewolf",
        "titles": [],
    }
    assert set(found["outcome"]) == {
        "phase",
        "number",
        "deaths",
        "votes",
        "failed_attempt",
        "tie",
        "nobody_event",
        "failed_event",
    }
    assert [set(told) for told in found["outcome"]["deaths"]] == [
        {"seat", "cause", "card", "event"}
    ] * 2


def test_a_saved_victim_is_a_night_with_nobody_dead() -> None:
    """The Witch heals the victim: nobody died, and the werewolf seed tells of no
    failed attempt."""
    found = table("werewolf/witch-heal-zero-deaths")
    assert found["outcome"] == {
        "phase": "night",
        "number": 1,
        "deaths": [],
        "votes": None,
        "failed_attempt": False,
        "tie": None,
    }
    assert all(alive(found)) and cards(found) == [None] * 8


def test_two_deaths_in_one_night_victim_first_then_the_poisoned() -> None:
    found = table("werewolf/witch-poison-two-deaths")
    assert found["outcome"]["deaths"] == [
        death(4, "werewolves", "villager"),
        death(0, "poison", "werewolf"),
    ]
    assert alive(found) == [False, True, True, True, False, True, True, True]
    assert cards(found) == ["werewolf", None, None, None, "villager", None, None, None]


def test_the_hunters_shot_at_dawn_belongs_to_the_night() -> None:
    before = table("werewolf/hunter-shot-at-dawn-belongs-to-the-night", 4)
    assert before["outcome"]["deaths"] == [death(4, "werewolves", "hunter")]
    assert before["players"][0]["alive"]
    found = table("werewolf/hunter-shot-at-dawn-belongs-to-the-night")
    assert found["outcome"]["phase"] == "night"
    assert found["outcome"]["deaths"] == [
        death(4, "werewolves", "hunter"),
        death(0, "shot", "werewolf"),
    ]


def test_a_vote_with_its_counts_then_the_hunters_shot() -> None:
    """Eve (2 votes against Alice's 1) is voted out and shoots Bob: both deaths belong
    to day 1, with the vote's counts."""
    found = table("werewolf/hunter-voted-out-shoots")
    assert found["outcome"] == {
        "phase": "day",
        "number": 1,
        "deaths": [death(4, "vote", "hunter"), death(1, "shot", "werewolf")],
        "votes": votes((4, 2), (0, 1)),
        "failed_attempt": False,
        "tie": None,
    }


def test_a_second_tie_eliminates_nobody() -> None:
    first = table("werewolf/day-vote-second-tie-nobody-eliminated", 9)
    assert first["outcome"]["phase"] == "day" and first["outcome"]["deaths"] == []
    assert first["outcome"]["votes"] == votes((0, 2), (3, 2))
    found = table("werewolf/day-vote-second-tie-nobody-eliminated")
    assert found["outcome"] == {
        "phase": "day",
        "number": 1,
        "deaths": [],
        "votes": votes((0, 2), (3, 2)),
        "failed_attempt": False,
        "tie": None,
    }


def test_the_captain_elected_dying_and_succeeded() -> None:
    name = "werewolf/captain-succession-by-day"
    elected = table(name, 11)
    assert titled(elected, "captain") == [2]
    # The election is no elimination vote: the last outcome is still the night's.
    assert elected["outcome"]["phase"] == "night"
    assert elected["outcome"]["deaths"] == [death(7, "werewolves", "villager")]
    voted_out = table(name, 18)
    assert titled(voted_out, "captain") == []  # dead, he holds nothing while he names
    assert voted_out["outcome"]["deaths"] == [death(2, "vote", "seer")]
    assert voted_out["outcome"]["votes"] == votes((2, 3), (0, 2))  # Carol's own vote counted twice
    appointed = table(name, 19)
    assert titled(appointed, "captain") == [3]
    assert titled(table(name), "captain") == [3]


def test_a_tie_is_the_outcome_until_something_settles_it() -> None:
    """After the first tie, the day has decided nothing yet: its outcome names the tied
    (a page must not say "nobody was eliminated" while a new round or a Captain is to
    come); the new round's count, then the Captain's decision, settle it."""
    for name, tied in (
        ("werewolf/day-vote-second-tie-nobody-eliminated", [0, 3]),
        ("tit-albert/captain-decision-eliminates", None),
    ):
        data = json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
        ties = []
        for actions in range(len(data["actions"]) + 1):
            outcome = table(name, actions)["outcome"]
            if outcome and outcome["tie"] is not None:
                ties.append(outcome["tie"])
                assert outcome["phase"] == "day" and outcome["deaths"] == [], (name, actions)
        assert ties, name
        if tied is not None:
            assert tied in ties, (name, ties)
        assert table(name)["outcome"]["tie"] is None


def test_the_captain_decides_a_tie() -> None:
    found = table("tit-albert/captain-decision-eliminates")
    outcome = found["outcome"]
    assert outcome["phase"] == "day" and len(outcome["deaths"]) == 1
    (victim,) = outcome["deaths"]
    assert victim["cause"] == "vote"
    tied = [v["seat"] for v in outcome["votes"] if v["votes"] == outcome["votes"][0]["votes"]]
    assert len(tied) > 1 and victim["seat"] in tied


# ---------------------------------------------------------------------- maffia
def test_maffia_tells_a_failed_attempt_not_on_whom() -> None:
    found = table("maffia/failed-attempt-announced-when-target-alive")
    assert found["outcome"] == {
        "phase": "night",
        "number": 1,
        "deaths": [],
        "votes": None,
        "failed_attempt": True,
        "tie": None,
    }


def test_maffia_tells_no_failed_attempt_when_the_target_was_shot() -> None:
    """Night 2: the protected Hugo is shot by the Avenger (no failed attempt), and
    Filip dies of heartbreak for Eva, murdered the night before (their couple told)."""
    found = table("maffia/failed-attempt-not-when-target-is-shot")
    assert found["outcome"] == {
        "phase": "night",
        "number": 2,
        "deaths": [death(5, "heartbreak", "couple"), death(7, "shot", None)],
        "votes": None,
        "failed_attempt": False,
        "tie": None,
    }


def test_maffia_keeps_the_cards_of_the_dead() -> None:
    """Banished with 5 votes of 8: his card stays hidden, and the night's murdered too."""
    found = table("maffia/banishment-majority-banishes")
    assert found["outcome"]["deaths"] == [death(0, "vote", None)]
    assert found["outcome"]["votes"] == votes((0, 5), (3, 2))
    assert cards(found) == [None] * 9
    assert alive(found) == [False, True, True, True, True, True, True, False, True]


def test_maffia_tells_the_couple_after_the_heartbreak() -> None:
    found = table("maffia/couple-murdered-partner-dies-next-night")
    assert found["outcome"]["deaths"] == [
        death(5, "heartbreak", "couple"),
        death(7, "mafia", None),
    ]
    assert cards(found) == [None, None, None, None, "couple", "couple", None, None, None]


def test_maffia_shows_every_card_at_the_end() -> None:
    found = table("maffia/roles-shown-when-the-game-ends")
    assert cards(found) == ["mafia", "villager", "doctor", "detective", "villager", "villager"]
    assert found["outcome"]["deaths"] == [death(0, "vote", "mafia")]


# ---------------------------------------------------------------------- mafia-classic
def test_mafia_classic_day_first() -> None:
    actions = [
        {"actor": "Ann", "do": "vote", "target": "Dan"},
        {"actor": "Bo", "do": "vote", "target": "Dan"},
        {"actor": "Cy", "do": "vote", "target": "Ann"},
        {"actor": "Dan", "do": "vote", "target": "Ann"},
        {"actor": "Eve", "do": "vote", "target": "Dan"},
        {"actor": "Ann", "do": "kill", "target": "Bo"},
    ]
    data: dict[str, Any] = {
        "rules": "mafia-classic",
        "players": ["Ann", "Bo", "Cy", "Dan", "Eve"],
        "roles": {"Ann": "mafia", "Bo": "villager", "Cy": "villager", "Dan": "villager"}
        | {"Eve": "villager"},
        "options": {"first_phase": "day"},
        "seed": 0,
    }
    game = sc.replay(sc.parse({**data, "actions": actions[:5]})).game
    day = bare(table_of(game.public_view()).to_json())
    assert day["outcome"] == {
        "phase": "day",
        "number": 1,
        "deaths": [death(3, "vote", "villager")],
        "votes": votes((3, 3), (0, 2)),
        "failed_attempt": False,
        "tie": None,
    }
    game = sc.replay(sc.parse({**data, "actions": actions})).game
    night = bare(table_of(game.view(2)).to_json())
    assert night["outcome"] == {
        "phase": "night",
        "number": 1,
        "deaths": [death(1, "mafia", "villager")],
        "votes": None,
        "failed_attempt": False,
        "tie": None,
    }


# ---------------------------------------------------------------------- lupusburg
def test_lupusburg_a_slaughtered_character_stays_face_down() -> None:
    found = table("lupusburg/claw-slaughters-at-dawn")
    assert found["outcome"] == {
        "phase": "night",
        "number": 1,
        "deaths": [death(3, "werewolf", None, house=6)],
        "votes": None,
        "failed_attempt": False,
        "tie": None,
    }
    dan = found["players"][3]
    assert dan == {
        "seat": 3,
        "name": "Dan",
        "alive": True,
        "card": None,
        "titles": [],
        "houses": [
            {
                "house": 6,
                "alive": False,
                "character": None,
                "chest": None,
                "death": {"cause": "werewolf", "phase": "night", "number": 1},
            },
            {"house": 7, "alive": True, "character": None, "chest": None, "death": None},
        ],
    }
    assert titled(found, "burgomaster") == [0]


def test_lupusburg_the_second_votings_ballots_lynch() -> None:
    """3-2 lynches Cat.1 (house 4) though Ben.2 (house 3) had more tokens."""
    found = table("lupusburg/lynch-most-ballots")
    assert found["outcome"] == {
        "phase": "day",
        "number": 1,
        "deaths": [death(2, "vote", None, house=4)],
        "votes": [{"seat": 2, "house": 4, "votes": 3}, {"seat": 1, "house": 3, "votes": 2}],
        "failed_attempt": False,
        "tie": None,
    }


def test_lupusburg_the_burgomaster_passes_clockwise() -> None:
    found = table("lupusburg/burgomaster-passes-clockwise")
    assert titled(found, "burgomaster") == [0]  # Dan, the last, handed it to Ann


def test_lupusburg_the_end_turns_every_house_face_up() -> None:
    found = table("lupusburg/whole-game")
    assert cards(found) == ["werewolf", "thief", "townsfolk", "townsfolk"]
    ann = found["players"][0]
    assert ann["alive"] is False
    assert ann["houses"] == [
        {
            "house": 0,
            "alive": False,
            "character": "townsfolk",
            "chest": True,
            "death": {"cause": "vote", "phase": "day", "number": 2},
        },
        {
            "house": 1,
            "alive": False,
            "character": "werewolf",
            "chest": False,
            "death": {"cause": "vote", "phase": "day", "number": 1},
        },
    ]
    assert found["outcome"]["deaths"] == [death(0, "vote", "townsfolk", house=0)]


# ---------------------------------------------------------------------- lupusburg's board
def own(name: str, seat: int, actions: int | None = None) -> dict[str, Any]:
    """What ``seat`` alone knows of the board (``view.own``), as JSON, after the
    scenario's first ``actions``: read from its view's events alone."""
    data = json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
    if actions is not None:
        data["actions"] = data["actions"][:actions]
    game = sc.replay(sc.parse(data)).game
    reader = OwnReader(seat)
    for event in game.view(seat).events:
        reader.feed(event)
    found: dict[str, Any] = json.loads(json.dumps(reader.to_json()))
    return found


def test_lupusburg_the_board_keeps_the_day_until_the_next() -> None:
    """Day 1 of the seed example (everybody passes, then tokens, suspects and the 3-2
    lynch of Cat.1) on the board of night 2: the day's marks stay, the Burgomaster
    has passed to Ben, the privilege and the claw are gone."""
    board = table("lupusburg/lynch-most-ballots", whole=True)["board"]
    assert board == {
        "stage": "night",
        "day": 1,
        "night": 2,
        "coins": [8, 7, 6, 5, 4, 3, 2, 2],
        "bag": 8,
        "privilege": None,
        "looked": None,
        "bets": {},
        "passed": [0, 1, 2, 3],
        "keeping": None,
        "tokens": {"3": [0, 1, 2, 0, 1], "4": [3, 2, 3]},
        "laid": 8,
        "round": 2,
        "suspects": [3, 4],
        "suspect_tokens": {"3": 5, "4": 3},
        "tie_break": None,
        "votes": {"3": 2, "4": 3},
        "slaughtered": None,
        "lynched": 4,
        "turn": None,
    }
    # Ann's ballots (one on each suspect), her characters and chest; Ben peeked under
    # Cat.1 and found Cat's chest.
    ann = own("lupusburg/lynch-most-ballots", 0)
    assert ann["ballots"] == {"3": 1, "4": 1} and ann["claw"] is None
    assert ann["characters"] == {
        "0": {"character": "townsfolk", "how": "own"},
        "1": {"character": "werewolf", "how": "own"},
    }
    assert own("lupusburg/lynch-most-ballots", 1)["chests"] == {
        "2": {"chest": False, "how": "own"},
        "3": {"chest": True, "how": "own"},
        "4": {"chest": True, "how": "peeked"},
    }


def test_lupusburg_the_claw_and_the_slaughter() -> None:
    """The Werewolf alone sees his claw tonight; at dawn every board shows the
    slaughtered house, until the next night."""
    name = "lupusburg/lynch-most-ballots"
    assert own(name, 0, actions=2)["claw"] == 6
    assert own(name, 3, actions=2)["claw"] is None
    board = table(name, actions=2, whole=True)["board"]
    assert (board["stage"], board["slaughtered"], board["day"]) == ("privilege", 6, 1)
    assert board["turn"] is None


def test_lupusburg_the_privilege_seen_and_shown() -> None:
    """Ann (Burgomaster) looks at Ben.1 and shows him Ann.1: the table sees the look
    only; Ann knows Ben.1's character (seen), Ben knows Ann.1's (shown)."""
    name = "lupusburg/privilege-see-and-show"
    board = table(name, whole=True)["board"]
    assert board["privilege"] == {"state": "used", "player": 0, "house": 2}
    assert board["looked"] == 2 and board["stage"] == "privilege"
    assert own(name, 0)["characters"]["2"] == {"character": "thief", "how": "seen"}
    assert own(name, 1)["characters"]["0"] == {"character": "townsfolk", "how": "shown"}
    assert set(own(name, 2)["characters"]) == {"4", "5"}, "Cat was told nothing"


def test_lupusburg_a_bet_and_its_coin() -> None:
    """Ann bets on Ben and keeps 7 of 8, 7, 6; Ben bets on Ann and holds 5, 4, 3: the
    table sees both seals and the turn waits on Ben's coin."""
    name = "lupusburg/bet-then-keep"
    board = table(name, whole=True)["board"]
    assert board["bets"] == {"0": 1, "1": 0} and board["bag"] == 6
    assert (board["stage"], board["keeping"]) == ("betting", 1)
    assert board["turn"] == {"step": "betting", "seat": 2}
    ann, ben = own(name, 0), own(name, 1)
    assert (ann["coin"], ann["drawn"]) == (7, None)
    assert (ben["coin"], ben["drawn"]) == (None, [5, 4, 3])
