"""YAML read as yaml.safe_load reads it, by libyaml where PyYAML was built with it: the
OpenAPI document (over half a megabyte) takes two seconds in pure Python and a third of
one in C, and several test modules read it as they are collected."""

from __future__ import annotations

from typing import Any

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(text: str | bytes) -> Any:
    return yaml.load(text, Loader=_LOADER)
