"""What a client receives for its seat: one frame per change, built here and nowhere else.

A ``view`` frame holds the view's news since the last frame sent to this client: the
events (as data) each with the index of its sentence (``told``), the sentences and how
each is said aloud, the seat's prompts, the public table (``view.public``), the deadline;
a game leader's, his script (``view.script``, ``lupus.server.script``).
``ViewFrame`` is the frame's model: its fields are the frame's keys in order, and
``docs/protocol.md`` documents them from it. Whether a frame is due at all (staleness) is
judged in one place, ``view_frame``, against what this client was sent (``Sent``).

The parts that are the same for many readers (the game's id, sentences, events, prompts,
the public table) are written as JSON once per room and language (``Said``) and joined
around the few values that are the reader's own: the JSON encoder, called for a whole
frame, was a tenth of the server's time.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from lupus.bots.den import den
from lupus.engine.event_json import to_json as event_json
from lupus.engine.family import SeatReader
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Args, Event, Prompt
from lupus.engine.table import PublicTable, PublicTables
from lupus.engine.views import View
from lupus.families import family_of, tables
from lupus.narration import SAY, STEP, Narrator
from lupus.server.script import HELD, ScriptReader

json_text: Final = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(value, ensure_ascii=False)`` with its encoder made once: ``dumps`` with
an option builds a new encoder at each call, and a server writes a few of these per
frame, thousands of frames a second."""

Raw = str
"""A value already written as JSON text (shared by the readers of a room)."""

TableSeat = tuple[int, tuple[Prompt, ...]]
"""A seat's open prompts, which a game leader answers for the table."""


@dataclass(slots=True)
class ViewFrame:
    """A ``view`` frame (docs/protocol.md, "view"). Fields are its keys, in order."""

    game: Raw  # the game's id
    seat: int | None  # the reader's seat; null: the game leader or a spectator
    phase: Raw  # "setup", "night", "day" or "over"
    number: int  # the night's or the day's number
    state_id: int  # the game's state; an action names the one it answers
    finished: bool
    waiting: bool  # the game waits for this seat
    start: int  # "from": how many of the game's events the client has before these
    lines: list[Raw]  # the news's sentences, in the reader's language
    spoken: list[str | None]  # each line's mark: how a narrator says it ("step", "say")
    told: list[int | None]  # each event's sentence: its index among all lines sent
    table: list[tuple[int, Raw]]  # for the game leader: each seat's open prompts
    deadline: float | None  # when the step closes (the server's clock), if it does
    time: float  # when the latest public event shown was shown
    events: list[Raw]  # the news: events the client has not had yet
    pack: list[tuple[int, int | None]] | None  # a pack member's pack: seat, target
    public: Raw  # the public table: alive, public cards, titles, the last outcome
    own: Raw  # what this seat (or the leader) alone knows: its cards, answers; or null
    prompts: Raw  # what the seat may do now, each choice with its words
    script: Raw | None = None  # a game leader's only: his script (``lupus.server.script``)
    type: str = field(default="view")

    def encode(self) -> str:
        """The frame as JSON text: each field's value written by ``value_text`` (``pack``
        and ``script`` only where the reader has one)."""
        parts = ['{"type": "view"']
        for name in NAMES:
            value = getattr(self, name)
            if value is None and name in SOMETIMES:
                continue
            parts.append(KEYS[name])
            parts.append(value_text(name, value))
        parts.append("}")
        return "".join(parts)


NAMES: Final = tuple(f.name for f in dataclasses.fields(ViewFrame) if f.name != "type")
KEYS: Final = {name: ", " + json_text("from" if name == "start" else name) + ": " for name in NAMES}
MARK: Final = {None: "null", STEP: json_text(STEP), SAY: json_text(SAY)}


