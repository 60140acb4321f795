"""What a person reads of a client in their list of sign-ins: its browser and system as
its User-Agent names them (ua-parser), and the network its address is in. The address
itself is not kept: a /24 of IPv4 or a /48 of IPv6 is enough to tell "at home" from
"somewhere else", and says less about the person.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from ua_parser import parse

# The longest a stored description gets (accounts.models.SignIn.device).
MAX_NAME = 300


@dataclass(frozen=True)
class Device:
    name: str
    network: str


def name_of(user_agent: str) -> str:
    """`Chrome Mobile on Android`, or what the client sent when no browser is known in
    it (an app's or a script's own name, `python-httpx/0.28.1`), shortened."""
    user_agent = user_agent.strip()
    if not user_agent:
        return ""
    found = parse(user_agent[:1000])
    browser = found.user_agent.family if found.user_agent else ""
    system = found.os.family if found.os else ""
    if browser and browser != "Other":
        return f"{browser} on {system}" if system and system != "Other" else browser
    return user_agent[:MAX_NAME]


def network_of(address: str) -> str:
    """The network an address is in, as the list shows it (`203.0.113.0/24`)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return ""
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    prefix = 24 if isinstance(parsed, ipaddress.IPv4Address) else 48
    return str(ipaddress.ip_network((parsed, prefix), strict=False))


def device_of(*, user_agent: str, address: str) -> Device:
    return Device(name=name_of(user_agent), network=network_of(address))
