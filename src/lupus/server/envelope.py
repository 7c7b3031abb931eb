"""The relay's messages sealed between two processes, so that the database that carries
them learns nothing from them.

A relayed client's frames hold its seat's view (its role, what it saw at night) and its
tokens (the ``rejoin`` it sent, the ``welcome`` of a ``join``, a host's new links). They
cross PostgreSQL as notifications, which any role that may connect to the database can
``LISTEN`` to, and which a server logging its statements would write down. So each
process makes a key pair when it starts (X25519), publishes the public half beside its
heartbeat (``nodes.key``), and seals every message to another process with a key only
the two of them can derive (ChaCha20-Poly1305 under HKDF of their shared secret): a
reader of the tables and of every notification learns who talks to whom and how much,
nothing more. A message whose sender's key is not the one the database lists for it, or
that was tampered with, is dropped: another role of the database cannot speak for a
process either, unless it may write the ``nodes`` table.
"""

from __future__ import annotations

import base64
import hashlib
import os
from typing import Final

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

NONCE: Final = 12


class Unsealable(Exception):
    """A message that cannot be opened: not sealed for this key, or tampered with."""


def fingerprint(public: bytes) -> str:
    """A short name of a public key, to say which key a message was sealed for."""
    return hashlib.sha256(public).hexdigest()[:16]


class Seal:
    """This process's key pair, and the keys it shares with each peer it met."""

    def __init__(self) -> None:
        self._private = X25519PrivateKey.generate()
        self.public: Final = self._private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.name: Final = fingerprint(self.public)
        self._shared: dict[bytes, ChaCha20Poly1305] = {}

    def _with(self, peer: bytes) -> ChaCha20Poly1305:
        shared = self._shared.get(peer)
        if shared is None:
            secret = self._private.exchange(X25519PublicKey.from_public_bytes(peer))
            # (both ends derive the same key: the two public halves in a fixed order)
            info = b"lupus relay " + b"".join(sorted((self.public, peer)))
            key = HKDF(algorithm=SHA256(), length=32, salt=None, info=info).derive(secret)
            shared = self._shared[peer] = ChaCha20Poly1305(key)
        return shared

    def seal(self, peer: bytes, text: str) -> str:
        """``text`` for the holder of ``peer`` alone, as base64."""
        nonce = os.urandom(NONCE)
        sealed = self._with(peer).encrypt(nonce, text.encode(), None)
        return base64.b64encode(nonce + sealed).decode()

    def open(self, peer: bytes, data: str) -> str:
        """What the holder of ``peer`` sealed for this process (``Unsealable`` if it
        did not, or if the message was changed on the way)."""
        try:
            raw = base64.b64decode(data, validate=True)
            opened = self._with(peer).decrypt(raw[:NONCE], raw[NONCE:], None)
            return opened.decode()
        except Exception as exc:
            raise Unsealable(str(exc) or type(exc).__name__) from exc
