"""gunicorn's settings for `make serve` (README "Production"), read from this folder.

gunicorn believes X-Forwarded-Proto (and its kin) from 127.0.0.1 unless told otherwise: a
request saying it came over HTTPS is then treated as secure (no redirect to HTTPS, secure
cookies sent over plain HTTP). Django believes that header only with BEHIND_PROXY
(settings.SECURE_PROXY_SSL_HEADER), and so does gunicorn here: without it, nobody's.
"""

from __future__ import annotations

import os


def envbool(name: str, default: bool) -> bool:
    """As tournament/settings.py reads it (not imported: the settings need SECRET_KEY and
    more, and this file must load whatever the environment holds)."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


# With BEHIND_PROXY, gunicorn's own default: FORWARDED_ALLOW_IPS, else this machine (the
# proxy in front of it on loopback, README "Behind a proxy").
if not envbool("BEHIND_PROXY", False):
    forwarded_allow_ips = ""

# gunicorn's control socket (gunicornc, 25.1+) is one path per user by default
# ($XDG_RUNTIME_DIR/gunicorn.ctl): a second `make serve` on the machine took the first one's
# (issue 63). Nothing here uses gunicornc; signals (README "Production") do what it would.
control_socket_disable = True
