"""The project's own import-linter contract (pyproject.toml, `contract_types`).

`game_folders`: the game folders of a package are independent of each other, whichever
they are. A game folder is a subpackage of the package (`games.rules.hearts`); what the
games share are its plain modules (`games.rules.cards`), which every game may import.
Import-linter's own independence contract takes a fixed list of modules, and its pattern
`games.rules.*` would take the shared modules in as well: this one reads the folders
from the import graph, so a game's new folder is held to it with no edit.
"""

from __future__ import annotations

from grimp import ImportGraph
from importlinter.contracts.independence import IndependenceContract
from importlinter.domain import fields
from importlinter.domain.contract import ContractCheck
from importlinter.domain.imports import ModuleExpression


class GameFoldersIndependence(IndependenceContract):
    """`container`: the package whose subpackages are the games (e.g. `games.rules`)."""

    type_name = "game_folders"

    container = fields.StringField()
    # Filled from the graph in `check`; import-linter's own field, so nothing else changes.
    modules = fields.SetField(subfield=fields.ModuleExpressionField(), required=False)

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        container = str(self.container)
        folders = sorted(child for child in graph.find_children(container) if graph.find_children(child))
        if len(folders) < 2:
            raise ValueError(f"{container} holds {len(folders)} game folder(s): nothing to keep apart")
        self.modules = {ModuleExpression(folder) for folder in folders}  # type: ignore[assignment]
        return super().check(graph, verbose)
