"""The public table (``view.public``) under random bot games of every rulebook.

A game is a random deal (with the roles and options that make the table interesting:
the Captain, the Hunter, the Witch, Cupid, the Thief, the Couple, the Doctor) played to
its end by the simulator's bots, as ``lupus.sim.selfplay.play`` does. After every action
the table is derived for the spectator, the leader and every seat, and checked:

* it is the same for all of them (it depends on the public events only), read from
  scratch or incrementally (``PublicTables``), and the same again for views cut
  before any event (``view_before``, a server's held step);
* alive and dead agree with the public deaths (``View.dead``) and never contradict the
  game's hidden state (all deaths are told once the village is awake);
* a card is shown only once a public event has revealed it (a death in a rulebook that
  reveals cards, maffia's couple told after a heartbreak, the game's end), and it is
  the seat's real card; Lupusburg shows no character, chest or card before the end,
  and all of them at the end;
* the titles follow the public elections and successions (the Captain: the engine's
  own Captain whenever the village is awake; the Burgomaster: always);
* the outcome is the latest phase that had one: its deaths are the game's deaths of
  that phase with their causes, a night has no ``votes``, a day's vote victim is among
  the most voted, and a failed attempt is told only where the rulebook tells it;
* Lupusburg's board (``table.board``) is the game's day: its Burgomaster's turns, the
  bets' targets, today's tokens, the stage; and each seat's own part (``view.own``,
  read from its view's events incrementally) is true to the game and, read again from
  scratch, the same.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from lupus.bots.base import Bot
from lupus.bots.kinds import make_bot
from lupus.engine.deal import seat_names
from lupus.engine.game import Game
from lupus.engine.model import LEADER, PUBLIC, Action, Event
from lupus.engine.table import PublicTable, TableVote
from lupus.engine.views import view_before
from lupus.families import deal, load, set_up, table_of, tables
from lupus.lupusburg.board import LupusburgBoard
from lupus.lupusburg.game import THIEF, TOWNSFOLK, WEREWOLF, LupusburgGame
from lupus.lupusburg.own import OwnReader
from lupus.rulebooks.schema import OptionValue
from lupus.village.game import VillageGame
from playout import PROFILE, SCALE

TIMER = Action(LEADER, "close")
NIGHT = "night"


# ---------------------------------------------------------------------- the games
@st.composite
def werewolf_deals(draw: st.DrawFn, rules: str) -> tuple[int, dict[str, int], dict[str, object]]:
    """A werewolf or tit-albert table of 8 to 12 with some of the special roles."""
    n = draw(st.integers(8, 12))
    wolves = draw(st.integers(2, 3)) if rules == "werewolf" else draw(st.integers(1, 3))
    specials = ["seer"] if rules == "werewolf" else []
    for role in ("seer", "witch", "hunter", "cupid", "little-girl", "thief"):
        if role not in specials and draw(st.booleans()):
            specials.append(role)
    counts = {"werewolf": wolves, **dict.fromkeys(specials, 1)}
    cards = n + (2 if "thief" in specials else 0)
    counts["villager"] = cards - sum(counts.values())
    options: dict[str, object] = {"captain": draw(st.booleans())}
    return n, counts, options


@st.composite
def maffia_deals(draw: st.DrawFn) -> tuple[int, dict[str, int], dict[str, object]]:
    n = draw(st.integers(7, 12))
    counts = {"mafia": draw(st.integers(1, 2))}
    if draw(st.booleans()):
        counts["godfather"] = 1
    for role, cards in (("doctor", 1), ("detective", 1), ("couple", 2), ("avenger", 1)):
        if draw(st.booleans()):
            counts[role] = cards
    counts["villager"] = n - sum(counts.values())
    return n, counts, {}


@st.composite
def classic_deals(draw: st.DrawFn) -> tuple[int, dict[str, int], dict[str, object]]:
    n = draw(st.integers(5, 10))
    mafia = draw(st.integers(1, 2))
    first = draw(st.sampled_from(["day", "night"]))
    return n, {"mafia": mafia, "villager": n - mafia}, {"first_phase": first}


@st.composite
def lupusburg_deals(draw: st.DrawFn) -> tuple[int, dict[str, int], dict[str, object]]:
    n = draw(st.integers(4, 8))
    return n, {"werewolf": 1, "thief": 1, "townsfolk": 2 * n - 2}, {}


DEALS = {
    "werewolf": werewolf_deals("werewolf"),
    "tit-albert": werewolf_deals("tit-albert"),
    "maffia": maffia_deals(),
    "mafia-classic": classic_deals(),
    "lupusburg": lupusburg_deals(),
}


def new_game(
    rules: str, n: int, counts: dict[str, int], options: Mapping[str, object], seed: int
) -> Game:
    book = load(rules)
    chosen: dict[str, OptionValue] = {}
    for name, value in options.items():
        assert isinstance(value, (bool, int, float, str))
        chosen[name] = value
    rng = random.Random(seed)
    dealt = deal(book, n, counts, rng, chosen)
    return set_up(book, seat_names(n), dealt, chosen, rng.getrandbits(63))


# ---------------------------------------------------------------------- the checks
class Watch:
    """Follows one game and checks its table after every action (see the module)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.book = game.rulebook
        self.spectator = tables(self.book, game.names)
        self.seats = [tables(self.book, game.names) for _ in range(game.n)]
        self.last: tuple[int, int] = (-1, 0)  # the outcome's place in the game, so far
        self.night = 0  # the number of the latest night begun
        self.checked = 0
        self.own = [OwnReader(seat) for seat in range(game.n)]

    def __call__(self) -> PublicTable:
        game = self.game
        if game.phase == NIGHT:
            self.night = game.number
        public = game.public_view()
        table = self.spectator.of(public)
        assert table == table_of(public), "read incrementally, read from scratch: the same"
        assert table_of(game.view(LEADER)) == table, "the leader's table is the public one"
        for seat, kept in enumerate(self.seats):
            view = game.view(seat)
            assert kept.of(view) == table, f"seat {seat}'s table is the public one"
            if isinstance(game, LupusburgGame):
                check_own(game, self.own[seat], view.news(*self.counts(seat)), view.events)
        self.check(table, public.dead())
        self.checked += 1
        return table

    def counts(self, seat: int) -> tuple[int, int]:
        """How many public and private events of its seat its own reader has read."""
        read = self.own[seat].count
        public = self.game.view(seat).events[:read]
        told = sum(1 for event in public if event.audience is None)
        return told, read - told

    def check(self, table: PublicTable, dead: set[int]) -> None:
        game = self.game
        assert [(p.seat, p.name) for p in table.players] == list(enumerate(game.names))
        assert {p.seat for p in table.players if not p.alive} == dead
        if isinstance(game, VillageGame):
            self.check_village(table, game)
        else:
            assert isinstance(game, LupusburgGame)
            self.check_lupusburg(table, game)
        self.check_outcome(table)

    def check_village(self, table: PublicTable, game: VillageGame) -> None:
        awake = not game.holding()
        mechanics = self.book.mechanics
        for p in table.players:
            truly_dead = not game.alive[p.seat]
            assert not p.houses
            if not p.alive:
                assert truly_dead, f"{p.seat} is shown dead and lives"
            elif awake:
                assert not truly_dead, f"{p.seat} died and is still shown alive"
            if p.card is not None:
                assert p.card == game.roles[p.seat], f"{p.seat} shown as {p.card}"
                told = game.finished or (not p.alive and mechanics.reveal_on_death)
                # maffia: a couple is told to be one after the heartbreak
                told = told or (p.card == "couple" and self.couple_told(p.seat))
                assert told, f"{p.seat}'s card {p.card} shown before it was revealed"
            else:
                assert not game.finished, "the end shows every card"
                assert p.alive or not mechanics.reveal_on_death, f"{p.seat}'s death hid his card"
        outcome = table.outcome
        tonight = outcome is not None and (outcome.phase, outcome.number) == (NIGHT, self.night)
        if outcome is not None and tonight and game.night.dawned:
            # a saved victim is a failed attempt where the rulebook tells it
            saved = game.night.saved is not None
            assert outcome.failed_attempt == (saved and mechanics.announce_failed_attempt)
        captains = [p.seat for p in table.players if "captain" in p.titles]
        assert len(captains) <= 1
        assert all(set(p.titles) <= {"captain"} for p in table.players)
        if awake:
            assert (captains[0] if captains else None) == game.captain

    def couple_told(self, seat: int) -> bool:
        return any(
            e.kind == "couple_revealed" and seat in e.seats("players")
            for e in self.game.public_view().events
        )

    def check_lupusburg(self, table: PublicTable, game: LupusburgGame) -> None:
        for p in table.players:
            assert [h.house for h in p.houses] == [2 * p.seat, 2 * p.seat + 1]
            assert [h.alive for h in p.houses] == [game.alive_house[h.house] for h in p.houses]
            assert p.alive == any(h.alive for h in p.houses)
            for h in p.houses:
                told = [(d.cause, d.phase, d.number) for d in game.deaths if d.house == h.house]
                assert [h.death] == (told or [None]), "a house's death is the game's"
            if not game.finished:
                assert p.card is None
                assert all(h.character is None and h.chest is None for h in p.houses)
                continue
            mine = [game.characters[h.house] for h in p.houses]
            assert [h.character for h in p.houses] == mine
            assert [h.chest for h in p.houses] == [game.chest[p.seat] == h.house for h in p.houses]
            part = WEREWOLF if WEREWOLF in mine else THIEF if THIEF in mine else TOWNSFOLK
            assert p.card == part
        holders = [p.seat for p in table.players if p.titles]
        assert holders == [game.burgomaster]
        assert table.players[game.burgomaster].titles == ("burgomaster",)
        assert isinstance(table.board, LupusburgBoard)
        check_board(table.board, game)

    def check_outcome(self, table: PublicTable) -> None:
        game = self.game
        outcome = table.outcome
        if outcome is None:
            assert not any(d for d in game.deaths if not self.hidden(d.phase, d.number))
            return
        phase, number = outcome.phase, outcome.number
        place = (number, 0 if phase == self.first_phase() else 1)
        assert place >= self.last, "the outcome never goes back to an earlier phase"
        self.last = place
        assert (outcome.votes is None) == (phase == NIGHT)
        if not self.hidden(phase, number):
            told = [
                (d.player, d.cause, d.house)
                for d in game.deaths
                if (d.phase, d.number) == (phase, number)
            ]
            assert [(d.seat, d.cause, d.house) for d in outcome.deaths] == told
        for death in outcome.deaths:
            if death.house is None:
                assert death.card == table.players[death.seat].card
            else:
                (house,) = [h for h in table.players[death.seat].houses if h.house == death.house]
                assert death.card == house.character
        if outcome.failed_attempt:
            mechanics = self.book.mechanics
            assert mechanics.announce_failed_attempt and phase == NIGHT
            assert all(d.cause != mechanics.kill_cause for d in outcome.deaths)
        votes: tuple[TableVote, ...] = outcome.votes or ()
        assert list(votes) == sorted(votes, key=lambda v: (-v.votes, v.seat))
        for death in outcome.deaths:
            if death.cause == "vote":
                most = [(v.seat, v.house) for v in votes if v.votes == votes[0].votes]
                assert (death.seat, death.house) in most, "the vote's victim had the most votes"

    def hidden(self, phase: str, number: int) -> bool:
        """Whether deaths of that phase may still be untold (a night before its dawn)."""
        game = self.game
        if isinstance(game, VillageGame):
            return game.holding() and (phase, number) == (game.phase, game.number)
        return False

    def first_phase(self) -> str:
        return "day" if self.game.options.get("first_phase") == "day" else NIGHT


