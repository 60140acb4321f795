from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from api.views_asyncapi import asyncapi_document

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    # The sockets' contract (api/asyncapi.yaml).
    path("api/asyncapi.yaml", asyncapi_document, name="asyncapi"),
    # The web client: `/` and the invite links `/join/<code>`.
    path("", include("web.urls")),
]
