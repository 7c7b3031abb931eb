"""A village seat's own part of its frame (``view.own``, ``lupus.village.own``) is what
the seat's view holds, and the truth of the game: the pages read it instead of the
event log (issue 26 item 3).

Games of every village rulebook are played to their end by bots; after every action,
each seat's reader (fed its view's events once, as a server does) says the card the
game gives that seat now, and only that card; the game leader's says every seat's; a
seat's answers are the visions and inspections told to it, in order; and ``died``
names each dead seat with the index of its death's event in that view.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lupus.engine.game import Game
from lupus.engine.model import LEADER
from lupus.families import family_of
from lupus.village.own import VillageOwnReader
from test_public_table import BOTS, DEALS, SEEDS, SETTINGS, lift, new_game, play


class OwnWatch:
    """Feeds every seat's (and the leader's) reader its view's news after each action,
    and checks what it says against the game (see the module)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        family = family_of(game.rulebook)
        self.readers: dict[int, VillageOwnReader] = {}
        for seat in [LEADER, *range(game.n)]:
            reader = family.seat_reader(seat)
            assert isinstance(reader, VillageOwnReader)
            self.readers[seat] = reader
        assert family.seat_reader(LEADER - 1) is None, "a spectator has no part of his own"
        self.checked = 0

    def __call__(self) -> None:
        game = self.game
        roles = list(game.roles)  # type: ignore[attr-defined]
        for seat, reader in self.readers.items():
            events = game.view(seat).events
            for event in events[reader.count :]:
                reader.feed(event)
            own = reader.to_json()
            assert own["seat"] == seat
            dealt = any(event.kind == "role_dealt" for event in events)
            if seat == LEADER:
                expected = {str(s): role for s, role in enumerate(roles)} if dealt else {}
                assert own["cards"] == expected
                assert own["answers"] == []
            else:
                assert own["cards"] == ({str(seat): roles[seat]} if dealt else {})
                assert own["answers"] == answers(events, seat)
            died = own["died"]
            assert isinstance(died, dict)
            dead = {int(s) for s in died}
            # (a death at night is told at dawn: until then the seat still stands)
            standing = set(game.standing())  # type: ignore[attr-defined]
            assert dead == set(range(game.n)) - standing
            for s, at in died.items():
                assert events[at].kind == "death" and events[at].seat("player") == int(s)
        self.checked += 1


def answers(events: tuple[object, ...], seat: int) -> list[dict[str, object]]:
    """The seat's visions and inspections, read here again by their kinds."""
    found: list[dict[str, object]] = []
    for event in events:
        kind, data = event.kind, event.data  # type: ignore[attr-defined]
        if event.audience is None or seat not in event.audience:  # type: ignore[attr-defined]
            continue
        if kind == "vision" and data["player"] != seat:
            found.append({"seat": data["player"], "role": data["role"], "side": None})
        elif kind == "inspection" and data["player"] != seat:
            found.append({"seat": data["player"], "role": None, "side": data["side"]})
        else:
            continue
        found[-1]["number"] = event.number  # type: ignore[attr-defined]
    return found


def run(
    rules: str, dealt: tuple[int, dict[str, int], dict[str, object]], seed: int, kind: str
) -> None:
    n, counts, options = dealt
    game = new_game(rules, n, counts, {**options, **lift(rules)}, seed)
    watch = OwnWatch(game)
    play(game, watch, seed, kind)  # type: ignore[arg-type]
    assert watch.checked >= 2


@pytest.mark.parametrize("rules", ["werewolf", "tit-albert", "maffia", "mafia-classic"])
@SETTINGS
@given(data=st.data(), seed=SEEDS, kind=BOTS)
def test_every_village_rulebook(rules: str, data: st.DataObject, seed: int, kind: str) -> None:
    run(rules, data.draw(DEALS[rules], label="dealt"), seed, kind)
