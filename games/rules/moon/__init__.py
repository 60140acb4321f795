"""Moon: its rules (`engine`), its computer player (`bot`), the JSON types of its
views and actions (`schema`), its conformance profile (`profile`, for the tests) and
the web client's renderer (`web.js`)."""

from __future__ import annotations

from ..registry import register
from .engine import Moon
from .schema import SCHEMA

GAME = register(Moon(), SCHEMA, position=2)
