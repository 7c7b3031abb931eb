"""The messages a rulebook's ``text`` may hold, checked when it is loaded: a sentence
template names an event's fields and the rulebook's names, nothing more."""

from __future__ import annotations

import re
import string
from typing import Final


def shown(value: object) -> str:
    """A value quoted for a message on one short line (a huge number or string cut)."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number too large"
    return text if len(text) <= 40 else text[:40] + "..."


FIELD: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|N\[[^\[\]{}]+\]")
"""A placeholder of a message: an event's field ({player}) or a name ({N[werewolf]})."""


def template_problem(template: str) -> str | None:
    """Why a message of a rulebook's ``text`` cannot be said, or None. A placeholder
    is a field or a rulebook name and nothing else: no attribute or index beyond
    ``N[...]`` (``str.format`` would follow it into lupus's own objects), no format
    (a width of 10^9 would make a sentence of a gigabyte), no conversion."""
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError:
        return "a brace is not closed (write {{ or }} for a brace itself)"
    for _, field, spec, conversion in parts:
        if field is None:
            continue
        if not FIELD.fullmatch(field):
            return (
                "a placeholder is a field such as {player} or a name such as {N[werewolf]}, "
                f"not {shown('{' + field + '}')}"
            )
        if spec or conversion:
            return f"the placeholder {shown('{' + field + '}')} takes no format or conversion"
    return None
