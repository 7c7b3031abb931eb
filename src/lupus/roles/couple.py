"""The Couple (Paret): two villagers who know each other and die of each other's death.

The couple's step runs every night while the couple cards are in the game. On the first
night the two recognise each other (each learns the other holds the couple card). In
the step, if one of them is out (banished the day before, murdered or shot on an
earlier night: he does not open his eyes) while the other lives, the other dies now
(cause ``heartbreak``, this night). A member murdered tonight still opens his eyes:
nobody, the victim included, knows of the murder before the morning, so his partner
dies in the next night's couple step. The next morning the
village is told that the two were a couple: the one role disclosure the rules make
before the game ends (event ``couple_revealed``, with ``roles``). If both die of other
causes nobody dies of heartbreak and nothing is revealed before the end.
"""

from __future__ import annotations

from lupus.bots.village_memory import VillageMemory
from lupus.engine.events import SEAT_TEXT, SEATS, EventSpec
from lupus.village.events import SOME_ROLES
from lupus.village.game import VillageGame
from lupus.village.plugin import Play, Role
from lupus.village.steps import VillageStep

ROLE_ID = "couple"


class CoupleStep(VillageStep):
    """Nobody decides anything: the step only looks at who opens his eyes."""

    id = "couple"
    wake = ROLE_ID  # (called whenever the couple cards are in the game)

    def begin(self, game: VillageGame) -> bool:
        if not game.in_deck(ROLE_ID):
            return False
        self.wake_up(game)
        pair = game.holders(ROLE_ID, living=False)
        if game.number == 1 and len(pair) == 2:
            game.emit("couple", pair, players=pair, roles=dict.fromkeys(pair, ROLE_ID))
        return True

    def resolve(self, game: VillageGame) -> None:
        pair = game.holders(ROLE_ID, living=False)
        living = [s for s in pair if game.alive[s]]
        if len(pair) == 2 and len(living) == 1:
            game.kill(living[0], "heartbreak")
            game.announce("couple_revealed", players=pair, roles=dict.fromkeys(pair, ROLE_ID))


ROLE = Role(
    "couple",
    weight=2,
    events=(
        EventSpec("couple", {"players": SEATS, "roles": SEAT_TEXT}, discloses=SOME_ROLES),
        EventSpec(
            "couple_revealed",
            {"players": SEATS, "roles": SEAT_TEXT},
            discloses=SOME_ROLES,
            told="say",
        ),
    ),
    card=ROLE_ID,
    steps={"couple": CoupleStep},
    bot=Play(remembers={"couple": VillageMemory.on_allied_pair}),
    messages={
        "wake.couple": "The {N[couple]} wake up and look at each other.",
        "couple": "{players} are the {N[couple]} and recognise each other.",
        "couple_revealed": "{players} were a couple.",
        "step.couple": "the {N[couple]}",
    },
)
