"""One connected client: what it is (a seat, the game leader, a spectator), what it was
sent already, and its queue of outgoing messages.

A client is sent only what changed: the lobby when it changes, and from its view the
events it has not had yet (as data and as sentences in its language), with its prompts
as they are now. A client that rejoins starts from nothing and is sent its whole view.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Mapping
from typing import Final

from lupus.bots.den import den
from lupus.engine.event_json import to_json as event_json
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Args, Event, Prompt
from lupus.engine.table import PublicTable, PublicTables
from lupus.engine.views import View
from lupus.families import tables
from lupus.narration import SAY, STEP, Narrator
from lupus.server.protocol import Code
from lupus.server.refusals import Refusal

json_text: Final = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(value, ensure_ascii=False)`` with its encoder made once: ``dumps`` with
an option builds a new encoder at each call (a view's head: 7 microseconds, 5.5 with
this), and a server writes a few of these per frame, thousands of frames a second."""

QUEUE: Final = 256
"""Messages a client may have waiting; a client that reads slower is dropped (it will
rejoin and be sent its whole view)."""


class Outbox:
    """A client's frames waiting for its writer (``app.write``), which sends all of
    them at each wake-up: an ``asyncio.Queue`` woke the writer once per frame, and a
    server sends several thousand frames a second. A frame leaves the outbox when it
    is sent, so ``limit`` counts every frame the client has not been sent yet."""

    def __init__(self, limit: int = QUEUE) -> None:
        self.frames: deque[str] = deque()
        self.limit = limit
        self.ended = False  # no more frames: the writer sends those left, then closes
        self._waiter: asyncio.Future[None] | None = None

    def put(self, text: str) -> bool:
        """Queue a frame; False if ``limit`` frames are waiting already."""
        if len(self.frames) >= self.limit:
            return False
        self.frames.append(text)
        self._wake()
        return True

    def end(self, drop: bool = False) -> None:
        """No frame comes after these (none at all with ``drop``)."""
        if drop:
            self.frames.clear()
        self.ended = True
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def wait(self) -> bool:
        """Until a frame waits (True), or the outbox has ended and is empty (False)."""
        while not self.frames:
            if self.ended:
                return False
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        return True


class Bucket:
    """A rate limit: ``burst`` at once, then ``rate`` a second on average."""

    def __init__(self, burst: float, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.allowance = burst
        self.checked = time.monotonic()

    def take(self, weight: float = 1) -> bool:
        """Whether ``weight`` more are allowed now (then taken)."""
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.checked) * self.rate)
        self.checked = now
        if self.allowance < weight:
            return False
        self.allowance -= weight
        return True

    def spend(self, weight: float) -> None:
        """Take ``weight`` more, allowed or not (work already done): what comes next
        waits until it is paid for, up to a burst's time."""
        self.allowance = max(-self.burst, self.allowance - weight)


MESSAGES: Final = (60.0, 20.0)
"""Any message: 60 at once, 20 a second (a flood, not a fast player, is refused)."""

CHAT: Final = (5.0, 1.0)
"""Chat lines: 5 at once, one a second."""


