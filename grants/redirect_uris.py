"""Where an app's authorization answer may be sent, as RFC 8252 §7 allows a native app,
whatever DEBUG says:

- `https` to any host;
- a private-use URI scheme in reverse-domain form, with a dot (`com.example.app:/callback`,
  §7.1), which only the app that owns the domain should claim;
- `http` to a loopback address literal, `127.0.0.1` or `[::1]`, on any port (§7.3): the
  toolkit matches such a redirect whatever port the request names, so the app may listen
  on the one the system gave it. Not `localhost` (§8.3: a name may resolve elsewhere).

`OAUTH_REDIRECT_SCHEMES` (settings) may add schemes allowed to any host (`http` for
development). The toolkit's hook for this is `Application.get_allowed_schemes()`, meant to
be overridden by a swapped-in Application model; the apps' table, its tokens' keys and the
moderators' permissions already rest on the toolkit's own model, so `GrantsConfig.ready()`
sets the method on it instead (`allowed_schemes` below), and both the model's validation
(the admin, `grants.services`) and the authorize page's redirect ask it.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from oauth2_provider.settings import oauth2_settings

# RFC 3986 §3.1's scheme characters, with at least one dot (a reversed domain name).
PRIVATE_USE_SCHEME = re.compile(r"^[a-z][a-z0-9+\-]*(\.[a-z0-9+\-]+)+$")
LOOPBACK_HOSTS = ("127.0.0.1", "::1")
# Schemes a web page could be sent to as well as an app: never private-use ones.
WEB_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp", "file", "data", "javascript"})


def is_loopback(uri: str) -> bool:
    """`http` to a loopback address literal, the only plain `http` RFC 8252 allows."""
    parts = urlsplit(uri)
    return parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS


def is_private_use(scheme: str) -> bool:
    return scheme not in WEB_SCHEMES and bool(PRIVATE_USE_SCHEME.match(scheme))


def allowed_schemes(redirect_uris: str) -> list[str]:
    """The schemes redirects to `redirect_uris` (space-separated) may use: `https`, the
    deployment's extra ones, each private-use scheme those URIs name, and `http` when
    every `http` URI among them is a loopback one (else `http` is refused to all of them,
    which is what the model's validation says of the one that is not)."""
    schemes = ["https", *oauth2_settings.ALLOWED_REDIRECT_URI_SCHEMES]
    uris = redirect_uris.split()
    used = {urlsplit(uri).scheme for uri in uris}
    schemes += sorted(scheme for scheme in used if is_private_use(scheme))
    plain = [uri for uri in uris if urlsplit(uri).scheme == "http"]
    if plain and all(is_loopback(uri) for uri in plain):
        schemes.append("http")
    return list(dict.fromkeys(schemes))


def application_allowed_schemes(application: Any) -> list[str]:
    """`Application.get_allowed_schemes`, per application (see the module's docstring)."""
    return allowed_schemes(application.redirect_uris)


def refusal(error: ValidationError) -> str:
    """The toolkit's refusal of one redirect URI, said in the request's language: its
    own message is English, marked for no catalogue, and names the cause in its words
    ("redirect uri URI Validation error. invalid_scheme: …")."""
    params = error.params or {}
    uri = str(params.get("value", ""))
    cause = params.get("cause")
    if not uri:
        return gettext("An app needs at least one redirect URI.")
    if cause == "invalid_scheme":
        return gettext(
            "%(uri)s: an app may be sent to https, to a private-use scheme in reverse-domain form "
            "(com.example.app:/callback), or to http on 127.0.0.1 or [::1] only."
        ) % {"uri": uri}
    if cause == "fragment not allowed":
        return gettext("%(uri)s: a redirect URI may not have a fragment (#…).") % {"uri": uri}
    if cause == "missing host":
        return gettext("%(uri)s: it names no host.") % {"uri": uri}
    return gettext("%(uri)s: it is not a valid URI.") % {"uri": uri}
