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
from collections.abc import Callable
from typing import Final

from lupus.engine.game import Game
from lupus.engine.model import Prompt
from lupus.engine.views import View
from lupus.server.frame import Said, Sent, json_text, view_frame
from lupus.server.protocol import Code
from lupus.server.refusals import Refusal

__all__ = ["Client", "Said", "json_text"]

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
        self.sent = Sent()  # what it was sent of the current game (``frame.view_frame``)
        self.messages = Bucket(*MESSAGES)
        self.chat = Bucket(*CHAT)
        self.refused = 0  # what its frames refused for their rate counted since a message
        # The digest of the token this spectator's connection watches by as the room's
        # narrator (``narrating``): closed once the host chooses another.
        self.narrator_key: str | None = None
        # Where its messages go when its room runs in another process (``cluster``).
        self.relay: Callable[[str | bytes], None] | None = None

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
        self.sent = Sent()

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
        """The view's news since the last one sent, if anything changed for this client
        (``frame.view_frame`` builds it, and judges whether it is stale)."""
        frame = view_frame(
            self.sent, self.lang, game, view, game_id, waited, deadline, table, said, public_time
        )
        if frame is not None:
            self.push(frame.encode())
