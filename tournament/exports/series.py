"""A season's standings (a series of events ranked together): its columns declared once; the
page's table, the files and the API (the JSON file's body) are made from them and from the
same records (`series_records`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from tournament.exports.columns import Column, Kind, event_column
from tournament.exports.formats import Sheet, write
from tournament.exports.html import cell_attrs, table_column
from tournament.numbers import format_points
from tournament.selectors.series import SeriesStandings

RANK = Column("rank", _("Rank"), Kind.COUNT, optional=True)  # None: below the minimum
PLAYER = Column("player", _("Player"))
TOTAL = Column("total", _("Total"), Kind.POINTS)
GAMES = Column("games", _("Games"), Kind.COUNT)
# e1, e2, … (event_column): the player's total in each event, empty where not played
STATUS = Column("status", _("Status"), Kind.STATUS)
EVENTS = Column("events", _("Events played"), Kind.COUNT)
COUNTED = Column("counted", _("Events counted"))  # which of them count: "1 3 4"
SHEET = Sheet("standings", _("Standings"))


def file_columns(events: int) -> list[Column]:
    """As an event's standings: rank, player, total, games, a column per event, status; then
    `events` (how many played) and `counted`."""
    numbered = (event_column(k) for k in range(1, events + 1))
    return [RANK, PLAYER, TOTAL, GAMES, *numbered, STATUS, EVENTS, COUNTED]


@dataclass(frozen=True)
class SeriesRecord:
    """A player's row of the season."""

    rank: int | None
    player: str
    total: float
    games: int
    results: tuple[float | None, ...]  # their total in each event, None where not played
    counts: tuple[bool, ...]  # whether each event's total counts (best N of M)
    status: str
    events: int

    @property
    def counted(self) -> str:
        return " ".join(str(k) for k, counts in enumerate(self.counts, start=1) if counts)

    def file_row(self) -> list[Any]:
        return [self.rank, self.player, self.total, self.games, *self.results, self.status,
                self.events, self.counted]  # fmt: skip


def series_records(result: SeriesStandings) -> list[SeriesRecord]:
    numbers = range(len(result.events))
    return [
        SeriesRecord(
            rank=row.rank,
            player=row.player,
            total=float(row.total),
            games=row.games,
            results=tuple(
                float(row.results[k].total) if k in row.results else None for k in numbers
            ),
            counts=tuple(k in row.counted for k in numbers),
            status=row.status,
            events=row.events,
        )
        for row in result.rows
    ]


def whole_points(result: SeriesStandings) -> bool:
    return all(e.rules.whole_points for e in result.events)


def iterate_series(result: SeriesStandings) -> Iterator[list[Any]]:
    yield file_columns(len(result.events))
    for record in series_records(result):
        yield record.file_row()


def export_series(result: SeriesStandings, fmt: str) -> bytes:
    """A season's standings file."""
    return write(fmt, iterate_series(result), result.series, SHEET, whole_points(result))


# --- the page -----------------------------------------------------------------------------


class SeriesTable(tables.Table):
    rank = table_column(RANK, orderable=False, default="—")
    player = table_column(PLAYER, orderable=False)
    total = table_column(TOTAL, orderable=False)
    games = table_column(GAMES, orderable=False)
    status = table_column(STATUS, orderable=False)

    class Meta:
        attrs = {"class": "standings series"}
        orderable = False
        empty_text = _("No event in this series has results yet.")

    def render_player(self, value: str) -> SafeString:
        return format_html('<a href="{}">{}</a>', reverse("player-by-name", args=[value]), value)


class EventTotalColumn(tables.Column):
    """A player's total in one event of the season; one that does not count is struck out."""

    def __init__(self, index: int, name: str, whole: bool) -> None:
        self.index, self.whole = index, whole
        attrs = cell_attrs(event_column(index + 1), orderable=False)
        super().__init__(verbose_name=name, empty_values=(), attrs=attrs)

    def render(self, record: SeriesRecord) -> str:
        total = record.results[self.index]
        if total is None:
            return "—"
        text = format_points(total, self.whole)
        if record.counts[self.index]:
            return text
        return format_html('<s title="{}">{}</s>', _("does not count"), text)


def series_table(result: SeriesStandings) -> SeriesTable:
    whole = whole_points(result)
    extra = [
        (f"e{k + 1}", EventTotalColumn(k, event.name, whole))
        for k, event in enumerate(result.events)
    ]
    table = SeriesTable(
        series_records(result),
        extra_columns=extra,
        sequence=["rank", "player", "total", "...", "status"],
    )
    table.columns["total"].column.whole = whole
    return table
