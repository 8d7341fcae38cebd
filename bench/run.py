"""`make bench`: the figures in docs/performance.md, measured on this machine.

Synthetic national tournaments (1,024 players × 8 rounds, 2,048 games; then 10,000 players ×
10 rounds, 25,000 games: half by final scores, half hand by hand) are imported into a fresh
database, PostgreSQL and then SQLite, and timed: the import, the standings page and the CSV
download next to the bare SQL that reads every seat (the floor), a poll answered 304, the
queries a page costs at 64 players and at full size, and hand-by-hand games recorded through
the service with the standings the next reader pays. Then the engine alone: hands replayed per
second on one core, with the `mahjong` package pricing the same wins as a reference. Every
figure is the median of --runs (the 10,000-player import is timed once).

    python -m bench.run                       # both databases, then the engine
    python -m bench.run --database postgres   # one database only
    python -m bench.run --engine              # the engine only
"""

from __future__ import annotations

import argparse
import functools
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
from bench.figures import FIGURES, figure
from bench.organizer import bench_organizer_form
from bench.screen import bench_screen

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN_URL = os.environ.get("PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")
# The default database name; --database-name or BENCH_DB picks another, so two benches (or a
# bench and `make load`) can run side by side on one PostgreSQL.
PG_BENCH_DB = "jansou_bench"


def median_ms(fn: Callable[[], Any], runs: int, before: Callable[[], Any] | None = None) -> float:
    """Median wall time of `fn` in ms; `before` runs untimed ahead of each run."""
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def replay_rate(games: list[list[Any]] | None = None, runs: int = 5) -> float:
    """Hands the engine replays a second, already parsed, on one core (the `make bench`
    figure; `make load` prints it too, as the machine's speed its figures go with). `games`:
    each game's hands as event files give them (default: a 256-player round of
    bench/synthetic.py)."""
    from bench.synthetic import synthetic_event
    from scoring import PRESETS, parse_hand, replay

    rules = PRESETS["baba"]
    if games is None:
        games = [g["hands"] for g in synthetic_event(256, 4)["games"] if "hands" in g]
    parsed = [[parse_hand(h, rules, 4) for h in game] for game in games]

    def replay_all() -> None:
        for hands in parsed:
            replay(rules, 4, hands)

    return sum(len(h) for h in parsed) / median_ms(replay_all, runs) * 1000


def line(label: str, value: str, target: str = "") -> None:
    print(f"  {label:<52} {value:>14}  {target}")


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


# --- one database ------------------------------------------------------------------------------


def fresh_database(kind: str, workdir: Path, name: str | None = None) -> str:
    """An empty database (PostgreSQL: `name`, dropped and made again), as a DATABASE_URL."""
    # Read at call time: main() puts --database-name in BENCH_DB for itself and its children.
    name = name or os.environ.get("BENCH_DB", PG_BENCH_DB)
    if kind == "sqlite":
        path = workdir / f"{name}.sqlite3"
        path.unlink(missing_ok=True)
        return f"sqlite:///{path}"
    import psycopg

    with psycopg.connect(
        PG_ADMIN_URL.replace("postgres://", "postgresql://"), autocommit=True
    ) as c:
        c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        c.execute(f"CREATE DATABASE {name}")
    return PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name


def event_file(workdir: Path, players: int, rounds: int, slug: str) -> Path:
    from bench.synthetic import synthetic_event

    path = workdir / f"{slug}-{players}x{rounds}.json"  # made once per shape, then reused
    if not path.exists():
        path.write_text(json.dumps(synthetic_event(players, rounds, slug=slug)), encoding="utf-8")
    return path


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

    from tournament.selectors.standings import _ranked

    value = _ranked(event)
    blob = pickle.dumps((value.standings, value.ids))
    ranked = median_ms(lambda: _ranked(event), runs)
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


# --- the engine alone --------------------------------------------------------------------------


