"""OAuth2's authorization code flow with PKCE (RFC 7636, `S256` only, as the server
requires) for an app acting for a player: make a verifier and its challenge, send the
person to the authorize URL, trade the code that comes back for tokens, and refresh
them (the refresh token works once: each refresh answers a new pair).

The OAuth endpoints (`/oauth/authorize/`, `/oauth/token/`) are django-oauth-toolkit's,
outside the OpenAPI document; their answers are OAuth's own (RFC 6749)."""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx

from gameserver_client.retries import RetryAfterTransport


def new_verifier() -> str:
    """A code verifier: 64 characters of RFC 7636's unreserved set (43 to 128 allowed)."""
    return secrets.token_urlsafe(48)


def challenge_of(verifier: str) -> str:
    """The `S256` challenge: base64url of the verifier's SHA-256, without padding."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class Authorization:
    """What to keep while the person is away at `url`: the verifier and the state."""

    url: str
    verifier: str
    state: str


def authorize(
    base_url: str, *, client_id: str, redirect_uri: str, scopes: Iterable[str] = ("read", "play")
) -> Authorization:
    """Where to send the person in their browser; they come back to `redirect_uri` with
    `?code=…&state=…` (check the state is this one's) or `?error=access_denied`."""
    verifier, state = new_verifier(), secrets.token_urlsafe(16)
    query = urlencode(
        {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect_uri,
            "scope": " ".join(scopes),
            "state": state,
            "code_challenge": challenge_of(verifier),
            "code_challenge_method": "S256",
        }
    )
    return Authorization(f"{base_url.rstrip('/')}/oauth/authorize/?{query}", verifier, state)


@dataclass(frozen=True)
class OAuthTokens:
    access_token: str
    refresh_token: str | None
    expires_in: int
    scope: str
    token_type: str


class OAuthError(Exception):
    """OAuth's error answer: `error` is RFC 6749's code (`invalid_grant`, …)."""

    def __init__(self, status: int, error: str, description: str) -> None:
        super().__init__(f"{status} {error}: {description}")
        self.status, self.error, self.description = status, error, description


def _token_request(base_url: str, form: dict[str, str], http: httpx.Client | None) -> OAuthTokens:
    client = http or httpx.Client(transport=RetryAfterTransport(), timeout=30)
    try:
        res = client.post(f"{base_url.rstrip('/')}/oauth/token/", data=form)
    finally:
        if http is None:
            client.close()
    body: Any = res.json() if res.headers.get("content-type", "").startswith("application/json") else {}
    if res.status_code != 200 or "access_token" not in body:
        raise OAuthError(res.status_code, str(body.get("error", "unknown")), str(body.get("error_description", "")))
    return OAuthTokens(
        access_token=body["access_token"],
        refresh_token=body.get("refresh_token"),
        expires_in=int(body.get("expires_in", 0)),
        scope=str(body.get("scope", "")),
        token_type=str(body.get("token_type", "Bearer")),
    )


def exchange_code(
    base_url: str, *, client_id: str, redirect_uri: str, code: str, verifier: str, http: httpx.Client | None = None
) -> OAuthTokens:
    """The code the browser came back with, for tokens (within 60 seconds: codes expire)."""
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri,
        "client_id": client_id,
        "code_verifier": verifier,
    }
    return _token_request(base_url, form, http)


def refresh(base_url: str, *, client_id: str, refresh_token: str, http: httpx.Client | None = None) -> OAuthTokens:
    """A new pair for the refresh token, which is spent: keep the new one."""
    form = {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": client_id}
    return _token_request(base_url, form, http)
