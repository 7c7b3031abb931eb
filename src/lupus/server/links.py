"""Join links and their QR codes, never made from an unchecked header.

A room's join link is the server's address and ``/?room=CODE``. The address is the
``--public-url`` when the server was given one; otherwise the ``Host`` the request
names, if it is a host name or an address with an optional port of at most
``MAX_HOST`` characters; otherwise the address the connection reached. So a link, and
its QR code, is never longer than a few dozen characters whatever a request sends.

A QR code costs milliseconds to draw (its mask is fixed, not chosen among eight: a
fixed mask is as valid and scans as well, at an eighth of the cost), so each one is
drawn once and kept (``Renders``).
"""

from __future__ import annotations

import io
import re
from collections import OrderedDict
from typing import Final
from urllib.parse import urlsplit

import segno
from starlette.requests import HTTPConnection

from lupus.server.limits import KEPT_RENDERS, MAX_HOST, MAX_PUBLIC_URL

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOST: Final = re.compile(
    rf"(?:{_LABEL}(?:\.{_LABEL})*|\[[0-9A-Fa-f:.]{{2,45}}\])(?::[0-9]{{1,5}})?"
)
"""A ``Host`` header a link may be made from: a DNS name or an IPv4 address, or an IPv6
address in brackets, with an optional port."""


def checked_public_url(url: str) -> str:
    """``--public-url`` as links begin with it (no trailing slash), or ValueError."""
    if len(url) > MAX_PUBLIC_URL:
        raise ValueError(f"--public-url: at most {MAX_PUBLIC_URL} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not HOST.fullmatch(parts.netloc):
        raise ValueError("--public-url: an http:// or https:// address, such as http://host:8000")
    if parts.query or parts.fragment or any(c in parts.path for c in "\"'<> \\"):
        raise ValueError("--public-url: an address without a query or a fragment")
    return url.rstrip("/")


def origin_of(request: HTTPConnection, public_url: str | None) -> str:
    """The address links begin with (see the module docstring)."""
    if public_url is not None:
        return public_url
    scheme = "https" if request.url.scheme in ("https", "wss") else "http"
    host = request.headers.get("host", "")
    if len(host) <= MAX_HOST and HOST.fullmatch(host):
        return f"{scheme}://{host}"
    server = request.scope.get("server")
    if server and server[0]:
        address, port = str(server[0]), server[1]
        shown = f"[{address}]" if ":" in address else address
        return f"{scheme}://{shown}" if port is None else f"{scheme}://{shown}:{port}"
    return f"{scheme}://localhost"


def join_link(request: HTTPConnection, public_url: str | None, code: str) -> str:
    return f"{origin_of(request, public_url)}/?room={code}"


def seat_link(origin: str | None, code: str, token: str) -> str:
    """A seat's own join link (``new_link``): the room's, with the seat's token in the
    fragment, which a browser never sends to a server (no request line, log or
    ``Referer`` holds it). ``origin``: the address the host's connection reached
    (``origin_of``, made when it connected)."""
    return f"{origin or 'http://localhost'}/?room={code}#token={token}"


def screen_link(origin: str | None, code: str, token: str) -> str:
    """A narrating screen's link (``narrator`` with ``by: screen``): the room's screen
    page, with the screen's token in the fragment, as a seat's link has its own."""
    return f"{origin or 'http://localhost'}/?screen={code}#token={token}"


def svg_text(link: str) -> str:
    """The QR code of ``link`` as SVG text (a frame's field)."""
    return qr_svg(link).decode("utf-8")


def same_origin(request: HTTPConnection, origin: str, public_url: str | None) -> bool:
    """Whether a request's ``Origin`` is this server: the address it reached (its
    ``Host``) or the public URL's."""
    host = request.headers.get("host", "")
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https"):
        return False
    if host and parts.netloc.lower() == host.lower():
        return True
    if public_url is not None:
        public = urlsplit(public_url)
        return (parts.scheme, parts.netloc.lower()) == (public.scheme, public.netloc.lower())
    return False


def qr_svg(link: str) -> bytes:
    """The QR code of ``link`` as an SVG image (fixed mask: see the module docstring)."""
    image = io.BytesIO()
    code = segno.make(link, error="m", mask=0, micro=False)
    code.save(image, kind="svg", scale=8, border=2, title=link)
    return image.getvalue()


class Renders:
    """Answers made once and kept, the latest ``limit`` of them."""

    def __init__(self, limit: int = KEPT_RENDERS) -> None:
        self.limit = limit
        self.kept: OrderedDict[object, bytes] = OrderedDict()

    def get(self, key: object) -> bytes | None:
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
        return found

    def put(self, key: object, made: bytes) -> bytes:
        self.kept[key] = made
        self.kept.move_to_end(key)
        while len(self.kept) > self.limit:
            self.kept.popitem(last=False)
        return made
