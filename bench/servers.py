"""The servers a load bench runs against, started as production runs them: a fresh PostgreSQL
database holding a synthetic event (`served_event`), gunicorn with production settings behind a
TLS proxy (`start_server`), Redis on loopback (`start_redis`), the task queue's worker
(`start_worker`) and its queue read straight from PostgreSQL; the ports and database name a run
takes (`add_place_options`, `resolve_ports`); a worker's peak memory. Shared by `make load`
(bench/load.py, bench/day.py) and `make chaos` (bench/outage.py)."""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from bench.measure import event_file, fresh_database

ROOT = Path(__file__).resolve().parent.parent
WORKER_NICENESS = 10  # the Makefile's WORKER runs the queue's worker so


def manage(env: dict[str, str], *args: str) -> str:
    run = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout


def server_env(workdir: Path, database_url: str) -> dict[str, str]:
    """Production settings, as behind a TLS proxy (X-Forwarded-Proto says HTTPS)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "load-test-only-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "BEHIND_PROXY": "1",
        "STATIC_ROOT": str(workdir / "static"),
        "DJANGO_SETTINGS_MODULE": "tournament.settings",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("DEBUG", None)
    return env


def served_event(
    folder: str, database: str, players: int, rounds: int, slug: str
) -> tuple[Path, dict[str, str]]:
    """A fresh PostgreSQL database holding one synthetic event, ready for gunicorn: the
    working folder and the server's environment."""
    workdir = Path(tempfile.gettempdir()) / folder
    workdir.mkdir(exist_ok=True)
    env = server_env(workdir, fresh_database("postgres", workdir, database))
    manage(env, "migrate", "--no-input", "-v0")
    manage(env, "collectstatic", "--no-input", "-v0")
    manage(env, "import_event", str(event_file(workdir, players, rounds, slug)))
    return workdir, env


def free_port() -> int:
    """A port nobody listens on now (the system's pick for port 0). Another program could take
    it before the server binds it; the server then fails to start and the run says so."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def add_place_options(parser: argparse.ArgumentParser, database: str) -> None:
    """--port, --redis-port and --database-name, each defaulting to its environment variable,
    the ports to 0: a free one picked, the name to `database` (`resolve_ports`)."""
    env = os.environ.get
    parser.add_argument(
        "--port",
        type=int,
        default=int(env("BENCH_PORT", "0")),
        help="the (first) server's port; the next ones follow it; 0: free ports (env BENCH_PORT)",
    )
    parser.add_argument(
        "--redis-port",
        type=int,
        default=int(env("BENCH_REDIS_PORT", "0")),
        help="Redis's port; 0: a free one (env BENCH_REDIS_PORT)",
    )
    parser.add_argument(
        "--database-name",
        default=env("BENCH_DB"),
        help=f"the PostgreSQL database dropped and filled (env BENCH_DB; default {database})",
    )


def resolve_ports(
    parser: argparse.ArgumentParser, args: argparse.Namespace, servers: int, database: str
) -> None:
    """The options checked, and `args.ports` (one per server) and `args.redis_port` chosen;
    `database`: the name when neither the option nor the environment gave one."""
    args.database_name = args.database_name or database
    if not args.database_name.isidentifier():  # it goes into DROP DATABASE unquoted
        parser.error(f"--database-name: not a plain identifier: {args.database_name!r}")
    if args.port:
        args.ports = [args.port + i for i in range(servers)]
    else:
        args.ports = []
        while len(args.ports) < servers:  # the system may hand the same free port out twice
            if (port := free_port()) not in args.ports:
                args.ports.append(port)
    args.redis_port = args.redis_port or free_port()


def redis_argv(port: int, workdir: str | Path) -> list[str]:
    """Debian's redis-server on loopback at `port`, nothing written to disk (the bench's and
    the tests' own Redis: tests/redis_support.py)."""
    return [
        "redis-server",
        *("--port", str(port), "--bind", "127.0.0.1"),
        *("--save", "", "--appendonly", "no", "--dir", str(workdir)),
    ]


