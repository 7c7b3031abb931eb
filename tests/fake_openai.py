"""A fake OpenAI-compatible chat server on a free loopback port, for the LLM seats' tests.

Its answers follow ``mode``: ``schema`` (a random legal choice by the request's JSON
schema), ``number`` (ignores the schema: "I choose N"), ``malformed`` (no choice at
all), ``slow`` (sleeps past the client's time-out), ``fail`` (HTTP 500); or
``script``, a function of the request. A talk request (one with no
``response_format``) is answered in the schema and number modes by a line naming a
player of the request's text, numbered so that each line said is told apart ("Line 3:
I do not trust P4."), in the malformed mode by an empty answer, and like a decision
in the others. Every request is kept in ``requests``.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PLAYER = re.compile(r"\bP[0-9]+\b")
"""A player's name as the simulator deals them (``seat_names``: P1, P2...)."""


class Fake:
    def __init__(self, mode: str = "schema", seed: int = 0) -> None:
        self.mode = mode
        self.rng = random.Random(seed)
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.script: Callable[[dict[str, Any]], str] | None = None
        self.delay = 2.0
        self.tokens = 10
        self.said = 0

    def content(self, request: dict[str, Any]) -> str | None:
        """The answer's content, or None for a failure."""
        if self.script is not None:
            return self.script(request)
        if "response_format" not in request:
            return self.talk(request)
        enum = request["response_format"]["json_schema"]["schema"]["properties"]["choice"]["enum"]
        with self.lock:
            pick = self.rng.randrange(len(enum))
        if self.mode == "schema":
            return json.dumps({"choice": enum[pick]})
        if self.mode == "number":
            return f"I choose {pick + 1}."
        if self.mode == "malformed":
            return "I would rather not say."
        if self.mode == "slow":
            time.sleep(self.delay)
            return json.dumps({"choice": enum[pick]})
        return None

    def talk(self, request: dict[str, Any]) -> str | None:
        """A talk request's answer (the modes as for decisions)."""
        if self.mode == "malformed":
            return ""
        if self.mode == "fail":
            return None
        if self.mode == "slow":
            time.sleep(self.delay)
        text = request["messages"][-1]["content"]
        names = sorted(set(PLAYER.findall(text)))
        with self.lock:
            self.said += 1
            number = self.said
            name = self.rng.choice(names) if names else None
        if name is None:
            return f"Line {number}: let us think before we vote."
        return f"Line {number}: I do not trust {name}."


def talks(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The talk requests of ``requests`` (those asking for free text)."""
    return [r for r in requests if "response_format" not in r]


def decisions(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The decision requests of ``requests`` (those with a schema)."""
    return [r for r in requests if "response_format" in r]


def handler(fake: Fake) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            request = json.loads(self.rfile.read(length))
            with fake.lock:
                fake.requests.append(request)
            content = fake.content(request)
            if content is None:
                body = json.dumps({"error": {"message": "scripted failure", "type": "x"}})
                status = 500
            else:
                status = 200
                body = json.dumps(
                    {
                        "id": "fake",
                        "object": "chat.completion",
                        "created": 0,
                        "model": request["model"],
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": content},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {
                            "prompt_tokens": fake.tokens - 1,
                            "completion_tokens": 1,
                            "total_tokens": fake.tokens,
                        },
                    }
                )
            data = body.encode()
            try:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # (the client gave up: a time-out)

    return Handler


@contextmanager
def serving(fake: Fake) -> Iterator[str]:
    """The fake server running; yields its base URL (``.../v1``)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler(fake))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
