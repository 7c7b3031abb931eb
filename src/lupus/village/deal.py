"""Random village deals: one card per seat, and a Thief's two extra cards."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final, final

from lupus.engine.counting import count_cards
from lupus.engine.deal import Deal, deal_request
from lupus.engine.draw import shuffle
from lupus.engine.errors import SetupError
from lupus.engine.options import options_key
from lupus.rulebooks.facts import KEPT, memos
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.village.checks import composition_problem, deal_problem
from lupus.village.registry import Aside

TRIES = 1000
"""How many shuffles a composition gets to give a deal the rules accept."""


def deal(
    book: Rulebook,
    players: int,
    counts: Mapping[str, int],
    rng: random.Random,
    options: Mapping[str, OptionValue],
    aside: Aside,
) -> Deal:
    """Shuffle the cards of ``counts`` and deal them to ``players`` seats.

    The table and the composition are checked first (``deal_request``), and the cards
    counted against the seats and those a card sets aside (``aside``: the
    registry's, from ``Role.extra_cards``), before a single card is laid out.

    The first ``players`` cards go to the seats, the last two lie aside: they are the
    Thief's extra cards when a player holds the Thief, and out of play otherwise (but
    still cards of the game: when the Thief's card lies aside, his step and that of the
    other card aside are announced and run with nobody to wake, as a dead role's do;
    leaving them out would tell the table that the Thief is not among them). A
    shuffle is dealt when set-up would accept it (``deal_problem``, the one predicate
    set-up uses), and shuffled again otherwise: so every deal the rules accept comes as
    often as chance gives it, among them those whose only werewolf cards are the Thief's
    two extra cards, and never one set-up refuses (a deal whose Thief card lies aside
    with the only werewolf, or with the Seer a minimum needs). A composition no shuffle
    could make a game of is refused at once (``composition_problem``: five Tit Albert
    with the Voler, although some deals would put only four in play).
    """
    return Dealer(book, players, counts, options, aside).deal(rng)


@final
class Dealer:
    """``deal`` of one table and composition, checked once and dealt as often as asked
    (a simulation deals one composition to one table thousands of times): what ``deal``
    checks before it shuffles depends on neither the shuffle nor the generator. Each
    ``deal(rng)`` draws exactly what ``deal`` draws; the composition and the options
    are read once, here, and kept as copies."""

    def __init__(
        self,
        book: Rulebook,
        players: int,
        counts: Mapping[str, int],
        options: Mapping[str, OptionValue],
        aside: Aside,
    ) -> None:
        # Counted before anything is built: a composition of 10**10 cards costs nothing.
        seats, checked = deal_request(book, players, counts)
        set_aside = aside.count(checked)
        total = sum(checked.values())
        if total != seats + set_aside:
            raise SetupError(f"{total} cards for {seats} players{beside(seats, set_aside)}")
        deck = [role for role, count in sorted(checked.items()) for _ in range(count)]
        kept = dict(options)
        if set_aside:  # the composition as a whole first (five Tit Albert, a quick Thief)
            problem = composition_problem(book, count_cards(deck), kept)
        else:  # every shuffle puts the same cards in play: one check answers for all
            problem = judged(book, deck, (), kept, aside)
        if problem is not None:
            raise SetupError(problem)
        self.book: Final = book
        self.players: Final = seats
        self.thief: Final = set_aside > 0
        self.deck: Final = tuple(deck)  # in sorted order: each deal shuffles a copy
        self.options: Final[Mapping[str, OptionValue]] = kept
        self.aside: Final = aside

    def deal(self, rng: random.Random) -> Deal:
        """One shuffle the rules accept (see ``deal``)."""
        deck = list(self.deck)
        if not self.thief:
            shuffle(rng, deck)
            return Deal(roles=tuple(deck), extra_cards=())
        players = self.players
        problem: str | None = None
        for _ in range(TRIES):
            shuffle(rng, deck)
            roles, extra_cards = tuple(deck[:players]), tuple(deck[players:])
            problem = judged(self.book, roles, extra_cards, self.options, self.aside)
            if problem is None:
                return Deal(roles=roles, extra_cards=extra_cards)
        raise SetupError(f"this composition gives no game in {TRIES} deals: {problem}")


def beside(players: int, aside: int) -> str:
    """What a count of cards is missing, where a card brings cards set aside."""
    return f": this deck holds {players + aside}, {aside} of them set aside" if aside else ""


def judged(
    book: Rulebook,
    roles: Sequence[str],
    extra_cards: Sequence[str],
    options: Mapping[str, OptionValue],
    aside: Aside,
) -> str | None:
    """``deal_problem``, remembered: a simulation deals the same composition thousands
    of times, and the verdict depends on the cards as multisets and the options alone
    (kept per rulebook content, keyed exactly: ``options_key``)."""
    chosen = options_key(options)
    if chosen is None:
        return deal_problem(book, roles, extra_cards, options, aside)
    key = (tuple(sorted(roles)), tuple(sorted(extra_cards)), chosen, aside)
    verdicts = memos(book.facts.digest).deal_verdicts
    known = verdicts.get(key)
    if known is not None:
        return known or None
    problem = deal_problem(book, roles, extra_cards, options, aside)
    if len(verdicts) < KEPT:
        verdicts[key] = problem or ""
    return problem
