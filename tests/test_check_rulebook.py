"""``lupus.testing.check_rulebook`` passes on every shipped rulebook and on house
rulebooks, and fails, naming the broken rule and handing back a scenario that
reproduces it, on role plugins broken on purpose: one that shows a role to the wrong
seat, one whose prompt offers a choice its step refuses, one whose step never ends.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import lupus
from lupus import scenario as sc
from lupus.engine.errors import IllegalAction
from lupus.engine.interned import alone
from lupus.engine.model import Action, Prompt
from lupus.families import register_role, unregister_role
from lupus.testing import RULES, ConformanceError, check_rulebook
from lupus.village.game import VillageGame
from lupus.village.plugin import Role, Verb
from lupus.village.steps import Ballot, seats

SHIPPED = Path(lupus.__file__).parent / "rulebooks"
GAMES = 4  # (a seed's games cover few sizes; the deeper hunt is games=200 by hand)


@pytest.mark.parametrize("rules", sorted(lupus.available()))
def test_every_shipped_rulebook_conforms(rules: str) -> None:
    check_rulebook(rules, games=GAMES, seed=1)


def test_a_house_rulebook_conforms_from_its_file_and_loaded(tmp_path: Path) -> None:
    """A werewolf whose Little Girl is always caught, by path and as a loaded Rulebook
    (tests/test_house_rulebooks.py checks each of its house rulebooks too)."""
    text = (SHIPPED / "werewolf.toml").read_text("utf-8")
    old = 'type = "float"\ndefault = 0.2'
    assert text.count(old) == 1
    path = tmp_path / "werewolf.toml"
    path.write_text(text.replace(old, 'type = "float"\ndefault = 1.0'), "utf-8")
    check_rulebook(str(path), games=GAMES, seed=2)
    check_rulebook(lupus.load(str(path)), games=2, seed=3)


# ---------------------------------------------------------------------- broken roles
class Snoop(Ballot):
    """Looks at a player at night and is told his role, without declaring it learns."""

    id = wake = "snoop"

    def who(self, game: VillageGame) -> list[int]:
        return game.holders("snoop")

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "snoop", seats([s for s in game.living if s != actor])),)

    def recorded(self, game: VillageGame, action: Action) -> None:
        target = int(str(action.args[0]))
        game.emit("vision", alone(action.actor), player=target, role=game.roles[target])


class Fussy(Snoop):
    """Offers every living player, himself too, then refuses himself."""

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "snoop", seats(list(game.living))),)

    def act(self, game: VillageGame, action: Action) -> None:
        if action.args == (action.actor,):
            raise IllegalAction("not yourself")
        super().act(game, action)

    def recorded(self, game: VillageGame, action: Action) -> None:
        pass


class Endless(Fussy):
    """A step that, once resolved, comes back for ever."""

    def act(self, game: VillageGame, action: Action) -> None:
        Ballot.act(self, game, action)

    def resolve(self, game: VillageGame) -> None:
        game.push_front(Endless())


MESSAGES = {
    "wake.snoop": "The {N[snoop]} wakes up.",
    "step.snoop": "{N[snoop]}",
    "menu.snoop": "Look at {target}",
}
SWEDISH = {  # (tit-albert offers Swedish too: a role speaks every language of its rulebook)
    "wake.snoop": "{N[snoop]} vaknar.",
    "step.snoop": "{N[snoop]}",
    "menu.snoop": "Titta på {target}",
}


class Seer(Snoop):
    """The Snoop again, declaring that his verb tells him the target's role."""

    learns = True


class Misdeclared(Seer):
    """The Seer-like Snoop whose verb is declared as the villagers', not his card's."""

    holders = ("villager",)


def snoop_role(step: type[Snoop]) -> Role:
    verbs = (Verb("snoop", "snoop", getattr(step, "holders", ("snoop",)), "night"),)
    learns = ("snoop",) if getattr(step, "learns", False) else ()
    steps = {"snoop": step}
    return Role(
        "snoop",
        card="snoop",
        steps=steps,
        verbs=verbs,
        learns=learns,
        messages=MESSAGES,
        texts={"sv": SWEDISH},
    )