def value_text(name: str, value: object) -> str:
    """A field's value as JSON: raw text as it is, lists of it joined, the table's and
    the pack's pairs as objects, anything else by the encoder."""
    if name in RAW:
        return str(value)
    if name in ("lines", "events"):
        return "[" + ",".join(value) + "]"  # type: ignore[arg-type]
    if name == "spoken":
        return "[" + ",".join([MARK[mark] for mark in value]) + "]"  # type: ignore[attr-defined]
    if name == "table":
        pairs = [
            '{"seat": ' + str(seat) + ', "prompts": ' + prompts + "}"
            for seat, prompts in value  # type: ignore[attr-defined]
        ]
        return "[" + ",".join(pairs) + "]"
    if name == "pack":
        return json_text([{"seat": s, "target": t} for s, t in value])  # type: ignore[attr-defined]
    if isinstance(value, float):
        return repr(value)
    return json_text(value)


RAW: Final = frozenset({"game", "phase", "public", "own", "prompts", "script"})
SOMETIMES: Final = frozenset({"pack", "script"})
"""The fields a frame leaves out where its reader has none: a pack member's ``pack``,
a game leader's ``script`` (a player never gets a key of it)."""


class Sent:
    """What one client was sent of the current game: staleness is judged against it."""

    __slots__ = ("counts", "game", "lines", "narrator", "own", "own_json", "script", "state")

    def __init__(self) -> None:
        self.game: str | None = None
        self.counts = (0, 0)  # public and private events already sent
        self.lines = 0  # sentences already sent
        self.state: tuple[object, ...] | None = None
        self.narrator: Narrator | None = None
        # The reader of the seat's own part of the board, with its seat (None: the
        # family has none), fed the events as they are sent.
        self.own: tuple[int, SeatReader | None] | None = None
        # Its latest value and that value as JSON text: most actions leave it as it
        # was, and its text is then not written again.
        self.own_json: tuple[object, str] = (None, "null")
        # A game leader's script, fed his events and their sentences as they are sent.
        self.script: ScriptReader | None = None

    def restart(self, game: str, narrator: Narrator) -> Narrator:
        """A new game (or a first frame): nothing of it was sent yet."""
        self.game, self.counts, self.lines, self.state, self.own = game, (0, 0), 0, None, None
        self.narrator, self.script = narrator, None
        return narrator


def view_frame(
    sent: Sent,
    lang: str | None,
    game: Game,
    view: View,
    game_id: str,
    waited: bool,
    deadline: float | None,
    table: tuple[TableSeat, ...] = (),
    said: Said | None = None,
    public_time: float = 0.0,
) -> ViewFrame | None:
    """The frame due to a client that was sent ``sent``, or None if nothing changed for
    it (the one judgement of staleness); ``sent`` is updated to what it is sent now.

    ``table``: a game leader's seats' open prompts. ``said``: the room's sentences and
    menu lines already made (the same for every reader)."""
    narrator = sent.narrator
    if sent.game != game_id or narrator is None:
        narrator = sent.restart(game_id, Narrator(game.rulebook, game.names, lang))
    state = (view.state_id, view.prompts, waited, deadline, table)
    if state == sent.state:
        return None
    sent.state = state
    if said is None:
        said = Said()
    sentences, labels = said.of(narrator.lang)
    public_sent, private_sent = sent.counts
    new = view.news(public_sent, private_sent)  # (only the news: not the whole log)
    start, sent.counts = public_sent + private_sent, view.counts()
    script = leader_script(sent, game, view, start, narrator.lang)
    lines, marks, told = narrated(sent, narrator, view.seat, new, said, sentences, script)
    found = den(view) if view.prompts else None  # (only a seat with prompts is in a pack step)
    return ViewFrame(
        game=said.text_of(game_id),
        seat=None if view.seat < LEADER else view.seat,
        phase=said.text_of(view.phase),
        number=view.number,
        state_id=view.state_id,
        finished=view.finished,
        waiting=waited,
        start=start,
        lines=lines,
        spoken=marks,
        told=told,
        table=[(seat, said.menus_text(narrator, prompts, labels)) for seat, prompts in table],
        deadline=None if deadline is None else round(deadline, 3),
        time=round(public_time, 3),
        events=[said.event_text(event) for event in new],
        pack=None if found is None else list(found.current()),
        public=said.public_text(game, view),
        own=own_text(sent, game, view, start, new),
        prompts=said.menus_text(narrator, view.prompts, labels),
        script=None if script is None else json_text(script.news(view.finished).to_json()),
    )