class Client:
    """A connection (see the module docstring)."""

    def __init__(self, lang: str | None = None) -> None:
        self.outbox = Outbox()
        self.seat: int | None = None  # a seat, LEADER, or None: a spectator
        self.host = False
        self.creator = False  # entered with the token of the room's creator without a seat
        self.lang = lang
        self.room: object = None  # the Room it joined (set by the room's owner)
        # The address links begin with, as this connection reached the server
        # (``links.origin_of``: never an unchecked Host), for a seat's new link.
        self.origin: str | None = None
        self.closed = False
        self._lobby: tuple[str, int | None, bool] | None = None  # the lobby, seat, host sent
        self._game: str | None = None
        self._sent = (0, 0)  # public and private events of the current game already sent
        self._state: tuple[object, ...] | None = None
        self._narrator: Narrator | None = None
        self.messages = Bucket(*MESSAGES)
        self.chat = Bucket(*CHAT)
        self.refused = 0  # what its frames refused for their rate counted since a message
        # The digest of the token this spectator's connection watches by as the room's
        # narrator (``narrating``): closed once the host chooses another.
        self.narrator_key: str | None = None

    # ------------------------------------------------------------------ out
    def send(self, message: dict[str, object]) -> None:
        if not self.closed:
            self.push(json_text(message))

    def push(self, text: str) -> None:
        """Queue a frame already written as JSON."""
        if not self.closed and not self.outbox.put(text):
            self.close(drop=True)

    def send_error(self, code: Code, refusal: Refusal | str, ref: int | None = None) -> None:
        """An ``error`` frame: its code, and its reason (a ``Refusal``, or the reason of
        one without fields) in English and for the page to word (``refusals``)."""
        said = refusal if isinstance(refusal, Refusal) else Refusal(refusal)
        self.send({"type": "error", "code": code, **said.to_json(), "id": ref})

    def close(self, drop: bool = False) -> None:
        """Stop sending; the connection's writer sends what is queued (all of it is
        dropped for a client that fell behind: ``drop``), then ends the socket."""
        if not self.closed:
            self.closed = True
            self.outbox.end(drop)

    def new_game(self) -> None:
        self._game, self._sent, self._state, self._narrator = None, (0, 0), None, None

    def send_lobby(self, lobby: str) -> None:
        """The room's lobby, with this client's seat (``you``) and whether it holds the
        host's powers now (``host``), if any of them changed since the last one sent.
        ``lobby`` is its JSON text, written once per change for every client of the
        room: a text compares much faster than the nested dicts did."""
        sent = (lobby, self.seat, self.host)
        if sent != self._lobby:
            self._lobby = sent
            you, host = json.dumps(self.seat), json.dumps(self.host)
            self.push(f'{lobby[:-1]}, "you": {you}, "host": {host}}}')

    def send_view(
        self,
        game: Game,
        view: View,
        game_id: str,
        waited: bool,
        deadline: float | None,
        table: tuple[tuple[int, tuple[Prompt, ...]], ...] = (),
        said: Said | None = None,
        public_time: float = 0.0,
    ) -> None:
        """The view's news since the last one sent, if anything changed for this client.

        ``table``: for a game leader, each seat's open prompts, which he answers for the
        table (``act`` with ``seat``). ``said``: the room's sentences and menu lines
        already made in each language (the same for every reader). ``public_time``: when
        the latest public event shown was shown (the same for every reader: it tells
        nothing a spectator watching would not see)."""
        if self._game != game_id or self._narrator is None:
            self._game, self._sent, self._state = game_id, (0, 0), None
            self._narrator = Narrator(game.rulebook, game.names, self.lang)
        state = (view.state_id, view.prompts, waited, deadline, table)
        if state == self._state:
            return
        self._state = state
        narrator = self._narrator
        if said is None:
            said = Said()
        sentences, labels = said.of(narrator.lang)
        public_sent, private_sent = self._sent
        new = view.news(public_sent, private_sent)  # (only the news: not the whole log)
        start, self._sent = public_sent + private_sent, view.counts()
        # (each line's mark: how a narrator says it aloud, ``narration.SPOKEN``)
        marks: list[str | None] = []
        lines = said.lines_text(narrator.story(new, view.seat, sentences, marks))
        voiced = ",".join([JSON_MARK[mark] for mark in marks])
        shown = ",".join(
            [
                f'{{"seat": {seat}, "prompts": {said.menus_text(narrator, prompts, labels)}}}'
                for seat, prompts in table
            ]
        )
        # The frame is put together from JSON written once per room and language (the
        # game's id, the sentences, the events and the prompts are the same text for
        # many readers) around the few numbers that are the reader's own: the JSON
        # encoder, called for the whole frame, was a tenth of the server's time.
        seat = "null" if view.seat < LEADER else str(view.seat)
        until = "null" if deadline is None else repr(round(deadline, 3))
        events = ",".join([said.event_text(event) for event in new])
        prompts = said.menus_text(narrator, view.prompts, labels)
        self.push(
            f'{{"type": "view", "game": {said.text_of(game_id)}, "seat": {seat}, '
            f'"phase": {said.text_of(view.phase)}, "number": {view.number}, '
            f'"state_id": {view.state_id}, "finished": {JSON_BOOL[view.finished]}, '
            f'"waiting": {JSON_BOOL[waited]}, "from": {start}, "lines": [{lines}], '
            f'"spoken": [{voiced}], '
            f'"table": [{shown}], "deadline": {until}, "time": {round(public_time, 3)!r}, '
            f'"events": [{events}], {pack_text(view)}'
            f'"public": {said.public_text(game, view)}, '
            f'"prompts": {prompts}}}'
        )


JSON_BOOL: Final = {False: "false", True: "true"}
JSON_MARK: Final = {None: "null", STEP: f'"{STEP}"', SAY: f'"{SAY}"'}


def pack_text(view: View) -> str:
    """``"pack": [...], `` for a member of a pack whose step is open (each living
    member's seat and current target, null: not chosen yet or asleep), read from his
    own view (``lupus.bots.den``); nothing for anyone else. Only a seat with prompts
    can be in an open pack step, so no other view is read."""
    found = den(view) if view.prompts else None
    if found is None:
        return ""
    members = ", ".join(
        [
            f'{{"seat": {seat}, "target": {"null" if target is None else target}}}'
            for seat, target in found.current()
        ]
    )
    return f'"pack": [{members}], '


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
        return f'{known[1]}, "audience": [{seats}]}}'

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
