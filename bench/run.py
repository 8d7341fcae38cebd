"""`make bench`: the figures in docs/performance.md, measured on this machine.

Synthetic national tournaments (1,024 players × 8 rounds, 2,048 games; then 10,000 players ×
10 rounds, 25,000 games: half by final scores, half hand by hand) are imported into a fresh
database, PostgreSQL and then SQLite, and timed: the import, the standings page and the CSV
download next to the bare SQL that reads every seat (the floor), a poll answered 304, the
queries a page costs at 64 players and at full size, and hand-by-hand games recorded through
the service with the standings the next reader pays. Then the engine alone (bench/engine.py):
hands replayed per second on one core, with the `mahjong` package pricing the same wins as a
reference. Every figure is the median of --runs (the 10,000-player import is timed once;
bench/measure.py: the timing, the printed lines, the databases and event files).

    python -m bench.run                       # both databases, then the engine
    python -m bench.run --database postgres   # one database only
    python -m bench.run --engine              # the engine only
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.club import bench_club
from bench.engine import bench_conditions, bench_engine, bench_plans
from bench.figures import FIGURES, figure
from bench.measure import PG_BENCH_DB, event_file, fresh_database, line, median_ms, verdict
from bench.organizer import bench_organizer_form
from bench.screen import bench_screen

# (players, rounds, the record + standings target in ms)
SHAPES = ((1024, 8, 20), (10000, 10, 60))


def first_reads(runs: int, poll_ms: float, page_ms: float) -> None:
    """What the reads an ETag is made from cost (selectors/versions.py, plain querysets since
    issue 45 took out the compiled ones): each read on the big event, against a 304 and a
    cached page."""
    from tournament.models import Entry, Game
    from tournament.selectors import versions
    from tournament.selectors.events import event_by_slug

    slug = "bench"
    game_id = Game.objects.filter(round__event__slug=slug).values_list("pk", flat=True).first()
    player_id = Entry.objects.filter(event__slug=slug).values_list("player_id", flat=True)[0]
    reads = {
        "event": lambda: event_by_slug(slug),
        "game sheet": lambda: versions.game_version(game_id, slug),
        "player": lambda: versions.player_events(player_id),
    }
    for name, read in reads.items():
        read_ms = median_ms(read, runs * 10)
        line(
            f"first read, {name}",
            f"{read_ms:.2f} ms",
            f"{100 * read_ms / poll_ms:.0f} % of a 304, {100 * read_ms / page_ms:.0f} % of a "
            "cached page",
        )


def bench_database(kind: str, players: int, rounds: int, runs: int) -> None:
    workdir = Path(tempfile.gettempdir()) / "jansou-bench"
    workdir.mkdir(exist_ok=True)
    os.environ["DATABASE_URL"] = fresh_database(kind, workdir)
    # Production settings, as gunicorn runs them (DEBUG off: no query log, compiled templates).
    os.environ.setdefault("SECRET_KEY", "bench-only-not-a-secret")
    os.environ["DEBUG"] = "0"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["STATIC_ROOT"] = str(workdir / "static")
    os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    # The static files first, as `make serve` collects them: a production server refuses to
    # start without their manifest (tournament/startup.py), and a fresh machine has none.
    manage_py = Path(__file__).resolve().parent.parent / "manage.py"
    subprocess.run(
        [sys.executable, str(manage_py), "collectstatic", "--no-input", "-v0"], check=True
    )
    # Started as gunicorn starts a worker: the WSGI module sets Django up (and freezes what
    # it loaded out of the collector's way).
    import tournament.wsgi  # noqa: F401
    from tournament.models import Event, Game
    from tournament.selectors.cache import clear_all
    from tournament.selectors.standings import published_standings
    from tournament.services.games import game_record, game_remove

    call_command("migrate", verbosity=0)
    big = event_file(workdir, players, rounds, "bench")
    small = event_file(workdir, 64, rounds, "bench-64")
    print(f"\n== {kind}: {players} players × {rounds} rounds, median of {runs} runs ==")

    def drop(slug: str) -> Callable[[], None]:
        return lambda: Event.objects.filter(slug=slug).delete()

    big_event = players > 2000  # imported once: a minute a run on this machine
    imported = median_ms(
        lambda: call_command("import_event", str(big), stdout=io.StringIO()),
        1 if big_event else runs,
        before=drop("bench"),
    )
    call_command("import_event", str(small), replace=True, stdout=io.StringIO())
    # Five imports dropped and re-made the event: let the tables settle as autovacuum would
    # before measuring reads (the floor below is measured in the same state).
    with connection.cursor() as cursor:
        cursor.execute("VACUUM" if kind == "sqlite" else "VACUUM ANALYZE")
        if kind == "sqlite":
            cursor.execute("ANALYZE")
    limit = 60 if big_event else 15
    met = kind != "postgres" or imported <= limit * 1000
    line(
        "import the event file",
        f"{imported / 1000:.2f} s",
        f"target ≤ {limit} s on PostgreSQL · {verdict(met)}",
    )

    client = Client()
    page, csv_url = "/events/bench/", "/events/bench/standings.csv"

    def get(address: str) -> Callable[[], None]:
        def fetch() -> None:
            response = client.get(address, secure=True)
            assert response.status_code == 200, (address, response.status_code)

        return fetch

    # The floor: the bare SQL the standings read (every seat with a result), nothing else.
    from tournament.models import Seat

    seats = (
        Seat.objects.filter(round__event__slug="bench", rank__isnull=False)
        .order_by("game_id", "position")
        .values_list("game_id", "round__number", "player__name", "rank", "points", "chips")
    )
    sql, params = seats.query.sql_with_params()

    def floor() -> None:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            cursor.fetchall()

    # What the standings read now: one row per player, with the figures the writes keep.
    from tournament.models import Entry

    kept = Entry.objects.filter(event__slug="bench").values_list(
        "player_id", "player__name", "substitute", "total", "games", "firsts", "results"
    )
    kept_sql, kept_params = kept.order_by().query.sql_with_params()

    def kept_floor() -> None:
        with connection.cursor() as cursor:
            cursor.execute(kept_sql, kept_params)
            cursor.fetchall()

    many = max(runs, 15)
    floor_ms = figure("floor", median_ms(floor, many))
    entries_ms = median_ms(kept_floor, many)
    cold = figure("first_after_write", median_ms(get(page), many, before=clear_all))
    warm = figure("standings", median_ms(get(page), many))
    csv_cold = median_ms(get(csv_url), many, before=clear_all)
    csv_warm = median_ms(get(csv_url), many)
    line(f"floor: bare SQL reading every seat ({players * rounds:,} rows)", f"{floor_ms:.1f} ms")
    line(f"bare SQL reading the entries' kept figures ({players:,})", f"{entries_ms:.1f} ms")
    line(
        "standings page, first 100 rows (as readers get it)",
        f"{warm:.1f} ms",
        f"{warm / floor_ms:.2f}× floor · target ≤ 5 ms · {verdict(warm <= 5)}",
    )
    line(
        "standings page, first after a write (nothing cached)",
        f"{cold:.1f} ms",
        f"{cold / floor_ms:.2f}× floor · target ≤ 3× · {verdict(cold <= 3 * floor_ms)}",
    )
    tag = client.get(page, secure=True)["ETag"]

    def poll() -> None:
        response = client.get(page, secure=True, HTTP_IF_NONE_MATCH=tag)
        assert response.status_code == 304, response.status_code

    poll_ms = median_ms(poll, many)
    line("a phone polling with nothing new (304)", f"{poll_ms:.1f} ms")
    first_reads(many, poll_ms, warm)
    line("full CSV export (cached standings)", f"{csv_warm:.1f} ms", f"{csv_warm / floor_ms:.2f}×")
    line(
        "full CSV export, first after a write", f"{csv_cold:.1f} ms", f"{csv_cold / floor_ms:.2f}×"
    )

    def count(address: str, clear: bool) -> int:
        if clear:
            clear_all()
        else:
            get(address)()  # the page as the next phone gets it
        with CaptureQueriesContext(connection) as captured:
            get(address)()
        return len(captured)

    for clear, label in ((True, "after a write"), (False, "cached")):
        few, lots = count("/events/bench-64/", clear), count(page, clear)
        label = f"{label}: 64 / {players:,}"
        line(
            f"queries per page, {label} players",
            f"{few} / {lots}",
            f"target ≤ 10, same · {verdict(few == lots <= 10)}",
        )

    # One more round, recorded table by table through the service, as an organizer would.
    event = Event.objects.get(slug="bench")
    from bench.synthetic import synthetic_event

    extra = synthetic_event(players, 1, seed=99)["games"]
    by_hands = [dict(g, round=rounds + 1) for g in extra if "hands" in g][: max(runs, 15)]
    queue = iter(by_hands)

    def record() -> None:
        game_record(event=event, data=next(queue))

    recorded = median_ms(record, len(by_hands))
    queue = iter(by_hands)
    # Taken back through the service, as an organizer would: the players' entries are counted
    # again and the event's version moves, so the bench event stays what a real one would be.
    for game in Game.objects.filter(round__event=event, round__number=rounds + 1):
        game_remove(game=game)

    def record_and_rank() -> None:
        record()
        # What the next reader pays: the event's row (a page's tag reads it), then the
        # standings — ranked from those this process held and the entries the result recounted.
        published_standings(Event.objects.get(pk=event.pk))

    published_standings(Event.objects.get(pk=event.pk))  # a reader came before
    both = figure("write", median_ms(record_and_rank, len(by_hands)))
    hands = statistics.mean(len(g["hands"]) for g in by_hands)
    target = next((t for p, _r, t in SHAPES if players <= p), SHAPES[-1][2])
    line(f"record one hand-by-hand game ({hands:.0f} hands), service", f"{recorded:.1f} ms")
    line(
        "… and the standings the next reader pays",
        f"{both:.1f} ms",
        f"target ≤ {target} ms · {verdict(both <= target)}",
    )
    bench_hand(event, rounds + 2, runs)
    bench_process_layer(event, many)
    bench_screen(client, event, many)
    bench_organizer_form(client, event, many)
    if not big_event:
        bench_paste(client, runs)
    bench_club(runs)  # last: it deletes the big event
    connection.close()


def bench_hand(event: Any, number: int, runs: int) -> None:
    """One hand played on at a table, as a phone sends it: the service's cost per hand."""
    from tournament.models import Entry
    from tournament.services.games import game_record
    from tournament.services.hands import game_hand_add

    names = list(Entry.objects.filter(event=event).values_list("player__name", flat=True)[:4])
    small = {"result": {"type": "ron", "discarder": 2, "wins": [{"seat": 1, "han": 1, "fu": 30}]}}
    game = game_record(
        event=event, data={"round": number, "table": 1, "seats": names, "hands": [small]}
    )
    times = []
    for _ in range(max(runs, 9)):
        start = time.perf_counter()
        game = game_hand_add(game=game, hand=small, expected_version=game.version)
        times.append((time.perf_counter() - start) * 1000)
    line("play one more hand at a table (one row), service", f"{statistics.median(times):.1f} ms")


