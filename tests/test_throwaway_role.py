"""A role defined in one test module plays, keeps its secrets and is narrated.

This is the proof of ``docs/adding-a-role.md``: the Bodyguard (he protects a player a
night from the werewolves, never the same player two nights running) is declared here,
as a plugin (``lupus.village.plugin.Role``), and played from a rulebook written to a
temporary folder. Nothing in lupus names it: its module, its lines in a rulebook and
its messages are all it takes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path

import pytest

import playout
from lupus.bots import village_brain
from lupus.bots.village_brain import shield
from lupus.engine.events import SEAT, TEXT, EventSpec
from lupus.engine.interned import alone
from lupus.engine.model import LEADER, Action, Prompt
from lupus.engine.views import role_facts
from lupus.families import (
    event_specs,
    load,
    new_game,
    register_role,
    role_plugins,
    unregister_role,
)
from lupus.narration import Narrator
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import play_one
from lupus.testing import check_rulebook
from lupus.village.game import VillageGame
from lupus.village.plugin import Play, Role, Verb
from lupus.village.steps import Ballot, seats


class Guarded:
    """What the Bodyguard keeps across nights: whom he guarded last night."""

    def __init__(self) -> None:
        self.last: int | None = None


def guarded(game: VillageGame) -> Guarded:
    kept = game.memory("bodyguard")
    assert isinstance(kept, Guarded)
    return kept


class BodyguardStep(Ballot):
    id = "bodyguard"
    wake = "bodyguard"

    def who(self, game: VillageGame) -> list[int]:
        return game.holders("bodyguard")

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        last = guarded(game).last
        return (Prompt(actor, "guard", seats([s for s in game.living if s != last])),)

    def recorded(self, game: VillageGame, action: Action) -> None:
        game.emit("guarding", alone(action.actor), target=action.args[0])

    def resolve(self, game: VillageGame) -> None:
        target = next((self.picked(b, "guard") for b in self.voters), None)
        guarded(game).last = target
        if target is not None:
            game.night.protected = target  # dawn's attack fails on him


ROLE = Role(
    "bodyguard",
    card="bodyguard",
    steps={"bodyguard": BodyguardStep},
    memory=Guarded,
    verbs=(Verb("guard", "bodyguard", ("bodyguard",), "night"),),
    events=(EventSpec("guarding", {"target": SEAT}),),
    # (the heuristic bot guards as the Doctor protects: himself first, then whom he
    # trusts most; without it, a random guard)
    bot=Play({"guard": shield("guard")}, prey=2),
    messages={
        "wake.bodyguard": "The {N[bodyguard]} wakes up and guards a player.",
        "step.bodyguard": "{N[bodyguard]}",
        "guarding": "{viewer} guards {target} tonight.",
        "menu.guard": "Guard {target}",
    },
    # (every other language a rulebook with him offers: werewolf offers Swedish)
    texts={
        "sv": {
            "wake.bodyguard": "{N[bodyguard]} vaknar och vaktar en spelare.",
            "step.bodyguard": "{N[bodyguard]}",
            "guarding": "{viewer} vaktar {target} i natt.",
            "menu.guard": "Vakta {target}",
        }
    },
)


def bodyguard_rulebook(folder: Path) -> Path:
    """The werewolf rulebook with a Bodyguard card, waking before the werewolves."""
    source = Path(__file__).parent.parent / "src" / "lupus" / "rulebooks" / "werewolf.toml"
    text = source.read_text("utf-8")
    text = text.replace('id = "werewolf"', 'id = "werewolf-bodyguard"', 1)
    text = text.replace('"little_girl", "werewolves"', '"bodyguard", "little_girl", "werewolves"')
    text = text.replace(
        "[roles.seer]\n", '[roles.bodyguard]\nfaction = "villagers"\nmax = 1\n\n[roles.seer]\n', 1
    )
    text = text.replace(
        'seer = "Seer"\n',
        'seer = "Seer"\nbodyguard = "Bodyguard"\n'
        '"one.bodyguard" = "Bodyguard"\n"many.bodyguard" = "Bodyguards"\n',
        1,
    )
    text = text.replace(  # (every language werewolf offers names every card)
        'seer = "Siaren"\n',
        'seer = "Siaren"\nbodyguard = "Livvakten"\n'
        '"one.bodyguard" = "livvakt"\n"many.bodyguard" = "livvakter"\n',
        1,
    )
    path = folder / "werewolf-bodyguard.toml"
    path.write_text(text, "utf-8")
    return path


@pytest.fixture(scope="module")
def book_path(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The rulebook's path, with the role registered for this module's tests only
    (the other tests a worker runs never meet it)."""
    register_role(ROLE)
    try:
        yield str(bodyguard_rulebook(tmp_path_factory.mktemp("rulebooks")))
    finally:
        unregister_role(ROLE)


NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
CARDS = ["werewolf", "werewolf", "bodyguard", "seer", "witch", "villager", "villager", "hunter"]


def play(path: str, seed: int, observe: Callable[[VillageGame], None] | None = None) -> VillageGame:
    """One game, every seat choosing at random among its prompts (the leader closes
    a step nobody answers); ``observe`` is called after the start and each action."""
    rng = random.Random(seed)
    cards = list(CARDS)
    rng.shuffle(cards)
    game = new_game(path, NAMES, cards, seed=seed)
    assert isinstance(game, VillageGame)
    for _ in range(3000):
        if observe is not None:
            observe(game)
        if game.finished:
            break
        seat = game.first_waiting()
        if seat is None:
            game.apply(Action(LEADER, "close"))
            continue
        prompt = rng.choice(game.open_prompts(seat))
        game.apply(Action(seat, prompt.verb, rng.choice(prompt.choices)))
    return game


def test_the_rulebook_names_a_step_only_the_plugin_knows(book_path: str) -> None:
    assert "bodyguard" in load(book_path).night.first


def test_the_bodyguard_plays_by_his_rules(book_path: str) -> None:
    guarded_twice = 0
    for seed in range(60):
        game = play(book_path, seed)
        assert game.finished
        guard = game.roles.index("bodyguard")
        chosen = [
            (ev.number, ev.data["target"])
            for ev in game.events
            if ev.kind == "guarding" and ev.audience == alone(guard)
        ]
        # Never the same player two nights running (a changed mind within a night
        # counts once: the last choice of each night is the guard).
        last_of_night = dict(chosen)
        nights = sorted(last_of_night)
        for a, b in pairwise(nights):
            if b == a + 1:
                guarded_twice += last_of_night[a] == last_of_night[b]
        # A werewolf victim he guarded survives the night.
        for number in nights:
            victims = [
                ev.data["target"]
                for ev in game.events
                if ev.kind == "pack_victim" and ev.number == number
            ]
            if victims and victims[0] == last_of_night[number]:
                dead = [d for d in game.deaths if d.number == number and d.cause == "werewolves"]
                assert not dead, (seed, number)
    assert guarded_twice == 0


