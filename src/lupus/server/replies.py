"""What the HTTP routes share: the static files' place, the body limit and the
refusals, in one module so that every route module words a refusal the same way."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from lupus.server.links import same_origin
from lupus.server.refusals import Refusal, Value

STATIC = Path(str(resources.files("lupus.server") / "static"))

MANIFEST_TYPE = "application/manifest+json"

MAX_BODY = 16 * 1024
"""The largest request body the API reads (a room's settings)."""


async def bounded_body(request: Request, limit: int) -> bytes | None:
    """The request's body, or None if it is (or is announced) longer than ``limit``
    bytes: a longer body is never read into memory, a huge announced one not at all."""
    announced = request.headers.get("content-length", "")
    if announced.isdigit() and int(announced) > limit:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


def cross_site(request: Request, public_url: str | None) -> Response | None:
    """The refusal of a request another site's page may have sent (``POST /api/rooms``):
    a body that is not declared JSON (a form or a ``text/plain`` body, which a page of
    any site may post without asking), or an ``Origin`` that is not this server."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return problem(415, "not_json", "body_not_json")
    origin = request.headers.get("origin")
    if origin is not None and not same_origin(request, origin, public_url):
        return problem(403, "cross_site", "cross_site")
    return None


def problem(status: int, code: str, reason: str | Refusal, **fields: Value) -> Response:
    """An HTTP refusal: its ``error`` code, and its reason in English and for the page
    to word in its own language (``refusals``)."""
    said = reason if isinstance(reason, Refusal) else Refusal(reason, **fields)
    return JSONResponse({"error": code, **said.to_json()}, status_code=status)
