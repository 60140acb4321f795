from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GrantsConfig(AppConfig):
    name = "grants"
    default_auto_field = "django.db.models.BigAutoField"
    # The admin's heading, in the moderator's language.
    verbose_name = _("Apps and personal tokens")

    def ready(self) -> None:
        from oauth2_provider.models import get_application_model

        from .redirect_uris import application_allowed_schemes

        # RFC 8252 redirects for every app (grants.redirect_uris says why it is set here).
        get_application_model().get_allowed_schemes = application_allowed_schemes
