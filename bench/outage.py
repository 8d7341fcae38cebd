"""`make chaos` (and the last part of `make load`): three faults, each in the middle of writes
under load — Redis killed, PostgreSQL stopped, a gunicorn worker `kill -9`ed — then put right.

gunicorn (production settings, two workers, Redis as the shared cache) serves a 64-player
event; an organizer's phone logs in over HTTP and keeps saving final scores of round 3's
tables through the real form (page, CSRF token, version, post), while readers keep fetching
the standings, the live fragment and game sheets, and a watcher polls the live fragment for
when the standings last changed. For each fault:

- `redis`: redis-server killed (-9), left down, started again (empty, as a restart leaves it).
  Every page is made from the database meanwhile (tournament/redis_cache.py).
- `postgres`: the cluster stopped with `-m immediate` (a crash or a pulled plug), left down,
  started again. Answers are 503 "nothing was saved" meanwhile.
- `worker`: one gunicorn worker killed (-9) every second for a while; the master starts
  another. A request in flight on it loses its connection: the phone sends it again, as a
  phone does, up to twice half a second apart (bench/outage_traffic.py RESENDS; the same save
  twice is found, not written twice).

Then, printed: every answer (200/302/304, or 503 while PostgreSQL is down: anything else is an
error); lost writes (a save answered 302 that the game does not hold: target 0); readers that
saw older standings after newer ones (target 0; a run that read none fails); every game holds
exactly its last saved scores, its version counts its saves, one audit entry each (a save of the
scores a game holds already writes nothing: it counts for neither); and the whole
event, exported and imported into an empty database (which checks every game through the engine
again), gives the same standings.

The task queue's worker (`manage.py task_worker`) runs beside the server through every fault,
working off the ratings' replays each save queues: printed per fault, whether it is alive, the
tasks it did, and how long after the fault was mended the queue was empty again (issue 63:
`db_worker` died on PostgreSQL's first refusal and the queue stood still for good).

Also printed, per fault: the lines the servers logged at WARNING or worse and the mails ADMINS
got (a small SMTP sink on a loopback port stands in for the mail server). An outage is one line
and one mail at its start and at its end per worker process, not one per request
(tournament/outages.py): target at most 2 of each per worker. The phone, the readers, the
watcher and the sink: bench/outage_traffic.py.

Needs root (pg_ctlcluster, the local cluster) and Debian's redis-server; it is not a unit test
because it stops the server every other test uses.

    python -m bench.outage [--faults redis,postgres,worker] [--down 5] [--readers 6]

Ports and database names from options or the environment as in bench/load.py (--port,
--redis-port, --database-name; free ports by default); the re-import check uses the database
name with `_check` after it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.measure import fresh_database
from bench.outage_traffic import SLUG, MailSink, Phone, reader, watcher, writer
from bench.servers import (
    add_place_options,
    backwards,
    manage,
    queue_counts,
    resolve_ports,
    served_event,
    server_env,
    start_redis,
    start_server,
    start_worker,
)

OUTAGE_DB = "jansou_outage"
WORKERS = 2

SETUP = """
import json
from django.contrib.auth import get_user_model
from tournament.models import Event, Game
from tournament.services.rounds import round_seat
event = Event.objects.get(slug="outage")
user = get_user_model().objects.create_user("desk", "desk@example.org", "desk-password")
event.organizers.add(user)
round_seat(event=event)
games = Game.objects.filter(round__event=event, round__number=3).order_by("table")
print(json.dumps({
    g.pk: {"version": g.version, "names": [s.player.name for s in g.seats.order_by("position")]}
    for g in games
}))
"""

STATE = """
import json
from tournament.models import AuditEntry, Game
games = Game.objects.filter(round__event__slug="outage", round__number=3)
print(json.dumps({
    "games": {
        g.pk: {"version": g.version, "scores": [s.score for s in g.seats.order_by("position")]}
        for g in games
    },
    "audit": AuditEntry.objects.filter(
        event__slug="outage", action__in=["game.record", "game.correct"]
    ).count(),
}))
"""


def logged_lines(server_log: Path) -> list[str]:
    """The lines the servers logged at WARNING or worse, as settings.LOGGING writes them."""
    pattern = re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+ (WARNING|ERROR|CRITICAL) ")
    return [line for line in server_log.read_text().splitlines() if pattern.match(line)]


def cluster(action: str) -> None:
    version = sorted(p.name for p in Path("/etc/postgresql").iterdir())[-1]
    command = ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action]
    if action == "stop":
        command += ["-m", "immediate"]
    subprocess.run(command, check=True, capture_output=True)
    if action == "start":
        for _ in range(60):
            if subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1"]).returncode == 0:
                return
            time.sleep(0.25)


def workers_of(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children")
    return [int(pid) for pid in children.read_text().split()] if children.exists() else []


class Fault:
    """What is broken, and how it is put right; `down` marks the span answers may be 503."""

    def __init__(self, name: str, server: subprocess.Popen, redis: list, redis_port: int) -> None:
        self.name, self.server, self.redis, self.redis_port = name, server, redis, redis_port
        self.killed = 0

    def break_(self, seconds: float) -> None:
        if self.name == "redis":
            self.redis[0].kill()
            self.redis[0].wait()
            time.sleep(seconds)
        elif self.name == "postgres":
            cluster("stop")
            time.sleep(seconds)
        else:  # worker: one killed every second, the master starting another each time
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                pids = workers_of(self.server.pid)
                if pids:
                    os.kill(random.choice(pids), signal.SIGKILL)
                    self.killed += 1
                time.sleep(1)

    def mend(self, workdir: Path) -> None:
        if self.name == "redis":
            self.redis[0] = start_redis(workdir, self.redis_port)
        elif self.name == "postgres":
            cluster("start")


def run_fault(
    fault: Fault,
    args: argparse.Namespace,
    env: dict,
    workdir: Path,
    games: dict,
    paths: list,
    sink: MailSink,
    worker: subprocess.Popen,
) -> bool:
    """One fault under load; prints its figures; whether every target was met."""
    before = json.loads(manage(env, "shell", "-v", "0", "-c", STATE))
    tasks_before = queue_counts(env["DATABASE_URL"])
    worker_log = workdir / "task_worker.log"
    worker_lines_before = len(logged_lines(worker_log))
    server_log = workdir / "gunicorn.log"
    logged_before = server_log.read_text().count("Traceback")
    lines_before = len(logged_lines(server_log))
    mails_before = len(sink.subjects)
    log: list = []
    saved: dict[str, list] = {}
    seen: list[datetime] = []
    stop = threading.Event()
    phone = Phone()
    status, html = phone.request("GET", "/accounts/login/")
    form = {**phone.fields(html), "username": "desk", "password": "desk-password"}
    status, _ = phone.request("POST", "/accounts/login/", form)
    if status != 302:
        sys.exit(f"the organizer could not log in ({status})")
    threads = [threading.Thread(target=writer, args=(phone, games, stop, log, saved))]
    threads += [
        threading.Thread(target=reader, args=(paths, stop, log, i)) for i in range(args.readers)
    ]
    threads.append(threading.Thread(target=watcher, args=(stop, seen)))
    for t in threads:
        t.start()
    try:
        time.sleep(args.before)
        marks = [time.monotonic()]
        fault.break_(args.down)
        marks.append(time.monotonic())
        fault.mend(workdir)
        marks.append(time.monotonic())
        # The task queue caught up: the first look after the fault was mended that finds no
        # task ready to run (the saves go on queueing more, each taken within a second).
        caught_up = None
        while time.monotonic() < marks[2] + args.after:
            tasks = queue_counts(env["DATABASE_URL"])
            if caught_up is None and not tasks.get("READY") and not tasks.get("RUNNING"):
                caught_up = time.monotonic() - marks[2]
            time.sleep(0.2)
    finally:
        stop.set()
        for t in threads:
            t.join(60)
        if subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1"]).returncode != 0:
            cluster("start")
    # The task queue's worker, which saw the same fault: every task the saves queued (the
    # ratings' replays) done, and how long after the fault was mended the queue was empty.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        tasks = queue_counts(env["DATABASE_URL"])
        if not tasks.get("READY") and not tasks.get("RUNNING"):
            if caught_up is None:
                caught_up = time.monotonic() - marks[2]
            break
        time.sleep(0.2)
    state = json.loads(manage(env, "shell", "-v", "0", "-c", STATE))

    phases = ("before", "down", "mending", "after")

    def phase(t: float) -> str:
        return phases[sum(t >= m for m in marks)]

    # 503 is the documented answer only while PostgreSQL is away (down, or starting again).
    def allowed(when: str, status: Any) -> bool:
        if status in (200, 302, 304):
            return True
        return status == 503 and fault.name == "postgres" and when in ("down", "mending")

    counts = Counter((phase(t), kind, status) for t, kind, status, _r in log)
    errors = {k: n for k, n in counts.items() if not allowed(k[0], k[2])}
    resent = sum(1 for *_x, r in log if r)
    lost, wrong, moved = 0, [], 0
    for pk in games:
        got = state["games"][pk]
        expected = saved.get(pk, [])
        want = expected[-1] if expected else before["games"][pk]["scores"]
        # Each save answered 302 moved the game's version once — but one that saved the scores
        # the game already had (rng.sample picks them again one time in 24), which writes
        # nothing (services/games.py `game_correct`, issue 66).
        version, held = before["games"][pk]["version"], before["games"][pk]["scores"]
        for scores in expected:
            version += scores != held
            moved += scores != held
            held = scores
        if expected and got["scores"] != want:
            lost += 1
        if got["scores"] != want or got["version"] != version:
            wrong.append((pk, got, want, version))
    saves = sum(len(v) for v in saved.values())
    audit = state["audit"] - before["audit"]
    back = backwards(seen)

    what = {
        "redis": "Redis killed (-9) and started again empty",
        "postgres": "PostgreSQL stopped (-m immediate) and started again",
        "worker": f"a gunicorn worker killed (-9) every second ({fault.killed} killed)",
    }[fault.name]
    print(f"\n== {what}: {args.down:.0f} s under {args.readers} readers and saving scores ==")
    for when in phases:
        row = sorted((k, str(st), n) for (p, k, st), n in counts.items() if p == when)
        print(f"  {when:<8} " + ", ".join(f"{k} {st}: {n}" for k, st, n in row))
    print(f"  errors (target 0)                {sum(errors.values())} {errors or ''}")
    print(f"  sent again after a dropped connection  {resent}")
    print(f"  lost writes (target 0)           {lost}")
    print(
        f"  older after newer (target 0)     {back} of {len(seen)} answers watched"
        + ("" if seen else " — NONE: nothing was checked")
    )
    print(
        f"  games as their saves left them   {len(games) - len(wrong)} of {len(games)}"
        f" ({saves} saves answered 302, {moved} of them new scores; audit entries {audit})"
    )
    tracebacks = server_log.read_text().count("Traceback") - logged_before
    print(f"  tracebacks the servers logged    {tracebacks}")
    lines = logged_lines(server_log)[lines_before:]
    mails = sink.subjects[mails_before:]
    most = 2 * WORKERS  # an outage's start and end, per worker process
    print(f"  lines logged, WARNING or worse   {len(lines)} (target at most {most})")
    for line in lines[:8]:
        print(f"    {line[:150]}")
    # The task worker's outage mails too, its start and end: the database's, and Redis's since
    # the queue makes the standings after a result into the shared cache (publish_task).
    most_mails = most + (2 if fault.name in ("postgres", "redis") else 0)
    print(f"  mails to ADMINS                  {len(mails)} (target at most {most_mails})")
    for subject in mails[:8]:
        print(f"    {subject}")
    done = tasks.get("SUCCESSFUL", 0) - tasks_before.get("SUCCESSFUL", 0)
    alive = worker.poll() is None
    print(
        f"  task worker alive (target yes)   {'yes' if alive else 'NO'}; {done} tasks done, "
        f"{tasks.get('READY', 0)} waiting, {tasks.get('FAILED', 0)} failed in all"
    )
    if caught_up is None:
        print("  queue caught up                  NO, 120 s after the fault was mended")
    else:
        print(f"  queue caught up                  {caught_up:.1f} s after the fault was mended")
    worker_lines = logged_lines(worker_log)[worker_lines_before:]
    print(f"  task worker's lines, WARNING+    {len(worker_lines)} (target at most 3)")
    for line in worker_lines[:4]:
        print(f"    {line[:150]}")
    if fault.name == "worker":
        most = len(lines)  # a killed worker is gunicorn's line each time, not an outage
    for item in wrong[:5]:
        print("  WRONG", item)
    # The task worker's outage: a line and a mail at its start and at its end, and a line for
    # a task it queued again.
    quiet = len(lines) <= most and len(mails) <= most_mails and len(worker_lines) <= 3
    worked = alive and caught_up is not None
    return (
        not errors
        and not lost
        and not wrong
        and bool(seen)
        and back == 0
        and audit == moved
        and quiet
        and worked
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--faults", default="redis,postgres,worker")
    parser.add_argument("--before", type=float, default=4, help="seconds of saves before")
    parser.add_argument("--down", type=float, default=5, help="seconds the fault lasts")
    parser.add_argument("--after", type=float, default=6, help="seconds of saves after")
    parser.add_argument("--readers", type=int, default=6)
    add_place_options(parser, OUTAGE_DB)
    args = parser.parse_args(argv)
    resolve_ports(parser, args, 1, OUTAGE_DB)
    Phone.port = args.ports[0]

    workdir, env = served_event(args.database_name, args.database_name, 64, 2, SLUG)
    sink = MailSink()
    env = {
        **env,
        "REDIS_URL": f"redis://127.0.0.1:{args.redis_port}/0",
        "ADMINS": "chaos@example.org",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(sink.port),
    }
    games = json.loads(manage(env, "shell", "-v", "0", "-c", SETUP))
    paths = [f"/events/{SLUG}/", f"/events/{SLUG}/standings/live/"]
    paths += [f"/events/{SLUG}/games/{pk}/" for pk in list(games)[:8]]
    paths += [f"/events/{SLUG}/standings.csv"]

    redis = [start_redis(workdir, args.redis_port)]
    server = start_server(env, WORKERS, f"/events/{SLUG}/", workdir / "gunicorn.log", Phone.port)
    worker = start_worker(env, workdir / "task_worker.log")
    met = True
    try:
        for name in args.faults.split(","):
            fault = Fault(name, server, redis, args.redis_port)
            met &= run_fault(fault, args, env, workdir, games, paths, sink, worker)
    finally:
        worker.terminate()
        worker.wait(20)
        if subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1"]).returncode != 0:
            cluster("start")
        server.terminate()
        server.wait(20)
        redis[0].terminate()
        redis[0].wait(10)

    # Re-check everything through the engine: export, import into an empty database.
    exported = workdir / "exported.json"
    manage(env, "export_event", SLUG, "--output", str(exported))
    check_db = f"{args.database_name}_check"
    check = server_env(workdir, fresh_database("postgres", workdir, check_db))
    manage(check, "migrate", "--no-input", "-v0")
    manage(check, "import_event", str(exported))
    same = manage(env, "export_standings", SLUG) == manage(check, "export_standings", SLUG)
    print(f"\n  standings = re-imported export   {'yes' if same else 'NO'}")
    if not (met and same):
        sys.exit(1)


if __name__ == "__main__":
    main()
