from django.urls import path

from .consumers import RoomConsumer, UserConsumer

websocket_urlpatterns = [
    path("ws/rooms/<str:code>/", RoomConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
]
