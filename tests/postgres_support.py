"""A PostgreSQL server of a test's own: the machine's initdb and pg_ctl (Debian's
postgresql package, which `make test` needs anyway) on a spare loopback port in a temporary
directory, stopped as a crash stops it and started again by the test — so a test can take the
database away from a process without touching the server every other test uses."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def _bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


BIN = _bin()


def _spare_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """initdb'd on creation; `start()`, `crash()` (pg_ctl stop -m immediate), `close()`."""

    def __init__(self) -> None:
        assert BIN is not None
        self.port = _spare_port()
        self.dir = Path(tempfile.mkdtemp(prefix="postgres-test-"))
        self.data = self.dir / "data"
        # initdb refuses to run as root: as root, the cluster belongs to the postgres user.
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-N")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        argv = [str(BIN / program), *args]
        if self.user:
            argv = ["runuser", "-u", self.user, "--", *argv]
        subprocess.run(argv, check=True, capture_output=True, cwd=self.dir)

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-w",
            "-l",
            str(self.dir / "log"),
            "start",
        )

    def crash(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)
