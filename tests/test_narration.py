"""Every message can be said: every game narrated, in every language, without a gap.

A strict Narrator raises MessageError naming the rulebook, the language and the message
where a lenient one would show a key (an event kind without a message), «?» (a field
the event lacks) or its raw template (a broken one). Here every scenario file and a few
seeded games of every rulebook (its recommended compositions, random options, random and
heuristic bots) are told in full and from every seat, in every language the rulebook
offers, with the menus of every decision the players met; and the rules text too.
"""

from __future__ import annotations

import random
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from lupus import scenario as sc
from lupus.bots.kinds import make_bot
from lupus.engine.deal import seat_names
from lupus.engine.errors import SetupError
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action, Event
from lupus.engine.views import View
from lupus.families import deal, load, new_game
from lupus.narration import MessageError, Narrator
from lupus.rulebooks import available
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.rules_text import describe
from lupus.server.catalogue import rulebook_entry
from lupus.testing.contract import check_narration
from lupus.village.family import house_rules, shipped_roles

ROOT = Path(__file__).parent / "scenarios"
SCENARIOS = sorted(ROOT.rglob("*.json"))
BOOKS = available()
GAMES_PER_COMPOSITION = 1
MAX_ACTIONS = 3000


def say_menus(narrator: Narrator, view: View) -> None:
    """Every menu line of a view's prompts (a few choices of each: a verb's lines differ
    only in the names they hold)."""
    for prompt in view.prompts:
        for args in prompt.choices[:3]:
            line = narrator.choice(prompt.verb, args)
            assert line.strip(), (prompt, args)


def say_everything(game: Game) -> None:
    """The whole game told from every seat and the leader's, in every language, with
    the menus each view holds now (``lupus.testing``: strictly, nothing told blank)."""
    check_narration(game)


def event(kind: str, audience: frozenset[int] | None, data: dict[str, object]) -> Event:
    return Event(kind, audience, data, "night", 1)


# ---------------------------------------------------------------------- the strict mode
def test_a_strict_narrator_names_what_is_missing() -> None:
    book = load("maffia")
    names = ("Ann", "Bob")
    strict = Narrator(book, names, "sv", strict=True)
    with pytest.raises(MessageError, match=r"maffia \[sv\]: message 'no_such_event' is missing"):
        strict.event(event("no_such_event", None, {}))
    with pytest.raises(MessageError, match=r"message 'nomination' needs \{target\}"):
        strict.event(event("nomination", None, {"player": 0}))
    with pytest.raises(MessageError, match=r"'menu.no_such_verb' is missing"):
        strict.choice("no_such_verb", (1,))
    # The lenient narrator of a game goes on: the key, «?».
    lenient = Narrator(book, names, "sv")
    assert lenient.event(event("nomination", None, {"player": 0})) == "Ann nominerar «?»."
    assert lenient.event(event("no_such_event", None, {})) == "No_such_event"


def locale_keys(lang: str) -> set[str]:
    text = resources.files("lupus.locales").joinpath(f"{lang}.toml").read_text("utf-8")
    return set(tomllib.loads(text)["text"])


def role_keys() -> list[str]:
    """The keys the shipped roles declare with their English text (``Role.messages``)."""
    return [key for role in shipped_roles() for key in role.messages]


def test_every_english_message_is_in_swedish() -> None:
    # English: en.toml and the roles' modules.
    assert sorted((locale_keys("en") | set(role_keys())) - locale_keys("sv")) == []


def test_every_english_message_is_said_once() -> None:
    """A role's key is its own: no other role declares it, and en.toml does not hide it."""
    keys = role_keys()
    assert sorted({k for k in keys if keys.count(k) > 1}) == []
    assert sorted(locale_keys("en") & set(keys)) == []


@pytest.mark.parametrize("rules", BOOKS)
def test_every_card_has_its_count_forms(rules: str) -> None:
    book = load(rules)
    for lang in book.languages:
        names = book.names[lang]
        missing = [
            f"{form}.{role}"
            for role in book.roles
            for form in ("one", "many")
            if f"{form}.{role}" not in names
        ]
        assert missing == [], f"{rules}: [names.{lang}] lacks {', '.join(missing)}"


# ---------------------------------------------------------------------- scenarios
@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT)) for p in SCENARIOS])
def test_every_scenario_can_be_told(path: Path) -> None:
    say_everything(sc.replay(sc.read(path)).game)


