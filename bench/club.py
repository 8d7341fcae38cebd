"""A club's result beside a large event (issue 46): a 16-player club night played before the
bench's big event, the same players in both (names are the site's players). When the ratings
were replayed inside every results write, a result there re-rated everything after it: 25 ms
on a site of club nights, 9.9 s once a 10,000-player event dated later had joined. Now a write
marks the rating pools due and returns; the replay is the task queue's. Called last by
`bench_database` in bench/run.py (it deletes the big event to measure the site without it):

    bench_club(runs)
"""

from __future__ import annotations

SAME = 1.25  # "costs the same": within a quarter, on a machine whose medians wander that much


def bench_club(runs: int) -> None:
    """Median ms of recording one of the club's tables (a game's result, as its organizer
    saves it) with the big event on the site, then without it; the verdict: the same."""
    from bench.measure import line, median_ms, verdict
    from bench.synthetic import synthetic_event
    from tournament.models import Event, Game
    from tournament.services.games import game_record, game_remove
    from tournament.services.imports import event_import

    club = {**synthetic_event(16, 2, seed=7, slug="bench-club"), "date": "2020-01-04"}
    club["name"] = "Bench club night"
    event = event_import(club)
    later = synthetic_event(16, 1 + max(runs, 5) // 4, seed=8)["games"]
    games = [dict(game, round=2 + game["round"]) for game in later]

    def timed() -> float:
        queue = iter(games)
        took = median_ms(lambda: game_record(event=event, data=next(queue)), len(games))
        for game in Game.objects.filter(round__event=event, round__number__gt=2):
            game_remove(game=game)
        return took

    big = Event.objects.filter(slug="bench").first()
    size = big.entries.count() if big is not None else 0
    beside = timed()
    if big is not None:
        Event.objects.filter(pk=big.pk).delete()  # the site as a club's: its rows gone
    alone = timed()
    same = beside <= alone * SAME
    line(f"club result (16 players), beside {size:,} later", f"{beside:.1f} ms")
    line(
        "club result, the big event gone",
        f"{alone:.1f} ms",
        f"{beside / alone:.2f}× · target the same (≤ {SAME}×) · {verdict(same)}",
    )
