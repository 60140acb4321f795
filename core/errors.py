"""The errors every app raises to refuse a request, and the catalogues of their codes.

A service refuses with a `ServiceError`: a stable code, a sentence for people, an HTTP
status and, for a bad field, `attr` naming it. The API turns it into its one error
shape. Each app declares the codes it answers in a `Catalogue` of its own; the API puts
them together for its OpenAPI description (api/error_catalogue.py), refusing a code that
two apps declare.

Plain Python, no Django: the engines share `shown_name` with the API's parser.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence


class ServiceError(Exception):
    def __init__(
        self, code: str, detail: str, status: int = 400, attr: str | None = None, *, retry_after: int | None = None
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status
        self.attr = attr
        # Seconds until asking again can succeed: the answer's Retry-After header.
        self.retry_after = retry_after
        # Every sentence of the refusal: one error each in the answer (see `several`).
        self.details: tuple[str, ...] = (detail,)

    @classmethod
    def several(cls, code: str, details: Sequence[str], attr: str) -> ServiceError:
        """One refusal of a field for several reasons (a password too short and too
        common), answered as one error per reason, each with the code and `attr`."""
        err = cls(code, details[0], 400, attr)
        err.details = tuple(details)
        return err


class Catalogue(Mapping[str, tuple[int, str]]):
    """The codes one app answers with: code -> (HTTP status, meaning for the docs)."""

    def __init__(self, owner: str, codes: Mapping[str, tuple[int, str]]) -> None:
        self.owner = owner
        self._codes = dict(codes)

    def __getitem__(self, code: str) -> tuple[int, str]:
        return self._codes[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._codes)

    def __len__(self) -> int:
        return len(self._codes)

    def __repr__(self) -> str:
        return f"Catalogue({self.owner!r}, {len(self)} codes)"

    @classmethod
    def combined(cls, owner: str, catalogues: Iterable[Catalogue]) -> Catalogue:
        """Every code of `catalogues`, ordered by status, and within a status as the
        catalogues and their codes come. A code that two declare is refused: one code has
        one status and one meaning."""
        owners: dict[str, str] = {}
        codes: dict[str, tuple[int, str]] = {}
        for catalogue in catalogues:
            for code, entry in catalogue.items():
                if code in owners:
                    raise ValueError(f"error code {code!r} is declared by both {owners[code]} and {catalogue.owner}")
                owners[code] = catalogue.owner
                codes[code] = entry
        return cls(owner, dict(sorted(codes.items(), key=lambda item: item[1][0])))


# Codes of no one app: the refusals of a field that every app's services and serializers
# answer, an unknown object, and a write that could not be made now.
SHARED_CODES = Catalogue(
    "core",
    {
        "invalid": (
            400,
            "A field has a wrong value or type, or an action carries a field its type does not define (attr names it).",
        ),
        "required": (400, "A required field is missing (attr names it)."),
        "not_a_dict": (400, "A field that must be an object is not one (attr names it)."),
        "not_a_list": (400, "A field that must be a list is not one (attr names it)."),
        "null": (400, "A field that may not be null is null (attr names it)."),
        "blank": (400, "A field that may not be empty is empty (attr names it)."),
        "max_length": (400, "A field is longer than it may be (attr names it)."),
        "min_length": (400, "A field is shorter than it must be (attr names it)."),
        "not_found": (
            404,
            "No such room, no such player, no such push subscription of yours, or nothing at this address (a "
            "room code that cannot exist included).",
        ),
        "server_busy": (
            503,
            "No room code could be allocated, or a push subscription could not be stored; retry.",
        ),
    },
)


def shown_name(value: object) -> str | None:
    """`value` when it reads as a field name, so that an error may name it; else None.

    Details and `attr` never quote input that could be anything (a megabyte, a control
    character): they name what the client sent only once it is plainly a name.
    """
    if isinstance(value, str) and value.isascii() and value.isidentifier() and len(value) <= 40:
        return value
    return None
