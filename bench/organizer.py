"""The organizer's forms at full size (issue 46): the final-scores form of a seated table (it
listed every player in four selects: 4.7 s and 1.7 MB at 10,000) and one request of the player
search that fills a seat's suggestions as the name is typed. Called by `bench_database` in
bench/run.py with its client and the imported event:

    bench_organizer_form(client, event, many)

The client is logged in as the bench's superuser here when it is not logged in already (the
readers' benches before it are anonymous, as readers are).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

MOST_MS, MOST_KB = 50, 100


def bench_organizer_form(client: Any, event: Any, runs: int) -> None:
    """Median ms and KB of the score form of the event's first seated table (as the organizer
    opens it) and of the search for the first letter, then the first three, of a player's name
    (a screenful of suggestions); verdicts against ≤ 50 ms and ≤ 100 KB."""
    from bench.figures import figure
    from bench.measure import line, median_ms, verdict
    from tournament.models import Game, Seat

    if "_auth_user_id" not in client.session:
        from django.contrib.auth import get_user_model

        users = get_user_model().objects
        login = f"bench-organizer-{os.getpid()}"
        user = users.filter(username=login).first() or users.create_superuser(login, "", "x")
        client.force_login(user)
    game = Game.objects.filter(round__event=event).order_by("round__number", "table").first()
    assert game is not None, "the event has no table"
    seat = Seat.objects.filter(game=game).select_related("player").order_by("position").first()
    name = seat.player.name
    form = f"/events/{event.slug}/manage/games/{game.pk}/scores/"
    search = f"/events/{event.slug}/manage/players/search/"
    sizes: dict[str, int] = {}

    def get(address: str, **query: str) -> Callable[[], None]:
        def fetch() -> None:
            response = client.get(address, query, secure=True)
            assert response.status_code == 200, (address, response.status_code)
            sizes[address] = len(response.content)

        return fetch

    players = event.entries.count()
    print(f"  -- the organizer's forms, {players:,} players --")
    for label, address, query in (
        ("organizer's score form, a seated table", form, {}),
        # One letter: every name holds it, the most a search reads and sorts.
        (f"player search, {name[:1]!r} typed (20 names)", search, {"q": name[:1]}),
        (f"player search, {name[:3]!r} typed", search, {"q": name[:3]}),
    ):
        ms = median_ms(get(address, **query), runs)
        if address == form:
            figure("organizer_form", ms)  # bench/growth.py's row
        kb = sizes[address] / 1024
        met = ms <= MOST_MS and kb <= MOST_KB
        line(
            label,
            f"{ms:.1f} ms {kb:.1f} KB",
            f"target ≤ {MOST_MS} ms ≤ {MOST_KB} KB · {verdict(met)}",
        )
