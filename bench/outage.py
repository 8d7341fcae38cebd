"""`make load`, second part: PostgreSQL stopped in the middle of saves, then started again.

gunicorn (production settings) serves a 64-player event; an organizer's phone logs in over
HTTP and keeps saving final scores of round 3's tables through the real form (page, CSRF token,
version, post), while readers keep fetching the standings, the live fragment and game sheets.
After a few seconds the cluster is stopped with `-m immediate` (as a crash or a pulled plug:
no time to finish anything), left down, and started again. Then:

- every answer is a page: 302/200 when saved/served, 503 "nothing was saved" while the database
  is gone; never a 500, never a dropped connection;
- every game holds exactly the last scores whose save was answered 302, its version counts
  those saves, one audit entry each; a save answered 503 left nothing behind;
- the whole event, exported and imported into an empty database (which checks every game
  through the engine again), gives the same standings as the one that went through the outage.

Needs root (pg_ctlcluster) and the local cluster; it is not a unit test because it stops the
server every other test uses.

    python -m bench.outage [--down 5] [--readers 6]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import Counter
from http.cookies import SimpleCookie
from pathlib import Path

from bench.load import PORT, manage, served_event, server_env, start_server
from bench.run import fresh_database

OUTAGE_DB = "jansou_outage"
CHECK_DB = "jansou_outage_check"
SLUG = "outage"
SCORES = [40000, 30000, 20000, 10000]

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


class Phone:
    """A browser as far as the organizer screens need one: cookies (kept by hand, because the
    production cookies are Secure and this is plain HTTP behind a pretend TLS proxy), the CSRF
    token, no redirects followed."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        origin = f"https://127.0.0.1:{PORT}"
        headers = {"X-Forwarded-Proto": "https", "Origin": origin, "Referer": origin + path}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            return response.status, response.read().decode()
        finally:
            connection.close()

    def fields(self, html: str) -> dict[str, str]:
        return dict(re.findall(r'name="(csrfmiddlewaretoken|version)" value="([^"]*)"', html))


def writer(
    phone: Phone, games: dict, stop: threading.Event, log: list, saved: dict[str, list]
) -> None:
    rng = random.Random(3)
    base = f"/events/{SLUG}/manage/games/"
    while not stop.is_set():
        for pk, game in games.items():
            if stop.is_set():
                break
            try:
                status, html = phone.request("GET", f"{base}{pk}/scores/")
                if status != 200:
                    log.append((time.monotonic(), "page", status))
                    time.sleep(0.2)
                    continue
                scores = rng.sample(SCORES, 4)
                form = {**phone.fields(html), "deposits": "0"}
                for i, (name, score) in enumerate(zip(game["names"], scores, strict=True)):
                    form[f"seat_{i}"], form[f"score_{i}"] = name, str(score)
                status, _ = phone.request("POST", f"{base}{pk}/scores/", form)
            except OSError as exc:
                log.append((time.monotonic(), "save", repr(exc)))
                continue
            log.append((time.monotonic(), "save", status))
            if status == 302:
                saved.setdefault(pk, []).append(scores)
            time.sleep(0.05)


