from django.apps import AppConfig


class GrantsConfig(AppConfig):
    name = "grants"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Apps and personal tokens"

    def ready(self) -> None:
        from oauth2_provider.models import get_application_model

        from .redirect_uris import application_allowed_schemes

        # RFC 8252 redirects for every app (grants.redirect_uris says why it is set here).
        get_application_model().get_allowed_schemes = application_allowed_schemes