# ---------------------------------------------------------------------- random games
def random_options(book: Rulebook, rng: random.Random) -> dict[str, OptionValue]:
    options: dict[str, OptionValue] = {}
    for key, spec in book.options.items():
        if spec.type == "bool":
            options[key] = rng.random() < 0.5
        elif spec.type == "choice":
            options[key] = rng.choice(spec.choices)
        elif spec.type == "float" and spec.min is not None and spec.max is not None:
            options[key] = rng.choice([spec.min, spec.default, spec.max])
        elif spec.type == "int" and spec.min is not None and spec.max is not None:
            options[key] = rng.randint(int(spec.min), int(spec.max))
    return options


def random_game(book: Rulebook, players: int, index: int) -> Game:
    """A seeded game of the recommended composition, played to its end by bots (half
    random, half heuristic), its menus told at every decision."""
    rng = random.Random(f"{book.id}:{players}:{index}")
    counts = book.compositions[str(players)]
    d = deal(book, players, counts, rng, house_rules(book, players, counts))
    names = seat_names(players)
    seed = rng.getrandbits(63)
    options = random_options(book, rng)

    def start(options: dict[str, OptionValue]) -> Game:
        return new_game(
            book,
            names,
            d.roles,
            d.extra_cards,
            options,
            seed,
            characters=d.characters,
            chests=d.chests,
            burgomaster=d.burgomaster,
        )

    try:
        game = start(options)
    except SetupError:  # (an option that refuses this table: the defaults never do,
        # beyond the house rule a small werewolf table plays under)
        game = start(house_rules(book, players, counts))
    bot = make_bot("heuristic" if index % 2 else "random", book.id)
    narrators = {lang: Narrator(book, names, lang, strict=True) for lang in book.languages}
    step, budget, actions = game.step, 0, 0
    while not game.finished and actions < MAX_ACTIONS:
        budget = budget + 1 if game.step is step else 1
        step = game.step
        seat = game.first_waiting()
        if seat is not None and budget <= 4 * game.n:
            view = game.view(seat)
            for narrator in narrators.values():
                say_menus(narrator, view)
            game.apply(bot.act(view, rng))
        else:
            for narrator in narrators.values():
                say_menus(narrator, game.view(LEADER))
            game.apply(Action(LEADER, "close"))
        actions += 1
    return game


@pytest.mark.parametrize("rules", BOOKS)
def test_random_games_can_be_told(rules: str) -> None:
    book = load(rules)
    assert book.compositions, f"{rules} recommends no composition"
    # Every size up to 18, and the largest (a deck for every size up to 40 would make
    # this test slow; a table of 25 tells nothing that those do not).
    sizes = sorted(book.compositions, key=int)
    for size in [n for n in sizes if int(n) <= 18] + [sizes[-1]]:
        for index in range(GAMES_PER_COMPOSITION):
            say_everything(random_game(book, int(size), index + int(size)))


@pytest.mark.parametrize("rules", BOOKS)
def test_the_pages_tell_every_cause_as_the_narration_does(rules: str) -> None:
    """Each cause of death a game gives (a morning card says how someone died) is in
    the rulebook's entry for the pages, in its own words and every language."""
    book = load(rules)
    given: set[str] = set()
    for size in book.compositions:
        for index in range(GAMES_PER_COMPOSITION):
            view = random_game(book, int(size), index + int(size)).view(LEADER)
            given |= {str(e.data["cause"]) for e in view.events if "cause" in e.data}
    assert given, rules
    for lang in book.languages:
        told = rulebook_entry(book, lang)["causes"]
        assert isinstance(told, dict)
        narrator = Narrator(book, (), lang, strict=True)
        for cause in given:
            assert told[cause] == narrator.t(f"cause_{cause}"), (rules, lang, cause)
            assert "{" not in told[cause] and "cause_" not in told[cause], told[cause]


# ---------------------------------------------------------------------- rules text
@pytest.mark.parametrize("rules", BOOKS)
def test_the_rules_can_be_told(rules: str) -> None:
    book = load(rules)
    for lang in book.languages:
        lines = describe(book, lang, strict=True)
        assert not any("«?»" in line for line in lines)


@pytest.mark.parametrize("rules", BOOKS)
def test_the_terminal_prompts_can_be_said(rules: str) -> None:
    book = load(rules)
    for lang in book.languages:
        narrator = Narrator(book, ("Ann",), lang, strict=True)
        assert narrator.t("ui_you", player="Ann").count("Ann") == 1
        assert "7" in narrator.t("ui_choose", count=7)
        assert "7" in narrator.t("ui_bad_choice", count=7)
        assert narrator.t("ui_abandoned")


# ---------------------------------------------------------------------- what they read
def leader_lines(path: str, lang: str | None = None) -> list[str]:
    game = sc.replay(sc.read(ROOT / path)).game
    return Narrator(game.rulebook, game.names, lang, strict=True).lines(game.view(LEADER))