def reader(paths: list[str], stop: threading.Event, log: list, seed: int) -> None:
    rng = random.Random(seed)
    phone = Phone()
    while not stop.is_set():
        try:
            status, _ = phone.request("GET", rng.choice(paths))
        except OSError as exc:
            status = repr(exc)
        log.append((time.monotonic(), "read", status))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=float, default=4, help="seconds of saves before")
    parser.add_argument("--down", type=float, default=5, help="seconds the database is down")
    parser.add_argument("--after", type=float, default=6, help="seconds of saves after")
    parser.add_argument("--readers", type=int, default=6)
    args = parser.parse_args(argv)

    workdir, env = served_event("jansou-outage", OUTAGE_DB, 64, 2, SLUG)
    games = json.loads(manage(env, "shell", "-v", "0", "-c", SETUP))
    paths = [f"/events/{SLUG}/", f"/events/{SLUG}/standings/live/"]
    paths += [f"/events/{SLUG}/games/{pk}/" for pk in list(games)[:8]]

    server = start_server(env, 2, f"/events/{SLUG}/", workdir / "gunicorn.log")
    log: list = []
    saved: dict[str, list] = {}
    stop = threading.Event()
    try:
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
        for t in threads:
            t.start()
        time.sleep(args.before)
        marks = [time.monotonic()]  # stop asked, stopped, start asked, started
        cluster("stop")
        marks.append(time.monotonic())
        time.sleep(args.down)
        marks.append(time.monotonic())
        cluster("start")
        marks.append(time.monotonic())
        time.sleep(args.after)
        stop.set()
        for t in threads:
            t.join(60)
        state = json.loads(manage(env, "shell", "-v", "0", "-c", STATE))
        served_csv = Phone().request("GET", f"/events/{SLUG}/standings.csv")[1]
    finally:
        stop.set()
        if subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1"]).returncode != 0:
            cluster("start")
        server.terminate()
        server.wait(20)

    # Re-check everything through the engine: export, import into an empty database.
    exported = workdir / "exported.json"
    manage(env, "export_event", SLUG, "--output", str(exported))
    check = server_env(workdir, fresh_database("postgres", workdir, CHECK_DB))
    manage(check, "migrate", "--no-input", "-v0")
    manage(check, "import_event", str(exported))
    standings_after = manage(env, "export_standings", SLUG)
    standings_again = manage(check, "export_standings", SLUG)

    phases = ("before", "stopping", "down", "starting", "after")

    def phase(t: float) -> str:
        return phases[sum(t >= m for m in marks)]

    counts = Counter((phase(t), kind, status) for t, kind, status in log)
    recovered = min(
        (t for t, kind, status in log if t >= marks[2] and status == 200 and kind == "read"),
        default=None,
    )
    wrong = []
    for pk, game in games.items():
        got = state["games"][pk]
        expected = saved.get(pk, [])
        want_scores = expected[-1] if expected else [None] * 4
        if got["scores"] != want_scores or got["version"] != game["version"] + len(expected):
            wrong.append((pk, got, want_scores, game["version"] + len(expected)))
    saves = sum(len(v) for v in saved.values())
    bad = {k: n for k, n in counts.items() if k[2] not in (200, 302, 503)}
    # Answers that came back while the cluster was down (not stopping, not starting).
    down_ok = all(status == 503 for t, kind, status in log if phase(t) == "down")

    print(
        f"\n== outage: PostgreSQL stopped (-m immediate) for {args.down:.0f} s under "
        f"{args.readers} readers and an organizer saving scores =="
    )
    print(
        f"  stop took {marks[1] - marks[0]:.2f} s, start {marks[3] - marks[2]:.2f} s"
        " (until pg_isready)"
    )
    for when in phases:
        row = sorted((kind, str(status), n) for (p, kind, status), n in counts.items() if p == when)
        print(f"  {when:<8} " + ", ".join(f"{kind} {status}: {n}" for kind, status, n in row))
    print(f"  other answers (target none)     {bad or 'none'}")
    print(f"  only 503 while down             {'yes' if down_ok else 'NO'}")
    print(
        "  first page served after start   "
        + (f"{recovered - marks[2]:.2f} s" if recovered else "NEVER")
    )
    print(
        f"  games as their last 302 left them  {len(games) - len(wrong)} of {len(games)}"
        f" ({saves} saves; audit entries {state['audit']})"
    )
    same_csv = standings_after == standings_again
    print(f"  standings = re-imported export   {'yes' if same_csv else 'NO'}")
    in_csv = served_csv.count("\n") - 1
    print(f"  standings served after           {in_csv} players")
    for item in wrong[:5]:
        print("  WRONG", item)
    if bad or wrong or not same_csv or state["audit"] != saves or not recovered or not down_ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
