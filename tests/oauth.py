"""An app as a third party writes one: registered by a moderator, it sends the player
to the authorize page with a PKCE challenge and trades the code for a token."""

from __future__ import annotations

import base64
import hashlib
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

from django.test import Client

REDIRECT_URI = "http://127.0.0.1:8765/callback"


def make_app(name: str = "Score Keeper", redirect_uri: str = REDIRECT_URI) -> Any:
    from oauth2_provider.models import get_application_model

    return get_application_model().objects.create(
        name=name,
        client_type="public",
        authorization_grant_type="authorization-code",
        redirect_uris=redirect_uri,
        skip_authorization=False,
    )


def pkce_pair() -> tuple[str, str]:
    """(verifier, S256 challenge), as RFC 7636 makes them."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def authorize_query(app: Any, challenge: str, scope: str, method: str = "S256", state: str = "st4te") -> dict[str, str]:
    return {
        "response_type": "code",
        "client_id": app.client_id,
        "redirect_uri": app.redirect_uris,
        "scope": scope,
        "state": state,
        "code_challenge": challenge,
        "code_challenge_method": method,
    }


def authorize_url(app: Any, challenge: str, scope: str, **kwargs: Any) -> str:
    return "/oauth/authorize/?" + urlencode(authorize_query(app, challenge, scope, **kwargs))


def code_from(redirect: str) -> str:
    query = parse_qs(urlparse(redirect).query)
    assert query.get("state") == ["st4te"], redirect
    return query["code"][0]


def token_form(app: Any, code: str, verifier: str) -> dict[str, str]:
    return {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": app.redirect_uris,
        "client_id": app.client_id,
        "code_verifier": verifier,
    }


def signed_in(user: Any) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def allow(browser: Client, app: Any, challenge: str, scope: str, method: str = "S256") -> Any:
    form = {**authorize_query(app, challenge, scope, method=method), "allow": "Authorize"}
    return browser.post("/oauth/authorize/", form)


def token_for(user: Any, scope: str) -> tuple[Any, str]:
    """An app and an access token it got for `user` with `scope`, through the whole flow."""
    app = make_app()
    verifier, challenge = pkce_pair()
    answer = allow(signed_in(user), app, challenge, scope)
    assert answer.status_code == 302, answer.content
    token = Client().post("/oauth/token/", token_form(app, code_from(answer["Location"]), verifier))
    assert token.status_code == 200, token.content
    return app, token.json()["access_token"]


@contextmanager
def app_listener(title: str) -> Iterator[tuple[int, list[str]]]:
    """The app's own listener on a port the system gives it, as a desktop app opens one
    for the answer (or a web app's site): it answers a page titled `title` and notes the
    path and query of every request; yields (port, those paths)."""
    received: list[str] = []
    page = f"<!doctype html><title>{title}</title><h1>You can close this tab</h1>".encode()

    class Listener(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            received.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Listener)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1], received
    finally:
        server.shutdown()
        server.server_close()