def snoop_rulebook(folder: Path) -> Path:
    """tit-albert with a Snoop card, waking first every night."""
    text = (SHIPPED / "tit-albert.toml").read_text("utf-8")
    text = text.replace('id = "tit-albert"', 'id = "tit-albert-snoop"', 1)
    text = text.replace("first = [", 'first = ["snoop", ', 1).replace(
        "later = [", 'later = ["snoop", ', 1
    )
    text = text.replace(
        "[roles.seer]\n", '[roles.snoop]\nfaction = "villagers"\nmax = 1\n\n[roles.seer]\n', 1
    )
    names = 'snoop = "Snoop"\n"one.snoop" = "Snoop"\n"many.snoop" = "Snoops"\n'
    for lang in ("en", "sv"):  # (every language tit-albert offers names every card)
        text = text.replace(f"[names.{lang}]\n", f"[names.{lang}]\n" + names, 1)
    path = folder / "snoop.toml"
    path.write_text(text, "utf-8")
    return path


@pytest.fixture
def broken(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path]:
    role = snoop_role(request.param)
    register_role(role)
    try:
        yield snoop_rulebook(tmp_path)
    finally:
        unregister_role(role)


def failure(path: Path, tmp_path: Path, **kw: int) -> ConformanceError:
    with pytest.raises(ConformanceError) as caught:
        check_rulebook(str(path), games=8, seed=0, scenarios=tmp_path / "found", **kw)
    return caught.value


@pytest.mark.parametrize("broken", [Snoop], indirect=True)
def test_a_role_shown_to_the_wrong_seat_is_a_leak(broken: Path, tmp_path: Path) -> None:
    error = failure(broken, tmp_path)
    assert error.rule == "secrets" and "role of seat" in str(error)
    # The file replays to the game that leaked: its last event is the vision.
    assert error.path is not None and error.path in str(error)
    game = sc.replay(sc.read(Path(error.path))).game
    assert [ev.kind for ev in game.events if ev.kind == "vision"]
    # The same arguments find the same game; without a folder it is in the error only.
    with pytest.raises(ConformanceError) as again:
        check_rulebook(str(broken), games=8, seed=0)
    assert isinstance(again.value, lupus.LupusError) and again.value.path is None
    assert again.value.scenario == error.scenario and ".scenario" in str(again.value)


@pytest.mark.parametrize("broken", [Seer], indirect=True)
def test_the_same_role_declaring_what_it_learns_conforms(broken: Path, tmp_path: Path) -> None:
    """The control of the leak above: declared (``Role.learns``), the vision is his."""
    check_rulebook(str(broken), games=8, seed=0)


@pytest.mark.parametrize("broken", [Misdeclared], indirect=True)
def test_a_prompt_its_plugin_does_not_declare_is_named(broken: Path, tmp_path: Path) -> None:
    error = failure(broken, tmp_path)
    assert error.rule == "declared" and "'snoop' offered to" in str(error), error


@pytest.mark.parametrize("broken", [Fussy], indirect=True)
def test_an_offered_choice_refused_is_named_with_its_line(broken: Path, tmp_path: Path) -> None:
    error = failure(broken, tmp_path)
    assert error.rule == "offered-accepted", error
    assert error.path is not None
    replayed = sc.replay(sc.read(Path(error.path)))
    actions = error.scenario["actions"]
    assert isinstance(actions, list)
    assert replayed.error_index == len(actions) - 1 and replayed.error_message == "not yourself"


@pytest.mark.parametrize("broken", [Endless], indirect=True)
def test_a_game_that_never_ends_is_stopped_and_named(broken: Path, tmp_path: Path) -> None:
    error = failure(broken, tmp_path, most=300)
    assert error.rule in ("ends", "bots-finish"), error
    assert error.rule in RULES and RULES[error.rule] in str(error)
    assert json.loads(Path(str(error.path)).read_text("utf-8"))["rules"]


@pytest.mark.parametrize("bad", [{"games": 0}, {"games": True}, {"seed": -1}, {"most": 2.0}])
def test_its_arguments_are_checked_before_a_game(bad: dict[str, object]) -> None:
    with pytest.raises(lupus.SetupError, match="check_rulebook: "):
        check_rulebook("werewolf", **bad)  # type: ignore[arg-type]
    with pytest.raises(lupus.RulebookError):
        check_rulebook("no-such-rulebook", games=1)
