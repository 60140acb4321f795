"""What a player may let an app or a personal token do: the scopes, in plain words, and
how an API view declares the scope each of its methods needs.

The project's own token (the web client's) and the session are the player themselves and
do everything; an OAuth2 access token or a personal token does only what its scopes
allow. A method that declares no scope (changing the account, managing tokens) is theirs
alone: no app token reaches it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

READ = "read"
PLAY = "play"
NOTIFICATIONS = "notifications"

# scope -> what it lets an app do, as the authorize page and the settings page say it.
SCOPES: dict[str, str] = {
    READ: "See rooms, game states, events and your profile",
    PLAY: "Play for you: make moves, create rooms, join, leave, get ready, reclaim a seat, ask for a rematch",
    NOTIFICATIONS: "See and change your notification settings and push subscriptions",
}

# The methods a view may declare; HEAD and OPTIONS need what GET needs.
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")

View = TypeVar("View", bound=type)


def scopes(**by_method: str | None) -> Callable[[View], View]:
    """Declare the scope each method of an API view needs from an app's token, e.g.
    `@scopes(GET=READ, POST=PLAY)`; `None` keeps a method to the player's own sign-in.

    A view must name every method it serves (a test checks): a method it leaves out is
    refused to every app token, so forgetting one never opens it.
    """
    for method, scope in by_method.items():
        if method not in METHODS:
            raise ValueError(f"not an HTTP method a view declares: {method!r}")
        if scope is not None and scope not in SCOPES:
            raise ValueError(f"unknown scope {scope!r}")

    def mark(view: View) -> View:
        missing = [m for m in by_method if not hasattr(view, m.lower())]
        if missing:
            raise ValueError(f"{view.__name__} serves no {missing}")
        view.required_scopes = dict(by_method)  # type: ignore[attr-defined]
        return view

    return mark


def required_scope(view: Any, method: str) -> str | None:
    """The scope `method` of `view` needs, or None when no app token may call it."""
    declared: dict[str, str | None] = getattr(view, "required_scopes", {})
    if method in ("HEAD", "OPTIONS"):
        method = "GET"
    return declared.get(method)


def parse(value: str) -> frozenset[str]:
    """The scopes of a space-separated list, as OAuth2 writes them."""
    return frozenset(value.split())
