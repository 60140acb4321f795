"""API calls carrying a token pass the browser's middleware (api/token_calls.py); calls
signed in by their session keep it all, CSRF included."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_a_token_call_loads_no_session_and_sets_no_cookie(make_user, api_client):
    user = make_user()
    answer = api_client(user).get("/api/v1/me")
    assert answer.status_code == 200
    assert answer.json()["username"] == user.username
    request = answer.wsgi_request
    assert not hasattr(request, "session")
    assert not hasattr(request, "_messages")
    assert not answer.cookies
    assert "Cookie" not in answer.get("Vary", "")


def test_a_token_call_with_a_session_cookie_acts_for_the_token(make_user, api_client):
    """A browser signed in to the admin as one account, calling with another's token:
    the token decides, as DRF's authentication order always had it."""
    session_user, token_user = make_user(), make_user()
    client = api_client(token_user)
    client.force_login(session_user)
    answer = client.get("/api/v1/me")
    assert answer.json()["username"] == token_user.username
    assert not hasattr(answer.wsgi_request, "session")


@pytest.mark.parametrize("scheme", ["Token", "token", "Bearer", "BEARER"])
def test_a_bad_token_is_refused_without_the_session(make_user, scheme):
    client = APIClient()
    client.force_login(make_user())
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} not-a-token")
    answer = client.get("/api/v1/me")
    assert answer.status_code == 401
    assert not hasattr(answer.wsgi_request, "session")


def test_a_session_call_keeps_the_session(make_user):
    user = make_user()
    client = APIClient()
    client.force_login(user)
    answer = client.get("/api/v1/me")
    assert answer.status_code == 200
    assert answer.json()["username"] == user.username
    assert hasattr(answer.wsgi_request, "session")


def test_another_scheme_keeps_the_session(make_user):
    """`Basic` is no scheme of the API's: the session signs the call in, as before."""
    user = make_user()
    client = APIClient()
    client.force_login(user)
    client.credentials(HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz")
    answer = client.get("/api/v1/me")
    assert answer.json()["username"] == user.username


def test_a_session_post_needs_its_csrf_token(make_user):
    user = make_user()
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    refused = client.post("/api/v1/rooms/", {"game": "hearts", "options": {}}, format="json")
    assert refused.status_code == 403
    assert refused.json()["errors"][0]["code"] == "permission_denied"
    # The token a page of the site would hold: the cookie's, sent back in the header.
    page = Client(enforce_csrf_checks=True)
    page.force_login(user)
    client.cookies = page.cookies
    client.get("/admin/login/")  # a page that hands out the CSRF cookie
    token = client.cookies["csrftoken"].value
    allowed = client.post("/api/v1/rooms/", {"game": "hearts", "options": {}}, format="json", HTTP_X_CSRFTOKEN=token)
    assert allowed.status_code == 201, allowed.content


def test_a_token_post_needs_no_csrf_token(make_user, api_client):
    client = api_client(make_user())
    client.handler.enforce_csrf_checks = True
    answer = client.post("/api/v1/rooms/", {"game": "hearts", "options": {}}, format="json")
    assert answer.status_code == 201, answer.content


def test_the_web_pages_and_the_admin_keep_the_whole_stack(make_user):
    client = Client()
    client.force_login(make_user(is_staff=True, is_superuser=True))
    for path in ("/", "/admin/"):
        answer = client.get(path, HTTP_AUTHORIZATION="Token anything")
        assert answer.status_code == 200, path
        assert hasattr(answer.wsgi_request, "session"), path
        assert answer.wsgi_request.user.is_authenticated, path
