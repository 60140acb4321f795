"""Prints a fresh VAPID key pair as environment lines, for the server's environment."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from notifications import vapid


class Command(BaseCommand):
    help = "Print a new VAPID key pair (Web Push) as VAPID_PUBLIC_KEY=... and VAPID_PRIVATE_KEY=... lines."

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = vapid.generate()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
