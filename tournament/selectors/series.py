"""Reads for a season: its events in order and every player's ranking across them. The
ranking is the engine's (scoring/series.py) over each event's published standings — one
query for the events, then the standings (cached, or four queries for all the rest)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.series import EventResult, SeriesRow, rank_series
from tournament.models import Event, Series
from tournament.selectors.published import published_of


@dataclass
class SeriesStandings:
    series: Series
    events: list[Event]
    rows: list[SeriesRow]


def series_list() -> QuerySet[Series]:
    return Series.objects.order_by("-created_at", "name")


def series_standings(series: Series) -> SeriesStandings:
    events = list(
        Event.objects.filter(series_members__series=series).order_by("series_members__position")
    )
    tables = {pk: record.standings for pk, record in published_of(events).items()}
    per_event = [
        {
            str(row.player): EventResult(row.total, row.games)
            for row in tables[event.pk].rows
            if row.games
        }
        for event in events
    ]
    return SeriesStandings(series, events, rank_series(series.ranking_rule, per_event))
