"""The maffia rulebook beyond what a scenario's `expect` can say.

What players are told (the Detective's side, hidden roles on death, the failed attempt,
the couple revealed, deaths held until dawn), the rulebook's data (compositions, the
couple's pair of cards, Swedish by default), its texts (every key translated, no
placeholder left in a narrated game, `lupus rules maffia` in Swedish and English) and
random legal games audited for what each seat may learn.
"""

from __future__ import annotations

import random
import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lupus import scenario as sc
from lupus.cli import app
from lupus.engine import LEADER, Action, SetupError
from lupus.engine.views import role_facts
from lupus.families import load, new_game
from lupus.narration import narrate
from lupus.village.family import shipped_roles
from lupus.village.game import VillageGame

ROOT = Path(__file__).parent / "scenarios" / "maffia"
SCENARIOS = sorted(ROOT.glob("*.json"))
NAMES = ["Anna", "Bo", "Cilla", "Dan", "Eva", "Filip", "Greta", "Hugo", "Ines"]
ROLES = ["mafia", "godfather", "doctor", "detective", "couple", "couple", "avenger"]
ROLES += ["villager", "villager"]
ANNA, BO, CILLA, DAN, EVA, FILIP, GRETA, HUGO, INES = range(9)


def game(seed: int = 0) -> VillageGame:
    g = new_game("maffia", NAMES, ROLES, seed=seed)
    assert isinstance(g, VillageGame)
    return g


def act(g: VillageGame, *moves: tuple[int, str, int | None]) -> None:
    for actor, verb, target in moves:
        g.apply(Action(actor, verb, () if target is None else (target,)))


def kinds(g: VillageGame, seat: int) -> list[str]:
    return [ev.kind for ev in g.view(seat).events]


# ---------------------------------------------------------------------- what players learn
def test_detective_learns_the_side_never_the_role() -> None:
    g = game()
    act(g, (ANNA, "kill", HUGO), (BO, "kill", HUGO), (CILLA, "protect", INES))
    act(g, (DAN, "inspect", BO))  # the Godfather
    found = [ev for ev in g.view(DAN).events if ev.kind == "inspection"]
    assert [(ev.data["player"], ev.data["side"]) for ev in found] == [(BO, "town")]
    assert "role" not in found[0].data and "roles" not in found[0].data
    assert found[0].audience == frozenset({DAN})
    assert g.view(DAN).known_roles() == {DAN: "detective"}
    act(g, (LEADER, "close", None), (ANNA, "kill", INES), (BO, "kill", INES))
    act(g, (CILLA, "protect", GRETA), (DAN, "inspect", ANNA))
    sides = [ev.data["side"] for ev in g.view(DAN).events if ev.kind == "inspection"]
    assert sides == ["town", "mafia"]
    assert all(ev.kind != "inspection" for ev in g.view(EVA).events)


def test_deaths_do_not_reveal_roles_until_the_game_ends() -> None:
    path = ROOT / "seed-deck-12-players.json"
    result = sc.replay(sc.read(path))
    g = result.game
    assert g.finished
    deaths = [ev for ev in g.events if ev.kind == "death"]
    assert len(deaths) == len(g.deaths) == 7
    assert all("role" not in ev.data and ev.audience is None for ev in deaths)
    over = g.events[-1]
    assert over.kind == "game_over" and over.audience is None
    assert over.data["roles"] == dict(enumerate(g.dealt))
    # Before the end, the public learns exactly one kind of role fact: the couple revealed.
    public = [ev for ev in g.events[:-1] if ev.audience is None and role_facts(ev)]
    assert [ev.kind for ev in public] == ["couple_revealed"]


def test_failed_attempt_says_not_on_whom() -> None:
    g = game()
    act(g, (ANNA, "kill", HUGO), (BO, "kill", HUGO), (CILLA, "protect", HUGO))
    act(g, (DAN, "inspect", ANNA))
    failed = [ev for ev in g.events if ev.kind == "failed_attempt"]
    assert len(failed) == 1 and failed[0].audience is None and dict(failed[0].data) == {}
    morning = kinds(g, EVA)
    assert morning[morning.index("dawn") :] == [
        "dawn",
        "failed_attempt",
        "no_death",
        "day",
        "nominations_open",
    ]
    assert g.deaths == []


