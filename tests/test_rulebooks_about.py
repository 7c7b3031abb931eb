"""Every role card explains itself: "about.<role>" in every language of every rulebook.

The text a player reads on the role card in the web pages (``roles[rid].about`` of
``GET /api/rulebooks``) and after the role's line in ``lupus rules``: one line, short.
"""

from __future__ import annotations

import pytest

from lupus.families import load
from lupus.rulebooks import available
from lupus.rules_text import describe
from lupus.server.catalogue import rulebook_entry

BOOKS = available()
LONGEST = 200


@pytest.mark.parametrize("rules", BOOKS)
def test_every_role_has_an_about_text_in_every_language(rules: str) -> None:
    book = load(rules)
    missing = [
        f"[text.{lang}] about.{rid}"
        for lang in book.languages
        for rid in book.roles
        if not book.text.get(lang, {}).get(f"about.{rid}", "").strip()
    ]
    assert missing == [], f"{rules} lacks {', '.join(missing)}"


@pytest.mark.parametrize("rules", BOOKS)
def test_about_texts_are_one_short_line(rules: str) -> None:
    book = load(rules)
    for lang in book.languages:
        for key, text in book.text.get(lang, {}).items():
            if not key.startswith("about."):
                continue
            where = f"{rules} [text.{lang}] {key}"
            assert key.removeprefix("about.") in book.roles, f"{where}: no such role"
            assert "\n" not in text and "\r" not in text, f"{where}: more than one line"
            assert text == text.strip(), f"{where}: leading or trailing blanks"
            assert len(text) <= LONGEST, f"{where}: {len(text)} characters (at most {LONGEST})"


@pytest.mark.parametrize("rules", BOOKS)
def test_the_rules_and_the_pages_show_the_about_texts(rules: str) -> None:
    book = load(rules)
    for lang in book.languages:
        texts = book.text[lang]
        lines = describe(book, lang, strict=True)
        roles = rulebook_entry(book, lang)["roles"]
        assert isinstance(roles, dict)
        for rid in book.roles:
            about = texts[f"about.{rid}"]
            assert any(line.endswith(about) for line in lines), (rules, lang, rid)
            assert roles[rid]["about"] == about
