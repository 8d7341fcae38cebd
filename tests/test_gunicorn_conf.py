"""Issue 44: gunicorn (`make serve`) believes X-Forwarded-Proto only with BEHIND_PROXY, as
Django does — its own default believes it from 127.0.0.1 whatever the settings say. Checked
with gunicorn itself resolving gunicorn.conf.py the way `make serve` starts it."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tournament.settings import envbool

ROOT = Path(__file__).resolve().parent.parent
# gunicorn's own command line, as `make serve` gives it, resolved (the file read, the options
# validated) without starting a server or loading the app.
RESOLVE = """
import sys
from gunicorn.app.wsgiapp import WSGIApplication
name = sys.argv[1]  # the setting printed
sys.argv = ["gunicorn", "tournament.wsgi", "-c", "gunicorn.conf.py", "-b", "127.0.0.1:8001"]
cfg = WSGIApplication("%(prog)s [OPTIONS] [APP_MODULE]").cfg
print(repr(getattr(cfg, name)))
"""


def forwarded_allow_ips(behind_proxy: str | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("BEHIND_PROXY", "FORWARDED_ALLOW_IPS")}
    if behind_proxy is not None:
        env["BEHIND_PROXY"] = behind_proxy
    printed = subprocess.run(
        [sys.executable, "-c", RESOLVE, "forwarded_allow_ips"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    return ast.literal_eval(printed.strip())


@pytest.mark.parametrize("value", [None, "", "0", "no", "off", "1", "true", "Yes", " on "])
def test_forwarded_headers_are_believed_only_behind_our_proxy(value, monkeypatch):
    # What tournament/settings.py makes of the same value: gunicorn must agree with it.
    monkeypatch.delenv("BEHIND_PROXY", raising=False)
    if value is not None:
        monkeypatch.setenv("BEHIND_PROXY", value)
    behind_proxy = envbool("BEHIND_PROXY", False)
    trusted = forwarded_allow_ips(value)
    if behind_proxy:
        assert trusted == ["127.0.0.1", "::1"]  # the proxy on this machine: gunicorn's default
    else:
        assert trusted == []


def test_make_serve_starts_gunicorn_with_this_configuration():
    dry = subprocess.run(
        ["make", "-n", "serve"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert re.search(r"gunicorn tournament\.wsgi .*-c gunicorn\.conf\.py", dry), dry


def test_two_servers_on_one_machine_do_not_share_gunicorn_s_control_socket():
    # Issue 63: gunicorn's control socket is one path per user by default; a second `make
    # serve` took the first one's. Nothing here uses it: off.
    printed = subprocess.run(
        [sys.executable, "-c", RESOLVE, "control_socket_disable"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert printed.strip() == "True"
