"""A legal action made into the body that does it, by the document's one rule: a legal
action without `choices` is already a body; one with `choices` is a template, sent with
`cards`, `count` of its `choices`, in place of those two, every other field kept (Hearts'
funky pass keeps `to`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol


class _Serialisable(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


def as_dict(value: Mapping[str, Any] | _Serialisable) -> dict[str, Any]:
    """A generated model (its `to_dict()`) or a mapping, as a plain dict."""
    return dict(value) if isinstance(value, Mapping) else value.to_dict()


def is_template(legal: Mapping[str, Any] | _Serialisable) -> bool:
    return "choices" in as_dict(legal)


def body_of(
    legal: Mapping[str, Any] | _Serialisable,
    pick: Callable[[Sequence[Any], int], Sequence[Any]] | Sequence[Any] | None = None,
) -> dict[str, Any]:
    """The action body for `legal`. For a template, `pick` chooses its cards: the cards
    themselves, or a function of (choices, count); without it, the first `count`."""
    action = as_dict(legal)
    if "choices" not in action:
        return action
    choices, count = action.pop("choices"), action.pop("count")
    if pick is None:
        cards = list(choices[:count])
    elif callable(pick):
        cards = list(pick(choices, count))
    else:
        cards = list(pick)
    action["cards"] = cards
    return action
