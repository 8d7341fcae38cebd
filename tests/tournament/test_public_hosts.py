"""Issue 63, item 6: what is a machine of the public internet (tournament/public_hosts.py),
by number in every form a connection reads, and by name."""

from __future__ import annotations

from ipaddress import ip_address

import pytest

from tournament.public_hosts import address_named, address_public, host_addresses

NOT_PUBLIC = [
    "127.0.0.1",  # loopback
    "127.8.9.10",
    "::1",
    "10.1.2.3",  # private
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",  # link-local: AWS's, GCP's and Azure's metadata service
    "fe80::1",
    "fc00::1",  # unique-local
    "fd00:ec2::254",  # AWS's metadata service over IPv6
    "fec0::1",  # site-local (deprecated, still routed inside some networks)
    "100.100.100.200",  # shared address space: Alibaba Cloud's metadata service
    "192.0.0.192",  # Oracle Cloud's metadata service (is_global says yes on Python 3.11)
    "168.63.129.16",  # Azure's wireserver: public-looking, only the cloud's machines reach it
    "224.0.0.1",  # multicast (is_global says yes)
    "239.255.255.250",
    "ff02::1",
    "ff0e::1",
    "0.0.0.0",  # unspecified: this machine
    "::",
    "240.0.0.1",  # reserved
    "255.255.255.255",
    "198.18.0.1",  # benchmarking
    "203.0.113.7",  # documentation
    "2001:db8::1",
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:169.254.169.254",
    "::127.0.0.1",  # IPv4-compatible (deprecated)
    "64:ff9b::7f00:1",  # NAT64: 127.0.0.1 through the network's translator
    "64:ff9b::a9fe:a9fe",  # NAT64: 169.254.169.254
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254
    "2001::1",  # Teredo
]
PUBLIC = [
    "8.8.8.8",
    "93.184.215.14",
    "2606:4700::1111",
    "2a00:1450:4001:82b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",  # NAT64 of a public address (an IPv6-only network's mail server)
    "2002:808:808::",
]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_an_address_of_this_machine_a_local_network_or_a_cloud_is_not_public(address):
    assert not address_public(ip_address(address))


@pytest.mark.parametrize("address", PUBLIC)
def test_an_address_of_the_internet_is_public(address):
    assert address_public(ip_address(address))


def test_loopback_allowed_opens_this_machine_only():
    for address in ("127.0.0.1", "::1", "::ffff:127.0.0.1", "64:ff9b::7f00:1"):
        assert address_public(ip_address(address), loopback=True), address
    for address in ("10.0.0.1", "169.254.169.254", "fd00:ec2::254", "0.0.0.0", "::"):
        assert not address_public(ip_address(address), loopback=True), address


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "2130706433", "0x7f.1", "017700000001", "127.1", "localhost"]
)
def test_every_form_of_an_ipv4_address_is_read_as_a_connection_reads_it(host):
    assert ip_address("127.0.0.1") in host_addresses(host)


def test_an_ipv6_address_in_brackets_and_a_scoped_one():
    assert set(host_addresses("[::1]")) == {ip_address("::1")}
    assert all(a.is_link_local for a in host_addresses("fe80::1%1"))


@pytest.mark.parametrize("host", ["", "nowhere.invalid", "a\x00b", "x" * 64 + ".example"])
def test_a_host_without_an_address_raises_oserror(host):
    with pytest.raises(OSError):
        host_addresses(host)


def test_an_address_named_the_usual_way_and_a_name():
    assert address_named("127.0.0.1") == ip_address("127.0.0.1")
    assert address_named("[::1]") == ip_address("::1")
    assert address_named("::1") == ip_address("::1")
    # A number the usual way does not read: a Discord webhook's id, not an address.
    assert address_named("4174216298") is None
    assert address_named("smtp.example.org") is None
