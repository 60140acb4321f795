"""The toolkit's scopes backend: an app a person registered may ask only for the scopes
it was registered with (grants.models.AppScopeLimit); more is `invalid_scope` at the
authorize step. An app the operator registered may ask for every scope."""

from __future__ import annotations

from typing import Any

from oauth2_provider.scopes import SettingsScopes

from .models import AppScopeLimit


class AppScopes(SettingsScopes):
    def get_available_scopes(
        self, application: Any = None, request: Any = None, *args: Any, **kwargs: Any
    ) -> list[str]:
        every: list[str] = list(super().get_available_scopes(application, request, *args, **kwargs))
        if application is None:
            return every
        limit = AppScopeLimit.objects.filter(application=application).first()
        if limit is None:
            return every
        allowed = set(limit.scope.split())
        return [scope for scope in every if scope in allowed]

    def get_default_scopes(self, application: Any = None, request: Any = None, *args: Any, **kwargs: Any) -> list[str]:
        """The deployment's default scopes the app may have, or else all it may have: a
        request naming no scope never asks for one beyond the app's."""
        available = self.get_available_scopes(application, request)
        defaults = [s for s in super().get_default_scopes(application, request, *args, **kwargs) if s in available]
        return defaults or available
