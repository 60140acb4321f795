"""The web client's one page. Everything else happens in the browser, over the public API,
so the client can do nothing a third-party frontend could not."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from accounts import languages
from accounts.models import User
from core import csp
from games import selectors as games_selectors
from games.rules import fairness

from . import catalogues, manifest
from .finders import renderers

FAVICON = Path(__file__).resolve().parent / "static" / "web" / "favicon.ico"
SERVICE_WORKER = Path(__file__).resolve().parent / "worker" / "sw.js"
OFFLINE_SCRIPT = Path(__file__).resolve().parent / "static" / "web" / "offline.js"
OFFLINE_STYLE = Path(__file__).resolve().parent / "static" / "web" / "offline.css"
# The longest pause of the offline page's script between two tries, in seconds
# (offline.js's LONGEST_PAUSE_MS): its page carries the sentence for each whole second up
# to it.
OFFLINE_PAUSE_MAX_SECONDS = 15


@require_safe
def shell(request: HttpRequest, code: str | None = None, username: str | None = None) -> HttpResponse:
    """The HTML shell for `/`, `/join/<code>` (and `/rooms/<code>`, where notices link) and
    `/notifications`, `/confirm-email`, `/replay/<code>`, `/players/<username>` and
    `/leaderboard`; the script reads the page from the path."""
    # The API root comes from the URL conf, so the client never hard-codes where the API lives.
    api_root = reverse("games").removesuffix("games/")
    # The games whose renderer the client imports (web/static/web/games/index.js).
    game_renderers = " ".join(renderers())
    reader = request.user if isinstance(request.user, User) else None
    invite = games_selectors.invite_of(code=code, user=reader) if code else None
    context = {
        # Who invites to what, for the invite page of `/join/<code>` (empty for no such room).
        "invite_game": invite[0] if invite else "",
        "invite_host": invite[1] if invite else "",
        "api_root": api_root,
        "room_code": code or "",
        "game_renderers": game_renderers,
        # What the leaderboard asks of a player, for its empty state to say.
        "leaderboard_min": settings.LEADERBOARD_MIN_MATCHES,
        # Each language's name, direction and catalogue (web/static/web/language.js).
        "languages": catalogues.shell_languages(),
    }
    return render(request, "web/index.html", context)


@require_safe
def fair_deals(request: HttpRequest) -> HttpResponse:
    """`/fair-deals`: how the deals are made fair and how anyone can check one, in words
    for players (the table's Fair deal box links here), with the algorithm's recipe for
    those who program. A page of the site's own, readable without the client's script."""
    context = {"algorithm": fairness.ALGORITHM, "algorithm_v1": fairness.ALGORITHM_V1}
    return render(request, "web/fair_deals.html", context)


@cache
def _favicon_bytes() -> bytes:
    return FAVICON.read_bytes()


@require_safe
@cache_control(public=True, max_age=7 * 24 * 3600)
def favicon(request: HttpRequest) -> HttpResponse:
    """`/favicon.ico`: browsers ask for it at the site's root whatever the page links, and
    anything that is not a page (the API's docs, a JSON answer) gets no <link rel=icon>."""
    return HttpResponse(_favicon_bytes(), content_type="image/x-icon")


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """`/sw.js`: the push notices' service worker. A worker's scope can be no wider than the
    folder of its script unless the answer allows it, so it is served from the site's root,
    with `Service-Worker-Allowed: /` saying so outright. `no-cache`: a browser asks again
    before using a copy, so a new version reaches everyone at their next visit. Read at
    each request (a few kilobytes, asked for rarely), so an edit shows without a restart."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
@cache_control(public=True, max_age=3600)
def web_manifest(request: HttpRequest, language: str | None = None) -> HttpResponse:
    """`/manifest/<language>.webmanifest`, which every page of that language links: the
    web client as an installable app (web/manifest.py), its words in that language; 404
    for a language the server does not speak. `/manifest.webmanifest`, the address pages
    linked before there was one per language, answers in the request's language. Cached
    for an hour: browsers read it again now and then to update an installed app."""
    if language is None:
        language = languages.supported(translation.get_language()) or settings.LANGUAGE_CODE
    elif language not in languages.codes():
        raise Http404
    return JsonResponse(manifest.manifest(language), content_type="application/manifest+json")


def offline_words() -> dict[str, Any]:
    """What the offline page's script writes, in the request's language. The script can
    import no catalogue, and must be the same text in every language (the page's policy
    names it by its hash), so the page carries its words as data (offline.html)."""
    return {
        "noServer": _("The server cannot be reached right now."),
        "noNetwork": _("This device has no network connection, so the tables cannot be reached."),
        "connected": _("Connected again. Opening the page…"),
        "trying": _("Trying again…"),
        # By the whole seconds until the next try.
        "waiting": {
            str(seconds): ngettext(
                "Still offline. Trying again in %(seconds)s second.",
                "Still offline. Trying again in %(seconds)s seconds.",
                seconds,
            )
            % {"seconds": seconds}
            for seconds in range(1, OFFLINE_PAUSE_MAX_SECONDS + 1)
        },
    }


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """`/offline`: the page the service worker keeps and shows in place of any page it
    cannot fetch, so that the app opened without a network says so in its own words and
    tries again, never the browser's error page. It must work with nothing else at hand,
    so its script (web/static/web/offline.js, linted and type-checked with the client's
    modules) and its styles (offline.css) are written into the page itself, and its
    Content-Security-Policy names the two by their hashes: the worker shows the copy it
    keeps, header and all, so no nonce of one request would do. `no-cache`: the worker's
    copy is fetched afresh, never from an older one in the browser's cache. Read at each
    request, as the worker is. Its words are the request's language's; the script's own
    come as data beside it (`offline_words`)."""
    script = OFFLINE_SCRIPT.read_text(encoding="utf-8")
    style = OFFLINE_STYLE.read_text(encoding="utf-8")
    context = {"script": script, "style": style, "words": offline_words()}
    response = render(request, "web/offline.html", context)
    response["Cache-Control"] = "no-cache"
    return csp.with_policy(response, script_src=[csp.hash_source(script)], style_src=[csp.hash_source(style)])
