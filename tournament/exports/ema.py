"""The results a European tournament sends the EMA (issue 48): each player's place, EMA number,
name, country and total — the columns of the EMA's published tournament results, less what the
EMA works out itself (README, "Sending results to the EMA", says which and cites the pages).
The same rows as the standings file, in its order and with its ranks, and each player's
profile in the event (services/profiles.py); a player without an EMA number has it empty."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournament.exports.columns import Column, Kind
from tournament.exports.formats import Sheet, write
from tournament.exports.standings import PLAYER, RANK, TOTAL, iterate_standings
from tournament.models import Event

COLUMNS = (
    RANK,  # the EMA's place; equal totals the rules leave tied share one
    # Text, 8 digits: a spreadsheet keeps 04090012's leading zero in the XLSX.
    Column("ema", _("EMA number")),
    PLAYER,  # the name as registered (the EMA's page splits it into last and first name)
    # ISO 3166-1 alpha-2 as the event file gives it, in every format.
    Column("country", _("Country"), Kind.COUNTRY),
    TOTAL,  # the EMA's "score": the player's points, as the standings count them
)
SHEET = Sheet("ema", _("EMA results"))


def iterate_ema(event: Event) -> Iterator[list[Any]]:
    """COLUMNS, then a row per player of the standings, in their order."""
    rows = iterate_standings(event)
    header = [c.key for c in next(rows)]
    at = {key: header.index(key) for key in (RANK.key, PLAYER.key, TOTAL.key)}
    profiles = {
        name: (ema, str(country or ""))
        for name, ema, country in event.entries.values_list("player__name", "ema_number", "country")
    }
    yield list(COLUMNS)
    for row in rows:
        player = row[at["player"]]
        ema, country = profiles.get(player, ("", ""))
        yield [row[at["rank"]], ema, player, country, row[at["total"]]]


def export_ema(event: Event, fmt: str) -> bytes:
    """The EMA's results file as `fmt` (csv or xlsx; json too)."""
    return write(fmt, iterate_ema(event), event, SHEET, event.rules.whole_points)