def narrated(
    sent: Sent,
    narrator: Narrator,
    seat: int,
    new: tuple[Event, ...],
    said: Said,
    sentences: dict[int, str],
    script: ScriptReader | None,
) -> tuple[list[Raw], list[str | None], list[int | None]]:
    """The news's sentences, their marks (``spoken``) and each event's sentence
    (``told``), one event at a time so that each is paired with its own; a game
    leader's ``script`` reads each event with it."""
    marks: list[str | None] = []
    lines: list[Raw] = []
    told: list[int | None] = []
    for event in new:
        said_now = narrator.story((event,), seat, sentences, marks)
        lines += [said.text_of(line) for line in said_now]
        told.append(sent.lines + len(lines) - 1 if said_now else None)
        if script is not None:
            script.feed(event, said_now[-1] if said_now else None)
    sent.lines += len(lines)
    return lines, marks, told


def leader_script(sent: Sent, game: Game, view: View, start: int, lang: str) -> ScriptReader | None:
    """A game leader's script reader, having read the ``start`` events his client has
    (``lupus.server.script``); None for anyone else. A reader that is not where this
    client's events are reads them again, each with the sentence a new narrator pairs
    with it (the same: a leader's narration depends on his events alone)."""
    if view.seat != LEADER:
        return None
    reader = sent.script
    if reader is None or reader.count != start:
        reader = sent.script = script_reader(game)
        again = Narrator(game.rulebook, game.names, lang)
        for event in view.events[:start]:
            said_now = again.story((event,), LEADER)
            reader.feed(event, said_now[-1] if said_now else None)
    return reader


def script_reader(game: Game) -> ScriptReader:
    """A new reader of a leader's script, with the marks of the game's family: each
    kind's ``EventSpec.script`` and ``shows``, the cards its steps call, its deaths."""
    family = family_of(game.rulebook)
    specs = family.event_specs()
    marks = {kind: spec.script for kind, spec in specs.items() if spec.script is not None}
    held = frozenset([kind for kind, spec in specs.items() if spec.shows == HELD])
    return ScriptReader(marks, held, family.called_cards(), family.death_kind)


def own_text(sent: Sent, game: Game, view: View, start: int, new: tuple[Event, ...]) -> str:
    """The seat's own part of the board (``view.own``) as JSON text: its family's
    reader (``Family.seat_reader``) fed the seat's events, each once, as they are sent
    (``new``, after the ``start`` already read); "null" for a spectator (or a family
    without one)."""
    kept = sent.own
    if kept is None or kept[0] != view.seat:
        kept = sent.own = (view.seat, read_until(game, view, start))
    reader = kept[1]
    if reader is None:
        return "null"
    if reader.count != start:  # (not where this client's events were: read them again)
        reader = read_until(game, view, start)
        assert reader is not None
        sent.own = (view.seat, reader)
    for event in new:
        reader.feed(event)
    value = reader.value()
    if sent.own_json[0] is not value:
        sent.own_json = (value, json_text(reader.to_json()))
    return sent.own_json[1]


def read_until(game: Game, view: View, start: int) -> SeatReader | None:
    """A fresh reader of the seat's own part (None: the family has none) fed the seat's
    first ``start`` events."""
    reader = family_of(game.rulebook).seat_reader(view.seat)
    if reader is not None:
        for event in view.events[:start]:
            reader.feed(event)
    return reader


