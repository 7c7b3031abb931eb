"""An event's number tells its holder nothing he may not know.

``Event.seq`` numbered the game's ledger: the gaps in one seat's numbers told him that
hidden events had happened (the Little Girl spied, a banished player was the
Detective). Now a public event is numbered among the public events and an event told
to a seat among everything that seat may see: a seat's numbers are a function of its
own view, which these tests check on every view of random games of every rulebook,
and on pairs of games that differ only in what a seat may not know.
"""

from __future__ import annotations

import pytest

from lupus import Action, new_game
from lupus.engine.event_json import plain
from lupus.engine.game import Game
from lupus.engine.model import LEADER, PUBLIC
from lupus.engine.views import View, view_before
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import Table, play

RULEBOOKS = [
    ("werewolf", 8),
    ("tit-albert", 8),
    ("maffia", 8),
    ("mafia-classic", 8),
    ("lupusburg", 6),
]


def numbers_problem(view: View) -> str | None:
    """What is wrong with the numbers of a seat's (or a spectator's) view."""
    public = 0
    for place, event in enumerate(view.events):
        if event.audience is None:
            if event.seq != public:
                return f"public event {place} ({event.kind}) numbered {event.seq}, not {public}"
            public += 1
        elif event.seq != place:
            return f"private event {place} ({event.kind}) numbered {event.seq}"
    return None


@pytest.mark.parametrize(("rules", "players"), RULEBOOKS)
def test_every_seat_numbers_only_what_it_sees(rules: str, players: int) -> None:
    table = Table(SimConfig(rules, players))
    for index in range(4):
        game, _ = play(table, index)
        for seat in [PUBLIC, *range(players)]:
            view = game.public_view() if seat == PUBLIC else game.view(seat)
            assert numbers_problem(view) is None, (rules, index, seat)
        # The leader's events: the public ones and those told to one seat as that seat
        # holds them; an event told to several, numbered by its place in the ledger.
        leader = game.view(LEADER).events
        for place, event in enumerate(leader):
            if event.audience is None:
                continue
            if len(event.audience) == 1:
                (seat,) = event.audience
                assert game.view(seat).events[event.seq] is event
            else:
                assert event.seq == place


@pytest.mark.parametrize(("rules", "players"), RULEBOOKS)
def test_news_and_cut_views_number_the_same(rules: str, players: int) -> None:
    """The server's two ways to a view (news after what was sent, a view cut before a
    held step) hand out the same numbered events as the whole view."""
    game, _ = play(Table(SimConfig(rules, players)), 1)
    for seat in range(players):
        whole = game.view(seat)
        for cut in range(0, len(game.events) + 1, 7):
            before = view_before(game, seat, cut)
            assert before.events == whole.events[: len(before.events)]
            assert [e.seq for e in before.events] == [
                e.seq for e in whole.events[: len(before.events)]
            ]
            public, private = before.counts()
            assert whole.news(public, private) == whole.events[public + private :]


def werewolf_night(spy: bool) -> Game:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    roles = ["werewolf", "werewolf", "seer", "witch", "little-girl", *["villager"] * 3]
    game = new_game("werewolf", names, roles, options={"little_girl_catch_chance": 0.0}, seed=3)
    game.apply(Action(2, "inspect", (0,)))
    game.apply(Action(4, "spy" if spy else "pass", ()))
    game.apply(Action(0, "kill", (5,)))
    game.apply(Action(1, "kill", (5,)))
    game.apply(Action(3, "pass", ()))
    return game


def told(view: View) -> list[object]:
    return [(ev.kind, ev.audience, ev.seq, plain(ev.data)) for ev in view.events]


def test_a_villager_cannot_tell_that_the_little_girl_spied() -> None:
    spied, slept = werewolf_night(True), werewolf_night(False)
    assert told(spied.view(4)) != told(slept.view(4))  # she knows what she did
    assert len(spied.events) > len(slept.events)  # (the ledger has more)
    for seat in (0, 1, 2, 3, 5, 6, 7):
        assert told(spied.view(seat)) == told(slept.view(seat)), seat
    assert told(spied.public_view()) == told(slept.public_view())


def maffia_night(detective: int, looks_at: int) -> Game:
    """A maffia night and day in which the Detective sits at ``detective`` and looks at
    ``looks_at``; everything else is the same."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    roles = ["mafia", "mafia", "villager", "doctor", *["villager"] * 4]
    roles[detective] = "detective"
    game = new_game("maffia", names, roles, seed=5)
    for _ in range(80):
        if game.phase == "day":
            break
        seat = game.first_waiting()
        if seat is None:
            game.apply(Action(LEADER, "close", ()))
            continue
        verbs = {p.verb: p for p in game.prompts(seat)}
        if "kill" in verbs:
            game.apply(Action(seat, "kill", (7,)))
        elif "protect" in verbs:
            game.apply(Action(seat, "protect", (3,)))
        elif "inspect" in verbs:
            game.apply(Action(seat, "inspect", (looks_at,)))
        else:
            verb = next(iter(verbs))
            game.apply(Action(seat, verb, verbs[verb].choices[0]))
    assert game.phase == "day"
    return game


def test_nobody_else_can_tell_where_the_detective_sits_or_whom_he_saw() -> None:
    games = [maffia_night(2, 0), maffia_night(5, 0), maffia_night(2, 4)]
    leader = [told(game.view(LEADER)) for game in games]
    assert leader[0] != leader[1] and leader[0] != leader[2]  # the games do differ
    for seat in (0, 1, 3, 4, 6):  # the mafia, the Doctor, villagers in all three games
        seen = [told(game.view(seat)) for game in games]
        assert seen[0] == seen[1] == seen[2], seat
