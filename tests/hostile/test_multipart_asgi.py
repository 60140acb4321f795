"""A body the API cannot read gets the same answer in the error shape from daphne (ASGI:
`make run`, and the deployment's socket processes) as from gunicorn (WSGI): a multipart
body with a bad boundary, one whose boundary the body does not use, a Content-Type that
Django cannot read at all. daphne's Twisted used to answer the first two itself (an empty
400, api/daphne_bodies.py) and both servers answered the last with a 500 page
(api/http_requests.py)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from asgiref.testing import ApplicationCommunicator
from django.test import override_settings

from tests.servers import daphne_argv, database_url, free_port, server_env, serving

from .conftest import LOGS
from .support import Table, assert_error_shape, snapshot

BODY = b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n'

# (Content-Type, the status, the code): the same through either server.
CASES = [
    ("multipart/form-data", 400, "bad_request"),
    ("multipart/form-data; boundary=a@b", 400, "bad_request"),
    ("multipart/form-data; boundary=" + "a" * 71, 400, "bad_request"),
    # A boundary RFC 2046 allows, which the body does not use: Twisted refused it; the API
    # reads JSON only.
    ("multipart/form-data; boundary=abc", 415, "unsupported_media_type"),
    ("multipart/form-data; boundary=x", 415, "unsupported_media_type"),
    ("application/x-www-form-urlencoded", 415, "unsupported_media_type"),
    # RFC 2231 parameters naming no charset there is: Django raised as it made the request.
    ("multipart/form-data; boundary*=bogus''abc", 400, "bad_request"),
    ("application/json; charset*=nope''x", 400, "bad_request"),
    ("text/plain; charset*=nope''x", 400, "bad_request"),
]


@pytest.fixture(scope="session")
def daphne_url(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    port = free_port()
    with django_db_blocker.unblock():
        env = server_env(database_url(), DEBUG="0")
    log_path = LOGS / f"daphne-hostile-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving("daphne", daphne_argv(port), port=port, env=env, log_path=log_path) as url:
        yield url


def _answer(res: httpx.Response) -> tuple[int, str, str | None]:
    error = assert_error_shape(res)
    return res.status_code, error["code"], error["attr"]


@pytest.mark.parametrize(("content_type", "status", "code"), CASES)
def test_daphne_and_gunicorn_answer_a_body_they_cannot_read_alike(
    table: Table, daphne_url: str, content_type: str, status: int, code: str
) -> None:
    before = snapshot(table.code)
    token = table.clients[0].headers["Authorization"]
    for method, path in [("POST", table.path("actions")), ("PATCH", "/api/v1/me"), ("POST", "/api/v1/auth/token")]:
        answers = []
        for base in (table.url, daphne_url):
            with httpx.Client(base_url=base, headers={"Authorization": token}, timeout=30) as client:
                res = client.request(method, path, content=BODY, headers={"Content-Type": content_type})
            assert res.content, (base, method, path, "an empty answer")
            answers.append(_answer(res))
        assert answers[0] == answers[1], (method, path, answers)
        assert answers[0][:2] == (status, code), (method, path, answers)
        if status == 400:
            assert answers[0][2] == "Content-Type"
    assert snapshot(table.code) == before


def _asgi(path: str, content_type: str) -> tuple[int, bytes]:
    from config.asgi import application

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", content_type.encode("latin1")),
            (b"content-length", str(len(BODY)).encode()),
        ],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
    }

    async def call() -> tuple[int, bytes]:
        talk = ApplicationCommunicator(application, scope)
        await talk.send_input({"type": "http.request", "body": BODY, "more_body": False})
        start = await talk.receive_output(10)
        body = b""
        while True:
            message = await talk.receive_output(10)
            body += message.get("body", b"")
            if not message.get("more_body"):
                return start["status"], body

    return asyncio.run(call())


def _wsgi(path: str, content_type: str) -> tuple[int, bytes]:
    from io import BytesIO

    from config.wsgi import application

    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "CONTENT_TYPE": content_type,
        "CONTENT_LENGTH": str(len(BODY)),
        "wsgi.input": BytesIO(BODY),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    status: list[str] = []

    def start_response(line: str, headers: Any, exc_info: Any = None) -> Any:
        status.append(line)

    body = b"".join(application(environ, start_response))
    return int(status[0].split()[0]), body


@pytest.mark.django_db
@override_settings(ALLOWED_HOSTS=["testserver"])
@pytest.mark.parametrize(("content_type", "status", "code"), CASES)
def test_the_asgi_and_wsgi_applications_answer_alike(content_type: str, status: int, code: str) -> None:
    """The applications themselves, in this process (no server between)."""
    import json

    for path in ("/api/v1/auth/token", "/api/v1/auth/guest"):
        answers = [_asgi(path, content_type), _wsgi(path, content_type)]
        for got_status, body in answers:
            error = json.loads(body)["errors"][0]
            assert (got_status, error["code"]) == (status, code), (path, answers)
