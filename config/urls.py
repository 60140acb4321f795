from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView
from oauth2_provider import views as oauth_views

from api.authorize import AuthorizationView
from api.sign_in import AdminSignInForm, SignInView, admin_login
from api.swagger import SwaggerView
from api.views_asyncapi import asyncapi_document

# OAuth2 for third-party apps (docs/third-party-apps.md): the authorize page, the token
# and revocation endpoints; apps are registered by moderators in the admin.
oauth_urlpatterns = [
    # The toolkit's, whose page lets its form's redirect reach the app (api/authorize.py).
    path("authorize/", AuthorizationView.as_view(), name="authorize"),
    path("token/", oauth_views.TokenView.as_view(), name="token"),
    path("revoke_token/", oauth_views.RevokeTokenView.as_view(), name="revoke-token"),
]

# The admin's sign-in asks for the second step of an account that has one.
admin.site.login_form = AdminSignInForm
admin.site.login_template = "admin/moderation/login.html"

urlpatterns = [
    # The API first: it has most of the calls, and Django tries the patterns in order.
    path("api/v1/", include("api.urls")),
    # The admin's sign-in under the limits of every sign-in (api/sign_in.py), before the
    # admin's own URLs, which would answer it unlimited.
    path("admin/login/", admin_login, name="admin-login"),
    path("admin/", admin.site.urls),
    path("oauth/", include((oauth_urlpatterns, "oauth2_provider"))),
    path("oauth/login/", SignInView.as_view(), name="oauth-login"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SwaggerView.as_view(url_name="schema"), name="docs"),
    # The sockets' contract (api/asyncapi.yaml).
    path("api/asyncapi.yaml", asyncapi_document, name="asyncapi"),
    # The web client: `/` and the invite links `/join/<code>`.
    path("", include("web.urls")),
]