def check_board(board: LupusburgBoard, game: LupusburgGame) -> None:
    """The public board is the game's day (see the module)."""
    assert board.coins == tuple(sorted(game.spec.bag, reverse=True))
    assert (board.stage == "over") == game.finished
    bets = dict(board.bets)
    kept = {seat: bet[0] for seat, bet in enumerate(game.bets) if bet is not None}
    assert kept.items() <= bets.items(), "every bet kept is on the board, with its target"
    assert len(bets) - len(kept) <= 1, "one bettor at most is still choosing his coin"
    assert board.bag == len(game.spec.bag) - len(bets)
    if game.finished:
        return
    if game.phase == "day":
        assert board.day == game.number and board.stage != "night"
        assert {house: len(by) for house, by in board.tokens} == game.tokens
        assert board.laid == sum(game.tokens.values())
    else:
        assert board.night == game.number and board.stage in ("night", "setup")
    if board.turn is not None:
        step, seat = board.turn
        if step == "betting":
            assert seat not in bets and seat not in board.passed
            assert game.first_waiting() in (seat, board.keeping, None)
        elif board.stage == "first_voting":
            assert game.first_waiting() in (seat, None)


def check_own(
    game: LupusburgGame, own: OwnReader, news: tuple[Event, ...], events: tuple[Event, ...]
) -> None:
    """A seat's own part, read incrementally, is the one read from scratch, and true."""
    for event in news:
        own.feed(event)
    again = OwnReader(own.seat)
    for event in events:
        again.feed(event)
    value = own.value()
    assert value == again.value(), "read incrementally, read from scratch: the same"
    seat = own.seat
    for house, character, how in value.characters:
        assert character == game.characters[house], (seat, house, how)
        assert (how == "own") == (house // 2 == seat)
    for house, chest, how in value.chests:
        assert chest == (game.chest[house // 2] == house), (seat, house, how)
        assert (how == "own") == (house // 2 == seat)
        assert how == "own" or seat == game.thief, "only the Thief peeks"
    assert value.claw is None or seat == game.werewolf, "only the Werewolf points the claw"
    bet = game.bets[seat]
    if bet is not None:
        assert value.coin == bet[1] and value.drawn is None
    assert value.drawn is None or not game.finished


def play(game: Game, watch: Watch, seed: int, kind: str) -> None:
    """Play to the end as the simulator does (``selfplay.play``), watching each state."""
    rng = random.Random(seed)
    bots: dict[str, Bot] = {}
    sides = game.sides_dealt()
    step, budget, patience = game.step, 0, 4 * game.n
    watch()
    for _ in range(3000):
        if game.finished:
            break
        if game.step is not step:
            step, budget = game.step, 0
        budget += 1
        seat = game.first_waiting()
        if seat is not None and budget <= patience:
            bot = bots.get(sides[seat])
            if bot is None:
                bot = bots[sides[seat]] = make_bot(kind, game.rulebook)
            game.apply(bot.act(game.view(seat), rng))
        else:
            game.apply(TIMER)
        watch()
    assert game.finished, "the game did not end"


def check_cuts(game: Game, rng: random.Random) -> None:
    """Views cut before an event (a server holding a step back): the same table for the
    spectator, the leader and every seat."""
    total = len(game.view(LEADER).events)
    for cut in sorted(rng.sample(range(total + 1), min(12, total + 1))):
        table = table_of(view_before(game, PUBLIC, cut))
        assert table_of(view_before(game, LEADER, cut)) == table
        for seat in range(game.n):
            assert table_of(view_before(game, seat, cut)) == table


# ---------------------------------------------------------------------- the tests
def run(
    rules: str, dealt: tuple[int, dict[str, int], dict[str, object]], seed: int, kind: str
) -> None:
    n, counts, options = dealt
    game = new_game(rules, n, counts, {**options, **lift(rules)}, seed)
    watch = Watch(game)
    play(game, watch, seed, kind)
    check_cuts(game, random.Random(seed))
    assert watch.checked >= 2  # the start, and at least one action


def lift(rules: str) -> dict[str, object]:
    return {"lift_minimum": True} if rules == "werewolf" else {}


SETTINGS = settings(max_examples=12 * SCALE, **PROFILE)
BOTS = st.sampled_from(["random", "heuristic"])
SEEDS = st.integers(0, 2**32 - 1)


@SETTINGS
@given(dealt=DEALS["werewolf"], seed=SEEDS, kind=BOTS)
def test_werewolf(
    dealt: tuple[int, dict[str, int], dict[str, object]], seed: int, kind: str
) -> None:
    run("werewolf", dealt, seed, kind)


@SETTINGS
@given(dealt=DEALS["tit-albert"], seed=SEEDS, kind=BOTS)
def test_tit_albert(
    dealt: tuple[int, dict[str, int], dict[str, object]], seed: int, kind: str
) -> None:
    run("tit-albert", dealt, seed, kind)


@SETTINGS
@given(dealt=DEALS["maffia"], seed=SEEDS, kind=BOTS)
def test_maffia(dealt: tuple[int, dict[str, int], dict[str, object]], seed: int, kind: str) -> None:
    run("maffia", dealt, seed, kind)


@SETTINGS
@given(dealt=DEALS["mafia-classic"], seed=SEEDS, kind=BOTS)
def test_mafia_classic(
    dealt: tuple[int, dict[str, int], dict[str, object]], seed: int, kind: str
) -> None:
    run("mafia-classic", dealt, seed, kind)


@SETTINGS
@given(dealt=DEALS["lupusburg"], seed=SEEDS, kind=BOTS)
def test_lupusburg(
    dealt: tuple[int, dict[str, int], dict[str, object]], seed: int, kind: str
) -> None:
    run("lupusburg", dealt, seed, kind)


def test_a_view_behind_the_reader_is_read_again() -> None:
    """``PublicTables`` asked for an earlier moment than it has read (no server does
    it: every client is shown the same moment) reads that moment again from the start,
    and goes on from where it was for the next view."""
    game = new_game(
        "werewolf",
        9,
        {"werewolf": 2, "seer": 1, "hunter": 1, "villager": 5},
        {"lift_minimum": True},
        5,
    )
    play(game, Watch(game), 5, "heuristic")
    kept = tables(game.rulebook, game.names)
    end = kept.of(game.public_view())
    assert end.outcome is not None and all(p.card is not None for p in end.players)
    middle = view_before(game, 3, len(game.view(LEADER).events) // 2)
    assert kept.of(middle) == table_of(middle) != end
    assert kept.of(game.view(3)) == end
