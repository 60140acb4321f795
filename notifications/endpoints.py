"""What a push subscription must be before the server stores it, and may be before it
sends to it.

The server POSTs to whatever endpoint a client registers, so an endpoint is a request
the client makes the server send (server-side request forgery). Only an https URL on
port 443 of a public host name or public address is taken: no IP address of a private,
loopback, link-local or otherwise non-public network (however the address is spelt:
`127.1`, `2130706433`, `0x7f.0.0.1`, `[::ffff:127.0.0.1]`, `[::127.0.0.1]`,
`[64:ff9b:1::a9fe:a9fe]`: an IPv4 address carried in an IPv6 one is judged too, and
Python's list of non-global blocks is completed by IANA's registries), no single-label or local
host names (`redis`, `localhost`, `*.internal`: notifications.public_names), no credentials in the URL, and, where
`PUSH_ENDPOINT_HOSTS` lists them, only those hosts. Before each send the host name is
resolved again and every address it has must be public (`host_resolves_public`), which
catches a public name pointing at an internal address. Redirects are never followed
(notifications.push). What no check here can stop (a name that changes its answer between
the check and the connection) is for the deployment's egress rules (docs/notifications.md).

An endpoint is kept, compared and sent to in one spelling (`normalised`): scheme and host
in lower case, the host without a final dot, no default port, a path that is at least `/`
with its percent-escapes' hex digits in upper case (and the unreserved characters they
escape written plainly), no empty query or fragment. `HTTPS://Push.Example.com:443/x?`
is `https://push.example.com/x`, so another spelling of an account's endpoint is that
endpoint (`push_endpoint_taken`), not a second one.

`PUSH_ALLOW_LOOPBACK` (tests only) admits http and https endpoints on 127.0.0.1, ::1 and
localhost, any port, for a fake push service.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
import socket
from urllib.parse import SplitResult, urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, ngettext_lazy

from core.errors import ServiceError

from .public_names import is_public_name

ENDPOINT_MAX = 2048
# The browser's base64url, with or without padding (a 65-byte key is 87 characters).
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")
_LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

ENDPOINT_RULE = ngettext_lazy(
    "The endpoint must be an https URL (port 443, no credentials) of a public push service, "
    "at most %(max)s character; an IP address of a private, loopback or link-local network is refused.",
    "The endpoint must be an https URL (port 443, no credentials) of a public push service, "
    "at most %(max)s characters; an IP address of a private, loopback or link-local network is refused.",
    ENDPOINT_MAX,
)


def _refuse_endpoint() -> ServiceError:
    return ServiceError("bad_push_endpoint", ENDPOINT_RULE % {"max": ENDPOINT_MAX}, 400, "endpoint")


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a host stands for when it is one, in any spelling a resolver reads:
    inet_aton also reads `127.1`, `2130706433` and `0x7f.0.0.1` as 127.0.0.1."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


# The IANA special-purpose address registries' blocks that are not globally reachable,
# beside Python's own list (`is_global`), which lags behind them in older Pythons (3.12.1
# lacks 64:ff9b:1::/48, 3fff::/20 and 5f00::/16, for one): an address in either is refused.
_NOT_GLOBAL = tuple(
    ipaddress.ip_network(block)
    for block in (
        # IPv4 (RFC 6890 and its updates)
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
        "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
        "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
        # IPv6
        "::/128", "::1/128", "64:ff9b:1::/48", "100::/64",
        "100:0:0:1::/64", "2001::/23", "2001:db8::/32", "3fff::/20", "5f00::/16", "fc00::/7",
        "fe80::/10", "fec0::/10", "ff00::/8",
    )
)  # fmt: skip
# IPv6 blocks whose addresses carry an IPv4 address in their last 32 bits and reach it
# (or, for the deprecated IPv4-compatible ::a.b.c.d, are read as it by some stacks).
_CARRY_LOW_32 = (
    ipaddress.IPv6Network("::/96"),  # IPv4-compatible (RFC 4291 2.5.5.1, deprecated)
    ipaddress.IPv6Network("::ffff:0:0/96"),  # IPv4-mapped
    ipaddress.IPv6Network("::ffff:0:0:0/96"),  # IPv4-translated (RFC 2765)
    ipaddress.IPv6Network("64:ff9b::/96"),  # NAT64, well-known prefix (RFC 6052)
    ipaddress.IPv6Network("64:ff9b:1::/48"),  # NAT64, local use (RFC 8215), as a /96
)
# Never a push service's address, whatever they carry: IPv4-compatible addresses are
# deprecated, and local-use NAT64 prefixes reach whatever the local network translates.
_REFUSED_WHOLE = (ipaddress.IPv6Network("::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))
# Blocks that stand for the IPv4 address they carry (a resolver may answer a public name
# with an IPv4-mapped address): judged as that address alone.
_STAND_FOR_IPV4 = (
    ipaddress.IPv6Network("::ffff:0:0/96"),
    ipaddress.IPv6Network("::ffff:0:0:0/96"),
    ipaddress.IPv6Network("64:ff9b::/96"),
)


def _carried(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries: mapped, compatible, translated, NAT64,
    6to4 (2002:a.b.c.d::) and Teredo's server and client."""
    carried = []
    if any(address in block for block in _CARRY_LOW_32):
        carried.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    if address.sixtofour is not None:
        carried.append(address.sixtofour)
    if address.teredo is not None:
        carried.extend(address.teredo)
    return carried


