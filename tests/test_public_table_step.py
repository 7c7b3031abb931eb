"""The public table's step under way, its end and the places of its outcome's events
(``view.public.step``, ``.end``, ``outcome.deaths[].event``: docs/protocol.md), under
random bot games of every rulebook and in a few scenarios.

The pages used to read the step from the event log: the day's panel took the last
public ``vote_opens``, ``election``, ``banishment_opens`` or ``nominations_open`` not
followed by a closing event, and each voter's latest public ballot (or the nominations
not withdrawn); the night screen the last public ``wake`` since night fell, named
``number.count``. ``legacy_step`` is that reading, written out as the pages did it;
the table's step must agree with it wherever it found a step, and find none of those
kinds where it found none. As for the rest of the table, the step is the same for a
seat, the leader and a spectator (``Watch`` of ``tests/test_public_table.py``), and
each of its entries is a public event of the step, never a private one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lupus import scenario as sc
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Event
from lupus.engine.table import PublicTable, TableEntry, TableStep
from lupus.engine.views import view_before
from lupus.families import table_of
from test_public_table import BOTS, DEALS, PROFILE, SCALE, SEEDS, Watch, lift, new_game, play

OPENS = ("vote_opens", "election", "banishment_opens", "nominations_open")
SCENARIOS = Path(__file__).parent / "scenarios"
CLOSES = ("tally", "no_elimination", "night", "captain", "nominees", "no_nominations")


def legacy_step(events: list[Event]) -> tuple[str, int, list[tuple[int, int | None]]] | None:
    """The day's open ballot as day.js read it: (kind, place among the public events,
    entries as (seat, target) in the order the seats first entered), or None."""
    public = [event for event in events if event.audience is None]
    start = -1
    for place in range(len(public) - 1, -1, -1):
        kind = public[place].kind
        if kind in OPENS:
            start = place
            break
        if kind in CLOSES:
            return None
    if start < 0:
        return None
    opening = public[start]
    entries: dict[int, int | None] = {}
    for event in public[start + 1 :]:
        if opening.kind == "nominations_open":
            if event.kind == "nomination":
                entries[event.seat("player")] = event.seat("target")
            elif event.kind == "withdrawal":
                entries.pop(event.seat("player"), None)
        elif event.kind == "ballot":
            entries[event.seat("player")] = event.maybe_seat("target")
    return opening.kind, start, list(entries.items())


def legacy_wake(events: list[Event], phase: str) -> tuple[str, str] | None:
    """The night step as story.js read it: (the step's id, its key), or None."""
    step: tuple[str, str] | None = None
    count = 0
    for event in events:
        if event.audience is not None:
            continue
        if event.kind == "night":
            count = 0
        if event.kind == "wake":
            count += 1
            step = (event.text("step"), f"{event.number}.{count}")
        elif event.phase != "night" or event.kind == "dawn":
            step = None
    return step if phase == "night" else None


class StepWatch(Watch):
    """``Watch``, and the step, the end and the outcome's places checked too."""

    def __call__(self) -> PublicTable:
        table = super().__call__()
        game = self.game
        events = list(game.view(LEADER).events)
        public = [event for event in events if event.audience is None]
        check_step(table, events, public, game.phase)
        check_places(table, public)
        check_end(table, game, public)
        return table


def check_step(table: PublicTable, events: list[Event], public: list[Event], phase: str) -> None:
    step = table.step
    found = legacy_step(events)
    if found is None:
        assert step is None or step.kind not in OPENS, f"a {step} the day's panel never saw"
    elif step is not None and step.kind == "tie" and public[-1] is public[step.event]:
        # An election's tie, cut before the next round that the same action opens at
        # once (no page is ever sent that moment): the day's panel read the first
        # round on, the table has the tie.
        assert public[step.event].text("vote") == "election"
    else:
        kind, start, entries = found
        assert step is not None and (step.kind, step.event) == (kind, start)
        assert step.entries == tuple([TableEntry(seat, target) for seat, target in entries])
        assert step.vote == (
            "nominations"
            if kind == "nominations_open"
            else "other"
            if kind == "election"
            else "counted"
        )
    wake = legacy_wake(events, phase)
    if wake is not None:
        assert step is not None and step.step is not None
        assert (step.step, f"{step.number}.{step.place}") == wake
    elif step is not None and phase == "night":
        assert step.step is None, "a night step the night screen never saw"
    if step is not None:
        opening = public[step.event]
        assert opening.kind == step.kind and opening.audience is None
        assert (opening.phase, opening.number) == (step.phase, step.number)
        if "candidates" in opening.data:
            assert step.candidates == tuple(opening.seats("candidates"))
        for entry in step.entries:
            cast = [
                event
                for event in public[step.event + 1 :]
                if event.data.get("player") == entry.seat and "target" in event.data
            ]
            assert cast, "every entry is a public event of the step"


def check_places(table: PublicTable, public: list[Event]) -> None:
    outcome = table.outcome
    if outcome is None:
        return
    for death in outcome.deaths:
        told = public[death.event]
        assert told.kind in ("death", "character_dies")
        if death.house is None:
            assert told.seat("player") == death.seat
        else:
            assert told.seat("house") == death.house
        assert (told.phase, told.number) == (outcome.phase, outcome.number)
    if outcome.nobody_event is not None:
        told = public[outcome.nobody_event]
        assert told.kind == ("no_death" if outcome.phase == "night" else "no_elimination")
        assert told.number == outcome.number
    assert (outcome.failed_event is not None) == outcome.failed_attempt
    if outcome.failed_event is not None:
        assert public[outcome.failed_event].kind == "failed_attempt"


def check_end(table: PublicTable, game: Game, public: list[Event]) -> None:
    end = table.end
    over = [event for event in public if event.kind == "game_over"]
    assert (end is None) == (not over) == (not game.finished)
    if end is None:
        return
    (told,) = over
    assert end.winners == tuple(told.seats("winners")) and end.winner == told.text("winner")
    assert end.reason == told.text("reason")
    data = end.to_json()
    if "scores" in told.data:
        assert data["scores"] == {str(s): n for s, n in told.seat_ints("scores").items()}
        bets = data["bets"]
        assert isinstance(bets, dict)
        told_bets = told.data["bets"]
        assert isinstance(told_bets, Mapping)
        assert bets == {str(s): list(bet) for s, bet in told_bets.items()}
    else:
        assert data["scores"] is None and data["parts"] is None and data["bets"] is None


def run(
    rules: str, dealt: tuple[int, dict[str, int], dict[str, object]], seed: int, kind: str
) -> None:
    n, counts, options = dealt
    game = new_game(rules, n, counts, {**options, **lift(rules)}, seed)
    watch = StepWatch(game)
    play(game, watch, seed, kind)
    assert watch.checked >= 2


SETTINGS = settings(max_examples=4 * SCALE, **PROFILE)


@pytest.mark.parametrize("rules", sorted(DEALS))
@SETTINGS
@given(data=st.data(), seed=SEEDS, kind=BOTS)
def test_the_step_is_the_one_the_pages_read(
    rules: str, data: st.DataObject, seed: int, kind: str
) -> None:
    run(rules, data.draw(DEALS[rules]), seed, kind)


@pytest.mark.parametrize("rules", sorted(path.name for path in SCENARIOS.iterdir()))
def test_every_scenario_at_every_event(rules: str) -> None:
    """Every scenario of a rulebook, cut before each of its events (as a server holds
    a step back): the step, the outcome's places and the end agree with the log, a
    changed ballot keeping its voter's place (``day-vote-change-before-close``)."""
    checked = 0
    for path in sorted((SCENARIOS / rules).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        try:
            game = sc.replay(sc.parse(data)).game
        except sc.ScenarioError:
            continue  # (a scenario of a refused action stops short: its own test)
        total = len(game.view(LEADER).events)
        for cut in range(total + 1):
            view = view_before(game, LEADER, cut)
            events = list(view.events)
            public = [event for event in events if event.audience is None]
            table = table_of(view)
            check_step(table, events, public, view.phase)
            check_places(table, public)
            checked += 1
    assert checked > 20


def step_after(name: str, actions: int) -> TableStep | None:
    """The step under way after a scenario's first ``actions``, the same for a seat,
    the leader and a spectator."""
    data = json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
    data["actions"] = data["actions"][:actions]
    game = sc.replay(sc.parse(data)).game
    table = table_of(game.public_view())
    assert table_of(game.view(LEADER)) == table == table_of(game.view(2))
    return table.step


def test_nominations_withdrawn_and_the_banishment() -> None:
    """maffia: Dan (3) nominates Eva (4), withdraws, nominates Anna (0); the leader
    closes the nominations, and the banishment of Anna opens with the votes needed."""
    name = "maffia/nominations-withdraw-and-renominate"
    night = step_after(name, 3)
    assert night is not None and (night.kind, night.step, night.vote) == ("wake", "detective", None)
    assert (night.phase, night.number, night.place) == ("night", 1, 3)
    for actions, entries in ((4, ()), (5, ((3, 4),)), (6, ()), (7, ((3, 0),))):
        step = step_after(name, actions)
        assert step is not None and (step.kind, step.vote) == ("nominations_open", "nominations")
        assert step.entries == tuple([TableEntry(s, t) for s, t in entries]), actions
        assert step.candidates is None and step.needed is None
    banishment = step_after(name, 10)
    assert banishment is not None and banishment.kind == "banishment_opens"
    assert (banishment.vote, banishment.candidates, banishment.needed) == ("counted", (0,), 5)
    # (maffia tells the banishment's ballots only once it closes, all at once)
    assert banishment.entries == ()
    data = banishment.to_json()
    assert data["candidates"] == [0] and data["step"] is None and data["entries"] == []
    after = step_after(name, 16)  # (Anna banished, the night falls: the mafia wakes)
    assert after is not None and after.kind == "wake" and after.step == "mafia"
    assert (after.phase, after.number, after.place) == ("night", 2, 1)
