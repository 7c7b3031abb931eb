"""Every count, size and length lupus accepts from outside, in one place.

Whatever a caller, a file, a command line or a client hands in is measured against
these before any work is done for it (no deck is built, no game played, no process
started), and refused with an error of lupus's own classes. The table of every limit,
and where each is checked, is in docs/architecture.md ("Limits").
"""

from __future__ import annotations

from typing import Final

MAX_PLAYERS: Final = 128
"""The most players a game of any rulebook seats (a rulebook's own bounds apply too).
Lupusburg's houses, two a player, stay within the values built in advance for 256
seats (``lupus.engine.interned.MAX_SEATS``)."""

MAX_ROOM_PLAYERS: Final = 40
"""The most seats a server's room has (``POST /api/rooms``)."""

MAX_CARDS: Final = 2 * MAX_PLAYERS
"""The most cards a deal or a composition holds: one a player and a Thief's two extra
cards in a village deck; two characters a player in Lupusburg."""

MAX_COMPOSITION_ENTRIES: Final = 64
"""The most roles a composition (``{role: count}``) may name, zeros included."""

MAX_ID_LENGTH: Final = 40
"""The longest role, card, character, option or verb id accepted in a deal or a
composition (the shipped ones have at most 16 characters)."""

MAX_ARGS: Final = 8
"""The most choices an action names (a prompt's choices have at most two)."""

MAX_BAG: Final = 64
"""The most coins a Lupusburg bag given in a deal holds."""

MAX_SEED: Final = 2**64 - 1
"""Seeds are whole numbers from 0 to this: a game seeds its generator with it, and a
simulation's game ``i`` is seeded from (seed, i)."""

MAX_OPTIONS: Final = 64
"""The most options a game may be given (the rulebook must know each one)."""

MAX_OPTION_TEXT: Final = 200
"""The longest string option value (a ``choice``) a room or a command line may give."""

MAX_PATH_LENGTH: Final = 4096
"""The longest path (in characters) of a rulebook or scenario file: beyond it no
system opens a file, and the path is refused before the system is asked."""

MAX_FILE_BYTES: Final = 16 * 1024 * 1024
"""The largest scenario or rulebook file read (16 MiB): a file is measured before it
is read."""

MAX_SCENARIO_ACTIONS: Final = 200_000
"""The most action lines a scenario file holds."""

MAX_TEXT: Final = 10_000
"""The longest string accepted where no shorter limit applies: any string of a scenario
file (a name, a verb, the description), an option's value."""

MAX_GAMES: Final = 100_000_000
"""The most games ``lupus simulate`` plays in one run, and ``lupus balance`` per
finalist (at a few thousand games a second, hours of a whole machine)."""

MAX_WORKERS: Final = 256
"""The most worker processes ``lupus simulate`` and ``lupus balance`` start."""

MAX_TOP: Final = 100
"""The most compositions ``lupus balance --top`` shows per player count."""

MAX_CANDIDATES: Final = 100_000
"""The most compositions ``lupus balance`` lists for one player count: a rulebook with
many roles without a ``max`` would otherwise list millions."""

MAX_ARGUMENT_TEXT: Final = 1000
"""The longest text of one command-line value (``--players``, ``--roles``, ``--bots``,
``--option``, ``--pack``)."""

MAX_PORT: Final = 65535
"""The highest port ``lupus serve`` listens on."""

MAX_SHOWN: Final = 4
"""The most items of a client's list an error message quotes (then "and N more")."""

MAX_MESSAGE: Final = 1000
"""The longest error message lupus prints on one line (a longer one is cut)."""
