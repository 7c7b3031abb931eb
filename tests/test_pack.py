"""The pack agrees (issue 24): in every rulebook with a pack, its step closes on its own
as soon as every living member has made the same choice, stays open while they
disagree (every member may change his choice meanwhile, and each change is told to the
den), and a close while they disagree applies the rulebook's rule as before; a dead
member is never waited for; a game without a clock closes a pack that has had its say
twice (``Step.stalled``); and packs of bots agree by themselves within a round.

The classic mafia need not agree (``pack_must_agree = false``): its step resolves once
every member has named someone, whatever they named.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lupus.bots.den import den, lead
from lupus.engine.counting import plurality
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action
from lupus.families import new_game
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import Table, play, set_up
from lupus.village.pack import PackBallot

CLOSE = Action(LEADER, "close")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
ANN, BOB, CY = 0, 1, 2  # the pack, in every rulebook here
PACK = (ANN, BOB, CY)
FAY, GUS, HAL, IVY = 5, 6, 7, 8

# (rulebook, roles, options, the actions that lead to the pack's first step, the pack's
# verb): three pack members in a table of nine.
SETUPS = {
    "werewolf": (
        ["werewolf"] * 3 + ["seer", "witch"] + ["villager"] * 4,
        {},
        [Action(3, "inspect", (FAY,))],
    ),
    "tit-albert": (
        ["werewolf"] * 3 + ["seer", "witch"] + ["villager"] * 4,
        {},
        [Action(3, "inspect", (FAY,))],
    ),
    "maffia": (
        ["mafia", "mafia", "godfather", "doctor", "detective"] + ["villager"] * 4,
        {},
        [],
    ),
    "mafia-classic": (["mafia"] * 3 + ["villager"] * 6, {"first_phase": "night"}, []),
}
BOOKS = list(SETUPS)
MUST_AGREE = [book for book in BOOKS if book != "mafia-classic"]


def pick_one(rng: random.Random, tied: list[int]) -> int:
    """The engine's tie-break (``Game.one_of``) drawn from a copy of its generator:
    ``random.Random.choice``, as the engine's draws are."""
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def at_pack_step(book: str, seed: int = 0) -> Game:
    roles, options, before = SETUPS[book]
    game = new_game(book, NAMES, roles, options=options, seed=seed)
    for action in before:
        game.apply(action)
    assert isinstance(game.step, PackBallot) and game.waiting() == list(PACK)
    return game


def kill(seat: int, target: int) -> Action:
    return Action(seat, "kill", (target,))


def choices_seen(game: Game, seat: int) -> list[tuple[int, int | None]]:
    """The pack's choices the seat was told tonight, in order."""
    return [
        (ev.seat("player"), ev.maybe_seat("target"))
        for ev in game.view(seat).events
        if ev.kind == "pack_choice" and (ev.phase, ev.number) == (game.phase, game.number)
    ]


def victim(game: Game) -> int | None:
    found = [ev for ev in game.view(ANN).events if ev.kind == "pack_victim"]
    assert len(found) == 1
    return found[0].maybe_seat("target")


@pytest.mark.parametrize("book", MUST_AGREE)
def test_disagreement_keeps_the_step_open_with_every_prompt(book: str) -> None:
    game = at_pack_step(book)
    step = game.step
    offered = {seat: game.prompts(seat) for seat in PACK}
    for action in (kill(ANN, FAY), kill(BOB, GUS), kill(CY, FAY)):
        game.apply(action)
    assert game.step is step and game.phase == "night"
    assert {seat: game.prompts(seat) for seat in PACK} == offered  # (they stay)
    assert game.waiting() == list(PACK)  # every member owes a new choice
    assert not [ev for ev in game.view(ANN).events if ev.kind == "pack_victim"]


def test_the_classic_mafia_need_not_agree() -> None:
    game = at_pack_step("mafia-classic")
    for action in (kill(ANN, FAY), kill(BOB, GUS), kill(CY, FAY)):
        game.apply(action)
    assert game.phase == "day" and victim(game) == FAY


@pytest.mark.parametrize("book", BOOKS)
def test_agreement_closes_the_step_at_once(book: str) -> None:
    game = at_pack_step(book)
    step = game.step
    game.apply(kill(ANN, GUS))
    game.apply(kill(BOB, GUS))
    assert game.step is step  # (Cy has not chosen yet)
    game.apply(kill(CY, GUS))
    assert game.step is not step and victim(game) == GUS


