"""Tests of a data migration: move the schema to a migration, write rows as they were
then, move on, and read them with today's code. Each such test module uses
`migrated_to` and the `schema_back_to_the_latest` fixture (imported into the module), so
that later tests in the process find every migration applied, whatever happened."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrated_to(target: list[tuple[str, str]]) -> Any:
    """The schema moved to `target`; the apps as they were there (their models)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.fixture(autouse=True)
def schema_back_to_the_latest() -> Iterator[None]:
    yield
    migrated_to(latest())
