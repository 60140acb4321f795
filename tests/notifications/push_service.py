"""A push service on 127.0.0.1 for the tests: a real HTTP server in a thread that keeps
every request pywebpush sends it, answers each path as told, and a browser's side of a
subscription that decrypts what arrived with its own keys."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class FakePushService:
    server: ThreadingHTTPServer
    received: list[Received] = field(default_factory=list)
    # Answers by path; everything else gets 201, as push services answer a message taken.
    answers: dict[str, tuple[int, dict[str, str]]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def origin(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def url(self, path: str) -> str:
        return self.origin + path

    def answer(self, path: str, status: int, headers: dict[str, str] | None = None) -> None:
        self.answers[path] = (status, headers or {})

    def at(self, path: str) -> list[Received]:
        with self.lock:
            return [r for r in self.received if r.path == path]


def serve() -> FakePushService:
    service: FakePushService

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with service.lock:
                service.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            status, headers = service.answers.get(self.path, (201, {}))
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the tests read what arrived from `received`."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service = FakePushService(server)
    threading.Thread(target=server.serve_forever, name="fake-push-service", daemon=True).start()
    return service


class Browser:
    """One browser's subscription keys: a P-256 key pair and an auth secret of its own."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    @property
    def p256dh(self) -> str:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def subscription(self, endpoint: str, expiration: Any = None) -> dict[str, Any]:
        """As `PushSubscription.toJSON()` writes it."""
        return {
            "endpoint": endpoint,
            "expirationTime": expiration,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
        }

    def decrypt(self, received: Received) -> dict[str, Any]:
        """The message, as the browser reads it (RFC 8291, aes128gcm)."""
        assert received.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(received.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain.decode())


def vapid_claims(received: Received, public_key: str) -> dict[str, Any]:
    """The claims of the request's VAPID token (RFC 8292), after checking that it names
    `public_key` and that its ES256 signature verifies with it."""
    scheme, _, params = received.headers["authorization"].partition(" ")
    assert scheme == "vapid", received.headers["authorization"][:20]
    parts = dict(part.strip().split("=", 1) for part in params.split(","))
    assert parts["k"] == public_key
    token = parts["t"]
    signed, _, signature = token.rpartition(".")
    raw = unb64url(signature)
    assert len(raw) == 64
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        key.verify(der, signed.encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID token's signature does not verify with the public key") from None
    header, claims = (json.loads(unb64url(part)) for part in signed.split("."))
    assert header == {"typ": "JWT", "alg": "ES256"}
    return claims
