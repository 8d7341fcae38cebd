"""`make load`: two app servers (gunicorn, production settings) sharing PostgreSQL and Redis on
loopback, as two machines behind a proxy would; 50 clients (wrk, half on each server) read the
standings, game and player pages for 60 s while a writer records a hand-by-hand game every
second through the service, and a checker polls the live fragment on both servers in turn. It
prints requests/s, p50/p95/p99, errors and each worker's peak memory; it checks that every
written game is in the standings readers are served at the end, and that no reader ever saw
older standings after newer ones (their "Last updated" time). The task queue's worker
(`manage.py task_worker`) runs beside the servers, as `make serve` runs it: the results writes
queue rating replays, and the end says how many were still queued and how long the worker took
to drain them.

`--day`: the tournament-day model instead (bench/day.py): one server on one core and 512 MB.

Ports and the database come from options or the environment (--port/BENCH_PORT,
--redis-port/BENCH_REDIS_PORT, --database-name/BENCH_DB); a port left at 0, the default, is
a free one the system picks, so two runs with different database names can go side by side."""

from __future__ import annotations

import argparse
import csv
import io
import json
import random
import signal
import subprocess
import sys
import threading
import urllib.request
from datetime import datetime
from pathlib import Path

from bench.engine import replay_rate
from bench.servers import (
    ROOT,
    add_place_options,
    backwards,
    cpu_seconds,
    manage,
    peak_memory_mb,
    postgres_cpu,
    print_queue,
    queue_drain,
    resolve_ports,
    served_event,
    standings_time,
    start_redis,
    start_server,
    start_worker,
)

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


class StandingsWatch(threading.Thread):
    """Polls the live fragment on every server in turn, one request after another, and keeps
    when the standings it shows last changed ("Last updated", the rows' time since issue 66:
    the event's version is no longer on the page): a later answer must never show older
    standings. An answer without that time is counted apart — a run that sees none has
    checked nothing, and fails."""

    def __init__(self, ports: list[int]) -> None:
        super().__init__(daemon=True)
        self.ports = ports
        self.seen: list[datetime] = []  # the standings' time, in the order answered
        self.unread = 0
        self.stop = threading.Event()

    def run(self) -> None:
        turn = 0
        while not self.stop.is_set():
            port = self.ports[turn % len(self.ports)]
            turn += 1
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/events/bench/standings/live/",
                headers={"X-Forwarded-Proto": "https"},
            )
            try:
                page = urllib.request.urlopen(request, timeout=10).read().decode()
            except OSError:
                continue  # counted by wrk's errors if it is the server's fault
            changed = standings_time(page)
            if changed is None:
                self.unread += 1
            else:
                self.seen.append(changed)


