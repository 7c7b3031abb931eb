"""What a village rulebook must hold for its games to be played to an end.

The schema checks a rulebook's shape; these checks, run when it is loaded
(``VillageFamily.unplayable``), refuse with the reason a rulebook that has that shape
and still could not be played: a pack no card joins, options its roles read with
another type, or later nights and days that could never end a game (no step that can
eliminate a player, no win rule that holds when the last players die together, a pack
that dies with nobody left to ask). The compositions it recommends are dealt and set up
by the family itself (``VillageFamily.composition_problem``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from lupus.rulebooks.schema import Rulebook
from lupus.village.checks import holds
from lupus.village.plugin import OptionNeed, Role

LOVERS: Final = "lovers"
"""The side a mixed couple wins as (``VillageGame.faction``)."""


def problem(
    book: Rulebook, roles: Sequence[Role], family_options: Mapping[str, OptionNeed]
) -> str | None:
    """Why ``book`` cannot be played to an end by these role plugins (``key: reason``),
    or None. ``family_options``: the options the family's own code reads."""
    pack = book.facts.pack
    if not pack:
        return (
            f"mechanics.pack_tag: no role is tagged {book.mechanics.pack_tag!r}, so no game "
            "could have a pack"
        )
    named = {*book.night.first, *book.night.later, *book.night.preparation, *book.day}
    in_play = [r for r in roles if r.card in book.roles or any(s in named for s in r.steps)]
    needs = [("the village family", family_options)] + [(r.id, r.options) for r in in_play]
    for who, options in needs:
        wrong = option_problem(book, who, options)
        if wrong:
            return wrong
    wrong_phase = phase_problem(book, roles)
    if wrong_phase:
        return wrong_phase
    for i, win in enumerate(book.win):
        if win.when == "mixed_lovers_last_two" and win.faction != LOVERS:
            return f"win[{i}].faction: a mixed couple wins as {LOVERS!r}, not {win.faction!r}"
    return end_problem(book, roles)


def option_problem(book: Rulebook, who: str, needs: Mapping[str, OptionNeed]) -> str | None:
    for key, need in needs.items():
        spec = book.options.get(key)
        if spec is None:
            if need.required:
                return f"options.{key}: missing ({who} reads it, as a {need.type} option)"
            continue
        if spec.type != need.type:
            return f"options.{key}: {who} reads it as a {need.type} option, not as {spec.type}"
        unknown = [c for c in spec.choices if need.choices and c not in need.choices]
        if unknown:
            return (
                f"options.{key}: {who} knows the choices {', '.join(need.choices)}, "
                f"not {unknown[0]!r}"
            )
    return None


def killers(book: Rulebook, roles: Sequence[Role]) -> tuple[list[str], list[Role]]:
    """The votes a day holds (each the steps it names, in order), and the pack roles
    whose steps the later nights name (a pack step that wakes a card counts only if
    the rulebook has that card)."""
    votes = [r.id for r in roles for way in r.eliminates if in_order(way, book.day)]
    packs = [
        r
        for r in roles
        if r.pack
        and any(s in book.night.later for s in r.steps)
        and (r.card is None or r.card in book.roles)
    ]
    return votes, packs


def in_order(steps: Sequence[str], named: Sequence[str]) -> bool:
    """Whether ``named`` names ``steps`` in this order (others may come between)."""
    found = 0
    for step in named:
        if found < len(steps) and step == steps[found]:
            found += 1
    return found == len(steps)


def phase_problem(book: Rulebook, roles: Sequence[Role]) -> str | None:
    """A step named in a phase its verbs are not offered in (a day's vote by night)."""
    phases: dict[str, set[str]] = {}
    for role in roles:
        for verb in role.verbs:
            phases.setdefault(verb.step, set()).add(verb.phase)
    lists = [
        ("night.first", book.night.first, "night"),
        ("night.later", book.night.later, "night"),
        ("night.preparation", book.night.preparation, "night"),
        ("day", book.day, "day"),
    ]
    for where, named, phase in lists:
        for step in named:
            offered = phases.get(step, set()) - {"any"}
            if offered and phase not in offered:
                return f"{where}: {step!r} is a step of the {' and '.join(sorted(offered))}"
    return None


def end_problem(book: Rulebook, roles: Sequence[Role]) -> str | None:
    """Why a game of ``book`` could go on for ever, or None."""
    votes, packs = killers(book, roles)
    if not votes and not packs:
        return (
            "night.later and day: no step can eliminate a player (the pack's step by night, "
            "a vote by day), so a game could never end"
        )
    wins = book.win
    rules = [w for w in book.facts.wins if w.when != "mixed_lovers_last_two"]  # (no couple)
    for what, alive_in, living in last_players(book):
        if not any(holds(rule, living, alive_in) for rule in rules):
            return f"win: no rule holds once {what}, so such a game could never end"
    if votes:  # every living player is asked every day: the rules above end it
        return None
    pack = book.facts.pack
    woken = {r.card for r in packs}
    if None not in woken and not pack <= woken:
        return (
            "day: with no vote by day, the pack's cards the night's pack step does not "
            f"wake ({', '.join(sorted(pack - woken))}) would outlive every other player and "
            "never be asked anything"
        )
    faction_of = book.facts.faction_of_role
    pack_sides = {faction_of[r] for r in pack}
    only_pack = [f for f in pack_sides if all(r in pack for r in book.roles if faction_of[r] == f)]
    if not any(w.when == "none_alive" and w.of in only_pack for w in wins):
        return (
            "win: with no vote by day, once the pack is dead nobody is asked anything: a "
            "none_alive rule of a faction of pack cards only must end the game then"
        )
    return None


def last_players(book: Rulebook) -> list[tuple[str, dict[str, int], int]]:
    """The tables a game may come down to in which nothing could happen any more, as
    (what, living players per faction, living players): a win rule must hold in each.
    Nobody alive; one player of any side alone (a vote has no one to name, a night
    step no one to visit); a pack alone that may not kill its own."""
    faction_of = book.facts.faction_of_role
    sides = [f for f in book.factions if f in faction_of.values()]
    found: list[tuple[str, dict[str, int], int]] = [("every player is dead", {}, 0)]
    for side in sides:
        found.append((f"one player of {side} is the last alive", {side: 1}, 1))
    if not book.mechanics.pack_kills_own:
        pack_sides = sorted({faction_of[r] for r in book.facts.pack})
        alive = {side: 2 if len(pack_sides) == 1 else 1 for side in pack_sides}
        found.append(("the pack is alone (and may not kill its own)", alive, sum(alive.values())))
    return found


def deals_a_killer(book: Rulebook, roles: Sequence[Role], counts: Mapping[str, int]) -> bool:
    """Whether a game of these cards has someone to eliminate players by day or night."""
    votes, packs = killers(book, roles)
    return bool(votes) or any(r.card is None or counts.get(r.card, 0) > 0 for r in packs)
