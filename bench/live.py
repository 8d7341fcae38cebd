"""What pages that keep themselves current cost (issue 47): 100 phones at the 64 tables of a
256-player event's round, each polling its table's page every 4 s as static/js/live.js does
(the tag it holds sent back), while one table records a hand every 20 s; and the organizer's
dashboard and round sheet polled beside them. Run with the Django test client against an
imported event; queries counted with CaptureQueriesContext, bytes as the responses' bodies
and headers. Prints a minute's figures for docs/performance.md ("Live pages"):

    .venv/bin/python -m bench.live [--database sqlite|postgres] [--minutes 3]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PLAYERS, PLAYED = 256, 2  # 64 tables; two rounds played before the one the phones follow
PHONES, EVERY, WRITE_EVERY = 100, 4, 20  # phones, seconds between polls, between writes
FETCH = {"X-Requested-With": "fetch"}


@dataclass
class Tally:
    """A kind of request's minute: how many, answered how, what they cost."""

    requests: int = 0
    answers: dict[int, int] = field(default_factory=dict)
    queries: int = 0
    bytes: int = 0
    quiet_queries: int = 0  # of which the 304s'
    quiet_bytes: int = 0

    def add(self, response: Any, queries: int) -> None:
        self.requests += 1
        self.answers[response.status_code] = self.answers.get(response.status_code, 0) + 1
        self.queries += queries
        head = sum(len(k) + len(v) + 4 for k, v in response.items())
        self.bytes += len(response.content) + head
        if response.status_code == 304:
            self.quiet_bytes += head
            self.quiet_queries += queries


@dataclass
class Poller:
    """One reader: its client (its session), the address, the tag of what it shows."""

    client: Any
    address: str
    tag: str = ""
    headers: dict[str, str] = field(default_factory=lambda: dict(FETCH))

    def poll(self, tally: Tally) -> None:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        headers = {**self.headers, **({"If-None-Match": self.tag} if self.tag else {})}
        connection.queries_log.clear()  # the log keeps 9,000: a full one counts nothing new
        with CaptureQueriesContext(connection) as captured:
            response = self.client.get(self.address, secure=True, headers=headers)
        assert response.status_code in (200, 304), (self.address, response.status_code)
        self.tag = response.get("ETag", self.tag)
        tally.add(response, len(captured))


def setup(kind: str) -> Any:
    from bench.measure import event_file, fresh_database

    workdir = Path(tempfile.gettempdir()) / "jansou-bench"
    workdir.mkdir(exist_ok=True)
    os.environ["DATABASE_URL"] = fresh_database(kind, workdir, "jansou_bench_live")
    os.environ.setdefault("SECRET_KEY", "bench-only-not-a-secret")
    os.environ["DEBUG"] = "0"  # production settings, as gunicorn runs them
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["STATIC_ROOT"] = str(workdir / "static")
    os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--no-input", verbosity=0)
    path = event_file(workdir, PLAYERS, PLAYED, "bench-live")
    call_command("import_event", str(path), stdout=io.StringIO())
    from tournament.models import Event
    from tournament.services.rounds import round_seat

    event = Event.objects.get(slug="bench-live")
    event.table_entry, event.table_mode = "tables", "hands"
    event.save()
    round_seat(event=event, rng=random.Random(47))
    return event


def phones(event: Any) -> list[Poller]:
    """100 phones over the 64 tables (36 tables with two), each holding its own seat."""
    from django.test import Client

    from tournament.models import Game

    games = list(Game.objects.filter(round__event=event, finished=False).order_by("table"))
    readers = []
    for n in range(PHONES):
        game = games[n % len(games)]
        link = game.links.get(revoked_at__isnull=True)
        seat = n // len(games)
        client = Client()
        address = f"/t/{link.token}/"
        proved = client.post(address, {"do": "seat", "code": link.seat_codes[seat]}, secure=True)
        assert proved.status_code == 302, proved.status_code
        page = client.get(address, secure=True)  # the page as opened: its tag
        readers.append(Poller(client, address, page["ETag"]))
    return readers


def organizer(event: Any) -> list[Poller]:
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.create_user("bench-organizer", "", "pw")
    event.organizers.add(user)
    client = Client()
    client.force_login(user)
    dashboard = f"/events/{event.slug}/manage/"
    sheet = f"/events/{event.slug}/manage/rounds/{PLAYED + 1}/"
    return [Poller(client, dashboard), Poller(client, sheet)]


def write(event: Any, turn: int) -> None:
    """One table's hand, the next table each time: the dealer wins 1 han 30 fu and stays."""
    from tournament.models import Game
    from tournament.services.hands import game_hand_add

    games = list(Game.objects.filter(round__event=event, finished=False).order_by("table"))
    game = games[turn % len(games)]
    hand = {
        "riichi": [],
        "result": {"type": "ron", "discarder": 1, "wins": [{"seat": 0, "han": 1, "fu": 30}]},
    }
    game_hand_add(game=game, hand=hand, expected_version=game.version)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--minutes", type=int, default=3)
    options = parser.parse_args()
    event = setup(options.database)
    readers, staff = phones(event), organizer(event)
    tables, kinds = Tally(), {"dashboard": Tally(), "round sheet": Tally()}
    ticks = options.minutes * 60 // EVERY
    for tick in range(ticks):
        second = tick * EVERY
        if second % WRITE_EVERY == 0:
            write(event, second // WRITE_EVERY)
        for reader in readers:
            reader.poll(tables)
        for name, reader in zip(kinds, staff, strict=True):
            reader.poll(kinds[name])
    minutes = options.minutes
    print(
        f"== live pages, {options.database}: {PLAYERS} players, 64 tables, {PHONES} phones "
        f"every {EVERY} s, a hand every {WRITE_EVERY} s, {minutes} min =="
    )
    for name, tally in (("table pages (100 phones)", tables), *kinds.items()):
        answers = ", ".join(f"{n} × {code}" for code, n in sorted(tally.answers.items()))
        print(
            f"  {name:<26} a minute: {tally.requests / minutes:6.0f} requests "
            f"({answers}), {tally.queries / minutes:6.0f} queries, "
            f"{tally.bytes / minutes / 1024:8.1f} KB"
        )
        quiet = tally.answers.get(304, 0)
        if quiet:
            print(
                f"  {'':<26} a 304: {tally.quiet_queries / quiet:.1f} queries, "
                f"{tally.quiet_bytes / quiet:.0f} bytes (headers)"
            )
    every = sum(t.queries for t in (tables, *kinds.values())) / minutes
    sent = sum(t.bytes for t in (tables, *kinds.values())) / minutes / 1024
    print(f"  {'all':<26} a minute: {every:6.0f} queries, {sent:8.1f} KB")


if __name__ == "__main__":
    main()