class Said:
    """What a room has put in words in each language, for every reader: the public
    events' sentences (by ledger place) and the menu lines (by verb and choice); and
    the public events as data."""

    def __init__(self) -> None:
        self.by_lang: dict[str, tuple[dict[int, str], dict[tuple[str, Args], str]]] = {}
        self.public: dict[int, str] = {}  # public events as JSON text, by place
        # private ones but their audience, by their shared data (kept, so that its id
        # stays its own)
        self.private: dict[int, tuple[Mapping[str, object], str]] = {}
        self.menus: dict[tuple[str, tuple[object, ...]], str] = {}  # prompts as JSON text
        self.texts: dict[str, str] = {}  # strings (sentences, ids) as JSON text
        # The game's public tables, and the latest as JSON text with its public count.
        self.tables: tuple[Game, PublicTables] | None = None
        self.table: tuple[int, PublicTable | None, str] = (-1, None, "")

    def text_of(self, text: str) -> str:
        """A string as JSON text, written once for every reader: a sentence said to
        the whole table is one string object, whose hash Python keeps."""
        found = self.texts.get(text)
        if found is None:
            found = self.texts[text] = json_text(text)
        return found

    def public_text(self, game: Game, view: View) -> str:
        """The view's public table (``view.public``) as JSON text, derived once per
        public moment of the game for every reader (it depends on the public events
        alone: the same text for every seat, the leader and a spectator)."""
        count = view.public_chain()[1]
        kept, made, text = self.table
        if self.tables is None or self.tables[0] is not game:
            self.tables = (game, tables(game.rulebook, game.names))
            made = None
        elif kept == count:
            return text
        table = self.tables[1].of(view)
        if table is not made:  # (most public events change nothing in it)
            text = json_text(table.to_json())
        self.table = (count, table, text)
        return text

    def lines_text(self, lines: list[str]) -> str:
        """Sentences as the items of a JSON list (without its brackets)."""
        return ",".join([self.text_of(line) for line in lines])

    def event_text(self, event: Event) -> str:
        """An event as JSON text: a public one written once for every reader (by its
        place among the public events), a private one around its data written once for
        every reader told (the events each is filed as share their read-only data, and
        differ in their audience and their number in each reader's list)."""
        audience = event.audience
        if audience is None:
            seq = event.seq
            found = self.public.get(seq)
            if found is None:
                found = self.public[seq] = json_text(event_json(event))
            return found
        data = event.data
        known = self.private.get(id(data))
        if known is None or known[0] is not data:
            text = event_json(event)
            del text["audience"]
            known = self.private[id(data)] = (data, json_text(text)[:-1])
        seats = ",".join([str(seat) for seat in sorted(audience)])
        return known[1] + ', "audience": [' + seats + "]}"

    def menus_text(
        self, narrator: Narrator, prompts: tuple[Prompt, ...], labels: dict[tuple[str, Args], str]
    ) -> str:
        """A seat's prompts as JSON text (who they are for is not in it: every voter of
        a ballot is sent the same text)."""
        if not prompts:
            return "[]"
        key = (narrator.lang, tuple([(p.verb, p.choices, p.unordered) for p in prompts]))
        found = self.menus.get(key)
        if found is None:
            shown = [menu(narrator, prompt, labels) for prompt in prompts]
            found = self.menus[key] = json_text(shown)
        return found

    def of(self, lang: str) -> tuple[dict[int, str], dict[tuple[str, Args], str]]:
        found = self.by_lang.get(lang)
        if found is None:
            found = self.by_lang[lang] = ({}, {})
        return found


def menu(
    narrator: Narrator, prompt: Prompt, labels: dict[tuple[str, Args], str]
) -> dict[str, object]:
    """A prompt as a client shows it: every legal choice with its words."""
    verb = prompt.verb
    choices = []
    for args in prompt.choices:
        label = labels.get((verb, args))
        if label is None:
            label = labels[verb, args] = narrator.choice(verb, args)
        choices.append({"args": list(args), "label": label})
    return {"verb": verb, "unordered": prompt.unordered, "choices": choices}
