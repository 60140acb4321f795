"""Sign-in limits that slow a password guesser without locking the owner out.

Three counters, in fixed windows (api/throttling.py), each answering 429 `throttled`
with `Retry-After` (docs/operations/configuration.md, "Rates, proxies, names and retries"):

- per address, every request to the sign-in and sign-up endpoints (`auth`, DRF's
  scoped throttle on the views);
- per account name and address, the failed sign-ins (`auth_account_address`): one
  address guesses at one account this often at most;
- per account name, the failed sign-ins from addresses that never signed in to that
  account (`auth_account`): many addresses together guess at one account this often at
  most, and an attack from them does not touch the owner, whose own address signed in
  before (it is "known" for THROTTLE_AUTH_KNOWN_DAYS after each sign-in, and for the
  name it signed up with).

An attempt is counted before its password is checked (so that attempts at once cannot
pass a limit together) and taken back once it succeeds: what stays counted is failures.
An IPv6 client counts by its /64 network, which one subscriber usually holds whole.
Names count as sign-in compares them (`Alice` and `ALICE` share counters), whether an
account has the name or not, so a refusal tells nothing of which names exist.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
from typing import Any

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

from accounts import usernames

from .throttling import SignInThrottle

ACCOUNT = "auth_account"
ACCOUNT_ADDRESS = "auth_account_address"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def client_address(request: Any) -> str:
    """The address the limits count (DRF's, through the trusted proxies: NUM_PROXIES);
    an IPv6 address as its /64 network."""
    ident = BaseThrottle().get_ident(request)
    try:
        address = ipaddress.ip_address(ident)
    except ValueError:
        return ident
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class SignInLimits:
    """The limits of one sign-in attempt: `refused()` before the password is checked,
    `succeeded()` once it was right."""

    def __init__(self, request: Any, username: str) -> None:
        self.request = request
        self.name = _digest(usernames.canonical(username))
        self.address = _digest(client_address(request))
        self.known_key = f"sign-in-known:{self.name}:{self.address}"
        self.counted: list[SignInThrottle] = []

    def refused(self) -> int | None:
        """Count this attempt; the seconds to wait when a limit refuses it, else None."""
        throttles = [SignInThrottle(ACCOUNT_ADDRESS, f"{self.name}:{self.address}")]
        if cache.get(self.known_key) is None:
            throttles.append(SignInThrottle(ACCOUNT, self.name))
        wait = 0.0
        for throttle in throttles:
            if not throttle.allow_request(self.request, None):  # type: ignore[arg-type]
                wait = max(wait, throttle.wait())
            self.counted.append(throttle)
        return math.ceil(wait) if wait else None

    def known(self) -> bool:
        """Whether this address signed in to this account within THROTTLE_AUTH_KNOWN_DAYS."""
        return cache.get(self.known_key) is not None

    def succeeded(self) -> None:
        """The password was right: this attempt was no failure, and the address is known."""
        for throttle in self.counted:
            throttle.uncount()
        self.counted = []
        _remember(self.known_key)


def _remember(known_key: str) -> None:
    cache.set(known_key, 1, settings.THROTTLE_AUTH_KNOWN_DAYS * 24 * 3600)


def signed_up(request: Any, username: str) -> None:
    """A new account's address is known to it: a sign-up signs in."""
    _remember(SignInLimits(request, username).known_key)
