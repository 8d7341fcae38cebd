"""`make load`, issue 49's figure: seating a 256-player round with every player subscribed to
Web Push does not slow the organizer's request. The organizer's seating request (POST
/events/<slug>/manage/rounds/, as the round form sends it) is timed on events of 256 players
with nobody subscribed and with all 256 subscribed, alternately, median of --runs (9) each: the
request only queues the messages (one INSERT and the task, in the seating's own transaction,
services/push.py); nothing is sent during it — no worker runs here, as none would answer
within the request. Beside the two medians, the time the request spent queueing the messages
(the seating service's call of push_round_seated, timed inside it): the two requests differ by
more than that from run to run on a machine doing anything else.

Production settings (DEBUG off), the machine's PostgreSQL, a database of its own
(--database-name, default jansou_push: dropped and made again). Prints both medians, the
time spent queueing, and the verdict: queueing 256 messages costs at most 10 % of the request
(or 10 ms, whichever is more).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.measure import fresh_database, line, verdict

PLAYERS = 256
DB = "jansou_push"


def setup(database: str) -> None:
    """Django on a fresh database, as gunicorn runs it, with a VAPID key (the site sends)."""
    workdir = Path(tempfile.gettempdir()) / "jansou-bench"
    workdir.mkdir(exist_ok=True)
    os.environ["DATABASE_URL"] = fresh_database("postgresql", workdir, database)
    os.environ.setdefault("SECRET_KEY", "bench-only-not-a-secret")
    os.environ["DEBUG"] = "0"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["STATIC_ROOT"] = str(workdir / "static")
    os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
    from tournament.push_keys import private_key_new  # plain cryptography: no Django yet

    os.environ["VAPID_PRIVATE_KEY"] = private_key_new()
    manage_py = Path(__file__).resolve().parent.parent / "manage.py"
    # A production server refuses to start without its static files' manifest.
    subprocess.run(
        [sys.executable, str(manage_py), "collectstatic", "--no-input", "-v0"], check=True
    )
    from django.core.management import call_command

    import tournament.wsgi  # noqa: F401 — Django set up as a gunicorn worker sets it up

    call_command("migrate", verbosity=0)


QUEUEING: list[float] = []  # ms each request spent queueing its messages (push_round_seated)


def timed_queueing() -> None:
    """The seating service's call that queues the messages, timed inside the request: the
    part of it Web Push adds, read without the noise of two requests compared."""
    from tournament.services import rounds

    queue = rounds.push_round_seated

    def timed(*args: object, **kwargs: object) -> int:
        start = time.perf_counter()
        try:
            return queue(*args, **kwargs)
        finally:
            QUEUEING.append((time.perf_counter() - start) * 1000)

    rounds.push_round_seated = timed


def seating_ms(client: object, slug: str, subscribed: int) -> float:
    """A 256-player event, `subscribed` of its players subscribed; the organizer's seating
    request for round 1, in ms."""
    from tournament.models import Entry, Notification, PushSubscription
    from tournament.services.events import event_create

    names = [f"Push player {i:03d}" for i in range(PLAYERS)]
    event = event_create(name=f"Push bench {slug}", slug=slug, ruleset="baba", players=names)
    players = Entry.objects.filter(event=event).values_list("player_id", flat=True)
    PushSubscription.objects.bulk_create(
        PushSubscription(
            event=event,
            player_id=player,
            # Never sent: nothing runs the queue here.
            endpoint=f"https://fcm.googleapis.com/fcm/send/bench-{slug}-{player}",
            p256dh="k",
            auth="a",
            language="en",
        )
        for player in list(players)[:subscribed]
    )
    start = time.perf_counter()
    response = client.post(  # type: ignore[attr-defined]
        f"/events/{slug}/manage/rounds/", {"method": "random", "round": 1}, secure=True
    )
    ms = (time.perf_counter() - start) * 1000
    assert response.status_code == 302, (slug, response.status_code)
    queued = Notification.objects.filter(round__event=event).count()
    assert queued == subscribed, (slug, queued, subscribed)
    return ms


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--database-name", default=os.environ.get("BENCH_PUSH_DB", DB))
    args = parser.parse_args(argv)
    setup(args.database_name)
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    organizer = get_user_model().objects.create_superuser("push-bench", "", "x")
    client.force_login(organizer)
    seating_ms(client, "warm-up", PLAYERS)  # the first request loads what every later one has
    timed_queueing()
    times: dict[int, list[float]] = {0: [], PLAYERS: []}
    queueing: dict[int, list[float]] = {0: [], PLAYERS: []}
    for run in range(args.runs):
        for subscribed in (0, PLAYERS) if run % 2 == 0 else (PLAYERS, 0):
            times[subscribed].append(seating_ms(client, f"push-{subscribed}-{run}", subscribed))
            queueing[subscribed].append(QUEUEING.pop())
    nobody, everyone = statistics.median(times[0]), statistics.median(times[PLAYERS])
    print(
        f"\n== issue 49: the organizer seats a {PLAYERS}-player round, "
        f"median of {args.runs} runs (PostgreSQL) =="
    )
    spread = {k: f"{min(v):.0f}–{max(v):.0f} ms over the runs" for k, v in times.items()}
    line("seating request, nobody subscribed", f"{nobody:.1f} ms", spread[0])
    line(f"seating request, all {PLAYERS} subscribed", f"{everyone:.1f} ms", spread[PLAYERS])
    line("  of which queueing, nobody subscribed", f"{statistics.median(queueing[0]):.1f} ms")
    added = statistics.median(queueing[PLAYERS])
    allowed = max(10.0, nobody * 0.10)
    line(
        f"  of which queueing {PLAYERS} messages",
        f"{added:.1f} ms",
        f"target ≤ {allowed:.0f} ms (10 % of the request) · {verdict(added <= allowed)}",
    )
    line("difference of the two requests' medians", f"{everyone - nobody:+.1f} ms", "(noisy)")


if __name__ == "__main__":
    main()