def test_the_couple_recognise_each_other_and_are_revealed_after_the_heartbreak() -> None:
    g = game()
    couple = [ev for ev in g.events if ev.kind == "couple"]
    assert couple == []  # the couple step has not run yet
    act(g, (ANNA, "kill", EVA), (BO, "kill", EVA), (CILLA, "protect", INES))
    act(g, (DAN, "inspect", ANNA))
    recognised = [ev for ev in g.events if ev.kind == "couple"]
    assert len(recognised) == 1 and recognised[0].audience == frozenset({EVA, FILIP})
    assert recognised[0].data["roles"] == {EVA: "couple", FILIP: "couple"}
    # Eva, murdered tonight, still opened her eyes: only her murder is told at dawn.
    public = [ev.kind for ev in g.view(HUGO).events if ev.phase == "night"]
    assert public[public.index("dawn") :] == ["dawn", "death"]
    assert g.alive[FILIP]
    # Filip dies in the next night's couple step; the morning after tells they were a couple.
    act(g, (LEADER, "close", None), (ANNA, "kill", HUGO), (BO, "kill", HUGO))
    act(g, (CILLA, "protect", DAN), (DAN, "inspect", BO))
    assert not g.alive[FILIP] and g.waiting() == [GRETA]
    assert "couple_revealed" not in kinds(g, HUGO)  # not before dawn
    act(g, (GRETA, "shoot", BO))  # the Godfather survives the shot
    public = [ev.kind for ev in g.view(INES).events if ev.phase == "night" and ev.number == 2]
    assert public[public.index("dawn") :] == ["dawn", "death", "couple_revealed", "death"]
    revealed = next(ev for ev in g.events if ev.kind == "couple_revealed")
    assert revealed.data["roles"] == {EVA: "couple", FILIP: "couple"}
    assert g.view(INES).known_roles() == {INES: "villager", EVA: "couple", FILIP: "couple"}
    assert [(d.player, d.cause, d.number) for d in g.deaths] == [
        (EVA, "mafia", 1),
        (FILIP, "heartbreak", 2),
        (HUGO, "mafia", 2),
    ]


def test_the_murdered_leave_at_dawn_and_learn_it_then() -> None:
    g = game()
    act(g, (ANNA, "kill", DAN), (BO, "kill", DAN), (CILLA, "protect", INES))
    # The Detective's turn: he is the victim, but nobody (he included) knows it yet.
    assert g.deaths == [] and g.alive[DAN]
    assert g.waiting() == [DAN]
    assert all(ev.kind != "death" for ev in g.events)
    assert g.view(DAN).dead() == set() and g.view(ANNA).dead() == set()
    act(g, (DAN, "inspect", ANNA))
    assert [ev.data["side"] for ev in g.view(DAN).events if ev.kind == "inspection"] == ["mafia"]
    # Dawn: he leaves, and learns it with everyone, from the same public event.
    assert [d.player for d in g.deaths] == [DAN] and not g.alive[DAN]
    assert g.view(INES).dead() == {DAN} and g.view(DAN).dead() == {DAN}
    death = next(ev for ev in g.events if ev.kind == "death")
    assert death.audience is None and g.events.index(death) > next(
        i for i, ev in enumerate(g.events) if ev.kind == "dawn"
    )
    assert g.phase == "day" and DAN not in g.waiting()


def test_night_deaths_are_real_at_once_but_announced_at_dawn() -> None:
    g = game()
    act(g, (ANNA, "kill", EVA), (BO, "kill", EVA), (CILLA, "protect", INES))
    act(g, (DAN, "inspect", ANNA), (LEADER, "close", None))
    act(g, (ANNA, "kill", HUGO), (BO, "kill", HUGO), (CILLA, "protect", DAN))
    act(g, (DAN, "inspect", BO))
    # The Avenger's turn: Filip died of heartbreak in the couple step, nobody is told yet,
    # and the Avenger's choices still list him and tonight's victim, so they leak nothing.
    assert not g.alive[FILIP] and g.alive[HUGO]
    assert g.view(INES).dead() == {EVA}
    (prompt,) = g.prompts(GRETA)
    assert (FILIP,) in prompt.choices and (HUGO,) in prompt.choices
    act(g, (GRETA, "shoot", ANNA))
    deaths = [(d.player, d.cause, d.number) for d in g.deaths]
    assert deaths == [
        (EVA, "mafia", 1),
        (FILIP, "heartbreak", 2),
        (ANNA, "shot", 2),
        (HUGO, "mafia", 2),
    ]
    told = [ev.data["player"] for ev in g.view(INES).events if ev.kind == "death"]
    assert told == [EVA, FILIP, ANNA, HUGO]
    assert g.view(INES).dead() == {EVA, FILIP, ANNA, HUGO}


