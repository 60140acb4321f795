"""The API's documentation page (`/api/docs/`): drf-spectacular's Swagger UI, whose page
gives its scripts and styles the request's nonce (api/templates/api/swagger_ui.html)
under the site's Content-Security-Policy."""

from __future__ import annotations

from drf_spectacular.views import SpectacularSwaggerView


class SwaggerView(SpectacularSwaggerView):
    template_name = "api/swagger_ui.html"
