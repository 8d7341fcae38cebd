"""`make load`: gunicorn with production settings and PostgreSQL on loopback; 50 concurrent
clients (wrk) read the standings, game and player pages for 60 s while a writer records a
hand-by-hand game every second through the service. Prints requests/s, p50/p95/p99, errors,
the peak memory of each worker, and checks that every written game is in the standings that
readers are served at the end."""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from bench.run import event_file, fresh_database

ROOT = Path(__file__).resolve().parent.parent
PORT = 8077
LOAD_DB = "jansou_load"

WRK_SCRIPT = """
-- Every client picks a page at random: standings (page and live fragment), a game, a player.
local paths = {PATHS}
request = function()
  local path = paths[math.random(#paths)]
  return wrk.format("GET", path, {["X-Forwarded-Proto"] = "https"})
end
done = function(summary, latency, requests)
  io.write(string.format(
    '{"requests": %d, "seconds": %.3f, "p50": %.2f, "p95": %.2f, "p99": %.2f, "max": %.2f, '
    .. '"status_errors": %d, "socket_errors": %d}\\n',
    summary.requests, summary.duration / 1e6,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000,
    summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
"""

WRITER = """
import json, sys, time
import django
django.setup()
from tournament.models import Event
from tournament.services.games import game_record
games = json.loads(sys.stdin.read())
event = Event.objects.get(slug="bench")
written, failed = [], []
start = time.monotonic()
for i, game in enumerate(games):
    wait = start + i - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    try:
        game_record(event=event, data=game)
        written.append(game["table"])
    except Exception as exc:  # report, go on: the load must not stop the writer
        failed.append(repr(exc))
print(json.dumps({"written": written, "failed": failed}))
"""


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


def start_server(env: dict[str, str], workers: int, ready_path: str, log: Path) -> subprocess.Popen:
    """gunicorn on PORT, returned once `ready_path` answers. Its errors go to `log` (a pipe
    nobody reads would fill up and stall the workers the first time they log a traceback)."""
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "tournament.wsgi",
            "-w",
            str(workers),
            "-b",
            f"127.0.0.1:{PORT}",
            "--access-logfile",
            "-",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("w"),
        text=True,
    )
    request = urllib.request.Request(
        f"http://127.0.0.1:{PORT}{ready_path}", headers={"X-Forwarded-Proto": "https"}
    )
    for _ in range(50):
        try:
            urllib.request.urlopen(request)
            break
        except OSError:
            time.sleep(0.2)
    return server


def peak_memory_mb(pid: int) -> float:
    for row in Path(f"/proc/{pid}/status").read_text().splitlines():
        if row.startswith("VmHWM:"):
            return int(row.split()[1]) / 1024
    return 0.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--players", type=int, default=1024)
    args = parser.parse_args(argv)

    workdir, env = served_event("jansou-load", LOAD_DB, args.players, 8, "bench")
    ids = json.loads(
        manage(
            env,
            "shell",
            "-v",
            "0",
            "-c",
            (
                "import json; from tournament.models import Game, Player; "
                "print(json.dumps([list(Game.objects.filter(round__event__slug='bench')"
                ".values_list('pk', flat=True)), "
                "list(Player.objects.values_list('name', flat=True))]))"
            ),
        )
    )
    rng = random.Random(1)
    paths = ["/events/bench/"] * 4 + ["/events/bench/standings/live/"] * 2
    paths += [f"/events/bench/games/{pk}/" for pk in rng.sample(ids[0], 40)]
    paths += [f"/players/{name}/" for name in rng.sample(ids[1], 40)]
    script = workdir / "load.lua"
    script.write_text(WRK_SCRIPT.replace("{PATHS}", "{" + ", ".join(f'"{p}"' for p in paths) + "}"))

    from bench.synthetic import synthetic_event

    extra = [g for g in synthetic_event(args.players, 1, seed=77)["games"] if "hands" in g]
    writes = [dict(g, round=9) for g in extra][: args.seconds]

    server = start_server(env, args.workers, "/events/bench/", workdir / "gunicorn.log")
    try:
        base = f"http://127.0.0.1:{PORT}"
        workers = [
            int(p)
            for p in subprocess.run(
                ["pgrep", "-P", str(server.pid)], capture_output=True, text=True
            ).stdout.split()
        ]
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        writer.stdin.write(json.dumps(writes))
        writer.stdin.close()
        wrk = subprocess.run(
            [
                "wrk",
                "-t2",
                f"-c{args.clients}",
                f"-d{args.seconds}s",
                "--timeout",
                "10s",
                "-s",
                str(script),
                base,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        written = json.loads(writer.stdout.read())
        writer.wait()
        figures = json.loads(wrk.stdout.strip().splitlines()[-1])
        memory = [peak_memory_mb(pid) for pid in workers]

        # What a reader downloads now, through the same workers and their caches.
        request = urllib.request.Request(
            base + "/events/bench/standings.csv", headers={"X-Forwarded-Proto": "https"}
        )
        rows = list(csv.DictReader(io.StringIO(urllib.request.urlopen(request).read().decode())))
        in_standings = sum(1 for r in rows if r.get("r9"))
        seated = {
            name for g in writes for name in g["seats"] if g["table"] in set(written["written"])
        }
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)

    print(
        f"\n== load: {args.clients} clients × {args.seconds} s, gunicorn {args.workers} workers,"
        f" PostgreSQL, {args.players} players =="
    )
    print(f"  requests                 {figures['requests']:>10,}")
    print(f"  requests/s               {figures['requests'] / figures['seconds']:>10,.0f}")
    print(
        f"  latency p50 / p95 / p99  {figures['p50']:.1f} / {figures['p95']:.1f} / "
        f"{figures['p99']:.1f} ms (max {figures['max']:.0f} ms)"
    )
    errors = figures["status_errors"] + figures["socket_errors"]
    print(
        f"  errors                   {errors:>10}  (target 0: HTTP {figures['status_errors']},"
        f" socket {figures['socket_errors']})"
    )
    print(
        f"  games written            {len(written['written']):>10}  (failed: "
        f"{len(written['failed'])}{', ' + written['failed'][0] if written['failed'] else ''})"
    )
    ok = in_standings == len(seated) == 4 * len(written["written"])
    print(
        f"  in the standings at end  {in_standings:>10}  players with a round-9 result of "
        f"{len(seated)} seated · {'ok' if ok else 'MISSING'}"
    )
    print("  peak memory per worker   " + ", ".join(f"{m:.0f} MB" for m in memory))
    if errors or not ok or written["failed"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
