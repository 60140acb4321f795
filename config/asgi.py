"""ASGI entry point: HTTP through Django, WebSockets (`/ws/…`) through Channels.

Production serves only the WebSockets here (HTTP stays on gunicorn's WSGI workers,
which are faster for the API); development's runserver serves both.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from api import daphne_bodies, daphne_close_reason  # noqa: E402
from api.http_requests import ApiASGIRequest  # noqa: E402
from api.routing import websocket_urlpatterns  # noqa: E402
from api.socket_limits import HandshakeGate  # noqa: E402
from api.ws_auth import token_or_session_auth  # noqa: E402
from core import metrics  # noqa: E402

# daphne serves every socket here (the `daphne` command, runserver, Channels' live
# server); loaded before it serves one, its closes carry their reasons.
daphne_close_reason.install()
# daphne hands multipart bodies to Django as sent, unparsed (api/daphne_bodies.py).
daphne_bodies.install()
# A Content-Type Django cannot read is the API's 400, not a 500 (api/http_requests.py).
django_asgi.request_class = ApiASGIRequest

# The live values (sockets open) of socket processes gone before this one, and this
# one's own once it exits, leave the machine's figures (docs/operations/metrics.md).
metrics.forget_dead_processes()

if settings.UPTIME_ASGI_BEATS:
    # Development's server answers the API here: it speaks for it in the heartbeat.
    from uptime import heartbeat

    heartbeat.start()

application = ProtocolTypeRouter(
    {
        "http": django_asgi,
        # The origin is checked where it matters, for sockets that use the session (api/ws_auth.py).
        # Outermost, the gate of the handshakes a socket process takes at once (api/socket_limits.py).
        "websocket": HandshakeGate(token_or_session_auth(URLRouter(websocket_urlpatterns))),
    }
)
