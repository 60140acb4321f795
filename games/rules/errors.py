"""The one exception type the engines raise for anything a player may not do, and what
its detail may quote of an action (`shown_name`, the API's rule too, kept in core)."""

from __future__ import annotations

from core.errors import shown_name

__all__ = ["RuleError", "shown_name"]


class RuleError(Exception):
    """An action the rules refuse, with a stable machine code and a sentence for people.

    The code is part of the public API (see the error list in the OpenAPI description);
    the detail must never reveal hidden information (another player's cards, a partner).
    """

    def __init__(self, code: str, detail: str, attr: str | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.attr = attr

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.detail!r})"
