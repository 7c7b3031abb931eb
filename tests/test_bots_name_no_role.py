"""The heuristic bot names no role's event (issue 26, item 1): a kind a role declares
(``Role.events``) is read as the role says (``Play.remembers``, ``Play.records``), so a
new role teaches the bot its events in its own module, and the bot's modules need no
line for it. Tested on the source: no string of ``lupus.bots`` is such a kind."""

from __future__ import annotations

import ast
from pathlib import Path

from lupus.bots.village_memory import VillageMemory
from lupus.bots.village_suspicion import VillagePublic
from lupus.families import role_plugins, village_plays

BOTS = Path(__file__).resolve().parent.parent / "src" / "lupus" / "bots"


def role_kinds() -> dict[str, str]:
    """Every event kind a role declares -> the role."""
    return {spec.kind: role.id for role in role_plugins() for spec in role.events}


def strings(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def test_no_bot_module_names_a_roles_event() -> None:
    kinds = role_kinds()
    assert {"couple", "captain", "vision", "in_love"} <= kinds.keys()  # (the reader reads)
    named = {path.name: sorted(strings(path) & kinds.keys()) for path in sorted(BOTS.glob("*.py"))}
    assert not any(named.values()), f"role event kinds named by the bots: {named}"


def test_the_roles_readings_are_the_bots_and_of_their_own_kinds() -> None:
    """Each reading a role gives is one of the memory's or the public record's, for a
    kind a role declares (a public record reads public kinds only)."""
    plays = village_plays()
    kinds = role_kinds()
    assert plays.remembers and plays.records
    for kind, reading in plays.remembers.items():
        assert kind in kinds, kind
        assert getattr(VillageMemory, reading.__name__) is reading, kind
    for kind, reading in plays.records.items():
        assert kind in kinds, kind
        assert getattr(VillagePublic, reading.__name__) is reading, kind