def bench_process_layer(event: Any, runs: int) -> None:
    """Why each process keeps the ranked standings itself: what the shared cache would cost
    (pickle out, then in) against ranking them again from the entries."""
    import pickle

    from tournament.selectors.standings import rank_event

    value = rank_event(event)
    blob = pickle.dumps((value.standings, value.ids))
    ranked = median_ms(lambda: rank_event(event), runs)
    loaded = median_ms(lambda: pickle.loads(blob), runs)
    line(
        "standings object: rank again / unpickle from a cache",
        f"{ranked:.1f} / {loaded:.1f} ms",
        f"{len(blob) / 1e6:.1f} MB pickled",
    )


def bench_paste(client: Any, runs: int) -> None:
    """An organizer pastes 5,000 names into "Add players" (the form, the service, the
    redirect), each run into a new event; and 80,000 names, which are refused at once."""
    from django.contrib.auth import get_user_model

    from tournament.models import Entry, Event, Player
    from tournament.services.events import event_create

    admin = get_user_model().objects.create_superuser(f"bench-{os.getpid()}", "", "x")
    client.force_login(admin)
    counter = iter(range(10**6))
    target = {"slug": ""}  # the event the next run pastes into
    paste = "\n".join(f"Pasted {i:05d}" for i in range(5000))

    def fresh() -> None:
        Entry.objects.filter(player__name__startswith="Pasted ").delete()
        Player.objects.filter(name__startswith="Pasted ").delete()
        event = event_create(name=f"Paste {next(counter)}", ruleset="baba", players=[])
        target["slug"] = event.slug

    def post() -> None:
        reply = client.post(
            f"/events/{target['slug']}/manage/players/", {"players": paste}, secure=True
        )
        assert reply.status_code == 302, reply.status_code

    pasted = median_ms(post, runs, before=fresh)
    line(
        "add 5,000 pasted names (form and service)",
        f"{pasted:.0f} ms",
        f"target ≤ 1 s · {verdict(pasted <= 1000)}",
    )
    flood = "\n".join(f"Flood {i}" for i in range(80_000))

    def refuse() -> None:
        reply = client.post(
            f"/events/{target['slug']}/manage/players/", {"players": flood}, secure=True
        )
        assert reply.status_code == 400, reply.status_code

    refused = median_ms(refuse, runs)
    line("refuse a paste of 80,000 names", f"{refused:.0f} ms")
    Event.objects.filter(name__startswith="Paste ").delete()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=["postgres", "sqlite", "both"], default="both")
    parser.add_argument("--engine", action="store_true", help="the engine figures only")
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--figures", help="with one --database: write the figures (JSON) here")
    parser.add_argument(
        "--database-name",
        default=os.environ.get("BENCH_DB", PG_BENCH_DB),
        help="the PostgreSQL database (and SQLite file) to drop and fill (env BENCH_DB)",
    )
    args = parser.parse_args(argv)
    if not args.database_name.isidentifier():  # it goes into DROP DATABASE unquoted
        parser.error(f"--database-name: not a plain identifier: {args.database_name!r}")
    os.environ["BENCH_DB"] = args.database_name  # seen by fresh_database here and in children
    if args.engine:
        bench_engine(args.runs)
        bench_conditions(args.runs)
        bench_plans()
        return
    if args.database != "both":
        bench_database(args.database, args.players, args.rounds, args.runs)
        if args.figures:
            Path(args.figures).write_text(json.dumps(FIGURES))
        return
    # Each database and size in a process of its own: Django's settings are read once per
    # process, and each size gets a fresh database.
    shapes = (
        [(p, r) for p, r, _t in SHAPES] if args.players == 1024 else [(args.players, args.rounds)]
    )
    for players, rounds in shapes:
        common = ["--players", str(players), "--rounds", str(rounds), "--runs", str(args.runs)]
        for kind in ("postgres", "sqlite"):
            subprocess.run(
                [sys.executable, "-m", "bench.run", "--database", kind, *common], check=True
            )
    subprocess.run(
        [sys.executable, "-m", "bench.run", "--engine", "--runs", str(args.runs)], check=True
    )


if __name__ == "__main__":
    main()
