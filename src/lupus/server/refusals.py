"""The words of the server's refusals, in every language the interface speaks.

A refusal goes out with a stable ``code`` (what a client may act on), a ``reason`` (which
refusal it is, one of the ``refusal_<reason>`` words of the ``[ui]`` table of
``src/lupus/locales/<lang>.toml``) and its ``fields`` (the values its words are filled
with), and with its English ``message`` for scripts and logs. A page shows the words of
the reason in its own language from the same table (``GET /api/ui/<lang>``), so that the
server's English and a page's Swedish are written once, side by side, and a new refusal
without words in some language fails a test (``tests/test_server_refusals.py``).

A refusal that passes on the engine's own reason (a deck the rules refuse, a move they
refuse now) carries it in ``detail``: the engine speaks English, so a language other than
English words such a refusal without it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from lupus.messages import locale

PREFIX: Final = "refusal_"
"""A reason's words are the ``[ui]`` word ``refusal_<reason>``."""

Value = str | int | float

_PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")


def words(reason: str, fields: Mapping[str, Value], lang: str = "en") -> str:
    """A reason's words in ``lang``, its placeholders filled from ``fields`` as a page
    fills them (``i18n.js``'s ``t``). KeyError for a reason without words: a defect that
    the test of every reason's words finds first."""
    template = locale(lang)["ui"][PREFIX + reason]

    def filled(match: re.Match[str]) -> str:
        name = match.group(1)
        return str(fields[name]) if name in fields else match.group(0)

    return _PLACEHOLDER.sub(filled, template)


class Refusal:
    """Why something was refused: its reason and fields, and its English words."""

    def __init__(self, reason: str, **fields: Value) -> None:
        self.reason = reason
        self.fields: dict[str, Value] = dict(fields)
        self.message = words(reason, self.fields)

    def to_json(self) -> dict[str, object]:
        """The refusal's part of an ``error`` frame or an HTTP problem."""
        return {"message": self.message, "reason": self.reason, "fields": dict(self.fields)}

    def __repr__(self) -> str:
        return f"Refusal({self.reason!r}, {self.fields!r})"