def run_wrk(script: Path, base: str, clients: int, seconds: int) -> subprocess.Popen:
    return subprocess.Popen(
        [
            "wrk",
            "-t1",
            f"-c{clients}",
            f"-d{seconds}s",
            "--timeout",
            "10s",
            "-s",
            str(script),
            base,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--day", action="store_true", help="the tournament-day model (bench/day.py) instead"
    )
    parser.add_argument(
        "--refresh", type=float, default=5, help="the day: seconds between standings refreshes"
    )
    parser.add_argument(
        "--hand-every", type=float, default=20, help="the day: seconds between a table's hands"
    )
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=int, help="default: 60; the day model's 120")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument(
        "--threads", type=int, default=1, help="the day: threads per gunicorn worker (1: sync)"
    )
    parser.add_argument(
        "--follow",
        choices=("poll", "stream"),
        default="poll",
        help="the day: players' phones poll the standings, or follow their stream (uvicorn)",
    )
    parser.add_argument(
        "--arrive",
        type=float,
        help="the day: seconds over which the players' phones open the standings (default: "
        "the refresh when they poll, each poll's phase; 60 when they follow the stream)",
    )
    parser.add_argument(
        "--players", type=int, help="default: 1,024; the day model's 256 (bench/day_clients.py)"
    )
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument(
        "--no-writer", action="store_true", help="readers alone: what the writes cost them"
    )
    add_place_options(parser, f"{LOAD_DB}; the day model's jansou_day")
    args = parser.parse_args(argv)
    # The machine's speed, which every figure below follows (the same code served 673 and 423
    # requests/s of readers alone on two days: docs/performance.md), printed first.
    print(f"\n== this machine: the engine replays {replay_rate():,.0f} hands/s on one core ==")
    if args.day:
        from bench.day import DAY_DB, run_day

        resolve_ports(parser, args, 1, DAY_DB)
        run_day(args)
        return
    args.seconds = args.seconds or 60
    args.players = args.players or 1024
    resolve_ports(parser, args, args.servers, LOAD_DB)

    # The folder is the database's: two runs side by side keep their files apart.
    folder = f"{args.database_name}-{args.players}"
    workdir, env = served_event(folder, args.database_name, args.players, args.rounds, "bench")
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
                "list(Player.objects.values_list('pk', flat=True))]))"
            ),
        )
    )
    rng = random.Random(1)
    paths = ["/events/bench/"] * 4 + ["/events/bench/standings/live/"] * 2
    paths += [f"/events/bench/games/{pk}/" for pk in rng.sample(ids[0], 40)]
    paths += [f"/players/{pk}/" for pk in rng.sample(ids[1], 40)]
    script = workdir / "load.lua"
    script.write_text(WRK_SCRIPT.replace("{PATHS}", "{" + ", ".join(f'"{p}"' for p in paths) + "}"))

    from bench.synthetic import synthetic_event

    extra = [g for g in synthetic_event(args.players, 1, seed=77)["games"] if "hands" in g]
    next_round = args.rounds + 1
    writes = [dict(g, round=next_round) for g in extra][: args.seconds]
    if args.no_writer:
        writes = []

    redis = start_redis(workdir, args.redis_port)
    env = {**env, "REDIS_URL": f"redis://127.0.0.1:{args.redis_port}/0"}
    ports = args.ports
    servers = [
        start_server(env, args.workers, "/events/bench/", workdir / f"gunicorn-{p}.log", p)
        for p in ports
    ]
    worker = start_worker(env, workdir / "task_worker.log")
    # The import left the whole event's ratings to replay (25,000 games at 10,000 players: 6 s
    # of a core): the worker does that before the clients start, as it would long before a
    # real day's first reader — the run measures the day, not the import.
    imported = queue_drain(env["DATABASE_URL"])
    try:
        workers = [
            int(pid)
            for server in servers
            for pid in subprocess.run(
                ["pgrep", "-P", str(server.pid)], capture_output=True, text=True
            ).stdout.split()
        ]
        watch = StandingsWatch(ports)
        watch.start()
        # What the servers' workers spend a request (the machine's speed moves p95 through the
        # queue in front of them; alternated runs compare this first).
        spent, database = cpu_seconds(workers), postgres_cpu()
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
        share = args.clients // len(ports)
        loads = [run_wrk(script, f"http://127.0.0.1:{p}", share, args.seconds) for p in ports]
        outputs = [load.communicate()[0] for load in loads]
        spent = cpu_seconds(workers) - spent
        database = sum(s - database.get(pid, 0.0) for pid, s in postgres_cpu().items())
        written = json.loads(writer.stdout.read())
        writer.wait()
        watch.stop.set()
        watch.join(20)
        queue = queue_drain(env["DATABASE_URL"])
        each = [json.loads(out.strip().splitlines()[-1]) for out in outputs]
        memory = [peak_memory_mb(pid) for pid in workers]

        # What a reader downloads now, from each server and the caches they share.
        downloads = []
        for port in ports:
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/events/bench/standings.csv",
                headers={"X-Forwarded-Proto": "https"},
            )
            downloads.append(urllib.request.urlopen(request).read())
        rows = list(csv.DictReader(io.StringIO(downloads[0].decode())))
        in_standings = sum(1 for r in rows if r.get(f"r{next_round}"))
        seated = {
            name for g in writes for name in g["seats"] if g["table"] in set(written["written"])
        }
    finally:
        for server in [*servers, worker]:
            server.send_signal(signal.SIGTERM)
        for server in [*servers, worker]:
            server.wait(20)
        redis.terminate()
        redis.wait(10)

    requests = sum(f["requests"] for f in each)
    seconds = max(f["seconds"] for f in each)
    print(
        f"\n== load: {args.clients} clients × {args.seconds} s, {args.servers} servers × "
        f"{args.workers} gunicorn workers, PostgreSQL + Redis, {args.players} players × "
        f"{args.rounds} rounds =="
    )
    print(
        f"  servers on :{', :'.join(map(str, ports))}, Redis :{args.redis_port}, database "
        f"{args.database_name}, the task queue's worker beside them"
    )
    print(
        f"  before the clients       the import's rating replay: {imported[1]:.1f} s"
        f"{'' if not imported[0] else ' (waited for)'}"
    )
    print(f"  requests                 {requests:>10,}")
    print(f"  requests/s               {requests / seconds:>10,.0f}")
    for port, f in zip(ports, each, strict=True):
        print(
            f"  server :{port} p50 / p95 / p99  {f['p50']:.1f} / {f['p95']:.1f} / "
            f"{f['p99']:.1f} ms (max {f['max']:.0f} ms), {f['requests']:,} requests"
        )
    print(
        f"  the servers' CPU         {spent:>10.1f} s  ({spent / requests * 1000:.2f} ms a "
        "request: their workers' user and system time)"
    )
    print(
        f"  PostgreSQL's CPU         {database:>10.1f} s  ({database / requests * 1000:.2f} ms a "
        "request: every process of the machine's server, the writer's and the worker's queries too)"
    )
    p95 = max(f["p95"] for f in each)
    print(
        f"  p95, the worse server    {p95:>10.1f} ms  (target ≤ 150 ms · "
        f"{'ok' if p95 <= 150 else 'MISSED'})"
    )
    status = sum(f["status_errors"] for f in each)
    sockets = sum(f["socket_errors"] for f in each)
    errors = status + sockets
    print(f"  errors                   {errors:>10}  (target 0: HTTP {status}, socket {sockets})")
    print(
        f"  games written            {len(written['written']):>10}  (failed: "
        f"{len(written['failed'])}{', ' + written['failed'][0] if written['failed'] else ''})"
    )
    ok = in_standings == len(seated) == 4 * len(written["written"])
    print(
        f"  in the standings at end  {in_standings:>10}  players with a round-{next_round} "
        f"result of {len(seated)} seated · {'ok' if ok else 'MISSING'}"
    )
    same = len(set(downloads)) == 1
    print(f"  both servers' CSV equal  {'yes' if same else 'NO':>10}")
    back = backwards(watch.seen)
    times = set(watch.seen)
    checked = bool(times) and not watch.unread
    print(
        f"  standings polled         {len(watch.seen):>10}  ({len(times)} different, alternating "
        f"servers; {watch.unread} without their time); older after newer: {back}"
        f" · {'ok' if back == 0 and checked else 'STALE' if back else 'NOT CHECKED'}"
    )
    print("  peak memory per worker   " + ", ".join(f"{m:.0f} MB" for m in memory))
    drained = print_queue(*queue)
    if errors or not ok or written["failed"] or back or not checked or not same or not drained:
        sys.exit(1)


if __name__ == "__main__":
    main()
