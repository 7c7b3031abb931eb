"""Every reply a model gave, keyed by the exact request, so that a run replays exactly.

A reply is an answer, a failure or a time-out, with the tokens it cost and the seconds
it took: a replay reads all of it back, so its fallbacks, its budget and its time-outs
fall where the recorded run's did, with no model reachable. The file is JSON lines,
appended to as replies come (a run cut short keeps what it was told), one line a key.

The key is a digest of the request as sent (model, messages, structured output), never
of anything else: two games asking the very same question share one reply, in the
recorded run as in the replay (``Replies.get`` makes the second wait for the first).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Final, Literal

Kind = Literal["answer", "failure", "timeout"]
KINDS: Final = ("answer", "failure", "timeout")


@dataclass(frozen=True)
class Reply:
    """What one request got: ``text`` (an answer's content; a failure's reason), the
    ``tokens`` it cost and the ``seconds`` it took."""

    kind: Kind
    text: str
    tokens: int = 0
    seconds: float = 0.0


def request_key(request: dict[str, object]) -> str:
    """The digest of a request: its JSON with sorted keys, so that the same request
    gives the same key in every run and on every machine."""
    canonical = json.dumps(request, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def reply_of(entry: object) -> Reply | None:
    """A cache line's reply, or None for a line that is not one (a file cut mid-line)."""
    if not isinstance(entry, dict):
        return None
    kind, text = entry.get("kind"), entry.get("text")
    tokens, seconds = entry.get("tokens", 0), entry.get("seconds", 0.0)
    if kind not in KINDS or not isinstance(text, str):
        return None
    if type(tokens) is not int or not isinstance(seconds, int | float):
        return None
    return Reply(kind, text, tokens, float(seconds))


class Replies:
    """The replies of a run: those read from ``path`` (if given), and every new one,
    appended there at once. Thread-safe: games in threads share one."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.known: dict[str, Reply] = {}
        self.pending: dict[str, Future[Reply]] = {}
        self.lock = threading.Lock()
        self.hits = 0
        if self.path is not None and self.path.exists():
            for line in self.path.read_text("utf-8").splitlines():
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                reply = reply_of(entry)
                key = entry.get("key") if isinstance(entry, dict) else None
                if reply is not None and isinstance(key, str):
                    self.known.setdefault(key, reply)

    def get(self, request: dict[str, object], ask: Callable[[], Reply]) -> tuple[Reply, bool]:
        """The reply to ``request``: the recorded one, else ``ask()``'s, recorded; and
        whether it was recorded before. A request already being asked by another thread
        waits for that answer rather than asking twice."""
        key = request_key(request)
        with self.lock:
            known = self.known.get(key)
            if known is not None:
                self.hits += 1
                return known, True
            waiting = self.pending.get(key)
            if waiting is None:
                mine: Future[Reply] = Future()
                self.pending[key] = mine
        if waiting is not None:
            return waiting.result(), True
        try:
            reply = ask()
        except BaseException as exc:
            with self.lock:
                del self.pending[key]
            mine.set_exception(exc)
            raise
        with self.lock:
            self.known[key] = reply
            del self.pending[key]
            if self.path is not None:
                with self.path.open("a", encoding="utf-8") as out:
                    out.write(json.dumps({"key": key, **asdict(reply)}, ensure_ascii=False))
                    out.write("\n")
        mine.set_result(reply)
        return reply, False
