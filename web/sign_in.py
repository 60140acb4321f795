"""Signing in on the site itself, for the one page that needs a session: an app's
authorize page (README "Third-party apps"). The web client signs in over the API."""

from __future__ import annotations

from django.contrib.auth.views import LoginView


class SignInView(LoginView):
    template_name = "web/sign_in.html"
    # Only to the page that asked (the authorize page), never elsewhere on another site.
    redirect_authenticated_user = True