def test_the_avenger_is_not_told_why_the_godfather_survives() -> None:
    g = game()
    act(g, (ANNA, "kill", HUGO), (BO, "kill", HUGO), (CILLA, "protect", INES))
    act(g, (DAN, "inspect", ANNA), (LEADER, "close", None))
    act(g, (ANNA, "kill", INES), (BO, "kill", INES), (CILLA, "protect", DAN))
    act(g, (DAN, "inspect", BO), (GRETA, "shoot", BO))
    unharmed = [ev for ev in g.events if ev.kind == "unharmed"]
    assert len(unharmed) == 1 and unharmed[0].audience == frozenset()
    assert "unharmed" not in kinds(g, GRETA)
    assert g.alive[BO]
    shots = [ev for ev in g.view(GRETA).events if ev.kind == "shot"]
    assert [(ev.data["target"], ev.audience) for ev in shots] == [(BO, frozenset({GRETA}))]


def test_the_avenger_wakes_publicly_only_after_a_murder() -> None:
    g = game()
    act(g, (ANNA, "kill", HUGO), (BO, "kill", HUGO), (CILLA, "protect", HUGO))
    act(g, (DAN, "inspect", ANNA), (LEADER, "close", None))
    act(g, (ANNA, "kill", INES), (BO, "kill", INES), (CILLA, "protect", DAN))
    act(g, (DAN, "inspect", BO))
    wakes = [ev.data["step"] for ev in g.view(HUGO).events if ev.kind == "wake"]
    assert "avenger" not in wakes  # night 1 had no murder (saved), so night 2 has no avenger
    act(g, (LEADER, "close", None), (ANNA, "kill", DAN), (BO, "kill", DAN))
    act(g, (CILLA, "protect", GRETA), (DAN, "inspect", ANNA))  # murdered, he still wakes
    wakes = [ev.data["step"] for ev in g.view(HUGO).events if ev.kind == "wake"]
    assert wakes[-1] == "avenger"
    assert g.waiting() == [GRETA] and {p.verb for p in g.prompts(GRETA)} == {"shoot"}
    assert (GRETA,) not in g.prompts(GRETA)[0].choices


def test_mafia_see_each_others_picks_and_know_each_other() -> None:
    g = game()
    pack = next(ev for ev in g.events if ev.kind == "pack")
    assert pack.audience == frozenset({ANNA, BO})
    assert pack.data["roles"] == {ANNA: "mafia", BO: "godfather"}
    act(g, (ANNA, "kill", HUGO))
    picks = [ev for ev in g.events if ev.kind == "pack_choice"]
    assert picks[-1].audience == frozenset({ANNA, BO})
    assert g.waiting() == [BO]
    act(g, (BO, "kill", INES))
    assert g.waiting() == [ANNA, BO]  # they disagree: both owe agreement


def test_ballots_are_shown_together_when_the_vote_is_over() -> None:
    g = game()
    act(g, (ANNA, "kill", HUGO), (BO, "kill", HUGO), (CILLA, "protect", INES))
    act(g, (DAN, "inspect", ANNA), (DAN, "nominate", ANNA), (LEADER, "close", None))
    assert [ev.data["player"] for ev in g.events if ev.kind == "defence"] == [ANNA]
    act(g, (CILLA, "vote", ANNA), (DAN, "vote", ANNA))
    assert all(ev.kind != "ballot" for ev in g.events)
    act(g, (LEADER, "close", None))
    ballots = [ev for ev in g.events if ev.kind == "ballot"]
    assert len(ballots) == 8 and all(ev.audience is None for ev in ballots)
    assert [ev.data["target"] for ev in ballots].count(None) == 6  # missing ones abstain
    assert g.alive[ANNA]


