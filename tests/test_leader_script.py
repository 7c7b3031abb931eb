"""A game leader's script (``view.script``, ``lupus.server.script``): the server makes
it from his events and their sentences, once per frame, and his page draws it (issue
26: the page no longer derives the game from the event log). Each scenario plays a
leader room's game with a fixed deal and reads the frames his client is sent."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

from lupus.engine.game import Game
from lupus.engine.model import LEADER, PUBLIC, Action
from lupus.families import new_game
from lupus.server.frame import Sent, view_frame
from lupus.server.script import Script, ScriptItem, ScriptStep, unmarked

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
WEREWOLF = ["werewolf", "seer", "witch", "villager", "werewolf", "villager", "villager", "villager"]
MAFFIA = ["mafia", "doctor", "detective", "villager", "villager", "villager", "villager"]


def frame_of(game: Game, sent: Sent, seat: int = LEADER) -> dict[str, Any]:
    """The frame a client of ``seat`` (PUBLIC: a spectator) that was sent ``sent`` gets
    now, decoded."""
    view = game.public_view() if seat == PUBLIC else game.view(seat)
    frame = view_frame(sent, "en", game, view, "g", False, None)
    assert frame is not None
    decoded: dict[str, Any] = json.loads(frame.encode())
    return decoded


def script_of(game: Game) -> dict[str, Any]:
    """The script a leader's new client (a reload) is sent now."""
    script: dict[str, Any] = frame_of(game, Sent())["script"]
    return script


class Page:
    """A leader's page: what its connection was sent, and its script as the page merges
    the news of each frame (room.js: the steps after the ``kept`` it has)."""

    def __init__(self) -> None:
        self.sent = Sent()
        self.script: dict[str, Any] | None = None
        self.news: dict[str, Any] = {}

    def frame(self, game: Game) -> dict[str, Any]:
        news: dict[str, Any] = frame_of(game, self.sent)["script"]
        had = self.script["steps"][: news["kept"]] if news["kept"] and self.script else []
        self.news = news
        self.script = {"kept": 0, "steps": had + news["steps"], "before": news["before"]}
        return self.script


def act(game: Game, seat: int, verb: str, *args: int) -> None:
    game.apply(Action(seat, verb, tuple(args)))


def close(game: Game) -> None:
    game.apply(Action(LEADER, "close"))


def items(step: dict[str, Any]) -> list[tuple[str, list[int], str]]:
    """A step's items as (kind, seats, text)."""
    return [(item["kind"], item["seats"], item["text"]) for item in step["items"]]


def werewolf_night() -> Game:
    """Night 1 of a werewolf table: the Seer looks at Ann, the Werewolves (Ann and Eve)
    choose Dee; the Witch is shown the victim and has not decided yet."""
    game = new_game("werewolf", NAMES, WEREWOLF, seed=3)
    act(game, 1, "inspect", 0)
    act(game, 0, "kill", 3)
    act(game, 4, "kill", 3)
    return game


def test_a_night_with_the_seer_the_werewolves_and_the_witch() -> None:
    game = werewolf_night()
    script = script_of(game)
    opening, seer, wolves, witch = script["steps"]
    # The game's opening (the deal is skipped: the page shows it apart) reads the night.
    assert (opening["event"], opening["kind"], opening["open"]) == (0, None, False)
    assert items(opening) == [("read", [], "Night 1 falls: the village goes to sleep.")]
    # The Seer's step: its call, what to show him (without the leader's "(to Bob) "
    # mark), then back to sleep.
    assert (seer["kind"], seer["step"], seer["card"], seer["woke"]) == ("wake", "seer", "seer", [1])
    assert items(seer) == [
        ("read", [], "The Seer wakes up and looks at a player's card."),
        ("show", [1], "Bob looks at the card of Ann: Werewolf."),
        ("sleep", [1], ""),
    ]
    assert seer["items"][1]["event"] == seer["event"] + 1
    sleep = seer["items"][2]
    assert (sleep["event"], sleep["step"], sleep["card"]) == (seer["event"], "seer", "seer")
    # The pack: shown to each other, its picks noted, its victim shown for approval.
    assert (wolves["step"], wolves["card"], wolves["woke"]) == ("werewolves", None, [0, 4])
    assert [kind for kind, _, _ in items(wolves)] == [
        "read",
        "show",
        "noted",
        "noted",
        "show",
        "sleep",
    ]
    assert items(wolves)[2] == ("noted", [], "Ann points at Dee.")
    assert items(wolves)[-2:] == [
        ("show", [0, 4], "The Werewolves choose Dee."),
        ("sleep", [0, 4], ""),
    ]
    # The Witch's step is under way: no sleep yet.
    assert (witch["step"], witch["open"], witch["woke"]) == ("witch", True, [2])
    assert items(witch) == [
        ("read", [], "The Witch wakes up and is shown the victim."),
        ("show", [2], "The Witch is shown the victim: Dee."),
    ]
    # A page that has shown no step recaps from the step before (the pack's).
    assert script["before"] == wolves["event"]
    assert all(not step["open"] for step in script["steps"][:-1])


def test_the_night_ends_with_its_news_and_the_game_with_its_last_step() -> None:
    game = werewolf_night()
    act(game, 2, "pass")
    steps = script_of(game)["steps"]
    witch = next(step for step in steps if step["step"] == "witch")
    # The dawn's news ends the Witch's night: she goes back to sleep first.
    kinds = [kind for kind, _, _ in items(witch)]
    assert kinds[:3] == ["read", "show", "sleep"] and "read" in kinds[3:]
    assert not witch["open"] and witch["woke"] == [2]
    rng = random.Random(1)
    for _ in range(3000):  # (the leader enters choices at random, closes now and then)
        if game.finished:
            break
        waiting = [seat for seat in range(len(NAMES)) if game.legal_actions(seat)]
        if waiting and rng.random() < 0.8:
            game.apply(rng.choice(game.legal_actions(rng.choice(waiting))))
        else:
            close(game)
    assert game.finished
    script = script_of(game)
    assert not any(step["open"] for step in script["steps"])
    last = script["steps"][-1]
    assert last["items"], last


