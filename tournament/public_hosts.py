"""Whether a host is a machine of the public internet (issue 63): the organizer's channels
post only there — never to this machine, the venue's or the data centre's network, or a
cloud's metadata service (services/channels.py when a line is saved, services/channel_send.py
again right before each post).

Plain functions, no Django: `ipaddress` says what an address is; `socket.getaddrinfo` says what
a host leads to, as a connection would read it — a name, or an address in any form the system
takes (2130706433, 0x7f.1, 017700000001, ::ffff:127.0.0.1).
"""

from __future__ import annotations

import socket
from ipaddress import IPv4Address, IPv6Address, ip_address, ip_network

Address = IPv4Address | IPv6Address

# Where Python 3.11's `is_global` says yes but no channel belongs: 192.0.0.0/24 (IETF
# protocol assignments; Oracle Cloud's metadata answers at 192.0.0.192 — non-global from
# Python 3.12.4) and Azure's wireserver, a public-looking address only the cloud's own
# machines reach. Multicast, reserved and IPv6 site-local are checked by name below.
NOT_PUBLIC = (ip_network("192.0.0.0/24"), ip_network("168.63.129.16/32"))
# NAT64 (RFC 6052): 64:ff9b::7f00:1 is 127.0.0.1 through the network's translator.
NAT64 = ip_network("64:ff9b::/96")


def _inner(address: IPv6Address) -> IPv4Address | None:
    """The IPv4 address an IPv6 one carries to its machine (IPv4-mapped, 6to4, NAT64), if any."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in NAT64:
        return IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def address_public(address: Address, *, loopback: bool = False) -> bool:
    """Whether `address` is a machine of the public internet: not private, loopback,
    link-local, unique-local, site-local, multicast, reserved, unspecified or a cloud's
    metadata service, in IPv4 or IPv6 (an IPv6 address carrying an IPv4 one is read as that
    one). `loopback`: this machine is allowed too (the tests' stand-in, settings.CHANNEL_LOCAL)."""
    if isinstance(address, IPv6Address):
        inner = _inner(address)
        if inner is not None:
            return address_public(inner, loopback=loopback)
    if loopback and address.is_loopback:
        return True
    return (
        address.is_global
        and not address.is_multicast
        and not address.is_reserved
        and not getattr(address, "is_site_local", False)
        and not any(address in network for network in NOT_PUBLIC)
    )


def address_named(host: str) -> Address | None:
    """`host` as the address it spells in the usual way (127.0.0.1, ::1, [::1]), or None
    for a name (or a number the usual way does not read: 2130706433)."""
    try:
        return ip_address(host[1:-1] if host.startswith("[") and host.endswith("]") else host)
    except ValueError:
        return None


def host_addresses(host: str) -> list[Address]:
    """Every address a connection to `host` may reach: a name resolved as the system resolves
    it, an address in any form the system reads. OSError when it has none now (a name that
    does not resolve, a resolver that does not answer, a host that cannot be a name)."""
    name = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not name:
        raise OSError("no host")
    try:
        found = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
    except ValueError as exc:  # a label over 63 characters (UnicodeError), a NUL
        raise OSError(str(exc)) from exc
    addresses = [ip_address(info[4][0]) for info in found]
    if not addresses:
        raise OSError("no address")
    return addresses
