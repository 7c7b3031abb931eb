"""The HTTP API fuzzed from its own OpenAPI document (``GET /openapi.json``) with
Schemathesis, against a real server: whatever a request holds, valid by the document
or not, the answer is one the document lists (its status, its content type, its
schema), never a server error; a bounded number of examples per operation, so that
it runs in seconds.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from hypothesis import HealthCheck, settings
from tests.server_harness import Server

schemathesis = pytest.importorskip("schemathesis")
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    started = Server(tmp_path_factory.mktemp("openapi") / "lupus.db").start()
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="module")
def api(server: Server) -> object:
    return schemathesis.openapi.from_url(f"{server.http}/openapi.json")


schema = schemathesis.pytest.from_fixture("api")


@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_the_http_api_answers_as_its_document_says(case: object, server: Server) -> None:
    case.call_and_validate(base_url=server.http, checks=CHECKS)  # type: ignore[attr-defined]


def test_the_document_describes_every_endpoint(server: Server) -> None:
    document = httpx.get(f"{server.http}/openapi.json", timeout=10).json()
    assert document["openapi"].startswith("3.1")
    paths = document["paths"]
    for path in (
        "/healthz",
        "/api/rulebooks",
        "/api/rooms",
        "/api/rooms/{code}",
        "/api/rooms/{code}/qr.svg",
        "/api/ui/{lang}",
        "/api/games/{game}/scenario",
    ):
        assert path in paths, path
    body = paths["/api/rooms"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/RoomSettings"}
    assert "RoomSettings" in document["components"]["schemas"]