def bench_engine(runs: int) -> None:
    from mahjong.constants import EAST, SOUTH
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.hand_calculating.scores import ScoresCalculator

    from bench.synthetic import synthetic_event
    from scoring import PRESETS, parse_hand, replay
    from scoring.hands import Ron, Tsumo, price_hand

    rules = PRESETS["baba"]
    games = [g["hands"] for g in synthetic_event(1024, 8)["games"] if "hands" in g]
    count = sum(len(h) for h in games)
    print(f"\n== scoring engine, one core: {len(games)} games, {count} hands ==")

    def parse_and_replay() -> None:
        for game in games:
            replay(rules, 4, [parse_hand(h, rules, 4) for h in game])

    rate = replay_rate(games, runs)
    full_ms = median_ms(parse_and_replay, runs)
    parsed = [[parse_hand(h, rules, 4) for h in game] for game in games]
    line(
        "replay (hands already parsed)",
        f"{rate:,.0f} hands/s",
        f"target ≥ 20,000/s · {verdict(rate >= 20000)}",
    )
    line("parse and replay (what an import does)", f"{count / full_ms * 1000:,.0f} hands/s")

    # Real Tenhou games (tests/scoring/tenhou_logs): read the log, replay it through `tenhou`
    # and compare every hand with the log — what `import_tenhou` asks of the engine.
    from pathlib import Path

    from scoring.tenhou import check_log, read_log

    logs = [p.read_bytes() for p in sorted(Path("tests/scoring/tenhou_logs").glob("*.mjlog"))]
    logs = [raw for raw in logs if b"owari" in raw]
    log_hands = sum(len(read_log(raw).hands) for raw in logs)

    def tenhou_logs() -> None:
        for raw in logs:
            check_log(PRESETS["tenhou"], read_log(raw))

    logs_ms = median_ms(tenhou_logs, runs)
    line(
        f"Tenhou logs read and checked ({len(logs)} real games, {log_hands} hands)",
        f"{log_hands / logs_ms * 1000:,.0f} hands/s",
    )

    # The same wins priced alone: ours and the mahjong package's ScoresCalculator.
    wins: list[tuple[Any, int, int]] = []  # (hand, dealer, honba)
    for hands in parsed:
        flow = replay(rules, 4, hands)
        for hand, record in zip(hands, flow.records, strict=True):
            result = hand.result
            if isinstance(result, Tsumo) or (isinstance(result, Ron) and len(result.wins) == 1):
                bare = parse_hand({"riichi": [], "result": _result_json(result)}, rules, 4)
                wins.append((bare, record.dealer, record.honba))

    def ours() -> list[int]:
        out = []
        for hand, dealer, honba in wins:
            outcome = price_hand(rules, hand, players=4, dealer=dealer, honba=honba)
            out.append(max(outcome.deltas))
        return out

    def theirs() -> list[int]:
        out = []
        for hand, dealer, honba in wins:
            result = hand.result
            win = result.win if isinstance(result, Tsumo) else result.wins[0]
            config = HandConfig(
                is_tsumo=isinstance(result, Tsumo),
                player_wind=EAST if win.seat == dealer else SOUTH,
                tsumi_number=honba,
            )
            han = 13 * int(win.yakuman) if win.yakuman else win.han
            fu = win.fu or 30
            out.append(
                ScoresCalculator.calculate_scores(han, fu, config, bool(win.yakuman))["total"]
            )
        return out

    ours_ms, theirs_ms = median_ms(ours, runs), median_ms(theirs, runs)
    agree = sum(a == b for a, b in zip(ours(), theirs(), strict=True))
    line(f"price {len(wins)} wins: scoring.price_hand", f"{len(wins) / ours_ms * 1000:,.0f} /s")
    line("price the same wins: mahjong ScoresCalculator", f"{len(wins) / theirs_ms * 1000:,.0f} /s")
    line("winner's takings equal in both", f"{agree} / {len(wins)}")


# Whole-day plans (CONTRACT §5, issue 33): the sizes the issue names, and 128 × 10 against its
# 10 s target; 16 × 6, a Baba qualifier's day, against 1 s (issue 43). Each plan once (a plan is
# seeded: the same every run).
PLANS = [(16, 5, 4), (16, 6, 4), (32, 8, 4), (36, 7, 4), (64, 8, 4), (128, 8, 4), (30, 6, 4),
         (27, 8, 3), (128, 10, 4), (20, 6, 4), (161, 40, 4)]  # fmt: skip


def bench_plans() -> None:
    from scoring.plans import plan

    print("\n== whole-day plans (python -m scoring seat), one core, seed 7 ==")
    print(
        f"  {'players × rounds, table':<26} {'time':>8}  max met  >1  repeats (floor)  winds±  byes"
    )
    for n, rounds, size in PLANS:
        names = [f"P{i:03d}" for i in range(n)]
        start = time.perf_counter()
        report = plan(names, rounds, size, seed=7).report()
        seconds = time.perf_counter() - start
        spread = max(max(c) - min(c) for c in report["winds"].values())
        byes = sorted(set(report["byes"].values()))
        target = {(128, 10): 10, (16, 6): 1}.get((n, rounds))
        shape = f"{n} × {rounds}, tables of {size}"
        repeated = report["pairs_met_more_than_once"]
        repeats, floor = report["repeat_meetings"], report["best_repeat_meetings"]
        print(
            f"  {shape:<26} {seconds:>7.2f}s  {report['max_meetings']:>7}  {repeated:>3}  "
            f"{repeats:>7} ({floor:>4})  {spread:>6}  {byes}  "
            f"{verdict(seconds < target) if target else ''}"
        )


# Conditions at the last hand (CONTRACT §6, issue 35): computed again on every hand a table
# enters at its オーラス, so one table's answer must fit well inside a hand's save (100 ms).
CONDITIONS_TARGET_MS = 100


def bench_conditions(runs: int) -> None:
    import random
    from decimal import Decimal

    from scoring.conditions import conditions
    from scoring.flow import GameFlow
    from scoring.presets import PRESETS

    print("\n== conditions at the last hand, one core: a 4-player table, 1,024 ranked ==")
    rng = random.Random(7)
    names = [f"P{i:04d}" for i in range(1024)]
    standings = {p: Decimal(rng.randint(-1500, 1500)) / 10 for p in names}
    leaders = sorted(names, key=standings.__getitem__, reverse=True)
    for slug in ("baba", "tenhou", "mleague"):
        rules = PRESETS[slug]
        for target, table in ((1, leaders[:4]), (64, leaders[60:64])):
            flow = GameFlow.at_last_hand(
                rules, [32000, 27000, 23000, 18000], dealer=3, honba=1, deposits=0
            )
            ms = median_ms(
                functools.partial(conditions, rules, flow, table, standings, target), runs
            )
            line(
                f"{slug}, target {target} (16 ways)",
                f"{ms:,.1f} ms",
                f"≤ {CONDITIONS_TARGET_MS} ms {verdict(ms <= CONDITIONS_TARGET_MS)}",
            )


def _result_json(result: Any) -> dict[str, Any]:
    from scoring.hands import Tsumo

    def win(w: Any) -> dict[str, Any]:
        data = {"seat": w.seat}
        data.update({k: getattr(w, k) for k in ("han", "fu", "yakuman") if getattr(w, k)})
        return data

    if isinstance(result, Tsumo):
        out = win(result.win)
        return {"type": "tsumo", "winner": out.pop("seat"), **out}
    return {"type": "ron", "discarder": result.discarder, "wins": [win(result.wins[0])]}


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
