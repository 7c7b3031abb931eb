"""What a conformance check raises: one error naming the broken rule and a game that
breaks it.

Inside the checks a broken rule is a :class:`Broken` (an ``AssertionError``, so the
property tests that share these checks fail as pytest and hypothesis expect);
:func:`lupus.testing.check_rulebook` turns the first one into a
:class:`ConformanceError` carrying the scenario of the game that broke it.
"""

from __future__ import annotations

from lupus.engine.errors import LupusError

RULES: dict[str, str] = {
    "deals": "every playable size has a legal deck that sets up",
    "offered-accepted": "every offered choice is accepted",
    "illegal-refused": "every other action is refused and changes nothing",
    "declared": "every prompt is one its role plugin declares (verb, holder, time, targets)",
    "views": "a view holds exactly its seat's events, as read-only copies",
    "secrets": "a view tells only the roles its seat may know",
    "ends": "a game ends",
    "replays": "a game's scenario replays it event for event",
    "narrates": "every event and prompt narrates in every language of the rulebook",
    "bots-finish": "the bots finish every game",
    "json": "every event round-trips through JSON",
}
"""The contract, rule by rule: the id a :class:`ConformanceError` names, and what it
promises."""


SHORT = 300
"""The longest detail a ConformanceError's message quotes (``.detail`` keeps it whole)."""


class Broken(AssertionError):
    """A rule of the contract broken (``rule``: a key of :data:`RULES`), with the detail
    of how."""

    def __init__(self, rule: str, detail: str) -> None:
        super().__init__(f"{rule}: {detail}")
        self.rule = rule
        self.detail = detail


class ConformanceError(LupusError, ValueError):
    """A rulebook (its family, its roles) breaks the engine's contract.

    ``rule`` names the broken rule (a key of :data:`RULES`), ``detail`` says how,
    ``scenario`` is the scenario-file object (docs/scenarios.md) of a game that breaks
    it, and ``path`` the file it was written to when the caller asked for one."""

    def __init__(
        self, rule: str, detail: str, scenario: dict[str, object], path: str | None = None
    ) -> None:
        where = (
            f"replay it with: lupus replay {path}"
            if path is not None
            else "its scenario is in this error's .scenario (pass scenarios=DIR to write it)"
        )
        promise = RULES.get(rule, rule)
        told = detail if len(detail) <= SHORT else detail[: SHORT - 3] + "..."
        super().__init__(f"{rule} broken ({promise}): {told}; {where}")
        self.rule = rule
        self.detail = detail
        self.scenario = scenario
        self.path = path
