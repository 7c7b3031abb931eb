"""Lupusburg's state: seats that hold two characters each, houses, chests, coins, bets.

Houses are numbered ``2 * seat + k`` (k = 0 or 1) and read ``<player>.1`` /
``<player>.2``. A character dies, not a player: a player is in the game while one of
his characters lives, and players with no living character still bet and vote.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Final, cast, final

from lupus.engine.admission import given
from lupus.engine.counting import count_cards
from lupus.engine.draw import shuffle
from lupus.engine.errors import IllegalAction, SetupError
from lupus.engine.events import scalar_kinds
from lupus.engine.game import Game
from lupus.engine.interned import one_each
from lupus.engine.model import Action, Args, Death, Outcome, Prompt
from lupus.engine.names import player_names
from lupus.engine.step import Step
from lupus.engine.untrusted import bounded, quoted
from lupus.lupusburg.events import EVENTS
from lupus.rulebooks.facts import memos
from lupus.rulebooks.schema import LupusburgSpec, OptionValue, Rulebook

WEREWOLF = "werewolf"
THIEF = "thief"
TOWNSFOLK = "townsfolk"
HOUSE_VERBS = frozenset({"peek", "claw", "privilege", "show", "token", "ballot"})


@final
class Layout:
    """The steps Lupusburg's phases are made of, handed in by the family
    (``lupus.lupusburg.family``): the steps' modules import this one, so this one names
    none of them."""

    def __init__(
        self,
        phase_start: Callable[[str, int], Step[LupusburgGame]],
        dawn: Callable[[], Step[LupusburgGame]],
        steps: Callable[[Sequence[str], LupusburgGame], list[Step[LupusburgGame]]],
        win_check: Callable[[], Step[LupusburgGame]],
    ) -> None:
        self.phase_start: Final = phase_start
        self.dawn: Final = dawn
        self.steps: Final = steps
        self.win_check: Final = win_check


class LupusburgGame(Game):
    SCALAR_KINDS: ClassVar[frozenset[str]] = scalar_kinds(EVENTS)

    def __init__(
        self,
        rulebook: Rulebook,
        names: Sequence[str],
        characters: Sequence[Sequence[str]],
        chests: Sequence[int],
        burgomaster: int = 0,
        bag: Sequence[int] | None = None,
        options: dict[str, OptionValue] | None = None,
        seed: int = 0,
        *,
        layout: Layout,
    ) -> None:
        # The names first (their number before anything per name), kept in NFC.
        known = memos(rulebook.facts.digest).valid_names
        names = player_names(rulebook, names, known, no_dot=True)
        super().__init__(rulebook, names, options, seed)
        self.layout = layout
        self.spec = rulebook.lupusburg or LupusburgSpec()
        check_setup(rulebook, self.names, characters, chests, bag, self.spec, burgomaster)
        self.characters: list[str] = [c for pair in characters for c in pair]
        self.alive_house: list[bool] = [True] * (2 * self.n)
        self._house_choices: tuple[Args, ...] | None = None  # see living_house_choices
        self.chest: list[int] = [2 * seat + chests[seat] - 1 for seat in range(self.n)]
        self.burgomaster = burgomaster
        self.first_burgomaster = burgomaster  # (``burgomaster`` passes clockwise)
        # The bag's order as given, or None for a bag the game shuffled (a record of the
        # game gives it back as given: draws take from the front of a given bag only).
        self.given_bag: tuple[int, ...] | None = None if bag is None else tuple(bag)
        if bag is None:
            coins = list(self.spec.bag)
            shuffle(self.rng, coins)
        else:
            coins = list(bag)
        self.bag: list[int] = coins
        # Without a given bag order every draw is at random; with one, draws take from
        # the front and unkept coins go back at the end (the scenario contract).
        self.shuffle_draws = bag is None
        self.bets: list[tuple[int, int] | None] = [None] * self.n
        self.werewolf = self.characters.index(WEREWOLF) // 2
        self.thief = self.characters.index(THIEF) // 2
        self.claw: int | None = None
        self.tokens: dict[int, int] = {}  # house -> tokens laid on it today (a plain dict:
        # ``Counter`` is interpreted code)
        self.dirty = False
        self.emit(
            "game_starts",
            None,
            players=list(self.names),
            burgomaster=burgomaster,
            coins=sorted(self.spec.bag, reverse=True),
        )
        for seat in range(self.n):
            mine = {h: self.characters[h] for h in self.houses_of(seat)}
            self.emit(
                "characters_dealt", [seat], player=seat, characters=mine, chest=self.chest[seat]
            )
        self.start()

    # ------------------------------------------------------------------ houses
    def houses_of(self, seat: int) -> tuple[int, int]:
        return (2 * seat, 2 * seat + 1)

    def house_name(self, house: int) -> str:
        return f"{self.names[house // 2]}.{house % 2 + 1}"

    def living_houses(self) -> list[int]:
        return [h for h in range(2 * self.n) if self.alive_house[h]]

    def living_house_choices(self) -> tuple[Args, ...]:
        """The choices naming each living character's house, kept until the next death
        (every token turn of a day offers them)."""
        if self._house_choices is None:
            self._house_choices = one_each(self.living_houses())
        return self._house_choices

    def living_count(self, seat: int) -> int:
        return self.alive_house[2 * seat] + self.alive_house[2 * seat + 1]

    def clockwise(self, seat: int) -> int:
        """Distance from the Burgomaster counting clockwise (he himself is 0)."""
        return (seat - self.burgomaster) % self.n

    def house_order(self, house: int) -> tuple[int, int]:
        """Tie-break key: the house closer to the Burgomaster clockwise comes first."""
        return (self.clockwise(house // 2), house % 2)

    def arg_name(self, arg: object, verb: str = "") -> str:
        if verb in HOUSE_VERBS and isinstance(arg, int) and 0 <= arg < 2 * self.n:
            return self.house_name(arg)
        if verb == "keep":
            return str(arg)  # a coin, not a seat
        return super().arg_name(arg, verb)

    def bad_args(self, action: Action, prompt: Prompt) -> str:
        verb = action.verb
        if verb not in ("bet", "keep"):
            return super().bad_args(action, prompt)
        who = self.actor_name(action.actor)
        args: tuple[object, ...] = action.args  # (of any type: compiled, read as objects)
        one = len(args) == 1 and isinstance(args[0], int) and not isinstance(args[0], bool)
        allowed = [int(c[0]) for c in prompt.choices]
        if verb == "bet":
            shown = f"on {given(self, args[0], verb)}" if one else "without naming one player"
            targets = ", ".join(self.names[t] for t in allowed)
            return f"{who} cannot bet {shown} now (bet on one of {targets})"
        shown = given(self, args[0], verb) if one else "without naming one coin"
        coins = ", ".join(str(c) for c in allowed)
        return f"{who} cannot keep {shown} now (keep one of the coins drawn: {coins})"

    def parse_target(self, verb: str, text: str) -> int:
        if verb not in HOUSE_VERBS:
            return super().parse_target(verb, text)
        player, _, number = text.rpartition(".")
        if player not in self.names or number not in ("1", "2"):
            raise IllegalAction(
                f"there is no house {quoted(text)} (houses read like Anna.1, Anna.2)"
            )
        return 2 * self.names.index(player) + int(number) - 1

    # ------------------------------------------------------------------ the record
    def deal_record(self) -> dict[str, object]:
        """Each player's characters and chest, the first Burgomaster and the bag as given
        (none if the game shuffled it): see ``Game.to_scenario``."""
        names = self.names
        characters = self.characters
        record: dict[str, object] = {
            "characters": {
                names[seat]: [characters[2 * seat], characters[2 * seat + 1]]
                for seat in range(self.n)
            },
            "chests": {names[seat]: self.chest[seat] - 2 * seat + 1 for seat in range(self.n)},
            "burgomaster": names[self.first_burgomaster],
        }
        if self.given_bag is not None:
            record["bag"] = list(self.given_bag)
        return record

    def expand(self, action: Action) -> list[Action]:
        """``{"do": "bet", "target": NAME, "coin": VALUE}``: a ``bet`` on the player,
        then ``keep`` of that coin (the line's index stays the file's)."""
        args = action.args
        if action.verb == "bet" and len(args) == 2:
            return [Action(action.actor, "bet", args[:1]), Action(action.actor, "keep", args[1:])]
        return [action]

    def sides_dealt(self) -> list[str]:
        return [WEREWOLF if seat == self.werewolf else TOWNSFOLK for seat in range(self.n)]

    def record_args(self, action: Action, line: dict[str, object]) -> None:
        """A house as ``<player>.1`` or ``.2``, a bet's player by name, a kept coin as
        ``coin`` (see ``Game.scenario_line``)."""
        verb = action.verb
        for arg in action.args:
            if isinstance(arg, str):
                line["card"] = arg
            elif verb == "keep":
                line["coin"] = arg
            elif verb in HOUSE_VERBS:
                line["target"] = self.house_name(arg)
            else:
                line["target"] = self.names[arg]

    # ------------------------------------------------------------------ flow
    def next_phase(self) -> list[Step[LupusburgGame]]:
        book, layout = self.rulebook, self.layout
        if self.phase in ("setup", "day"):
            number = self.number + 1
            ids = book.night.first if number == 1 else book.night.later
            return [
                layout.phase_start("night", number),
                *layout.steps(ids, self),
                layout.dawn(),
            ]
        return [layout.phase_start("day", self.number), *layout.steps(book.day, self)]

    def kill_house(self, house: int, cause: str) -> None:
        """The character under ``house`` dies; it and its house are set aside face down."""
        if not self.alive_house[house]:
            return
        self.alive_house[house] = False
        self._house_choices = None
        self.dirty = True
        owner = house // 2
        if not self.living_count(owner):
            self.leave_play(owner)
        self.deaths.append(Death(owner, cause, self.phase, self.number, house))
        self.emit("character_dies", None, player=owner, house=house, cause=cause)

    def after_resolve(self) -> None:
        if self.dirty:
            self.dirty = False
            self.push_front(self.layout.win_check())

    # ------------------------------------------------------------------ the end
    def check_end(self) -> None:
        wolf = self.living_count(self.werewolf)
        others = sum(self.living_count(s) for s in range(self.n)) - wolf
        if wolf == 0:
            parts = self.score_parts()
            scores = totals(parts, self.n)
            # Highest score first, ties to the player closer to the Burgomaster in office.
            contenders = sorted(
                [s for s in range(self.n) if s != self.werewolf], key=self.clockwise
            )
            best = min(contenders, key=lambda s: (-scores[s], self.clockwise(s)))
            extra: dict[str, object] = {"parts": parts}
            tied = [s for s in contenders if scores[s] == scores[best]]
            if len(tied) > 1:
                over = [s for s in tied if s != best]
                extra["tie_break"] = self.tie_break("player", scores[best], [best], over)
            self.finish(TOWNSFOLK, (best,), scores, "werewolf_lynched", extra)
        elif wolf >= others:
            scores = {s: (self.n if s == self.werewolf else 0) for s in range(self.n)}
            self.finish(WEREWOLF, (self.werewolf,), scores, "werewolf_even")

    def tie_break(
        self, of: str, score: int, chosen: list[int], over: list[int]
    ) -> dict[str, object]:
        """How a tie at ``score`` between houses (``of`` "house") or players ("player")
        was broken, for the log and for machines: ``chosen`` go before ``over`` and
        ``why`` says why: "clockwise" (closer to the Burgomaster counting clockwise),
        "burgomaster" (the one chosen is the Burgomaster, or a house of his) or "house"
        (the two houses of one player: house 1 before house 2)."""
        why = "clockwise"
        if of == "house":
            owners = {h // 2 for h in chosen + over}
            if len(owners) == 1:
                why = "house"
            elif len(chosen) == 1 and chosen[0] // 2 == self.burgomaster:
                why = "burgomaster"
        elif len(chosen) == 1 and chosen[0] == self.burgomaster:
            why = "burgomaster"
        return {"of": of, "score": score, "chosen": chosen, "over": over, "why": why}

    def score_parts(self) -> dict[int, dict[str, int]]:
        """What each player but the Werewolf scores when the Werewolf has lost: his
        living characters, his chest and his seal (an unused seal, or the coin of a
        bet on the Werewolf)."""
        spec = self.spec
        parts: dict[int, dict[str, int]] = {}
        for seat in range(self.n):
            if seat == self.werewolf:
                continue
            chest = spec.points_per_chest if self.alive_house[self.chest[seat]] else 0
            bet = self.bets[seat]
            if bet is None:
                seal = spec.points_unused_seal
            elif bet[0] == self.werewolf:
                seal = bet[1]
            else:
                seal = 0
            parts[seat] = {
                "characters": spec.points_per_character * self.living_count(seat),
                "chest": chest,
                "seal": seal,
            }
        return parts

    def finish(
        self,
        winner: str,
        winners: tuple[int, ...],
        scores: dict[int, int],
        reason: str,
        extra: dict[str, object] | None = None,
    ) -> None:
        data: dict[str, object] = {
            "winner": winner,
            "winners": list(winners),
            "reason": reason,
            "scores": scores,
            "characters": {h: self.characters[h] for h in range(2 * self.n)},
            "chests": list(self.chest),
            "bets": {s: list(b) for s, b in enumerate(self.bets) if b is not None},
        }
        if extra is not None:
            data.update(extra)
        self.emit_data("game_over", None, data)
        self.end(Outcome(winner, winners, reason, scores))


def totals(parts: dict[int, dict[str, int]], n: int) -> dict[int, int]:
    """Each seat's score from its parts (a seat without parts, the Werewolf, scores 0)."""
    scores: dict[int, int] = {}
    for seat in range(n):
        mine = parts.get(seat)
        scores[seat] = 0 if mine is None else mine["characters"] + mine["chest"] + mine["seal"]
    return scores


