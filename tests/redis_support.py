"""A Redis server of a test's own: Debian's redis-server on a spare loopback port, nothing
written to disk, stopped (or killed, and started again) by the test."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time

import pytest

from bench.servers import redis_argv


def _spare_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self) -> None:
        self.port = _spare_port()
        self.dir = tempfile.mkdtemp(prefix="redis-test-")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            redis_argv(self.port, self.dir),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def redis_server():
    if shutil.which("redis-server") is None:
        pytest.fail("no redis-server: install Debian's redis-server package")
    server = RedisServer()
    server.start()
    yield server
    server.close()
