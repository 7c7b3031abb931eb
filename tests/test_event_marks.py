"""How each event kind is told, declared with its kind (``EventSpec.told`` and
``EventSpec.script``): the narrator and the game leader's page read the marks from the
family's table, and a role's own kinds bring theirs (issue 26 item 1)."""

from __future__ import annotations

import pytest

from lupus.engine.events import SCRIPT, TEXT, EventSpec
from lupus.families import load, register_role, told_kinds_of, unregister_role
from lupus.server.catalogue import rulebook_entry
from lupus.village.plugin import Role


def test_the_leader_script_marks_reach_the_page_with_the_rulebook() -> None:
    script = rulebook_entry(load("werewolf"), "en")["script"]
    assert isinstance(script, dict)
    assert set(script) == SCRIPT
    # the family's own kinds and its roles' (the Hunter's aim, the Witch's potion)
    assert {"wake", "vote_opens", "hunter_aims", "election"} <= set(script["opens"])
    assert {"ballot"} <= set(script["echoes"])
    assert {"pack_choice", "potion", "linked", "shot"} <= set(script["noted"])
    assert set(script["skipped"]) == {"game_starts", "role_dealt"}
    maffia = rulebook_entry(load("maffia"), "en")["script"]
    assert isinstance(maffia, dict)
    assert {"nomination", "withdrawal"} <= set(maffia["echoes"])


def test_what_a_kind_shows_reaches_the_page_with_the_rulebook() -> None:
    """``EventSpec.shows``: the leader's page shows a vision, an inspection, a victim
    by it, and a seat's own part of its frame reads the deal and the answers by it."""
    shows = rulebook_entry(load("werewolf"), "en")["shows"]
    assert isinstance(shows, dict)
    assert (
        shows.items()
        >= {
            "role_dealt": "held",
            "role_taken": "held",
            "vision": "card",
            "victim_shown": "victim",
            "pack_victim": "pointed",
        }.items()
    )
    maffia = rulebook_entry(load("maffia"), "en")["shows"]
    assert isinstance(maffia, dict) and maffia["inspection"] == "side"
    with pytest.raises(ValueError, match="proclaimed"):
        EventSpec("proclaimed", {}, shows="shout")


def test_a_registered_role_brings_its_kinds_marks() -> None:
    book = load("werewolf")
    role = Role(
        "herald",
        events=(EventSpec("proclaimed", {"text": TEXT}, told="say", script="noted"),),
    )
    register_role(role)
    try:
        assert told_kinds_of(book)["proclaimed"] == "say"
        script = rulebook_entry(book, "en")["script"]
        assert isinstance(script, dict)
        assert "proclaimed" in script["noted"]
    finally:
        unregister_role(role)
    assert "proclaimed" not in told_kinds_of(book)


@pytest.mark.parametrize(("told", "script"), [("shout", None), (None, "read"), ("STEP", None)])
def test_an_unknown_mark_is_refused_where_the_kind_is_declared(
    told: str | None, script: str | None
) -> None:
    with pytest.raises(ValueError, match="proclaimed"):
        EventSpec("proclaimed", {}, told=told, script=script)


def test_the_cards_set_aside_are_counted_from_the_roles_declaration() -> None:
    """A deal and the balance tool count the cards a card sets aside from its role's
    ``extra_cards`` (the Thief's two), not from a name of their own."""
    from lupus.families import cards_aside
    from lupus.sim.balance.candidates import candidates

    book = load("werewolf")
    assert cards_aside(book, {"thief": 1, "villager": 5}) == 2
    assert cards_aside(book, {"thief": 0, "villager": 5}) == 0
    with_thief = [c for c in candidates(book, 8) if c.get("thief")]
    assert with_thief and all(sum(c.values()) == 10 for c in with_thief)
    role = Role("forger", card="forger", extra_cards=1)
    register_role(role)
    try:
        assert cards_aside(book, {"forger": 1, "thief": 1}) == 3
    finally:
        unregister_role(role)
    assert cards_aside(book, {"forger": 1}) == 0


def test_a_kinds_variant_picks_its_message() -> None:
    """``EventSpec.variant`` names the message that tells one event of the kind
    (``"<kind>.<variant>"`` before ``"<kind>"``): the narration holds no kind's rule."""
    from lupus.engine.events import field_variant
    from lupus.engine.model import Event
    from lupus.narration import Narrator

    role = Role(
        "herald",
        events=(EventSpec("proclaimed", {"text": TEXT}, variant=field_variant("text")),),
        messages={"proclaimed": "A proclamation.", "proclaimed.war": "War is declared."},
        texts={"sv": {"proclaimed": "En kungörelse.", "proclaimed.war": "Krig förklaras."}},
    )
    register_role(role)
    try:
        narrator = Narrator(load("werewolf"), ["Ann", "Bob"], "en", strict=True)
        war = Event("proclaimed", None, {"text": "war"}, "day", 1)
        assert narrator.keys(war) == ["proclaimed.war", "proclaimed"]
        assert narrator.event(war, 0) == "War is declared."
    finally:
        unregister_role(role)
