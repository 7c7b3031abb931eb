"""The decision datasets of a server's stored games (``lupus export``).

A stored game is its setup and its actions (``store``): it is replayed action by
action, and each seat's action becomes one line of ``lupus.ai.export`` (the seat's view
just before it acted, the choices offered, the one taken, and the game's outcome for
that seat), the very format ``lupus simulate --export`` writes. A decision of an AI
seat that the heuristic stand-in took (the model failed, was slow or named no legal
choice: stored as played by ``AI_FALLBACK``) is marked ``fallback``, as the simulator
marks its own; a person's, a bot's and the model's own are not. Only finished games are
exported, and only of rooms whose host allowed it (``allow_export``, shown to every
player in the lobby): a dataset leaves the server with the players' consent.
"""

from __future__ import annotations

from collections.abc import Iterator

from lupus.ai.export import DecisionRecord, lines, record
from lupus.engine.errors import LupusError
from lupus.engine.model import Action
from lupus.scenario import parse
from lupus.scenario import setup as scenario_setup
from lupus.server.store import AI_FALLBACK, Store


class NotAllowed(LupusError):
    """The room named does not allow its games to be exported, or is not kept."""


def allowed(state: dict[str, object]) -> bool:
    settings = state.get("settings")
    return isinstance(settings, dict) and settings.get("allow_export") is True


def rooms_to_export(store: Store, code: str | None) -> list[tuple[str, dict[str, object]]]:
    """The rooms whose games are exported: every room that allows it, or the one named
    (NotAllowed if it does not, or if there is no such room)."""
    if code is None:
        return [(found, state) for found, state in store.room_states() if allowed(state)]
    code = code.strip().upper()
    found = store.room_states(code)
    if not found:
        raise NotAllowed(f"there is no room {code} in this database")
    if not allowed(found[0][1]):
        raise NotAllowed(
            f"room {code} does not allow its games to be exported "
            "(its host's choice in the lobby: allow export)"
        )
    return found


def game_lines(store: Store, game_id: str, lang: str | None) -> list[str]:
    """A stored game's decision lines (none if it is not finished)."""
    stored = store.scenario(game_id)
    if stored is None:
        return []
    header, actions = stored
    by = store.played_by(game_id)
    game = scenario_setup(parse({**header, "actions": []}, "stored game"))
    records: list[DecisionRecord] = []
    for index, (actor, verb, args) in enumerate(actions):
        assert isinstance(actor, int) and isinstance(verb, str) and isinstance(args, list)
        action = Action(actor, verb, tuple(args))
        if actor >= 0:
            view = game.view(actor)
            if view.prompts:
                fallback = by.get(index) == AI_FALLBACK
                records.append(record(game_id, view, action, fallback=fallback, lang=lang))
        game.apply(action)
    return list(lines(records, game)) if game.finished else []


def exported(store: Store, code: str | None) -> Iterator[tuple[str, list[str]]]:
    """Each finished game of the rooms exported: its id and its lines."""
    for _, state in rooms_to_export(store, code):
        settings = state.get("settings")
        lang = settings.get("lang") if isinstance(settings, dict) else None
        games = state.get("games")
        for game_id in games if isinstance(games, list) else []:
            if isinstance(game_id, str):
                found = game_lines(store, game_id, lang if isinstance(lang, str) else None)
                if found:
                    yield game_id, found