def test_the_heuristic_bot_plays_him_as_his_module_says(
    book_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """His ``bot`` declaration is the heuristic's play for ``guard``: no game falls back
    to a random choice, and a living Bodyguard guards himself while he may."""

    def refuse(view: object, rng: object) -> Action:
        raise AssertionError(f"no heuristic play for {[p.verb for p in view.prompts]}")  # type: ignore[attr-defined]

    monkeypatch.setattr(village_brain, "fallback", refuse)
    counts = {"werewolf": 2, "bodyguard": 1, "seer": 1, "villager": 4}
    config = SimConfig(book_path, 8, counts, bots={"*": "heuristic"}, seed=3)
    guards = 0
    for index in range(20):
        game, _ = play_one(config, index)
        assert game.finished
        guard = game.roles.index("bodyguard")
        first = [ev for ev in game.events if ev.kind == "guarding" and ev.number == 1]
        if first:
            guards += 1
            assert first[-1].data["target"] == guard
    assert guards


def test_his_memory_is_his_own_and_nobody_sees_his_choice(book_path: str) -> None:
    for seed in range(20):
        game = play(book_path, seed)
        guard = game.roles.index("bodyguard")
        for seat in range(game.n):
            for ev in game.view(seat).events:
                if ev.kind == "guarding":
                    assert seat == guard
                for player, _ in role_facts(ev):
                    # roles told to a seat are his own, the pack's, a vision, a
                    # death's or the end's; never the Bodyguard's to another
                    # villager through his step
                    assert ev.kind != "guarding", (player, seat)


def test_the_referee_reads_him_from_his_declaration(book_path: str) -> None:
    """The property tests' referee takes its tables from the plugins' declarations
    (``playout.declared``): registered, the Bodyguard is in them, learning nothing, and
    every prompt of his games is one they allow (a verb of the seat's card, at its time,
    in its step, against the living; to the dead only a last breath)."""
    tables = playout.declared(book_path)
    assert tables.living["guard"] == frozenset({"bodyguard"})
    assert not tables.tells("bodyguard", "guard")
    last_breaths = {verb for role in tables.last_breath for verb in tables.last_verbs(role)}
    offered: list[str] = []

    def check(game: VillageGame) -> None:
        wakes = [ev for ev in game.events if ev.kind == "wake" and ev.audience is None]
        step = str(wakes[-1].data["step"]) if wakes else None
        for p in game.prompts():
            if p.actor == LEADER:
                continue
            offered.append(p.verb)
            if not game.alive[p.actor]:
                assert p.verb in last_breaths, p
                continue
            role = game.roles[p.actor]
            alive = game.alive.__getitem__
            refused = tables.refusal(p, role, game.phase, game.number, step, alive)
            assert refused is None, refused

    for seed in range(20):
        play(book_path, seed, check)
    assert "guard" in offered


def test_a_language_he_has_no_text_in_is_an_error_for_the_strict_narrator(
    book_path: str,
) -> None:
    """Narrated in Swedish without his Swedish texts, he would speak English: a strict
    narrator (``check_rulebook``'s) refuses it, naming the key and the language."""
    from lupus.engine.errors import LupusError

    bare = Role("bodyguard-en", messages={"wake.bodyguard-en": "The guard wakes up."})
    register_role(bare)
    try:
        narrator = Narrator(load(book_path), NAMES, "sv", strict=True)
        with pytest.raises(LupusError, match=r"wake\.bodyguard-en.*'sv'"):
            narrator.t("wake.bodyguard-en")
        assert Narrator(load(book_path), NAMES, "sv").t("wake.bodyguard-en")
    finally:
        unregister_role(bare)


def test_his_games_are_narrated_in_every_language_strictly(book_path: str) -> None:
    book = load(book_path)
    for seed in range(10):
        game = play(book_path, seed)
        for lang in book.languages:
            for seat in [LEADER, *range(game.n)]:
                view = game.view(seat)
                narrator = Narrator(book, game.names, lang, strict=True)
                assert narrator.lines(view)
                for prompt in view.prompts:
                    for args in prompt.choices[:2]:
                        assert narrator.choice(prompt.verb, args)


def test_the_rulebook_with_him_passes_the_conformance_check(book_path: str) -> None:
    """The last step of ``docs/adding-a-role.md``: his event's schema comes from his
    declaration (``Role.events``), so his games round-trip through JSON too."""
    check_rulebook(book_path, games=8, seed=0)


def test_his_event_kind_is_in_the_family_table_only_while_he_is_registered(
    book_path: str,
) -> None:
    """``event_specs`` reads the registry: his kind is there while he is registered,
    and a role that redeclares a kind the village already has is refused when it is
    registered, the registry unchanged."""

    book = load(book_path)
    assert event_specs(book)["guarding"].fields == {"target": SEAT}
    clash = Role("clash", events=(EventSpec("death", {"player": SEAT}),))
    with pytest.raises(ValueError, match="'death'"):
        register_role(clash)
    assert clash not in role_plugins()
    assert event_specs(book)["death"].fields == {"player": SEAT, "cause": TEXT, "role": TEXT}
    unregister_role(ROLE)
    try:
        assert "guarding" not in event_specs(load("werewolf"))
    finally:
        register_role(ROLE)
