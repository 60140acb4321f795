"""The generated operations this package's own calls go through, found by operation id
(stable within v1), and their request bodies given as JSON: a generated operation only
asks its body for `to_dict()`, so the body is sent as the document's JSON without naming
its component (which the document may rename, or split into a union by game)."""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any


@cache
def operation(tag: str, operation_id: str) -> ModuleType:
    """The generated module of the operation `operation_id`, under its tag."""
    return importlib.import_module(f"gameserver_client.generated.api.{tag}.{operation_id}")


class JsonBody:
    """A request body, as the JSON the document describes."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def to_dict(self) -> dict[str, Any]:
        return self.data


def body(module: ModuleType, data: dict[str, Any]) -> JsonBody:
    del module  # every operation takes its body the same way
    return JsonBody(data)
