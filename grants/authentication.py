"""`Authorization: Bearer <token>`: an app's OAuth2 access token or a personal token,
each doing only what its scopes allow, or the account's own token (all it may do).

The scope is checked here, as the token is read, rather than by a permission class: a
view that lets anyone in (`AllowAny`) replaces the default permissions, and the check
must not depend on each view remembering it.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts.authentication import TokenAuthentication, banned
from accounts.models import User
from accounts.selectors import SignInRef

from . import scopes, selectors, services

ACCOUNT_TOKEN = TokenAuthentication()


class InsufficientScope(exceptions.APIException):
    status_code = 403
    default_code = "insufficient_scope"
    default_detail = gettext_lazy("This token's scopes do not allow this.")


class BearerAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[User, selectors.Grant | SignInRef | None] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("Invalid bearer header: one token, no spaces."))
        try:
            key = header[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(_("Invalid bearer token.")) from None
        grant = selectors.grant_for_bearer(key=key)
        if grant is None:
            # The account's own token, as a bearer: what generated clients send (the
            # document declares it so), doing all that `Token <key>` does.
            return ACCOUNT_TOKEN.authenticate_credentials(key)
        if not grant.user.is_active:
            if grant.user.banned_at is not None:
                raise banned(grant.user.ban_reason, grant.user.pk)
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        view = (request.parser_context or {}).get("view")
        needed = scopes.required_scope(view, request.method or "GET")
        if needed is None:
            raise InsufficientScope(_("Only the player themselves can do this, not an app's token."))
        if needed not in grant.scopes:
            # Translators: the scope is its name, as the API writes it (read, play, ...).
            raise InsufficientScope(_("This needs the token's `%(scope)s` scope.") % {"scope": needed})
        if grant.kind == "personal":
            services.personal_token_used(token_id=grant.id, last_used_at=grant.last_used_at)
        return grant.user, grant

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


def socket_grant(key: str, scope: str = scopes.READ) -> selectors.Grant | None:
    """The grant of a bearer token with `scope` for an active account, on a socket; else
    None. Its `expires` is when the socket's credential ends by itself."""
    grant = selectors.grant_for_bearer(key=key)
    if grant is None or not grant.user.is_active or scope not in grant.scopes:
        return None
    if grant.kind == "personal":
        services.personal_token_used(token_id=grant.id, last_used_at=grant.last_used_at)
    return grant
