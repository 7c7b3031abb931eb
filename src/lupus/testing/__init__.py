"""Conformance checks of a rulebook, its family and its roles (the public entry:
:func:`check_rulebook`), and the pieces the property tests share with it.

``check_rulebook(rulebook, games=..., seed=...)`` plays seeded random games of every
playable size and random legal decks of a rulebook and checks the engine's whole
contract on each, as PettingZoo's ``api_test`` checks an environment; the first rule
broken raises :class:`ConformanceError`, naming the rule and carrying a scenario that
reproduces it (docs/architecture.md, "Checking a rulebook"). Not compiled: it is tests'
code, run from a test suite or a role author's shell.
"""

from lupus.testing.check import check_rulebook
from lupus.testing.errors import RULES, ConformanceError

__all__ = ["RULES", "ConformanceError", "check_rulebook"]
