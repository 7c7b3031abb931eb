"""The HTTP routes of public facts: health, the rulebooks and their help pages, the
pages' words, the manifest, the index page and the OpenAPI document (``app``)."""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute

from lupus.families import load
from lupus.rulebooks import available
from lupus.rules_text import explained
from lupus.server import catalogue
from lupus.server.hub import Hub
from lupus.server.openapi import openapi_document
from lupus.server.protocol import VERSION
from lupus.server.replies import MANIFEST_TYPE, STATIC, problem


def inside(host: str | None) -> bool:
    """Whether a request comes from this machine or a private network."""
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:
        return False
    return address.is_loopback or address.is_private


class PublicRoutes:
    """The public facts' endpoints, each answer written once and kept (by language)."""

    def __init__(self, hub: Hub, routes: Callable[[], list[BaseRoute]]) -> None:
        """``routes``: the application's, which the OpenAPI document describes."""
        self.hub = hub
        self.routes = routes
        self.listings: dict[str, bytes] = {}  # /api/rulebooks, by language
        self.explanations: dict[tuple[str, str], bytes] = {}  # /api/rulebooks/{id}/rules
        self.schema_text: list[bytes] = []

    async def healthz(self, request: Request) -> Response:
        """---
        summary: The server is up
        responses:
          200: {$ref: "#/components/responses/Json"}
        """
        answer: dict[str, object] = {"status": "ok", "rooms": len(self.hub.rooms)}
        answer["protocol"] = VERSION
        if inside(request.client.host if request.client else None):
            # Which rooms this process runs now (several share a database): their codes
            # let anyone in, so only to a caller on loopback or a private network (a
            # load balancer's health check), never to the internet.
            answer["runs"] = sorted(self.hub.rooms)
        return JSONResponse(answer)

    async def rulebooks(self, request: Request) -> Response:
        """---
        summary: Every rulebook the server plays, with what a room form needs
        parameters:
          - {name: lang, in: query, required: false, schema: {type: string}}
        responses:
          200: {$ref: "#/components/responses/Json"}
        """
        lang = request.query_params.get("lang", "en")
        if lang not in catalogue.languages():
            lang = ""  # (each rulebook speaks its own first language, as for any other)
        listing = self.listings.get(lang)
        if listing is None:
            listing = self.listings[lang] = json.dumps(catalogue.rulebooks(lang)).encode()
        return Response(listing, media_type="application/json")

    async def rules(self, request: Request) -> Response:
        """---
        summary: One rulebook explained for its help page, in parts (docs/protocol.md)
        parameters:
          - {name: rulebook, in: path, required: true, schema: {type: string}}
          - {name: lang, in: query, required: false, schema: {type: string}}
        responses:
          200: {$ref: "#/components/responses/Json"}
          404: {$ref: "#/components/responses/Problem"}
        """
        rid = str(request.path_params["rulebook"])
        if rid not in available():
            return problem(404, "unknown_rulebook", "unknown_rulebook")
        lang = request.query_params.get("lang", "")
        if lang not in catalogue.languages():
            lang = ""  # (the rulebook's own first language)
        told = self.explanations.get((rid, lang))
        if told is None:
            book = load(rid)
            said = lang if lang in book.languages else None
            told = self.explanations[(rid, lang)] = json.dumps(explained(book, said)).encode()
        return Response(told, media_type="application/json")

    async def manifest(self, request: Request) -> Response:
        """---
        summary: The web app manifest (the pages install as an app)
        responses:
          200: {description: the manifest, content: {application/manifest+json: {}}}
        """
        return FileResponse(STATIC / "manifest.webmanifest", media_type=MANIFEST_TYPE)

    async def interface(self, request: Request) -> Response:
        """---
        summary: The pages' words in one language
        parameters:
          - {name: lang, in: path, required: true, schema: {type: string}}
        responses:
          200: {$ref: "#/components/responses/Json"}
          404: {$ref: "#/components/responses/Problem"}
        """
        languages = catalogue.interface_languages()
        lang = str(request.path_params["lang"])
        if lang not in languages:
            return problem(404, "unknown_language", "unknown_language")
        words = catalogue.interface_words(lang)
        return JSONResponse({"lang": lang, "languages": languages, "words": words})

    async def openapi(self, request: Request) -> Response:
        """---
        summary: This document (OpenAPI 3.1)
        responses:
          200: {$ref: "#/components/responses/Json"}
        """
        if not self.schema_text:
            self.schema_text.append(json.dumps(openapi_document(self.routes())).encode())
        return Response(self.schema_text[0], media_type="application/json")

    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html")
