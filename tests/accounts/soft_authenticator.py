"""A passkey authenticator in software, for tests over HTTP: it makes an ES256 key pair
per credential and answers WebAuthn options as a browser's `PublicKeyCredential.toJSON()`
would (attestation "none"), so the server's checks run on real signatures. The browser
tests use Chromium's own virtual authenticator instead."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

FLAG_UP, FLAG_UV, FLAG_BE, FLAG_BS, FLAG_AT = 0x01, 0x04, 0x08, 0x10, 0x40


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Credential:
    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    sign_count: int = 0


@dataclass
class SoftAuthenticator:
    origin: str = "http://testserver"
    # Whether it verifies its person (a PIN, a fingerprint) when asked.
    verifies: bool = True
    # Synced passkeys keep no counter (0 each time); security keys count up.
    counts: bool = True
    credentials: list[Credential] = field(default_factory=list)

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        return json.dumps(data).encode()

    def _flags(self, *, uv_asked: bool) -> int:
        return FLAG_UP | (FLAG_UV if self.verifies and uv_asked else 0)

    def create(self, options: dict[str, Any], *, origin: str | None = None) -> dict[str, Any]:
        """The answer to `navigator.credentials.create()` with `options` (JSON form)."""
        rp_id = options["rp"]["id"]
        user_handle = unb64(options["user"]["id"])
        excluded = {unb64(c["id"]) for c in options.get("excludeCredentials", [])}
        if any(c.id in excluded for c in self.credentials):
            raise ValueError("InvalidStateError: this authenticator holds an excluded credential")
        key = ec.generate_private_key(ec.SECP256R1())
        numbers = key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        credential = Credential(id=secrets.token_bytes(32), key=key, rp_id=rp_id, user_handle=user_handle)
        self.credentials = [c for c in self.credentials if not (c.rp_id == rp_id and c.user_handle == user_handle)]
        self.credentials.append(credential)
        uv = options.get("authenticatorSelection", {}).get("userVerification") != "discouraged"
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest()
            + bytes([self._flags(uv_asked=uv) | FLAG_AT])
            + struct.pack(">I", 0)
            + bytes(16)  # AAGUID: none given
            + struct.pack(">H", len(credential.id))
            + credential.id
            + cbor2.dumps(cose)
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return {
            "id": b64(credential.id),
            "rawId": b64(credential.id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64(client_data),
                "attestationObject": b64(attestation),
                "transports": ["internal"],
            },
        }

    def get(
        self, options: dict[str, Any], *, origin: str | None = None, credential: Credential | None = None
    ) -> dict[str, Any]:
        """The answer to `navigator.credentials.get()` with `options` (JSON form), by the
        person's passkey for the site (or `credential`)."""
        rp_id = options["rpId"]
        chosen = credential or next(c for c in reversed(self.credentials) if c.rp_id == rp_id)
        if self.counts:
            chosen.sign_count += 1
        auth_data = (
            hashlib.sha256(chosen.rp_id.encode()).digest()
            + bytes([self._flags(uv_asked=options.get("userVerification") != "discouraged")])
            + struct.pack(">I", chosen.sign_count if self.counts else 0)
        )
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = chosen.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(chosen.id),
            "rawId": b64(chosen.id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64(client_data),
                "authenticatorData": b64(auth_data),
                "signature": b64(signature),
                "userHandle": b64(chosen.user_handle),
            },
        }
