"""One local HTTP server standing in for the services the site sends to (issue 49): a browser's
push service (test_push.py) and a chat service's webhook (test_channels.py). It keeps what
arrived at each path and answers each path as told (`answers`), else `status`."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TypeVar

SECRET = "s3cr3t-t0ken"  # in every channel URL here: a page that shows it leaks it


@dataclass
class StandIn:
    """What arrived at each path — (headers, body) — and the answer each path gets."""

    address: str  # 127.0.0.1:port
    status: int
    received: dict[str, list[tuple[dict[str, str], bytes]]] = field(default_factory=dict)
    answers: dict[str, int] = field(default_factory=dict)


Service = TypeVar("Service", bound="StandIn")


@contextmanager
def stand_in(kind: type[Service], status: int) -> Iterator[Service]:
    """A server on a free port of this machine for the length of the block."""
    service = kind(address="", status=status)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            headers = {k.lower(): v for k, v in self.headers.items()}
            service.received.setdefault(self.path, []).append((headers, body))
            self.send_response(service.answers.get(self.path, service.status))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.address = f"127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()


class PushService(StandIn):
    """The stand-in push service (201 unless told: RFC 8030 §5); endpoints start with `base`."""

    @property
    def base(self) -> str:
        return f"http://{self.address}"


class Hook(StandIn):
    """The stand-in webhook, posted to by apprise's generic JSON service (json://host/path,
    which POSTs {"title", "message", …})."""

    @property
    def base(self) -> str:
        return self.address

    def url(self, path: str) -> str:
        return f"json://{self.address}/{path}/{SECRET}"

    def posts(self, path: str) -> list[dict]:
        return [json.loads(body) for _headers, body in self.received.get(f"/{path}/{SECRET}", [])]
