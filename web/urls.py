from django.urls import path

from . import catalogues, views

urlpatterns = [
    path("", views.shell, name="web-home"),
    # The invite link the API hands out (`invite_url`) is also the table's own address.
    path("join/<str:code>", views.shell, name="web-join"),
    # Notices (push and e-mail) link to a room as /rooms/<code>: the same page.
    path("rooms/<str:code>", views.shell, name="web-room"),
    path("notifications", views.shell, name="web-notifications"),
    # The link mailed to confirm an e-mail address; its token follows the "#".
    path("confirm-email", views.shell, name="web-confirm-email"),
    # The link mailed to reset a forgotten password; its token, too, follows the "#".
    path("reset-password", views.shell, name="web-reset-password"),
    # A finished match's replay (web/static/web/replay.js).
    path("replay/<str:code>", views.shell, name="web-replay"),
    path("players/<str:username>", views.shell, name="web-player"),
    path("leaderboard", views.shell, name="web-leaderboard"),
    # How a deal is shown to be fair, and how to check one (linked from the Fair deal box).
    path("fair-deals", views.fair_deals, name="web-fair-deals"),
    path("favicon.ico", views.favicon, name="favicon"),
    # The client's words in one language (web/catalogues.py), at an address naming its version.
    path("i18n/<str:language>/<str:version>.json", catalogues.Catalogue.as_view(), name="web-catalogue"),
    # The service worker's scope is the folder it is served from: the site's root.
    path("sw.js", views.service_worker, name="web-service-worker"),
    # What makes the client an installable app: its manifest, and the page its service
    # worker shows without a network.
    path("manifest/<str:language>.webmanifest", views.web_manifest, name="web-manifest"),
    path("manifest.webmanifest", views.web_manifest),
    path("offline", views.offline, name="web-offline"),
]
