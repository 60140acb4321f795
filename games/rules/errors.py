"""The one exception type the engines raise for anything a player may not do."""


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


def shown_name(value: object) -> str | None:
    """`value` when it reads as a field name, so that an error may name it; else None.

    Details and `attr` never quote input that could be anything (a megabyte, a control
    character): they name what the client sent only once it is plainly a name.
    """
    if isinstance(value, str) and value.isascii() and value.isidentifier() and len(value) <= 40:
        return value
    return None
