"""The web client's renderer of each registered game lives in the game's folder, beside its
engine (`games/rules/<game>/web.js`); this finder serves it as `web/games/<key>.js`, where
the client's `games/index.js` imports it from. Development serving, WhiteNoise and
`collectstatic` all ask the finders, so no copy is kept under `web/static`."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, overload

from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

from games import rules

FOLDER = "web/games"
RENDERER = "web.js"


def renderers() -> dict[str, Path]:
    """Each registered game that has a renderer: its key and the file."""
    out = {}
    for game in rules.all_games():
        module_file = sys.modules[type(game).__module__].__file__
        assert module_file is not None
        path = Path(module_file).parent / RENDERER
        if path.is_file():
            out[game.key] = path
    return out


class RendererStorage(FileSystemStorage):
    """The renderers as if in one folder: `<key>.js` is the `web.js` of that game's folder."""

    prefix = FOLDER

    def __init__(self, files: dict[str, Path]) -> None:
        super().__init__()
        self.files = files

    def path(self, name: str) -> str:
        return str(self.files[name])

    def exists(self, name: str) -> bool:
        return name in self.files


class GameRendererFinder(BaseFinder):
    def check(self, **kwargs: Any) -> list[Any]:
        return []

    @overload
    def find(self, path: str, find_all: Literal[False] = False) -> str | None: ...
    @overload
    def find(self, path: str, find_all: Literal[True]) -> list[str]: ...
    def find(self, path: str, find_all: bool = False) -> str | list[str] | None:
        folder, _, name = path.rpartition("/")
        found = renderers().get(name.removesuffix(".js")) if folder == FOLDER and name.endswith(".js") else None
        if find_all:
            return [str(found)] if found else []
        return str(found) if found else None

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, RendererStorage]]:
        storage = RendererStorage({f"{key}.js": path for key, path in renderers().items()})
        for name in storage.files:
            yield name, storage