# ---------------------------------------------------------------------- the rulebook's data
def test_rulebook_data() -> None:
    book = load("maffia")
    assert book.languages == ("sv", "en") and book.language == "sv"
    assert set(book.factions) == {"town", "mafia"}
    assert set(book.roles) == {
        "mafia",
        "godfather",
        "doctor",
        "detective",
        "couple",
        "avenger",
        "villager",
    }
    assert book.night.first == book.night.later
    assert book.night.first == ("mafia", "doctor", "detective", "couple", "avenger")
    mech = book.mechanics
    assert (mech.reveal_on_death, mech.announce_failed_attempt) == (False, True)
    assert (mech.kill_cause, mech.pack_tag, mech.hunter_triggers) == ("mafia", "mafia", ())
    assert mech.starvation_winner is None
    assert book.compositions["12"] == {
        "mafia": 2,
        "godfather": 1,
        "doctor": 1,
        "detective": 1,
        "couple": 2,
        "avenger": 1,
        "villager": 4,
    }


@pytest.mark.parametrize("size", sorted(load("maffia").compositions, key=int))
def test_every_recommended_composition_can_be_played(size: str) -> None:
    deck = load("maffia").compositions[size]
    roles = [r for r, n in deck.items() for _ in range(n)]
    assert len(roles) == int(size)
    g = new_game("maffia", [f"p{i}" for i in range(len(roles))], roles)
    assert not g.finished and g.waiting()


def test_couple_cards_come_in_pairs() -> None:
    roles = ["mafia", "couple", "villager", "villager", "villager"]
    with pytest.raises(SetupError, match="couple cards come in sets of 2"):
        new_game("maffia", ["a", "b", "c", "d", "e"], roles)


def test_a_side_that_already_won_is_refused() -> None:
    with pytest.raises(SetupError):
        new_game("maffia", ["a", "b", "c", "d"], ["mafia", "godfather", "doctor", "villager"])


def test_engine_has_no_rulebook_special_case() -> None:
    src = Path(__file__).resolve().parents[1] / "src" / "lupus"
    for folder in ("engine", "roles"):
        for path in (src / folder).glob("*.py"):
            text = path.read_text("utf-8")
            assert not re.search(r"""["']maffia["']""", text), path


# ---------------------------------------------------------------------- texts
def locale_keys(lang: str) -> set[str]:
    text = resources.files("lupus.locales").joinpath(f"{lang}.toml").read_text("utf-8")
    return set(tomllib.loads(text)["text"])


def test_swedish_locale_translates_every_key() -> None:
    # English: en.toml and the English text the roles' modules declare.
    english = locale_keys("en") | {key for role in shipped_roles() for key in role.messages}
    assert locale_keys("sv") == english


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
@pytest.mark.parametrize("lang", ["sv", "en"])
def test_narration_has_no_missing_field(path: Path, lang: str) -> None:
    g = sc.replay(sc.read(path)).game
    for seat in [LEADER, *range(g.n)]:
        lines = narrate(g.view(seat), lang)
        text = "\n".join(lines)
        assert "«?»" not in text, text
        for line in lines:
            assert not re.match(r"^[a-z_]+(\.[a-z_]+)*$", line), f"untranslated key {line!r}"


def test_narration_is_swedish_by_default() -> None:
    g = sc.replay(sc.read(ROOT / "couple-murdered-partner-dies-next-night.json")).game
    text = "\n".join(narrate(g.view(LEADER)))
    assert "Nu är det morgon och alla i byn vaknar." in text
    assert "Eva åker ut ur spelet (mördad)." in text
    assert "Filip åker ut ur spelet (död av sorg)." in text
    assert "Eva och Filip var ett par." in text
    english = "\n".join(narrate(g.view(LEADER), "en"))
    assert "Eva and Filip were a couple." in english


