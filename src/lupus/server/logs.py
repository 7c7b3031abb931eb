"""The server's log lines: as text (the default), or one JSON object a line
(``lupus serve --log-format json``), uvicorn's lines too.

The server's own lines are written as an event and its fields, ``room_opened room=%s
players=%d``: a JSON line has those as keys (``{"event": "room_opened", "room":
"K7QF", "players": 8}``), numbers as numbers; any other line (uvicorn's) has its
``message``. Every line has ``time`` (UTC, ISO 8601), ``level`` and ``logger``.

What is logged names rooms by their codes and seats by their numbers, never a token,
a card, a deck, an action's verb or an event (``tests/test_server_logs.py`` plays
games and reads every line for them). A failure's traceback tells where it happened
and the exception's type, but not its message, in either format: an exception raised
while a game was applied or replayed may quote the game (a player's card, an action).
A database address is shown without its password (``without_password``).
"""

from __future__ import annotations

import copy
import json
import logging
import logging.config
import re
import sys
import time
import traceback
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Literal
from urllib.parse import urlsplit, urlunsplit

import websockets
from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter, DefaultFormatter

LogFormat = Literal["text", "json"]
FORMATS: Final = ("text", "json")

TEXT_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s %(message)s"
"""The server's own text lines (uvicorn's keep uvicorn's look)."""

WORD: Final = re.compile(r"[a-z][a-z0-9_]*")
"""An event's name or a field's key in the server's own lines."""

SPEC: Final = re.compile(r"%[sdrif]")
"""A field's value given as an argument (``room=%s``)."""

RESERVED: Final = frozenset({"time", "level", "logger", "event", "message", "traceback"})

DURING: Final = "During handling of the above exception, another exception occurred:"

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None] | tuple[None, None, None]


def withheld(info: ExcInfo) -> str:
    """A traceback without the exceptions' messages: the frames, and each exception's
    type (its causes' too), as Python prints them otherwise."""
    kind, error, trace = info
    if kind is None or error is None:
        return ""
    told = traceback.TracebackException(kind, error, trace)
    parts: list[str] = []
    while True:
        parts.insert(0, "".join(told.stack.format()) + f"{type_name(told)} (message withheld)\n")
        if told.__cause__ is not None:
            parts.insert(0, "\nThe above exception was the direct cause of the following:\n\n")
            told = told.__cause__
        elif told.__context__ is not None and not told.__suppress_context__:
            parts.insert(0, f"\n{DURING}\n\n")
            told = told.__context__
        else:
            break
    return "Traceback (most recent call last):\n" + "".join(parts).rstrip("\n")


def type_name(told: traceback.TracebackException) -> str:
    """An exception's type as Python prints it (its module's name first, but for a
    built-in one)."""
    kind = told.exc_type
    if kind is None:
        return "Exception"
    module = kind.__module__
    return kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"


class WithheldText(logging.Formatter):
    """The server's own text lines, their tracebacks without messages."""

    def formatException(self, ei: Any) -> str:
        return withheld(ei)


class WithheldDefault(DefaultFormatter):
    """uvicorn's own text lines, as uvicorn writes them, tracebacks without messages."""

    def formatException(self, ei: Any) -> str:
        return withheld(ei)


class WithheldAccess(AccessFormatter):
    """uvicorn's access lines (off: ``access_log=False``), should they be turned on."""

    def formatException(self, ei: Any) -> str:
        return withheld(ei)


WEBSOCKETS: Final = str(Path(websockets.__file__).parent)
"""Where the websockets library's code is (``Unframed``)."""


class Unframed(logging.Filter):
    """No debug line of the websockets library: it logs every frame and handshake
    header (a token in a ``rejoin``, an action's verb, a seat's view) at DEBUG,
    through uvicorn's own logger, which ``--log-level debug`` lets through. Its
    warnings and errors stay."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.DEBUG or not record.pathname.startswith(WEBSOCKETS)


def fields_of(record: logging.LogRecord) -> dict[str, object] | None:
    """The event and fields of one of the server's own lines (``event key=%s ...``),
    or None for a line of another shape (its message is kept whole)."""
    message = record.msg
    if not isinstance(message, str):
        return None
    event, *words = message.split(" ")
    if not WORD.fullmatch(event):
        return None
    args = record.args if isinstance(record.args, tuple) else ()
    found: dict[str, object] = {"event": event}
    given = iter(args)
    for word in words:
        key, equals, value = word.partition("=")
        if not equals or not WORD.fullmatch(key) or key in RESERVED:
            return None
        if SPEC.fullmatch(value):
            arg = next(given, given)
            if arg is given:
                return None
            plain = isinstance(arg, str | int | float | bool) or arg is None
            found[key] = arg if plain else str(arg)
        elif "%" in value:
            return None
        else:
            found[key] = value
    if next(given, given) is not given:
        return None
    return found


class JsonLines(logging.Formatter):
    """Every record as one JSON object on one line (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        seconds = time.gmtime(record.created)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", seconds) + f".{int(record.msecs):03d}Z"
        line: dict[str, object] = {
            "time": stamp,
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        fields = fields_of(record)
        if fields is None:
            line["message"] = record.getMessage()
        else:
            line.update(fields)
        if record.exc_info:
            line["traceback"] = withheld(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def text_config(level: str) -> dict[str, Any]:
    """uvicorn's own configuration of its loggers, its tracebacks withheld, with the
    server's lines in ``TEXT_FORMAT`` on standard error: the text as it always was."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["default"]["()"] = WithheldDefault
    config["formatters"]["access"]["()"] = WithheldAccess
    config["formatters"]["lupus"] = {"()": WithheldText, "fmt": TEXT_FORMAT}
    config["handlers"]["lupus"] = {
        "class": "logging.StreamHandler",
        "formatter": "lupus",
        "stream": "ext://sys.stderr",
    }
    config["filters"] = {"unframed": {"()": Unframed}}
    for handler in config["handlers"].values():
        handler["filters"] = ["unframed"]
    config["root"] = {"handlers": ["lupus"], "level": level.upper()}
    return config


def json_config(level: str) -> dict[str, Any]:
    """Every logger, uvicorn's and the warnings' too, one JSON line a record on
    standard error."""
    shown = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonLines}},
        "filters": {"unframed": {"()": Unframed}},
        "handlers": {
            "json": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "filters": ["unframed"],
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": {"handlers": ["json"], "level": shown, "propagate": False},
            "uvicorn.error": {"level": shown},
            "uvicorn.access": {"handlers": ["json"], "level": shown, "propagate": False},
        },
        "root": {"handlers": ["json"], "level": shown},
    }


def configure(log_format: LogFormat, level: str) -> None:
    """Set the process' logging up before anything is logged (uvicorn is then given no
    configuration of its own: ``serving.run``). With JSON, the warnings and an
    uncaught exception are log lines too, so that every line is one object."""
    if log_format == "json":
        logging.config.dictConfig(json_config(level))
        logging.captureWarnings(True)
        sys.excepthook = crashed
    else:
        logging.config.dictConfig(text_config(level))


def crashed(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
    """An exception nothing caught, as a JSON line (``configure``)."""
    logging.getLogger("lupus.server").critical("crashed", exc_info=(kind, error, trace))


def without_password(database: str) -> str:
    """A database's address as it may be logged: a URL's password replaced by ``***``
    (a file's path as it is)."""
    if "://" not in database:
        return database
    try:
        parts = urlsplit(database)
        password = parts.password
    except ValueError:
        return "(an address that is not a URL)"
    if password is None:
        return database
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
