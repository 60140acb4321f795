"""daphne hands every request body to Django as it was sent.

daphne's requests are Twisted's, which parse a POST's form body themselves before daphne
sees the request (`twisted.web.http.Request.requestReceived`): a multipart body that
does not parse (a boundary the body does not use, one RFC 2046 refuses) is answered
there, 400 with an empty body, and the connection closed, so neither the API's error
shape nor its 415 for a body that is not JSON ever came out of `make run` (gunicorn,
which parses nothing, answers what Django answers). daphne never reads what Twisted
parsed (`Request.args`); the request class here asks Twisted not to parse
(`parsePOSTFormSubmission`), and is put in the place daphne's HTTP factory builds its
requests from when the ASGI application is loaded (config/asgi.py), before any request
is served: the `daphne` command, runserver and channels' live server alike.
tests/hostile/test_multipart_asgi.py sends such bodies to a real daphne.
"""

from __future__ import annotations

from typing import Any

from daphne import http_protocol

_DAPHNE_REQUEST = http_protocol.WebRequest


class BodyAsSentRequest(_DAPHNE_REQUEST):  # type: ignore[misc,valid-type]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["parsePOSTFormSubmission"] = False
        super().__init__(*args, **kwargs)


def install() -> None:
    # daphne.http_protocol.HTTPFactory.buildProtocol reads the module's name each time.
    http_protocol.WebRequest = BodyAsSentRequest
