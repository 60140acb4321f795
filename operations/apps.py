from django.apps import AppConfig


class OperationsConfig(AppConfig):
    """What an operator's tools read: health, readiness and metrics (docs/operations/deployment.md)."""

    name = "operations"