def test_the_deck_is_counted_in_the_night_order() -> None:
    sv = leader_lines("maffia/seed-deck-12-players.json")[0]
    assert sv.endswith(
        "I leken finns 2 maffia, 1 gudfader, 1 läkare, 1 detektiv, 1 par, 1 hämnare och 4 bybor."
    )
    en = leader_lines("maffia/seed-deck-12-players.json", "en")[0]
    assert en.endswith(
        "2 Mafia, 1 Godfather, 1 Doctor, 1 Detective, 1 Couple, 1 Avenger and 4 Villagers."
    )
    book = load("werewolf")
    narrator = Narrator(book, (), strict=True)
    assert narrator.cards({"villager": 5, "seer": 1, "werewolf": 2}) == (
        "1 Seer, 2 Werewolves and 5 Simple Villagers"
    )
    assert narrator.cards({"villager": 1, "werewolf": 1, "hunter": 1}, sep=", ") == (
        "1 Werewolf, 1 Hunter, 1 Simple Villager"
    )


def test_the_pack_is_told_once_and_again_when_it_changes() -> None:
    lines = leader_lines("maffia/seed-deck-12-players.json")
    told = [line for line in lines if "känner igen varandra" in line and "maffian" in line]
    assert told == [
        "(till Bertil, Fredrik och Karin) Bertil (Maffia), Fredrik (Gudfadern) och Karin "
        "(Maffia) är maffian och känner igen varandra."
    ]
    # (told to the eliminated too: they watch the night with open eyes, README)
    assert (
        "(till Alva, Bertil, David, Fredrik och Karin) Fredrik (Gudfadern) är nu ensam kvar "
        "i maffian." in lines
    )
    # Seen by one member, night after night: once.
    game = sc.replay(sc.read(ROOT / "maffia/seed-deck-12-players.json")).game
    bertil = Narrator(load("maffia"), game.names).lines(game.view(game.names.index("Bertil")))
    assert sum("känner igen varandra" in line for line in bertil) == 1


def test_a_lone_mafioso_is_not_told_that_they_recognise_each_other() -> None:
    book = load("maffia")
    for lang, wanted in (
        ("sv", "Ann (Maffia) är ensam i maffian."),
        ("en", "Ann (Mafia) is the only member of the Mafia."),
    ):
        narrator = Narrator(book, ("Ann", "Bob"), lang, strict=True)
        line = narrator.event(event("pack", frozenset({0}), {"roles": {0: "mafia"}}), 0)
        assert line == wanted


def test_the_doctor_protects_himself() -> None:
    book = load("maffia")
    ev = event("protection", frozenset({1}), {"player": 1, "target": 1})
    sv = Narrator(book, ("Ann", "Bob"), "sv", strict=True)
    en = Narrator(book, ("Ann", "Bob"), "en", strict=True)
    assert sv.event(ev, 1) == "Bob, Läkaren, skyddar sig själv."
    assert en.event(ev, 1) == "Bob, the Doctor, protects themselves."
    other = event("protection", frozenset({1}), {"player": 1, "target": 0})
    assert sv.event(other, 1) == "Bob, Läkaren, skyddar Ann."


def test_the_vote_is_a_choice() -> None:
    book = load("maffia")
    ev = event("banishment_opens", None, {"candidates": [0, 3, 2], "needed": 3})
    sv = Narrator(book, ("Ann", "Bob", "Cid", "Dan"), "sv", strict=True).event(ev)
    assert sv == (
        "Omröstning, en röst var: på Ann, Dan eller Cid, eller avstå. "
        "Det krävs 3 röster för att förvisa någon."
    )


def test_causes_read_alike() -> None:
    text = Narrator(load("maffia"), (), "sv").text
    causes = {k: v for k, v in text.items() if k.startswith("cause_")}
    assert causes["cause_mafia"] == "mördad"
    assert causes["cause_vote"] == "förvisad av byn"
    assert causes["cause_heartbreak"] == "död av sorg"
    # Every cause is a participle or "död av ...": none is a verb in the past tense.
    assert not [v for v in causes.values() if v.split()[0] in ("dog", "dödades", "blev")]


def test_menus_read_as_sentences() -> None:
    book = load("maffia")
    sv = Narrator(book, ("Ann", "Bob"), "sv", strict=True)
    assert sv.choice("nominate", (1,)) == "Nominera Bob"
    assert sv.choice("vote", (0,)) == "Rösta för att förvisa Ann"
    assert sv.choice("abstain", ()) == "Avstå"
    assert sv.choice("kill", (1,)) == "Mörda Bob"
    en = Narrator(load("werewolf"), ("Ann", "Bob"), strict=True)
    assert en.choice("link", (0, 1)) == "Make Ann and Bob the Lovers"
    assert en.choice("take", ("werewolf",)) == "Take the card Werewolf"
