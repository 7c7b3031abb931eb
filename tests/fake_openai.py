"""A fake OpenAI-compatible chat server on a free loopback port, for the LLM seats' tests.

Its answers follow ``mode``: ``schema`` (a random legal choice by the request's JSON
schema), ``number`` (ignores the schema: "I choose N"), ``malformed`` (no choice at
all), ``slow`` (sleeps past the client's time-out), ``fail`` (HTTP 500); or
``script``, a function of the request. Every request is kept in ``requests``.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Fake:
    def __init__(self, mode: str = "schema", seed: int = 0) -> None:
        self.mode = mode
        self.rng = random.Random(seed)
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.script: Callable[[dict[str, Any]], str] | None = None
        self.delay = 2.0
        self.tokens = 10

    def content(self, request: dict[str, Any]) -> str | None:
        """The answer's content, or None for a failure."""
        if self.script is not None:
            return self.script(request)
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
