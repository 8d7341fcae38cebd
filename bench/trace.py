"""What one reader's request runs of our code after a result (issue 65): the app files
(`tournament/`) and engine files (`scoring/`) it enters, and how often it hops between them.

The demo's Baba day (tests/tournament/factories.baba_day: 16 players, qualifier rounds 1–6,
final 7–8) is loaded into a fresh SQLite database under the tests' settings, as bench/crawl.py
does, at two moments of its day: round 5 in play (an ordinary round), and round 6 (the
qualifier's deciding round, whose standings page shows each table's conditions) — the rounds
before it recorded, it seated, its tables entering their own results. Then, for each write and
each address: every address is read once (the caches warm, untraced), one write is made
through the service a table's phone calls, and ONE request of that address by an anonymous
reader (Django's test client) is traced with `sys.setprofile`. The writes:

- a hand: one more hand at table 1, which plays on (`game_hand_enter`, a phone's own entry);
- a result: a table's final scores entered at one seat (`game_correct`) and confirmed by
  another seat on another phone (`game_confirm`): the game counts.

What is counted (docs/performance.md, "Issue 65: what a request runs of our code"):

- *files entered*: the distinct files under tournament/ (app) and scoring/ (engine) in which
  a Python function, method, comprehension or generator starts or resumes during the request;
- *hops*: the file of ours the request is running in, followed through every Python call and
  return (a call: the callee's file; a return: the caller's), skipping frames outside our two
  folders (Django, libraries, the standard library); a hop is each change from one of our
  files to another. A view calling Django's `render`, which calls a template tag of ours and
  returns: two hops (view → tag → view), however many Django frames lie between. *App hops*:
  the same, the engine's frames skipped as Django's are.

Each moment runs in a process of its own, twice by default (`--runs`), each with Python's own
random hash seed; the figures must agree, file for file, or the run fails.

    python -m bench.trace               # the table (two runs, compared): `make trace`
    python -m bench.trace --files       # … and each request's files in the order entered
    python -m bench.trace --targets     # … exit 1 while a target of issue 65 is not met
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SLUG = "baba-demo"
ADDRESSES = {
    "page": f"/events/{SLUG}/",  # the standings page (urls.py: event-detail)
    "csv": f"/events/{SLUG}/standings.csv",
    "api": f"/api/v1/events/{SLUG}/standings",
}
LABELS = {"page": "standings page", "csv": "standings CSV", "api": "API standings"}
WRITES = ("hand", "result")
# The moments of the day measured: the round in play, and what its standings page shows then.
MOMENTS = {
    5: "an ordinary round: the page shows the standings",
    6: "the qualifier's deciding round: the page shows each table's conditions too",
}
# Issue 65's "Done when": app files entered after a result, at most.
TARGETS = {"page": 12, "csv": 10}
# The hand phones enter: the dealer (seat 0) wins 1 han 30 fu from seat 1 and deals again, so
# table 1 plays on however many are entered.
HAND = {
    "riichi": [],
    "result": {"type": "ron", "discarder": 1, "wins": [{"seat": 0, "han": 1, "fu": 30}]},
}


@dataclass
class Trace:
    """What one request ran of ours: files in the order first entered, with the number of
    frames started in each; hops; and hops by pair of files (either direction)."""

    files: dict[str, int] = field(default_factory=dict)
    hops: int = 0
    app_hops: int = 0  # between app files alone: the engine's frames skipped as Django's are
    pairs: Counter[str] = field(default_factory=Counter)

    def count(self, folder: str) -> int:
        return sum(1 for name in self.files if name.startswith(folder))


class Tracer:
    """A `sys.setprofile` function: follows the file of ours the request is running in."""

    def __init__(self) -> None:
        self.trace = Trace()
        self.where: str | None = None
        self.where_app: str | None = None
        self.names: dict[str, str | None] = {}
        self.ours = tuple(str(ROOT / folder) + os.sep for folder in ("tournament", "scoring"))

    def name(self, filename: str) -> str | None:
        """A file's path from the project's root if it is ours, else None (kept per file)."""
        if filename not in self.names:
            ours = filename.startswith(self.ours)
            self.names[filename] = str(Path(filename).relative_to(ROOT)) if ours else None
        return self.names[filename]

    def __call__(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            now: FrameType | None = frame
        elif event == "return":
            now = frame.f_back  # where the return lands
        else:
            return  # c_call, c_return, c_exception: C code is no file of ours
        if now is None:
            return
        name = self.name(now.f_code.co_filename)
        if name is None:
            return
        if event == "call":
            self.trace.files[name] = self.trace.files.get(name, 0) + 1
        if name != self.where:
            if self.where is not None:
                self.trace.hops += 1
                self.trace.pairs[" ↔ ".join(sorted((self.where, name)))] += 1
            self.where = name
        if name != self.where_app and name.startswith("tournament/"):
            self.trace.app_hops += self.where_app is not None
            self.where_app = name


def traced(client: Any, address: str) -> tuple[int, Trace]:
    """One GET of `address`, its body read, under the tracer."""
    tracer = Tracer()
    sys.setprofile(tracer)
    try:
        answer = client.get(address)
        b"".join(answer.streaming_content) if answer.streaming else answer.content
    finally:
        sys.setprofile(None)
    return answer.status_code, tracer.trace


# --- one run, in a process of its own ----------------------------------------------------------


def setup(number: int) -> Any:
    """The Baba day in a fresh SQLite database, rounds before `number` recorded and round
    `number` seated, tables entering their own results; table 1 plays its first hand here, so
    every hand traced is one more of a game in play (the first turns a seated game into one
    kept hand by hand)."""
    workdir = Path(tempfile.mkdtemp(prefix="trace-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'trace.sqlite3'}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "tests.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    import tournament

    # The worktree's own code, not an installed copy of it: the files counted must be these.
    assert Path(tournament.__file__).resolve().is_relative_to(ROOT), tournament.__file__
    setup_test_environment()  # the test client's ALLOWED_HOSTS
    call_command("migrate", verbosity=0, stdout=io.StringIO())
    from tests.tournament.factories import baba_day
    from tournament.services.events import event_table_entry_set

    event = baba_day(slug=SLUG, played=number - 1, seat_next=True)
    event_table_entry_set(event=event, table_entry="tables")
    write_hand(event, number, 1)
    return event


def game_at(event: Any, number: int, table: int) -> Any:
    from tournament.models import Game

    return Game.objects.get(round__event=event, round__number=number, table=table)


def write_hand(event: Any, number: int, hand: int) -> None:
    """Hand `hand` at table 1 of round `number`, as its phone sends it (views/table/
    actions.py: `_hand`)."""
    from tournament.services.confirmation import AtTable
    from tournament.services.hands import game_hand_enter

    game = game_at(event, number, 1)
    wrote = game_hand_enter(
        game=game,
        hand=HAND,
        entry_id=uuid.UUID(int=hand),
        number=hand,
        at=AtTable(game.table, 0, "phone-east"),
    )
    assert wrote, hand


def write_result(event: Any, number: int, table: int) -> None:
    """Final scores of table `table` of round `number`, entered at its East seat and confirmed
    by its South seat on another phone (views/table/actions.py: `scores`, `confirm`): then
    the game counts."""
    from tournament.services.confirmation import AtTable
    from tournament.services.games import game_correct
    from tournament.services.tables import game_confirm

    game = game_at(event, number, table)
    seats = list(game.seats.order_by("position").values_list("player__name", flat=True))
    data = {"round": number, "table": table, "seats": seats, "scores": [41000, 32000, 18000, 9000]}
    at = AtTable(table, 0, "phone-east")
    game_correct(game=game, data=data, expected_version=game.version, at=at)
    game.refresh_from_db()
    assert game.confirmation == "waiting", game.confirmation  # not counted yet
    game_confirm(link=game.links.get(), phone="phone-south", seat=1)
    game.refresh_from_db()
    assert game.finished and not game.confirmation, game.confirmation


def run(number: int) -> dict[str, dict[str, Any]]:
    """Every write before every address, round `number` in play: {"hand page": {...}, …}."""
    event = setup(number)
    from django.test import Client

    client = Client()  # an anonymous reader
    hands, tables = iter(range(2, 100)), iter(range(2, 5))  # table 1 plays on by hands
    found: dict[str, dict[str, Any]] = {}
    for write in WRITES:
        for kind, address in ADDRESSES.items():
            for warm in ADDRESSES.values():
                assert client.get(warm).status_code == 200, warm
            if write == "hand":
                write_hand(event, number, next(hands))
            else:
                write_result(event, number, next(tables))
            status, trace = traced(client, address)
            assert status == 200, (address, status)
            found[f"{write} {kind}"] = {
                "app": trace.count("tournament/"),
                "engine": trace.count("scoring/"),
                "hops": trace.hops,
                "app_hops": trace.app_hops,
                "files": trace.files,
                "pairs": dict(trace.pairs.most_common()),
            }
    return found


# --- the table ---------------------------------------------------------------------------------


def measured(runs: int) -> list[dict[str, dict[str, dict[str, Any]]]]:
    """`runs` runs of every moment, each in a fresh process (its own database, caches and
    hash seed): [{"round 5": {"hand page": …}, …}, …]."""
    found = []
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
    for _ in range(runs):
        one = {}
        for number in MOMENTS:
            out = subprocess.run(
                [sys.executable, "-m", "bench.trace", "--child", str(number)],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            one[f"round {number}"] = json.loads(out.splitlines()[-1])
        found.append(one)
    return found


def report(found: dict[str, dict[str, dict[str, Any]]], files: bool) -> list[str]:
    lines = [
        "== What the first request after a write runs of our code (python -m bench.trace) ==",
        f"  the demo's Baba day ({SLUG}: 16 players, qualifier rounds 1-6, final 7-8),",
        "  SQLite and the tests' settings; one request of an anonymous reader, traced, after",
        "  every address was read once (the caches warm) and then one write",
    ]
    for moment, measures in found.items():
        lines += [
            "",
            f"  {moment} in play ({MOMENTS[int(moment.split()[1])]})",
            f"  {'request':<15} {'after':<8} {'app files':>9} {'engine':>7} {'hops':>6} "
            f"{'app hops':>8}  target (issue 65)",
        ]
        for name, got in measures.items():
            write, kind = name.split()
            target = TARGETS.get(kind)
            verdict = ""
            if target is not None:
                verdict = f"≤ {target} app files · {'met' if got['app'] <= target else 'NOT met'}"
            lines.append(
                f"  {LABELS[kind]:<15} {'a ' + write:<8} {got['app']:>9} {got['engine']:>7} "
                f"{got['hops']:>6} {got['app_hops']:>8}  {verdict}"
            )
    if files:
        for moment, measures in found.items():
            for name, got in measures.items():
                write, kind = name.split()
                lines.append(f"\n  {LABELS[kind]} ({ADDRESSES[kind]}) after a {write}, {moment}:")
                lines.append("    files in the order first entered (frames started in each):")
                lines += [f"      {path} ({n})" for path, n in got["files"].items()]
                lines.append("    the busiest pairs (hops either way):")
                lines += [f"      {pair}: {n}" for pair, n in list(got["pairs"].items())[:6]]
    return lines


def missed(found: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """The measurements over their target."""
    return [
        f"{name}, {moment}"
        for moment, measures in found.items()
        for name, got in measures.items()
        if got["app"] > TARGETS.get(name.split()[1], got["app"])
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="runs compared (fresh processes)")
    parser.add_argument("--files", action="store_true", help="list each request's files")
    parser.add_argument(
        "--targets", action="store_true", help="fail (exit 1) when a target is not met"
    )
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)  # a round: one run
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(run(args.child)))
        return
    found = measured(args.runs)
    print("\n".join(report(found[0], args.files)))
    differ = [i + 1 for i, other in enumerate(found) if other != found[0]]
    if differ:
        for i in differ:
            print(f"\nrun {i}:\n" + "\n".join(report(found[i - 1], args.files)))
        sys.exit(f"runs {differ} differ from run 1: the figures are not deterministic")
    if args.runs > 1:
        print(f"\n  {args.runs} runs, each in fresh processes: the same figures, file for file")
    if args.targets and missed(found[0]):
        sys.exit(f"over the target: {'; '.join(missed(found[0]))}")


if __name__ == "__main__":
    main()
