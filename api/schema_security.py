"""The OpenAPI security schemes of apps' tokens: OAuth2 (authorization code with PKCE)
with its scopes, and personal access tokens; each operation lists the scope it needs
(grants.scopes)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension

from grants.scopes import SCOPES, required_scope

OAUTH2 = "oauth2"
PERSONAL = "personalToken"


class BearerScheme(OpenApiAuthenticationExtension):
    target_class = "grants.authentication.BearerAuthentication"
    name = [OAUTH2, PERSONAL]

    def get_security_requirement(self, auto_schema: Any) -> list[dict[str, list[Any]]]:
        scope = required_scope(auto_schema.view, auto_schema.method)
        if scope is None:
            return []  # the player's own: no app token is accepted
        # OpenAPI 3.0 lets only OAuth2 requirements name scopes; a personal token needs the same one.
        return [{OAUTH2: [scope]}, {PERSONAL: []}]

    def get_security_definition(self, auto_schema: Any) -> list[dict[str, Any]]:
        return [
            {
                "type": "oauth2",
                "description": (
                    "For third-party apps, registered by a moderator or by a person from Settings "
                    "(`me/apps/made`): authorization code with PKCE (S256 only; public clients send no "
                    "secret). Redirects may be https, a private-use scheme (`com.example.app:/cb`) or "
                    "loopback on any port (`http://127.0.0.1:PORT/`), as RFC 8252 has them. Send the access "
                    "token as `Authorization: Bearer <token>`. A token without the operation's scope is "
                    "refused with 403 `insufficient_scope`. A refresh token is used once and rotated; sent "
                    "again within `OAUTH_REFRESH_REPLAY_GRACE_SECONDS` (120 by default) of its first use, "
                    "it gets the same new pair (a retry whose answer was lost), and after that, or once the "
                    "new refresh token has been used, the replay is refused `invalid_grant` and the whole "
                    "family of tokens ends."
                ),
                "flows": {
                    "authorizationCode": {
                        "authorizationUrl": "/oauth/authorize/",
                        "tokenUrl": "/oauth/token/",
                        "refreshUrl": "/oauth/token/",
                        "scopes": dict(SCOPES),
                    }
                },
            },
            {
                "type": "http",
                "scheme": "bearer",
                "description": (
                    "A personal access token the player made (`POST me/tokens`, starting `pat_`), as "
                    "`Authorization: Bearer <token>`. It has scopes as OAuth2 tokens do, and needs the scope "
                    "the operation's `oauth2` requirement names."
                ),
            },
        ]


class AccountTokenScheme(OpenApiAuthenticationExtension):
    """The account's own token, declared as a bearer token so that generated clients send
    what the server reads; `Token <key>` (DRF's keyword, the web client's) works as well."""

    target_class = "accounts.authentication.TokenAuthentication"
    name = "tokenAuth"
    priority = 1

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "The account's own token (`POST auth/token`, `auth/register` or `auth/guest`): "
                "`Authorization: Bearer <token>`, or `Authorization: Token <token>`. It does all the account may."
            ),
        }


class AccountSessionScheme(SessionScheme):
    """A signed-in browser's session (accounts.authentication.SessionAuthentication), the
    cookie drf-spectacular declares for DRF's own."""

    target_class = "accounts.authentication.SessionAuthentication"
