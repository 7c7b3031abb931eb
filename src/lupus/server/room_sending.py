"""What a room sends its clients: the lobby, each client's view, the chat's history.

What a client receives is computed from the engine's view of its seat (the leader's
for a game leader, the public view for a spectator), as the night's pacing shows it
(``pacing.Pacer.view``), never from the game itself; it is put on the client's queue,
and the client sends only what changed (``clients.Client``). What every client shares
(the lobby's text, the seats waited for) is worked out once per change.
"""

from __future__ import annotations

from lupus.engine.model import LEADER, Prompt
from lupus.server import chat
from lupus.server.clients import Client, json_text
from lupus.server.lobby import lobby_of
from lupus.server.room_core import RoomCore


class Sending(RoomCore):
    """What a room sends (see the module docstring)."""

    _lobby_key: tuple[object, ...]
    _lobby_text: str

    # ------------------------------------------------------------------ after a change
    def changed_lobby(self) -> None:
        """The lobby changed (a seat, the settings, a game's end): kept, then shown."""
        self.save()
        self.broadcast()

    def broadcast(self) -> None:
        """Send every client what changed for it (the lobby and the seats waited for
        worked out once for all)."""
        lobby = self.lobby_text()
        waiting = self.waited()
        for client in list(self.clients):
            self.update(client, lobby, waiting)

    def broadcast_lobby(self, entered: Client | None = None) -> None:
        """Send every client the lobby, and a client who just ``entered`` his whole
        view too: a connection that comes or goes changes the lobby (who is connected,
        who holds the host's powers) and no one's view, and looking at every client's
        view again for each of a room's hundred spectators made each new one cost a
        hundred views."""
        lobby = self.lobby_text()
        for client in list(self.clients):
            if client is entered:
                self.update(client, lobby)
            else:
                client.send_lobby(lobby)

    def waited(self) -> frozenset[int]:
        """The seats the game waits for, as shown: none while the night's pacing holds
        a step back (the step shown is over)."""
        game = self.game
        if game is None or self.pacer.held is not None:
            return frozenset()
        return frozenset(game.waiting())

    def update(
        self,
        client: Client,
        lobby: str | None = None,
        waiting: frozenset[int] | None = None,
    ) -> None:
        """Send a client what changed for it: the lobby (its JSON text), or its view."""
        if lobby is None:
            lobby = self.lobby_text()
        client.send_lobby(lobby)
        game = self.game
        if game is None:
            return
        if waiting is None:
            waiting = self.waited()
        seat, pacer = client.seat, self.pacer
        shown = pacer.held is None
        deadline = pacer.shown_deadline()
        table: tuple[tuple[int, tuple[Prompt, ...]], ...] = ()
        if seat == LEADER and shown:
            # The game leader answers for the table: each seat's open prompts.
            opened = ((s, game.open_prompts(s)) for s in range(game.n))
            table = tuple((s, prompts) for s, prompts in opened if prompts)
        view = pacer.view(seat)
        if seat is not None and seat >= 0:
            offered = self.offered.get(seat)
            if offered is None or offered[0] != view.prompts:
                self.offered[seat] = (view.prompts, view.state_id)
        waited = seat in waiting
        game_id = self.game_id or ""
        client.send_view(game, view, game_id, waited, deadline, table, self.said, pacer.public_time)

    def lobby_text(self) -> str:
        """The lobby as JSON text, written again only when something in it changed: it
        goes out after every action, and changes a few times a game (seats, who is
        connected, a game starting or ending)."""
        seats = tuple(
            None if s is None else (s.name, s.bot, s.token is None, s.away) for s in self.seats
        )
        connected = frozenset([client.seat for client in self.clients])
        status, results = self.shown_status, len(self.shown_results())
        key: tuple[object, ...] = (
            status,
            self.number,
            self.game_id,
            results,
            connected,
            seats,
            self.host_seat,
            self.settings,  # (the host's ``settings``: a new object each change)
        )
        key += (self.narration.key(),)  # (who narrates at one table)
        if key != self._lobby_key:
            self._lobby_key = key
            self._lobby_text = json_text(lobby_of(self))
        return self._lobby_text

    # ------------------------------------------------------------------ chat
    def store_chat(self, line: dict[str, object]) -> None:
        """Keep a chat line with the game (before the first one, with the lobby)."""
        kept_with = self.game_id or f"{self.code}-lobby"
        self.store.append_chat(kept_with, len(self.chat_log), line)
        self.chat_log.append(line)

    def channel_of(self, seat: int) -> tuple[str, list[int] | None]:
        """The channel an AI player at ``seat`` speaks on now (``chat.seat_channel``)."""
        return chat.seat_channel(self, seat)

    def say(self, seat: int, text: str) -> None:
        """An AI player's line, by the chat's rules (``chat.say``)."""
        chat.say(self, seat, text)

    def send_chat_history(self, client: Client) -> None:
        chat.history(self, client)