@pytest.mark.parametrize("book", MUST_AGREE)
def test_a_change_of_mind_is_told_to_the_den_and_may_agree(book: str) -> None:
    game = at_pack_step(book)
    step = game.step
    moves = [kill(ANN, FAY), kill(BOB, GUS), kill(CY, HAL), kill(ANN, HAL)]
    for action in moves:
        game.apply(action)
    assert game.step is step
    assert game.waiting() == [BOB, CY]  # Ann has just had her say: the others owe theirs
    game.apply(kill(BOB, HAL))
    assert game.step is not step and victim(game) == HAL
    told = [(m.actor, m.args[0]) for m in [*moves, kill(BOB, HAL)]]
    for seat in PACK:
        assert choices_seen(game, seat) == told
    assert not choices_seen(game, FAY) and not choices_seen(game, IVY)


@pytest.mark.parametrize("book", BOOKS)
def test_a_close_while_split_applies_the_rulebooks_rule(book: str) -> None:
    game = at_pack_step(book)
    for action in (kill(ANN, FAY), kill(BOB, GUS), kill(ANN, GUS), kill(ANN, FAY)):
        game.apply(action)
    # Ann: Fay, Bob: Gus, Cy silent: a tie the seeded generator breaks, as it always did.
    draw = random.Random()
    draw.setstate(game.rng.getstate())
    expected = pick_one(draw, plurality({FAY: 1, GUS: 1}))
    game.apply(CLOSE)
    assert victim(game) == expected


@pytest.mark.parametrize("book", MUST_AGREE)
def test_a_close_takes_the_target_named_most(book: str) -> None:
    game = at_pack_step(book)
    for action in (kill(ANN, FAY), kill(BOB, GUS), kill(CY, FAY), CLOSE):
        game.apply(action)
    assert victim(game) == FAY


@pytest.mark.parametrize("book", ["werewolf", "tit-albert"])
def test_sleep_and_a_name_is_no_agreement_all_asleep_is(book: str) -> None:
    game = at_pack_step(book)
    step = game.step
    for action in (Action(ANN, "sleep"), Action(BOB, "sleep"), kill(CY, FAY)):
        game.apply(action)
    assert game.step is step and game.waiting() == list(PACK)
    game.apply(Action(CY, "sleep"))
    if book == "werewolf":  # the seed's starvation
        assert game.finished and game.outcome is not None
        assert game.outcome.reason == "starvation"
    else:
        assert game.step is not step and victim(game) is None


@pytest.mark.parametrize("book", MUST_AGREE)
def test_a_dead_member_is_not_waited_for(book: str) -> None:
    game = at_pack_step(book)
    for action in (kill(ANN, IVY), kill(BOB, IVY), kill(CY, IVY)):
        game.apply(action)
    # Through the rest of the night and the day, which eliminates Cy.
    for _ in range(200):
        if game.phase == "night" and isinstance(game.step, PackBallot):
            break
        seat = game.first_waiting()
        if seat is None:
            game.apply(CLOSE)
            continue
        verbs = {p.verb: p for p in game.prompts(seat)}
        if "nominate" in verbs:
            game.apply(Action(seat, "nominate", (CY if seat != CY else ANN,)))
        elif "vote" in verbs:
            target = CY if verbs["vote"].allows((CY,)) else verbs["vote"].choices[0][0]
            game.apply(Action(seat, "vote", (target,)))
        else:
            game.apply(game.legal_actions(seat)[-1])
    assert not game.alive[CY] and game.phase == "night"
    assert game.waiting() == [ANN, BOB]
    step = game.step
    game.apply(kill(ANN, HAL))
    assert game.step is step and game.waiting() == [BOB]  # not Cy
    game.apply(kill(BOB, HAL))
    assert game.step is not step


@pytest.mark.parametrize("book", BOOKS)
def test_a_pack_is_stalled_once_every_member_chose_twice_and_they_disagree(book: str) -> None:
    game = at_pack_step(book)
    step = game.step
    assert step is not None
    seen = []
    for action in (kill(ANN, FAY), kill(BOB, GUS), kill(CY, HAL)) * 2:
        if game.step is not step:
            break
        seen.append(step.stalled(game))
        game.apply(action)
    if book == "mafia-classic":
        assert game.step is not step  # (resolved at the third pick)
        return
    assert seen == [False] * 6 and step.stalled(game)  # (after the sixth choice)


