from django.urls import re_path

from .consumers import RoomConsumer, UnknownSocketConsumer, UserConsumer

# Each path with or without its trailing slash; anything else is closed with 4404
# (api/consumers.py) rather than failing the handshake with an error.
websocket_urlpatterns = [
    re_path(r"^ws/rooms/(?P<code>[^/]+)/?$", RoomConsumer.as_asgi()),
    re_path(r"^ws/me/?$", UserConsumer.as_asgi()),
    re_path(r"", UnknownSocketConsumer.as_asgi()),
]
