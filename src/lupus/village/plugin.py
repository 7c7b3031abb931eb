"""A role as a plugin: everything one role brings to the village family, declared once.

Each module of ``lupus.roles`` declares its role in a module-level ``ROLE``: the steps
a rulebook's night and day may name, what its holder's death sets off, the memory it
keeps across nights (the Witch's potions, the Doctor's last protection), its verbs as
the rules state who may use them and when, and its messages with their English text.
The village family finds the modules itself (``lupus.village.family``): adding a role
is its module, its lines in a rulebook and its messages per language, nothing else
(``docs/adding-a-role.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, final

from lupus.engine.events import EventSpec
from lupus.engine.model import Event
from lupus.engine.step import Step
from lupus.village.game import VillageGame

DeathHook = Callable[[VillageGame, int, str], None]
"""Called with the game, the seat that died and the cause, right after the death."""

StepFactory = Callable[[], Step[Any]]

Decision = Callable[[Any], Any]
"""A heuristic bot's play for a verb: called with the deciding seat's brain
(``lupus.bots.village_brain.VillageBrain``: its view, memory and draws), it returns one
of the seat's legal actions, or None to leave it to the bot's fallback."""

Reading = Callable[[Any, Event], None]
"""How the heuristic bot takes in one of the role's events: called with what it reads
it into (a seat's memory, ``lupus.bots.village_memory.VillageMemory``, or the public
record the seats share, ``lupus.bots.village_suspicion.VillagePublic``) and the event."""

ANYONE: Final = "*"
"""``Verb.holders`` for a verb any living player may be offered (a vote)."""

PACK: Final = "@pack"
"""``Verb.holders`` for a verb the pack's living members may be offered: the cards the
rulebook tags as its pack (``mechanics.pack_tag``: the Mafia and the Godfather)."""


@final
class Verb:
    """A decision one of the role's steps offers, as the rules say who and when.

    ``step`` is the id of the step that offers it (a night's steps announce themselves
    with a ``wake`` event: a night verb is offered in its own step only). ``holders``
    are the cards whose living holders may be offered it (``ANYONE``: every living
    player; ``PACK``: the rulebook's pack cards; empty: only the dying, a last breath
    such as the Hunter's shot, offered to the holder of this role's card or office);
    ``phase`` is "night" or "day" ("any" for a last breath, asked whenever the death
    falls), ``first_only`` for a verb of the first night or day only; ``targets`` says
    what its arguments name: "living" (players alive when it is offered), "standing"
    (also those who died tonight and are not announced yet), "cards" (a card id), or
    "none". A role plays in a rulebook that deals its card or names one of its steps;
    the property tests' referee builds its tables from the verbs of those roles
    (``tests/playout.py``, ``declared``) and checks every prompt against them.
    """

    def __init__(
        self,
        name: str,
        step: str,
        holders: tuple[str, ...],
        phase: str,
        first_only: bool = False,
        targets: str = "living",
    ) -> None:
        self.name: Final = name
        self.step: Final = step
        self.holders: Final = holders
        self.phase: Final = phase
        self.first_only: Final = first_only
        self.targets: Final = targets


@final
class OptionNeed:
    """An option a role's code reads (``Role.options``): the type it reads it as
    ("bool", "int", "float", "choice"), whether it reads it without a default (then a
    rulebook that plays the role must declare it), and for a choice the values it knows.
    A rulebook that declares the option with another type is refused when loaded."""

    def __init__(self, type: str, required: bool = False, choices: tuple[str, ...] = ()) -> None:
        self.type: Final = type
        self.required: Final = required
        self.choices: Final = choices


@final
class Play:
    """How the heuristic bot plays a role, and what the other players make of its card.

    ``decisions`` maps each of the role's verbs the bot should weigh to its play
    (``Decision``; ``lupus.bots.village_brain`` has ready ones: ``shield`` a trusted
    player, ``probe`` an unknown one, a ``strike`` at a suspect); a verb without one is
    answered by a random legal choice that is not a pass, the bot's fallback. ``taste``:
    how much a Thief would rather become this card (0: not at all); ``prey``: how much
    the pack would rather eat its holder once it knows him (a Seer more than a Hunter,
    who shoots back: negative). ``remembers``: what a seat's memory makes of the
    role's events it is told (kind -> ``Reading``: the Seer's vision, the couple's
    partner); ``records``: what the public record makes of its public events (the
    Captain's election, the nominations). The bot's own modules name none of a role's
    kinds: a kind no role reads is lost on the bot."""

    def __init__(
        self,
        decisions: Mapping[str, Decision] | None = None,
        *,
        taste: int = 0,
        prey: int = 0,
        remembers: Mapping[str, Reading] | None = None,
        records: Mapping[str, Reading] | None = None,
    ) -> None:
        self.decisions: Final[dict[str, Decision]] = dict(decisions or {})
        self.taste: Final = taste
        self.prey: Final = prey
        self.remembers: Final[dict[str, Reading]] = dict(remembers or {})
        self.records: Final[dict[str, Reading]] = dict(records or {})


NO_PLAY: Final = Play()


@final
class Role:
    """Everything one role (or one of the day's procedures) brings; see the module.

    ``card`` is the role id a rulebook deals (None for a procedure, such as the day
    vote, that no card calls). ``steps`` maps the step ids a rulebook may name to the
    step classes; ``on_death`` runs after any death, in ``death_order`` (lower first:
    a lover's heartbreak comes before a Hunter's shot); ``memory`` makes the object the
    role keeps across nights, once per game (``VillageGame.memory``). ``verbs``: every
    decision its steps offer (``Verb``). ``learns``: those of its verbs whose user is
    then told the target's role (the Seer's ``inspect``; not the Detective's, told a
    side only), which the property tests' referee grants him: any other role an event
    tells a living player is a leak. ``messages`` holds the role's narration keys with
    their English text, ``texts`` the same keys in other languages, by language
    (``{"sv": {...}}``; a rulebook's or a language file's text for a key comes before
    both; a rulebook that offers a language the role has no text in is narrated in
    English there, and the strict narrator calls it an error).
    ``pack``: its steps are where the pack decides (a deck is told with the pack's
    cards at that step), and may eliminate a player each night. ``eliminates``: the
    role's other ways to eliminate a player every time they run, each as the steps a
    day names for it, in that order (a vote: ``("vote",)``; nominations, then the
    banishment vote); a rulebook whose later nights and days have none of these could
    never end, and is refused when loaded. ``options``: the rulebook options its code
    reads (``OptionNeed``). ``events``: the schema of every event kind only this role
    emits (``lupus.engine.events.EventSpec``: its kind, fields, and what it discloses;
    its audience is the ``emit`` call's), which the family's event table takes from
    the registry (``lupus.families.event_specs``): an event must fit its schema to come
    back from JSON; how each is told is its kind's key in ``messages``. ``bot``: how
    the heuristic bot plays it (``Play``); none: a random legal choice, not a pass.
    ``extra_cards``: how many cards beside the players' a deck with this card holds,
    set aside for its holder (the Thief's two): a deal and the balance tool count them.
    ``weight``: what one card of the role is worth to its side, in plain villagers (a
    villager is 1, a card of the pack negative), as game designers score a deck (the
    Seer 7, a werewolf -6): the balance tool's prior, which orders its candidates and
    keeps the closest to even when asked for a smaller field (``lupus balance
    --field``); a ``pack`` role's weight is each pack card's. None: a plain card.
    """

    def __init__(
        self,
        id: str,
        *,
        card: str | None = None,
        steps: Mapping[str, StepFactory] | None = None,
        on_death: DeathHook | None = None,
        death_order: int = 100,
        memory: Callable[[], object] | None = None,
        verbs: tuple[Verb, ...] = (),
        learns: tuple[str, ...] = (),
        messages: Mapping[str, str] | None = None,
        pack: bool = False,
        eliminates: tuple[tuple[str, ...], ...] = (),
        options: Mapping[str, OptionNeed] | None = None,
        events: tuple[EventSpec, ...] = (),
        bot: Play = NO_PLAY,
        extra_cards: int = 0,
        texts: Mapping[str, Mapping[str, str]] | None = None,
        weight: int | None = None,
    ) -> None:
        self.id: Final = id
        self.card: Final = card
        self.steps: Final[dict[str, StepFactory]] = dict(steps or {})
        self.on_death: Final = on_death
        self.death_order: Final = death_order
        self.memory: Final = memory
        self.verbs: Final = verbs
        self.learns: Final = learns
        self.messages: Final[dict[str, str]] = dict(messages or {})
        self.pack: Final = pack
        self.eliminates: Final = eliminates
        self.options: Final[dict[str, OptionNeed]] = dict(options or {})
        self.events: Final = events
        self.bot: Final = bot
        self.extra_cards: Final = extra_cards
        self.weight: Final = weight
        self.texts: Final[dict[str, dict[str, str]]] = {
            lang: dict(table) for lang, table in (texts or {}).items()
        }