def start_redis(workdir: Path, port: int, prefix: list[str] | None = None) -> subprocess.Popen:
    """Debian's redis-server on loopback, nothing written to disk: the servers' shared cache.
    `prefix`: what it runs under (taskset, prlimit)."""
    redis = subprocess.Popen(
        [*(prefix or []), *redis_argv(port, workdir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(50):
        ping = subprocess.run(
            ["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True
        )
        if ping.stdout.strip() == "PONG":
            break
        time.sleep(0.1)
    return redis


def start_server(
    env: dict[str, str],
    workers: int,
    ready_path: str,
    log: Path,
    port: int,
    prefix: list[str] | None = None,
    threads: int = 1,
) -> subprocess.Popen:
    """gunicorn on `port`, returned once `ready_path` answers (exits if it never does). Its
    errors go to `log` (a pipe nobody reads would fill up and stall the workers the first time
    they log a traceback). `prefix`: what it runs under (taskset, prlimit). `threads`: more
    than one makes gthread workers, as `make serve` runs them (THREADS)."""
    command = ["-m", "gunicorn", "tournament.wsgi", "-w", str(workers), "--threads", str(threads)]
    command += ["-b", f"127.0.0.1:{port}", "--access-logfile", "-", "--log-level", "warning"]
    server = _spawn([*(prefix or []), sys.executable, *command], env, log)
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{ready_path}", headers={"X-Forwarded-Proto": "https"}
    )
    return _ready(server, lambda: urllib.request.urlopen(request), f"gunicorn on port {port}", log)


def _spawn(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    """`command` run from the checkout with `env`, its output dropped and its errors in `log`."""
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log.open("w")
    )


def _ready(
    process: subprocess.Popen, ask: Callable[[], object], what: str, log: Path
) -> subprocess.Popen:
    """`process` once `ask()` stops raising OSError (20 s at most); else it is stopped and the
    run exits, saying where its log is."""
    for _ in range(100):
        try:
            ask()
            return process
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.2)
    process.terminate()
    sys.exit(f"{what} did not answer: see {log}")


def start_worker(
    env: dict[str, str], log: Path, prefix: list[str] | None = None
) -> subprocess.Popen:
    """The task queue's worker (django-tasks-db), as `make serve` runs it beside the server: at
    niceness WORKER_NICENESS, so that on a shared core a page asked now goes first."""
    nice = ["nice", "-n", str(WORKER_NICENESS)]
    command = ["manage.py", "task_worker", "--no-reload", "-v", "0"]
    return _spawn([*(prefix or []), *nice, sys.executable, *command], env, log)


def start_streamer(
    env: dict[str, str], port: int, log: Path, prefix: list[str] | None = None
) -> subprocess.Popen:
    """uvicorn serving the site's ASGI application on `port`, as `make serve` runs it beside
    gunicorn for the standings' stream (tournament/streams.py); returned once it listens."""
    command = [
        *(prefix or []),
        sys.executable,
        "-m",
        "uvicorn",
        "tournament.asgi:application",
        "--no-access-log",
        "--lifespan",  # Django has no startup or shutdown events to send
        "off",
        "--timeout-graceful-shutdown",  # as make serve: open streams do not hold a stop
        "3",
        "--log-level",
        "warning",
        "--port",
        str(port),
    ]
    streamer = _spawn(command, env, log)

    def listens() -> None:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()

    return _ready(streamer, listens, f"uvicorn on port {port}", log)


# The queue's rows by state, read straight from PostgreSQL (a `manage.py shell` per look would
# take a second of the core the worker needs).
QUEUE_SQL = "SELECT status, count(*) FROM django_tasks_database_dbtaskresult GROUP BY status"


def queue_counts(database_url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(database_url.replace("postgres://", "postgresql://")) as c:
        return dict(c.execute(QUEUE_SQL).fetchall())


def queue_drain(database_url: str, limit: float = 600) -> tuple[int, float, dict[str, int]]:
    """Tasks waiting (READY or RUNNING) when the load stops, the seconds until the worker has
    none left (polled every 0.1 s; `limit` at most), and the rows by state then."""
    start = time.monotonic()
    counts = queue_counts(database_url)
    left = counts.get("READY", 0) + counts.get("RUNNING", 0)
    while time.monotonic() - start < limit:
        counts = queue_counts(database_url)
        if not counts.get("READY", 0) + counts.get("RUNNING", 0):
            break
        time.sleep(0.1)
    return left, time.monotonic() - start, counts


def print_queue(left: int, seconds: float, counts: dict[str, int]) -> bool:
    """The queue's lines; whether it drained with no task failed."""
    waiting = counts.get("READY", 0) + counts.get("RUNNING", 0)
    print(
        f"  tasks queued at the end  {left:>10}  (rating replays; drained in {seconds:.1f} s"
        f"{'' if not waiting else f', {waiting} STILL WAITING'})"
    )
    print(
        "  tasks by state now       "
        + ", ".join(f"{k.lower()} {n}" for k, n in sorted(counts.items()))
    )
    if counts.get("FAILED", 0):  # tournament/tasks.py queues a failed replay again itself
        print("  a failed task's error    see the task's row: django_tasks_database_dbtaskresult")
    return not waiting and not counts.get("FAILED", 0)


def cpu_seconds(pids: list[int]) -> float:
    """User and system time the processes have used so far (/proc/<pid>/stat)."""
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def postgres_cpu() -> dict[int, float]:
    """CPU seconds each process of the machine's PostgreSQL has used so far, by pid (a backend
    that ends between the listing and the reading is left out)."""
    listed = subprocess.run(["pgrep", "-u", "postgres"], capture_output=True, text=True)
    spent = {}
    for pid in map(int, listed.stdout.split()):
        try:
            spent[pid] = cpu_seconds([pid])
        except (FileNotFoundError, ProcessLookupError):
            continue
    return spent


def peak_memory_mb(pid: int) -> float:
    for row in Path(f"/proc/{pid}/status").read_text().splitlines():
        if row.startswith("VmHWM:"):
            return int(row.split()[1]) / 1024
    return 0.0


class MemoryWatch:
    """The memory a group of processes holds together, read every `every` seconds while a run
    goes on: the sum of their proportional set sizes (Pss, /proc/<pid>/smaps_rollup — a page n
    of them share counts 1/n in each), which is what the machine gives them. The sum of their
    peak resident sizes (`peak_memory_mb`) counts every shared page once per process: the
    Python runtime, and the code and data gunicorn's workers share with their master."""

    def __init__(self, pids: list[int], every: float = 1.0) -> None:
        self.pids, self.every, self.peak = pids, every, 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> MemoryWatch:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        while True:
            self.peak = max(self.peak, sum(map(pss_mb, self.pids)))
            if self._stop.wait(self.every):
                return


def pss_mb(pid: int) -> float:
    """The process's proportional set size now, MB (0 once it has gone)."""
    try:
        rows = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
    except OSError:
        return 0.0
    return next((int(r.split()[1]) / 1024 for r in rows if r.startswith("Pss:")), 0.0)


# When the standings a page shows last changed: its "Last updated" time, the rows' own since
# issue 66 took the event's version off the page. The readers' checks (make load's two servers,
# make chaos) hold that no answer shows older standings than one answered before it.
_STANDINGS_TIME = re.compile(r'<p class="meta updated">[^<]*<time datetime="([^"]+)"')


def standings_time(html: str) -> datetime | None:
    """The time the standings in `html` (the page or its live fragment) last changed."""
    found = _STANDINGS_TIME.search(html)
    return datetime.fromisoformat(found.group(1)) if found else None


def backwards(seen: list[datetime]) -> int:
    """How many of the answers, in the order answered, showed older standings than one
    answered before them."""
    newest, count = datetime.min.replace(tzinfo=UTC), 0
    for changed in seen:
        count += changed < newest
        newest = max(newest, changed)
    return count
