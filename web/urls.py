from django.urls import path

from . import views

urlpatterns = [
    path("", views.shell, name="web-home"),
    # The invite link the API hands out (`invite_url`) is also the table's own address.
    path("join/<str:code>", views.shell, name="web-join"),
    path("favicon.ico", views.favicon, name="favicon"),
]
