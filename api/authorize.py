"""The authorize page's Content-Security-Policy (docs/operations/security.md).

The site's policy lets a form post only to the site (`form-action 'self'`), and Chromium
holds the redirects that follow a form's POST to it too. The authorize page's "Allow"
and "Deny" post to the site, which answers with a redirect to the app (`redirect_uri`,
another site, a loopback port or a private-use scheme): so the page's policy names that
redirect's origin as well, once the toolkit has checked it against the app's registered
ones. The sign-in page before it does the same for an authorize request it leads back
to, which redirects at once to the app when no question is asked (an app that skips the
authorization, or `approval_prompt=auto` with a grant already given).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from django.http import HttpResponse
from django.urls import reverse
from oauth2_provider import views as oauth_views
from oauth2_provider.models import get_application_model

from core import csp


class AuthorizationView(oauth_views.AuthorizationView):
    def render_to_response(self, context: dict[str, Any], **response_kwargs: Any) -> HttpResponse:
        response = super().render_to_response(context, **response_kwargs)
        # Only what the GET validated (`oauth2_data`); a POST's own fields are not trusted.
        source = csp.source_for_uri(getattr(self, "oauth2_data", {}).get("redirect_uri") or "")
        return csp.with_sources(response, form_action=[source]) if source else response


def redirect_source(next_url: str) -> str | None:
    """The source of the app's redirect an authorize request (`next_url`, a path on the
    site) would send a person to, when it names an app and one of its redirect URIs."""
    parts = urlsplit(next_url)
    if parts.scheme or parts.netloc or parts.path != reverse("oauth2_provider:authorize"):
        return None
    query = parse_qs(parts.query)
    client_id = (query.get("client_id") or [""])[0]
    application = get_application_model().objects.filter(client_id=client_id).first() if client_id else None
    if application is None:
        return None
    # Without one, the request means the app's one registered redirect.
    uris = application.redirect_uris.split()
    redirect_uri = (query.get("redirect_uri") or [""])[0] or (uris[0] if len(uris) == 1 else "")
    if not redirect_uri or not application.redirect_uri_allowed(redirect_uri):
        return None
    return csp.source_for_uri(redirect_uri)
