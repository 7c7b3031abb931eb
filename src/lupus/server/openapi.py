"""The HTTP API as an OpenAPI 3.1 document (``GET /openapi.json``).

Each endpoint's docstring says, after ``---``, its parameters and answers (Starlette's
``SchemaGenerator`` reads them); a room's settings are described by their own model
(``RoomSettings``), so that the document and the checks are one. A tool such as
Schemathesis can test the server from it (``tests/test_server_openapi.py``).
"""

from __future__ import annotations

from typing import Any

from starlette.routing import BaseRoute
from starlette.schemas import SchemaGenerator

from lupus import __version__
from lupus.server.settings import RoomSettings

PROBLEM: dict[str, Any] = {
    "type": "object",
    "required": ["error", "message", "reason", "fields"],
    "properties": {
        "error": {"type": "string", "description": "a code a client acts on"},
        "message": {"type": "string", "description": "the refusal in English"},
        "reason": {
            "type": "string",
            "description": "which refusal: a page shows the interface's word "
            "refusal_<reason> in its own language (GET /api/ui/{lang})",
        },
        "fields": {
            "type": "object",
            "description": "the values the reason's words are filled with",
            "additionalProperties": {"type": ["string", "number"]},
        },
    },
}

OPENED: dict[str, Any] = {
    "type": "object",
    "required": ["room", "join_url", "host_token", "host_seat"],
    "properties": {
        "room": {"type": "string", "pattern": "^[A-Z2-9]{5}$"},
        "join_url": {"type": "string"},
        "host_token": {"type": "string"},
        "host_seat": {"type": ["integer", "null"]},
    },
}


def answer(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


RESPONSES: dict[str, Any] = {
    "Problem": answer("refused: a code and a sentence", {"$ref": "#/components/schemas/Problem"}),
    "Opened": answer(
        "the room, its host's token and seat", {"$ref": "#/components/schemas/Opened"}
    ),
    "Json": answer("JSON", {}),
}
"""The answers the endpoints' docstrings name (``$ref: "#/components/responses/..."``)."""


def openapi_document(routes: list[BaseRoute]) -> dict[str, Any]:
    settings = RoomSettings.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas: dict[str, Any] = dict(settings.pop("$defs", {}))
    schemas.update({"RoomSettings": settings, "Problem": PROBLEM, "Opened": OPENED})
    generator = SchemaGenerator(
        {
            "openapi": "3.1.0",
            "info": {
                "title": "lupus",
                "version": __version__,
                "description": "The HTTP API of lupus serve; the WebSocket protocol is "
                "docs/protocol.md.",
            },
            "components": {"schemas": schemas, "responses": RESPONSES},
        }
    )
    return generator.get_schema(routes)
