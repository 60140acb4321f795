"""Tests of a data migration: move the schema to a migration, write rows as they were
then, move on, and read them with today's code. Each such test module uses
`migrated_to` and the `schema_back_to_the_latest` fixture (imported into the module), so
that later tests in the process find every migration applied, whatever happened."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
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


def data_step(app: str, migration: str, function: str) -> Callable[[Any, Any], None]:
    """A data migration's function (its RunPython step), to be run on rows written as they
    were before it, with today's models (`django.apps.apps`). For a migration that changes
    data alone, or whose schema change is only columns added: moving the whole schema
    back and forth costs a test tens of seconds, and its step reads the same rows today."""
    module = importlib.import_module(f"{app}.migrations.{migration}")
    step: Callable[[Any, Any], None] = getattr(module, function)
    return step