def is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether an address is of the public internet: global by Python's list and by the
    IANA blocks above, and every IPv4 address it carries (mapped, NAT64, 6to4, Teredo)
    public too; IPv4-compatible and local-use NAT64 addresses never."""
    if isinstance(address, ipaddress.IPv6Address):
        if any(address in block for block in _REFUSED_WHOLE):
            return False
        carried = _carried(address)
        if any(address in block for block in _STAND_FOR_IPV4):
            return all(is_public(ipv4) for ipv4 in carried)
        if not all(is_public(ipv4) for ipv4 in carried):
            return False
    return address.is_global and not address.is_multicast and not any(address in block for block in _NOT_GLOBAL)


def _loopback_allowed(parts: SplitResult, host: str) -> bool:
    return bool(settings.PUSH_ALLOW_LOOPBACK) and parts.scheme in ("http", "https") and host in _LOOPBACK_NAMES


def _host_listed(host: str) -> bool:
    listed = [h.lower().strip(".") for h in settings.PUSH_ENDPOINT_HOSTS]
    return not listed or any(host == h or host.endswith("." + h) for h in listed)


_ESCAPE = re.compile("%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_DEFAULT_PORTS = {"https": 443, "http": 80}


def _escape_normalised(text: str) -> str:
    """RFC 3986 6.2.2: percent-escapes in upper case, unreserved characters unescaped."""

    def one(match: re.Match[str]) -> str:
        char = chr(int(match.group(1), 16))
        return char if char in _UNRESERVED else "%" + match.group(1).upper()

    return _ESCAPE.sub(one, text)


def normalised(endpoint: str) -> str:
    """The endpoint in the one spelling it is kept and compared in (see above); a string
    that is no URL is returned as it is (endpoint_check refuses it)."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return endpoint
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").rstrip(".")
    if not host:
        return endpoint
    if ":" in host:
        host = f"[{host}]"
    userinfo = parts.netloc.rpartition("@")[0]
    netloc = (userinfo + "@" if "@" in parts.netloc else "") + host
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        netloc += f":{port}"
    path = _escape_normalised(parts.path) or "/"
    query = _escape_normalised(parts.query)
    fragment = _escape_normalised(parts.fragment)
    return SplitResult(scheme, netloc, path, query, fragment).geturl()


def endpoint_check(endpoint: str) -> str:
    """The endpoint, normalised, if the server may POST to it; else `bad_push_endpoint`."""
    if not endpoint.isascii() or not endpoint.isprintable() or len(endpoint) > ENDPOINT_MAX or " " in endpoint:
        raise _refuse_endpoint()
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise _refuse_endpoint() from None
    host = (parts.hostname or "").lower()
    if not host or parts.username is not None or parts.password is not None or parts.fragment:
        raise _refuse_endpoint()
    if _loopback_allowed(parts, host):
        return normalised(endpoint)
    if parts.scheme.lower() != "https" or port not in (None, 443):
        raise _refuse_endpoint()
    address = _address(host)
    if address is not None:
        if not is_public(address) or settings.PUSH_ENDPOINT_HOSTS:
            raise _refuse_endpoint()
        return normalised(endpoint)
    if not is_public_name(host) or not _host_listed(host):
        raise _refuse_endpoint()
    return normalised(endpoint)


def host_resolves_public(endpoint: str) -> bool:
    """Whether every address the endpoint's host has now is public (checked again before
    each send). A name that does not resolve here is let through: the request then fails
    by itself, or goes through the egress proxy the deployment names."""
    parts = urlsplit(endpoint)
    host = (parts.hostname or "").lower()
    if _loopback_allowed(parts, host):
        return True
    try:
        found = socket.getaddrinfo(host, parts.port or 443, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return True
    return all(is_public(ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])) for info in found)


def _decoded(value: str, attr: str, size: int) -> bytes:
    detail = ngettext(
        # Translators: the field is keys.p256dh or keys.auth, as the API writes it.
        "%(field)s must be base64url of %(size)s byte.",
        "%(field)s must be base64url of %(size)s bytes.",
        size,
    ) % {"field": attr, "size": size}
    if len(value) > 2 * size or not _BASE64URL.fullmatch(value):
        raise ServiceError("bad_push_key", detail, 400, attr)
    raw = value.rstrip("=")
    try:
        decoded = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
    except (binascii.Error, ValueError):
        raise ServiceError("bad_push_key", detail, 400, attr) from None
    if len(decoded) != size:
        raise ServiceError("bad_push_key", detail, 400, attr)
    return decoded


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def keys_check(p256dh: str, auth: str) -> tuple[str, str]:
    """The subscription's keys, in canonical unpadded base64url: p256dh an uncompressed
    point of P-256 (65 bytes, on the curve), auth a 16-byte secret; else `bad_push_key`."""
    point = _decoded(p256dh, "keys.p256dh", 65)
    if point[0] != 4:
        raise ServiceError("bad_push_key", _("keys.p256dh must be an uncompressed P-256 point."), 400, "keys.p256dh")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise ServiceError("bad_push_key", _("keys.p256dh is not a point of P-256."), 400, "keys.p256dh") from None
    secret = _decoded(auth, "keys.auth", 16)
    return b64url(point), b64url(secret)
