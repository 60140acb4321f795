"""The push endpoint filter against arbitrary spellings of addresses (Hypothesis): an
IPv4 address of a special-purpose block is refused however an IPv6 address carries it
(IPv4-compatible, mapped, translated, NAT64 of either prefix, 6to4), in any textual
form; IPv4-compatible and local-use NAT64 addresses are refused whatever they carry; a
public address carried by a form that reaches it stays public."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ServiceError
from notifications.endpoints import endpoint_check, is_public

# IANA's IPv4 special-purpose blocks that are not globally reachable.
SPECIAL_V4 = [
    ipaddress.IPv4Network(block)
    for block in (
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/4",
        "240.0.0.0/4",
    )
]


def special_v4() -> st.SearchStrategy[ipaddress.IPv4Address]:
    return st.sampled_from(SPECIAL_V4).flatmap(
        lambda net: st.integers(0, net.num_addresses - 1).map(lambda i: net.network_address + i)
    )


def public_v4() -> st.SearchStrategy[ipaddress.IPv4Address]:
    return (
        st.integers(0, 2**32 - 1)
        .map(ipaddress.IPv4Address)
        .filter(lambda a: a.is_global and not a.is_multicast and not any(a in net for net in SPECIAL_V4))
    )


def carriers(v4: ipaddress.IPv4Address) -> list[ipaddress.IPv6Address]:
    """Every IPv6 form that carries `v4`."""
    low = int(v4)
    return [
        ipaddress.IPv6Address(low),  # ::a.b.c.d, IPv4-compatible
        ipaddress.IPv6Address((0xFFFF << 32) | low),  # ::ffff:a.b.c.d, mapped
        ipaddress.IPv6Address((0xFFFF << 48) | low),  # ::ffff:0:a.b.c.d, translated
        ipaddress.IPv6Address((0x0064FF9B << 96) | low),  # 64:ff9b::a.b.c.d, NAT64
        ipaddress.IPv6Address((0x0064FF9B0001 << 80) | low),  # 64:ff9b:1::a.b.c.d, local-use NAT64
        ipaddress.IPv6Address((0x2002 << 112) | (low << 80) | 1),  # 2002:aabb:ccdd::1, 6to4
    ]


def spellings(address: ipaddress.IPv6Address) -> st.SearchStrategy[str]:
    """Ways to write the address in a URL's host: compressed, exploded, in upper case,
    with the last 32 bits dotted."""
    low = int(address) & 0xFFFFFFFF
    dotted = address.exploded.rsplit(":", 2)[0] + ":" + str(ipaddress.IPv4Address(low))
    return st.sampled_from([address.compressed, address.exploded, address.compressed.upper(), dotted])


@settings(max_examples=300, deadline=None)
@given(data=st.data(), v4=special_v4())
def test_a_special_ipv4_address_is_refused_however_it_is_carried(data, v4):
    assert not is_public(v4)
    for carrier in carriers(v4):
        assert not is_public(carrier), carrier
        host = data.draw(spellings(carrier))
        with pytest.raises(ServiceError) as refused:
            endpoint_check(f"https://[{host}]/push/x")
        assert refused.value.code == "bad_push_endpoint"


@settings(max_examples=200, deadline=None)
@given(v4=public_v4(), tail=st.integers(0, 2**80 - 1))
def test_some_blocks_are_refused_whatever_they_carry(v4, tail):
    low = int(v4)
    compatible = ipaddress.IPv6Address(low)
    local_nat64 = ipaddress.IPv6Address((0x0064FF9B0001 << 80) | tail)
    assert not is_public(compatible) and not is_public(local_nat64)


@settings(max_examples=200, deadline=None)
@given(v4=public_v4())
def test_a_public_ipv4_address_stays_public_where_a_form_reaches_it(v4):
    low = int(v4)
    assert is_public(v4)
    assert is_public(ipaddress.IPv6Address((0xFFFF << 32) | low))  # as a resolver may answer
    assert is_public(ipaddress.IPv6Address((0x0064FF9B << 96) | low))
    assert endpoint_check(f"https://{v4}/push") == f"https://{v4}/push"


@pytest.mark.parametrize(
    "endpoint", ["https://[::127.0.0.1]/", "https://[::7f00:1]/", "https://[64:ff9b:1::a9fe:a9fe]/"]
)
def test_the_spellings_the_probe_found(endpoint):
    with pytest.raises(ServiceError):
        endpoint_check(endpoint)