def test_rules_in_swedish_and_english() -> None:
    runner = CliRunner()
    sv = runner.invoke(app, ["rules", "maffia"])
    assert sv.exit_code == 0, sv.output
    for word in ("Maffia", "Gudfadern", "Läkaren", "Detektiv", "Paret", "Hämnaren", "Bybo"):
        assert word in sv.output
    for heading in ("Roller", "Första natten", "Dagen", "Vinst", "Rekommenderade"):
        assert heading in sv.output
    # (the steps as the seed says them: "Detektiven vaknar", the card is "Detektiv")
    assert "Maffian → Läkaren → Detektiven → Paret → Hämnaren" in sv.output
    assert "12: 2 maffia, 1 gudfader, 1 läkare, 1 detektiv, 1 par, 1 hämnare, 4 bybor" in (
        sv.output
    )
    assert "plays for" not in sv.output and "Roles" not in sv.output
    en = runner.invoke(app, ["rules", "maffia", "--lang", "en"])
    assert en.exit_code == 0, en.output
    for word in ("Godfather", "Doctor", "Detective", "Couple", "Avenger", "Villager"):
        assert word in en.output
    assert "Roles" in en.output and "Roller" not in en.output


# ---------------------------------------------------------------------- random games
def random_roles(rng: random.Random) -> list[str]:
    book = load("maffia")
    deck = dict(book.compositions[rng.choice(list(book.compositions))])
    if rng.random() < 0.3:  # a variant: drop a special card for a villager
        special = rng.choice([r for r in deck if r not in ("mafia", "villager")])
        count = deck.pop(special)
        deck["villager"] = deck.get("villager", 0) + count
    roles = [r for r, n in deck.items() for _ in range(n)]
    rng.shuffle(roles)
    return roles


def play_randomly(seed: int) -> VillageGame:
    rng = random.Random(seed)
    roles = random_roles(rng)
    g = new_game("maffia", [f"p{i}" for i in range(len(roles))], roles, seed=seed)
    assert isinstance(g, VillageGame)
    for _ in range(3000):
        if g.finished:
            break
        waiting = g.waiting()
        if not waiting or rng.random() < 0.05:
            g.apply(Action(LEADER, "close"))
            continue
        seat = rng.choice(waiting)
        g.apply(rng.choice(g.legal_actions(seat)))
    assert g.finished, f"seed {seed}: no end"
    return g


def allowed_facts(g: VillageGame, seat: int) -> set[tuple[int, str]]:
    """What a seat may learn of roles before the end: his own, his pack's, his partner's;
    eliminated, the pack's too (he watches the night with open eyes: README)."""
    mine = {(seat, g.dealt[seat])}
    pack = g.rulebook.tagged("mafia")
    if g.dealt[seat] in pack or not g.alive[seat]:
        mine |= {(s, r) for s, r in enumerate(g.dealt) if r in pack}
    if g.dealt[seat] == "couple":
        mine |= {(s, r) for s, r in enumerate(g.dealt) if r == "couple"}
    return mine


@pytest.mark.parametrize("seed", range(40))
def test_random_games_keep_secrets(seed: int) -> None:
    g = play_randomly(seed)
    couple = {(s, "couple") for s, r in enumerate(g.dealt) if r == "couple"}
    causes = {"mafia", "vote", "shot", "heartbreak"}
    assert {d.cause for d in g.deaths} <= causes
    assert g.outcome is not None and g.outcome.winner in ("town", "mafia")
    for seat in range(g.n):
        allowed = allowed_facts(g, seat)
        for ev in g.view(seat).events:
            if ev.kind == "game_over":
                continue
            facts = set(role_facts(ev))
            if ev.kind == "couple_revealed":
                assert facts == couple and ev.audience is None
                continue
            assert facts <= allowed, (seed, seat, ev)
    # every night death is announced after that night's dawn
    for ev in g.events:
        if ev.kind == "death" and ev.phase == "night":
            dawn = next(
                i
                for i, e in enumerate(g.events)
                if e.kind == "dawn" and e.phase == "night" and e.number == ev.number
            )
            assert g.events.index(ev) > dawn
    # a death belongs to the phase that caused it
    for death in g.deaths:
        if death.cause == "vote":
            assert death.phase == "day"
        else:
            assert death.phase == "night"
