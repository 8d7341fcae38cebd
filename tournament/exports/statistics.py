"""Players' statistics (CONTRACT §4): a row per player who sat at a finished game. Its
columns are declared once: the page's sortable table, the files and the API's answer are
made from them and from the same records."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from scoring.statistics import RATES, STATISTICS
from tournament.exports.columns import Column, Kind, answer_schema
from tournament.exports.formats import Sheet, write
from tournament.exports.html import table_column
from tournament.models import Event
from tournament.selectors.statistics import PlayerStatistics, event_statistics

# CONTRACT §4's statistics by name, as the page's columns and the XLSX's headings say them.
STAT_LABELS = {
    "hands": _("Hands"),
    "wins": _("Wins"),
    "tsumo_wins": _("Tsumo wins"),
    "win_rate": _("Win rate"),
    "deal_ins": _("Deal-ins"),
    "deal_in_rate": _("Deal-in rate"),
    "riichi": _("Riichi"),
    "riichi_rate": _("Riichi rate"),
    "dealer_wins": _("Dealer wins"),
    "average_win": _("Avg. win"),
    "average_deal_in": _("Avg. deal-in"),
}
# Lower is better for these: their first tap sorts lowest first.
LOWER_IS_BETTER = ("deal_ins", "deal_in_rate", "average_deal_in")
OPTIONAL = (*RATES, "average_win", "average_deal_in")  # None where nothing divides

PLAYER = Column("player", _("Player"))
# Rates as fractions, averages in whole score points, counts as they are.
STATISTIC_COLUMNS = tuple(
    Column(
        name,
        STAT_LABELS[name],
        Kind.FRACTION if name in RATES else Kind.COUNT,
        best_first=name not in LOWER_IS_BETTER,
        optional=name in OPTIONAL,
    )
    for name in STATISTICS
)
COLUMNS = (PLAYER, *STATISTIC_COLUMNS)
# Each statistic's column by its name: its label, and whether lower is better (`best_first`),
# for every page that shows one (the statistics page's boards, a player's page).
STATISTIC_COLUMN = {c.key: c for c in STATISTIC_COLUMNS}
# What a player's page shows of them, in its order and with these columns' labels
# (tournament/_hand_stats.html, by the `hand_stat_columns` tag): one event's, or every event's.
HAND_STAT_COLUMNS = tuple(
    STATISTIC_COLUMN[key]
    for key in (
        "hands",
        "win_rate",
        "deal_in_rate",
        "riichi_rate",
        "tsumo_wins",
        "dealer_wins",
        "average_win",
        "average_deal_in",
    )
)
SHEET = Sheet("statistics", _("Statistics"))
StatisticsOut = answer_schema("StatisticsOut", STATISTIC_COLUMNS)  # a player's, over events
PlayerStatisticsOut = answer_schema("PlayerStatisticsOut", COLUMNS)


def statistics_record(row: PlayerStatistics) -> dict[str, Any]:
    """One player's row by its columns' keys (and the player's id, for the page's link)."""
    return {"player": row.player, "id": row.player_id, **row.tally.to_json()}


def iterate_statistics(event: Event) -> Iterator[list[Any]]:
    yield list(COLUMNS)
    for row in event_statistics(event):
        record = statistics_record(row)
        yield [record[c.key] for c in COLUMNS]


def export_statistics(event: Event, fmt: str) -> bytes:
    """The players' statistics file."""
    return write(fmt, iterate_statistics(event), event, SHEET, event.rules.whole_points)


# --- the page -----------------------------------------------------------------------------


class StatisticsTable(tables.Table):
    player = table_column(PLAYER)

    class Meta:
        attrs = {"class": "standings statistics"}
        empty_text = _("Nobody has played enough hands yet.")

    def render_player(self, value: str, record: dict[str, Any]) -> SafeString:
        return format_html(
            '<a href="{}">{}</a>', reverse("player-detail", args=[record["id"]]), value
        )


def _sort_key(column: Column) -> str:
    return f"{column.key}_key"


def statistics_table(rows: Sequence[PlayerStatistics]) -> StatisticsTable:
    """Every statistic in one sortable table; a record per player with, beside each value, a
    key to sort it by (None below all, never compared with a number)."""
    records = []
    for row in rows:
        record = statistics_record(row)
        for column in STATISTIC_COLUMNS:
            value = record[column.key]
            missing = float("-inf") if column.best_first else float("inf")
            record[_sort_key(column)] = missing if value is None else value
        records.append(record)
    extra = [
        (
            c.key,
            table_column(c, order_by=f"{'-' if c.best_first else ''}{_sort_key(c)}", default="—"),
        )
        for c in STATISTIC_COLUMNS
    ]
    return StatisticsTable(records, extra_columns=extra)
