"""The HTTP routes of finished games: a game's scenario, its story (the replay page)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from lupus.server import catalogue, slices
from lupus.server.gate import Peer, client_key
from lupus.server.hub import Hub
from lupus.server.limits import MAX_GAME_ID
from lupus.server.links import Renders
from lupus.server.placement import Told
from lupus.server.replies import problem
from lupus.server.rooms import Room


class GameRoutes:
    """A finished game's records, made once (``renders``) and one at a time."""

    def __init__(self, hub: Hub, renders: Renders) -> None:
        self.hub = hub
        self.renders = renders
        self.render_lock = asyncio.Lock()  # (a finished game's record is made one at a time)

    def peer_of(self, request: Request) -> Peer:
        return self.hub.gate.peer(client_key(request.client.host if request.client else None))

    async def asked_game(self, request: Request) -> tuple[Peer, str, Response | None]:
        """The client, the game id it asks for, and the refusal of its record if any."""
        peer = self.peer_of(request)
        game_id = str(request.path_params["game"])
        return peer, game_id, await self.not_told_yet(peer, game_id)

    async def not_told_yet(self, peer: Peer, game_id: str) -> Response | None:
        """The refusal of a finished game's record (its scenario, its story) to a client
        guessing too fast, or of a game not shown over yet: one that ended in a step the
        night's pacing still holds back is not over for its players, its end (and every
        card) is told when they are shown it. None: go on."""
        if not peer.guesses.ready():
            return problem(429, "slow_down", "too_many_game_ids")
        code = game_id.split("-", 1)[0].upper()
        room: Room | Told | None = self.hub.rooms.get(code)
        if room is None and self.hub.cluster is not None and len(code) <= 16:
            room = await self.hub.cluster.told(code)  # (its process says how it stands)
        if room is not None and room.game_id == game_id and room.shown_status != "finished":
            peer.guesses.take()
            return problem(404, "unknown_game", "unknown_game")
        return None

    async def rendered(
        self,
        peer: Peer,
        key: tuple[object, ...],
        game_id: str,
        what: str,
        make: Callable[[Any], Awaitable[bytes | None]],
    ) -> Response:
        """A finished game's record as ``make`` writes it from the stored game, kept in
        the renders; a wrong id costs the client a guess, a new render one of its
        renders. ``make`` replays the whole game (and tells it: tens of milliseconds
        for a long game of thirty) in slices (``slices``), one at a time
        (``render_lock``), so that a burst of them delays no room's frames."""
        text = self.renders.get(key)
        if text is None:
            known = len(game_id) <= MAX_GAME_ID and self.hub.store.has_game(game_id)
            if known and not peer.renders.take():
                return problem(429, "slow_down", "too_many_records", what=what)
            async with self.render_lock:
                text = self.renders.get(key)  # (made meanwhile for another request)
                if text is None:
                    found = self.hub.store.scenario(game_id) if known else None
                    made = None if found is None else await make(found)
                    if made is None:
                        peer.guesses.take()
                        return problem(404, "unknown_game", "unknown_game")
                    text = self.renders.put(key, made)
        return Response(text, media_type="application/json")

    async def scenario(self, request: Request) -> Response:
        """---
        summary: A finished game as a scenario file (docs/scenarios.md)
        parameters:
          - {name: game, in: path, required: true, schema: {type: string}}
        responses:
          200: {$ref: "#/components/responses/Json"}
          404: {$ref: "#/components/responses/Problem"}
          429: {$ref: "#/components/responses/Problem"}
        """
        peer, game_id, refused = await self.asked_game(request)
        if refused is not None:
            return refused

        # A running game's scenario holds every card: only a finished one is given. The
        # stored game itself says so (not its room, which may have expired or failed to
        # be restored while the game was still running).
        async def made(found: Any) -> bytes | None:
            game = await slices.replayed(*found)
            return json.dumps(game.to_scenario()).encode() if game.finished else None

        return await self.rendered(peer, ("scenario", game_id), game_id, "scenarios", made)

    async def story(self, request: Request) -> Response:
        """---
        summary: A finished game told night by night, every card shown (the replay page)
        parameters:
          - {name: game, in: path, required: true, schema: {type: string}}
          - {name: lang, in: query, required: false, schema: {type: string}}
        responses:
          200: {$ref: "#/components/responses/Json"}
          404: {$ref: "#/components/responses/Problem"}
          429: {$ref: "#/components/responses/Problem"}
        """
        # (the scenario's own checks: a game is told once it is over and shown over)
        peer, game_id, refused = await self.asked_game(request)
        if refused is not None:
            return refused
        lang = request.query_params.get("lang")
        lang = lang if lang in catalogue.languages() else None

        async def made(found: Any) -> bytes | None:
            game = await slices.replayed(*found)
            if not game.finished:
                return None
            return json.dumps(await slices.story(game_id, game, lang)).encode()

        return await self.rendered(peer, ("story", game_id, lang), game_id, "games", made)
