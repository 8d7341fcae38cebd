"""The VAPID key pair (RFC 8292) that signs the site's Web Push messages (issue 49).

`python -m tournament.push_keys` prints a new private key — base64url of its 32 bytes, one
line — for VAPID_PRIVATE_KEY or the file `make serve` keeps (.vapid-key); settings.py reads it.
The public key, which the browser needs to subscribe (`applicationServerKey`), is derived.
"""

from __future__ import annotations

import base64
from functools import cache

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid


def b64url(data: bytes) -> str:
    """Base64url without padding, as the Push API and RFC 8291/8292 write keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def private_key_new() -> str:
    """A new P-256 private key, as settings.VAPID_PRIVATE_KEY holds it."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


@cache
def vapid_of(private_key: str) -> tuple[Vapid, str]:
    """The signer for `private_key` and its public key (uncompressed point, base64url):
    raises ValueError for a key that is not one."""
    try:
        # py_vapid takes any bytes as the key's number: a typo would make a weak key.
        if len(base64.urlsafe_b64decode(private_key + "=" * (-len(private_key) % 4))) != 32:
            raise ValueError("not 32 bytes")
        vapid = Vapid.from_raw(private_key.encode())
    except Exception as exc:  # binascii's, or whatever cryptography raises
        raise ValueError("VAPID_PRIVATE_KEY is not a base64url P-256 private key") from exc
    point = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return vapid, b64url(point)


if __name__ == "__main__":
    print(private_key_new())
