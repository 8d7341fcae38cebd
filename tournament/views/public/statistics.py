"""Players' statistics from the hand records: the page and its downloads."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from tournament.exports.files import statistics_file
from tournament.exports.statistics import STATISTIC_COLUMN, statistics_table
from tournament.http_caching import by_event_version
from tournament.models import Event
from tournament.selectors.statistics import PlayerStatistics, event_statistics, fitting_minimum
from tournament.views.public.downloads import download
from tournament.views.query import known_query

MIN_HANDS_CHOICES = (0, 10, 20, 50, 100, 200)
# The boards above the table, each the five best at one statistic: its label and which way is
# best are its export column's (exports/statistics.py), as in the table and the files.
BOARDS = ("win_rate", "deal_in_rate", "riichi_rate", "average_win", "dealer_wins")


@require_GET
@known_query("min", "sort")
@by_event_version
def event_statistics_page(request: HttpRequest, event: Event) -> HttpResponse:
    """Players' statistics from the hand records: a leaderboard per statistic, then every
    statistic in one sortable table; players below `?min=` hands are set aside."""
    rows = event_statistics(event)
    fitting = fitting_minimum([r.tally.hands for r in rows])
    try:
        least = int(request.GET.get("min", fitting))
    except ValueError:
        least = fitting
    least = max(0, min(least, 10_000))
    counted = [r for r in rows if r.tally.hands and r.tally.hands >= least]
    aside = [r for r in rows if not (r.tally.hands and r.tally.hands >= least)]
    table = statistics_table(counted)
    RequestConfig(request, paginate=False).configure(table)
    boards = []
    for name in BOARDS:
        column = STATISTIC_COLUMN[name]
        lower_first = not column.best_first
        sign = 1 if lower_first else -1
        # A board of the most wins, riichi… names nobody who never did it (a list of noughts
        # said nothing); the fewest deal-ins keeps them: never dealing in is the best there is.
        ranked = [
            r
            for r in counted
            if r.tally.value(name) is not None and (lower_first or r.tally.value(name))
        ]
        ranked.sort(key=lambda r, n=name, k=sign: (k * r.tally.value(n), r.player))
        boards.append(
            {
                "name": name,
                "label": column.label,
                "rows": _placed(ranked[:5], name),
            }
        )
    return render(
        request,
        "tournament/event_statistics.html",
        {
            "event": event,
            "table": table,
            "boards": boards,
            "aside": aside,
            "least": least,
            "fitting": fitting,
            "choices": sorted({*MIN_HANDS_CHOICES, least, fitting}),
        },
    )


def _placed(rows: list[PlayerStatistics], name: str) -> list[tuple[int, PlayerStatistics]]:
    """Each row with its place on the board: equal values share one (1, 1, 3), as standings do."""
    placed: list[tuple[int, PlayerStatistics]] = []
    for i, row in enumerate(rows):
        tied = i and row.tally.value(name) == rows[i - 1].tally.value(name)
        placed.append((placed[-1][0] if tied else i + 1, row))
    return placed


@require_GET
@known_query()
@by_event_version
def statistics_export(request: HttpRequest, event: Event, fmt: str) -> HttpResponse:
    """The statistics as CSV, XLSX or JSON: the one export pipeline (exports/statistics.py)."""
    data = statistics_file(event, fmt)
    return download(data, fmt, f"{event.slug}-statistics")