# ---------------------------------------------------------------------- any order
@settings(max_examples=60, deadline=None)
@given(
    book=st.sampled_from(BOOKS),
    moves=st.lists(st.tuples(st.sampled_from(PACK), st.sampled_from([FAY, GUS, HAL])), max_size=12),
    seed=st.integers(0, 3),
)
def test_the_step_closes_exactly_when_the_pack_agrees(
    book: str, moves: list[tuple[int, int]], seed: int
) -> None:
    """Any choices in any order: the step resolves at the first choice after which every
    member has chosen and all choose the same (the classic mafia: after which every
    member has chosen), never before; a close afterwards takes the plurality of the
    latest choices, a tie drawn by the game's generator."""
    game = at_pack_step(book, seed)
    step = game.step
    latest: dict[int, int] = {}
    for member, target in moves:
        game.apply(kill(member, target))
        latest[member] = target
        for seat in PACK:  # (the bots' one-pass reading says what the den says)
            found = den(game.view(seat))
            assert lead(game.view(seat)) == (None if found is None else found.lead(seat))
        done = len(latest) == len(PACK) and (
            book == "mafia-classic" or len(set(latest.values())) == 1
        )
        assert (game.step is not step) == done
        if done:
            assert victim(game) in set(latest.values())
            if len(set(latest.values())) == 1:
                assert victim(game) == target
            return
    draw = random.Random()
    draw.setstate(game.rng.getstate())
    tally = Counter(latest.values())
    expected = pick_one(draw, plurality(dict(tally))) if tally else None
    game.apply(CLOSE)
    if book == "werewolf" and not latest:
        assert game.finished  # (nobody named: the seed's starvation)
        return
    assert victim(game) == expected


# ---------------------------------------------------------------------- what a member sees
@pytest.mark.parametrize("book", BOOKS)
def test_a_members_view_shows_each_members_current_choice(book: str) -> None:
    game = at_pack_step(book)
    for seat in PACK:
        found = den(game.view(seat))
        assert found is not None and found.current() == [(ANN, None), (BOB, None), (CY, None)]
    assert den(game.view(FAY)) is None and den(game.view(LEADER)) is None
    game.apply(kill(ANN, FAY))
    game.apply(kill(BOB, GUS))
    game.apply(kill(ANN, GUS))
    found = den(game.view(CY))
    assert found is not None and found.current() == [(ANN, GUS), (BOB, GUS), (CY, None)]
    assert found.lead(CY) is None  # (Cy has not chosen yet: nothing to follow)
    assert found.lead(ANN) == GUS
    game.apply(kill(CY, GUS))
    assert all(den(game.view(seat)) is None for seat in PACK)  # (the step is over)


def test_a_member_asked_again_joins_the_most_named_the_latest_on_a_tie() -> None:
    game = at_pack_step("maffia")
    for action in (kill(ANN, FAY), kill(BOB, GUS), kill(CY, HAL)):
        game.apply(action)
    found = den(game.view(ANN))
    assert found is not None and found.lead(ANN) == HAL  # Gus and Hal, once each: Hal is later
    game.apply(kill(BOB, HAL))
    found = den(game.view(ANN))
    assert found is not None and found.lead(ANN) == HAL  # twice against none


# ---------------------------------------------------------------------- bots agree
@pytest.mark.parametrize(
    ("book", "players", "counts"),
    [
        ("werewolf", 12, {"werewolf": 3, "seer": 1, "witch": 1, "villager": 7}),
        ("tit-albert", 12, {"werewolf": 4, "seer": 1, "villager": 7}),
        ("maffia", 12, {}),
    ],
)
@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_a_pack_of_bots_agrees_by_itself_within_a_round(
    book: str, players: int, counts: dict[str, int], bots: str
) -> None:
    """In self-play no pack step is left to the simulator's close: a member joins the
    others' lead (the heuristic's first pick is the first pick that suits him, the
    random bot's the others' lead; asked again, both join the lead, and everyone after
    the first one asked follows it), so the pack agrees within two rounds, each member
    choosing at most twice; a pack of random bots agrees at once."""
    table = Table(SimConfig(book, players, counts, bots={"*": bots}, seed=5))
    steps = 0
    for index in range(40):
        game, _ = play(table, index)
        fresh, _ = set_up(table, index)
        step: object = None
        said = 0
        for action in game.history:
            now = fresh.step
            if isinstance(now, PackBallot):
                if now is not step:
                    step, said = now, 0
                    steps += 1
                assert action.actor != LEADER, (index, "a pack step closed by the timer")
                said += 1
                assert said <= 2 * len(now.voters), (index, "more than two rounds")
                if bots == "random":
                    assert said <= len(now.voters), (index, "a random pack split")
            fresh.apply(action)
    assert steps > 40