def test_a_reload_mid_step_is_sent_the_same_script() -> None:
    """A page that followed the game frame by frame, each frame's news merged, and a new
    one (a reload in the middle of the Witch's step) hold the same script; and it stays
    so. A frame carries only the steps its page does not have closed."""
    game = new_game("werewolf", NAMES, WEREWOLF, seed=3)
    page = Page()
    first = page.frame(game)
    # Before anything is decided, the first step is the Seer's, open; a new page
    # recaps from the night's first event.
    assert page.news["kept"] == 0
    assert [step["step"] for step in first["steps"]] == [None, "seer"]
    assert first["steps"][-1]["open"] and first["steps"][-1]["woke"] == [1]
    assert first["before"] == first["steps"][0]["items"][0]["event"]
    for seat, verb, target in ((1, "inspect", 0), (0, "kill", 3), (4, "kill", 3)):
        act(game, seat, verb, target)
        assert page.frame(game) == script_of(game)
    # (the pack's step closed by the last kill, the Witch's opened: the opening and the
    # Seer's are kept)
    assert page.news["kept"] == 2
    assert [step["step"] for step in page.news["steps"]] == ["werewolves", "witch"]
    reloaded = Page()
    assert reloaded.frame(game) == script_of(game)
    act(game, 2, "heal")
    after = page.frame(game)
    assert reloaded.frame(game) == after == script_of(game)
    # A reader lost (not where the client's events are) reads them again, as narrated,
    # and sends the whole script.
    reloaded.sent.script = None
    close(game)
    assert reloaded.frame(game) == page.frame(game) == script_of(game)
    assert reloaded.news["kept"] == 0 < page.news["kept"]


def test_in_maffia_the_dead_watch_the_night_and_are_not_woken() -> None:
    """Maffia's eliminated are told the night's private events (they watch with open
    eyes): the script shows them nothing and puts them to sleep never."""
    game = new_game("maffia", NAMES[:7], MAFFIA, seed=1)
    act(game, 0, "kill", 3)
    act(game, 1, "protect", 1)
    act(game, 2, "inspect", 0)
    close(game)  # (the day's nominations: nobody)
    assert (game.phase, game.number) == ("night", 2)
    close(game)  # the mafia sleep: Dee, dead, watches
    close(game)  # the Doctor does nothing: his step told nobody anything
    view = game.view(LEADER)
    watched = [e for e in view.events if e.number == 2 and e.audience and 3 in e.audience]
    assert watched, "Dee is told the second night's steps"
    steps = script_of(game)["steps"]
    mafia, doctor, detective = steps[-3:]
    assert (mafia["step"], mafia["woke"]) == ("mafia", [0])
    assert all(3 not in seats for _, seats, _ in items(mafia))
    assert ("show", [0], "The Mafia choose nobody.") in items(mafia)
    # Nobody was told anything in the Doctor's step: his card's holder sleeps again.
    assert (doctor["step"], doctor["card"], doctor["woke"]) == ("doctor", "doctor", [1])
    assert items(doctor)[-1] == ("sleep", [1], "")
    assert detective["open"] and detective["woke"] == [2]


def test_a_step_that_told_nobody_anything_is_no_recap_start() -> None:
    """A page that has shown no step recaps from the step before, but not from a night
    step the next step followed at once (nobody was told anything in it)."""
    game = new_game("maffia", NAMES[:7], MAFFIA, seed=1)
    act(game, 0, "kill", 3)
    close(game)  # the Doctor protects nobody: the Detective's step follows at once
    script = script_of(game)
    mafia, doctor, detective = script["steps"][-3:]
    assert (doctor["step"], detective["step"]) == ("doctor", "detective")
    assert detective["event"] == doctor["event"] + 1
    assert script["before"] == mafia["event"]


def test_lupusburg_is_one_step_read_from_the_start() -> None:
    """Lupusburg's kinds open no step: its script is the game's opening, under way."""
    characters = [("townsfolk", "werewolf"), ("thief", "townsfolk")] + [("townsfolk",) * 2] * 3
    game = new_game(
        "lupusburg", NAMES[:5], characters=characters, chests=[1, 2, 1, 2, 1], burgomaster=2
    )
    script = script_of(game)
    (opening,) = script["steps"]
    assert (opening["event"], opening["kind"], opening["open"]) == (0, None, True)
    assert items(opening)[0][0] == "read"
    assert "The first Burgomaster is Cy." in items(opening)[0][2]
    assert script["before"] == 0


def test_a_player_and_a_spectator_never_get_a_script() -> None:
    game = werewolf_night()
    for seat in (0, 1, 2, 3, PUBLIC):
        frame = frame_of(game, Sent(), seat)
        assert "script" not in frame, seat
    assert "script" in frame_of(game, Sent())


def test_the_leaders_mark_is_taken_off() -> None:
    assert unmarked("(to Ann and Eve) Ann points at Dee.") == "Ann points at Dee."
    assert unmarked("Night 1 falls.") == "Night 1 falls."


def test_the_protocol_document_names_every_field_of_the_script() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text("utf-8")
    section = doc.split("#### `script`", 1)[1].split("\n### ", 1)[0]
    for model, prefix in ((Script, "script"), (ScriptStep, "steps[]"), (ScriptItem, "items[]")):
        for name in [field.name for field in dataclasses.fields(model)]:
            assert f"`{prefix}.{name}`" in section, (model.__name__, name)