def check_setup(
    book: Rulebook,
    names: Sequence[str],
    characters: Sequence[Sequence[str]],
    chests: Sequence[int],
    bag: Sequence[int] | None,
    spec: LupusburgSpec,
    burgomaster: int = 0,
) -> None:
    """Refuse, with the reason, a deal the Lupusburg rules do not allow (the names
    already passed ``player_names``)."""
    n = len(names)
    if len(characters) != n or any(len(pair) != 2 for pair in characters):
        raise SetupError("every player holds exactly two characters, one under each house")
    if len(chests) != n:
        raise SetupError("every player has one chest, under house 1 or 2")
    # Read as objects, with exact types: compiled code would turn a True given as an
    # int into a 1, and a float 1.0 equals 1 (a chest at 1.0 breaks the first bet).
    first = cast("object", burgomaster)
    if type(first) is not int or not 0 <= burgomaster < n:
        raise SetupError(f"the first Burgomaster is one of the {n} players, not {bounded(first)}")
    deck = count_cards([c for pair in characters for c in pair])
    unknown = sorted(set(deck) - {WEREWOLF, THIEF, TOWNSFOLK})
    if unknown:
        raise SetupError(f"unknown character {quoted(unknown[0])} (werewolf, thief, townsfolk)")
    if deck.get(WEREWOLF, 0) != 1 or deck.get(THIEF, 0) != 1 or deck.get(TOWNSFOLK, 0) != 2 * n - 2:
        raise SetupError(
            f"the deck for {n} players is 1 werewolf, 1 thief and {2 * n - 2} townsfolk"
        )
    for seat, pair in enumerate(characters):
        if WEREWOLF in pair and THIEF in pair:
            raise SetupError(f"{names[seat]} holds both the werewolf and the thief: redeal")
        chest = cast("Sequence[object]", chests)[seat]
        if type(chest) is not int or chest not in (1, 2):
            raise SetupError(f"{names[seat]}'s chest is under house 1 or 2, not {bounded(chest)}")
        if pair[chests[seat] - 1] != TOWNSFOLK:
            raise SetupError(
                f"{names[seat]}: the werewolf and the thief may not live under the chest house"
            )
    given = cast("Sequence[object] | None", bag)
    if given is not None and (
        len(given) != len(spec.bag)
        or any(type(coin) is not int for coin in given)
        or sorted(bag or ()) != sorted(spec.bag)
    ):
        coins = ", ".join(str(c) for c in spec.bag)
        raise SetupError(f"the bag holds exactly the coins {coins}, in any order")
