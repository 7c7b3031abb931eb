"""Every refusal the server can send has words in every language the interface speaks,
and those words ask for no field the server does not fill (``lupus.server.refusals``).

The reasons are read from the server's own code: every ``ProtocolError``, ``Refusal``,
``send_error`` and HTTP ``problem`` names its reason as a literal, so a new refusal
without words in some locale fails here before a page shows its key."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from lupus.messages import locale
from lupus.server import catalogue
from lupus.server.refusals import PREFIX, Refusal, words

SERVER = Path(__file__).resolve().parent.parent / "src" / "lupus" / "server"

# The argument that names the reason, by the callee's name.
REASON_AT = {"ProtocolError": 1, "Refusal": 0, "send_error": 1, "problem": 2, "free_seat": 1}


def callee(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def literals(node: ast.expr) -> list[str] | None:
    """The reasons an argument may be: a literal, or either side of ``a if x else b``;
    None when it is something else (a ``Refusal`` made elsewhere, passed on)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = literals(node.body), literals(node.orelse)
        if body is not None and orelse is not None:
            return body + orelse
    return None


def sent() -> dict[str, set[str]]:
    """Every reason the server's code names -> the fields some call gives it."""
    found: dict[str, set[str]] = {}
    passed_on = 0
    for path in sorted(SERVER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = callee(node)
            if name not in REASON_AT or len(node.args) <= REASON_AT[name]:
                continue
            argument = node.args[REASON_AT[name]]
            reasons = literals(argument)
            if reasons is None:
                # (a Refusal made where its reason is a literal, or a variable holding one)
                assert isinstance(argument, ast.Name | ast.Attribute), (path.name, node.lineno)
                passed_on += 1
                continue
            given = {keyword.arg for keyword in node.keywords if keyword.arg is not None}
            for reason in reasons:
                found.setdefault(reason, set()).update(given)
    assert passed_on > 0  # (the scan sees the calls that pass a refusal on)
    return found


REASONS = sent()


def test_the_scan_finds_the_server_s_refusals() -> None:
    # A scan that found nothing would pass every test below.
    assert len(REASONS) > 60
    assert {"room_full", "bad_token", "no_seat", "players_range", "rules"} <= set(REASONS)


@pytest.mark.parametrize("lang", sorted(catalogue.interface_languages()))
def test_every_refusal_has_words_in_every_language(lang: str) -> None:
    table = locale(lang)["ui"]
    missing = sorted(reason for reason in REASONS if PREFIX + reason not in table)
    assert not missing, f"{lang} has no words for {missing}"
    for reason, given in REASONS.items():
        asked = set(re.findall(r"\{(\w+)\}", table[PREFIX + reason]))
        assert asked <= given, (lang, reason, asked - given)


def test_no_language_keeps_words_for_a_refusal_the_server_no_longer_sends() -> None:
    for lang in catalogue.interface_languages():
        kept = {key[len(PREFIX) :] for key in locale(lang)["ui"] if key.startswith(PREFIX)}
        assert kept <= set(REASONS), (lang, sorted(kept - set(REASONS)))


def test_the_english_message_is_the_english_words_filled() -> None:
    said = Refusal("players_range", rules="werewolf", low=3, high=30, players=2)
    assert said.message == "werewolf is played by 3 to 30 players, not 2"
    assert said.to_json() == {
        "message": said.message,
        "reason": "players_range",
        "fields": {"rules": "werewolf", "low": 3, "high": 30, "players": 2},
    }
    assert words("no_seat", {"n": 9}, "sv") == "Det finns ingen plats 9."
    with pytest.raises(KeyError):
        Refusal("no_such_reason")
