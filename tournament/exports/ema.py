"""The results a European tournament sends the EMA (issues 48 and 64): a heading saying which
tournament, then each player who played with their place, EMA number, last and first names,
country and score — as the EMA's published tournament results and its results workbook hold
them, less what the EMA works out itself (README, "Sending results to the EMA", cites both and
the open-source tools that read them).

The rows are the standings file's, in its order: a registered player who never played is left
out (the EMA ranks who played) and the places close up behind them, equal totals still sharing
one. Each player's profile in the event (services/profiles.py) gives the number, country and
family name; a player without an EMA number has it empty."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournament.exports.columns import Column, Kind
from tournament.exports.formats import Heading, Sheet, write
from tournament.exports.standings import GAMES, RANK, TOTAL, iterate_standings
from tournament.models import Event
from tournament.services.profiles import name_parts

COLUMNS = (
    RANK,  # the EMA's place among those who played; equal totals the rules leave tied share one
    # Text, 8 digits: a spreadsheet keeps 04090012's leading zero in the XLSX.
    Column("ema", _("EMA number")),
    # The family name in capitals and the given names apart, as the EMA's pages and player
    # register write them (KÖSTERS, Anton): the profile's family name, else the rule.
    Column("last_name", _("Last name")),
    Column("first_name", _("First name")),
    # ISO 3166-1 alpha-2 as the EMA writes it (EMA_COUNTRIES), in every format.
    Column("country", _("Country"), Kind.COUNTRY),
    # The EMA's score: the points of the result in whole points (56500, not 56.5).
    Column("score", _("Score"), Kind.COUNT),
)
SHEET = Sheet("ema", _("EMA results"), heading_key="tournament")
# Where the EMA's code for a country is not ISO's: it writes the United Kingdom UK (its pages'
# flag uk.png; GB in ISO 3166-1 and in the profile). Typed UK is read as GB on the way in.
EMA_COUNTRIES: dict[str, str] = {"GB": "UK"}


def ema_score(total: Any, point_value: int) -> int:
    """A result's points as whole points: 56.5 at 1000 points each is 56500. Exact (Decimal):
    56.5 × 1000 in floats is 56499.99…"""
    points = Decimal(str(total)) * point_value
    return int(points.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def ema_places(ranks: Sequence[int]) -> list[int]:
    """The places of the players kept, from their standings ranks (in order): one more than
    the players kept ahead of them, so a left-out player leaves no gap and a tie stays one."""
    places: list[int] = []
    for k, rank in enumerate(ranks):
        places.append(places[-1] if k and rank == ranks[k - 1] else k + 1)
    return places


def ema_rows(event: Event) -> list[list[Any]]:
    """A row per player who played, in the standings' order, as COLUMNS."""
    rows = iterate_standings(event)
    header = [c.key for c in next(rows)]
    at = {key: header.index(key) for key in (RANK.key, "player", TOTAL.key, GAMES.key)}
    played = [row for row in rows if row[at[GAMES.key]]]
    profiles = {
        name: (ema, str(country or ""), family)
        for name, ema, country, family in event.entries.values_list(
            "player__name", "ema_number", "country", "family_name"
        )
    }
    point_value = event.rules.point_value
    places = ema_places([row[at[RANK.key]] for row in played])
    out = []
    for place, row in zip(places, played, strict=True):
        player = row[at["player"]]
        ema, country, family = profiles.get(player, ("", "", ""))
        last, first = name_parts(player, family)
        country = EMA_COUNTRIES.get(country, country)
        score = ema_score(row[at[TOTAL.key]], point_value)
        out.append([place, ema, last.upper(), first, country, score])
    return out


def ema_heading(event: Event, rows: Sequence[Sequence[Any]]) -> list[Heading]:
    """What the EMA's results page and workbook say of the tournament, as far as the event
    knows it: its name, day, venue, how many played and from how many countries (the EMA
    weighs a tournament by both), and its rules (in English: the file is for the EMA)."""
    countries = {row[4] for row in rows if row[4]}
    venue = event.venue.name if event.venue_id else ""
    return [
        Heading("tournament", _("Tournament"), event.name),
        Heading("date", _("Date"), event.held_on.isoformat()),
        Heading("place", _("Venue"), venue),
        Heading("players", _("Players"), len(rows)),
        Heading("countries", _("Countries"), len(countries)),
        Heading("rules", _("Rules"), event.rules.name),
    ]


def iterate_ema(event: Event, rows: list[list[Any]] | None = None) -> Iterator[list[Any]]:
    """COLUMNS, then a row per player who played, in the standings' order."""
    yield list(COLUMNS)
    yield from ema_rows(event) if rows is None else rows


def export_ema(event: Event, fmt: str) -> bytes:
    """The EMA's results file as `fmt` (csv or xlsx; json too): the heading, then the rows."""
    rows = ema_rows(event)
    heading = ema_heading(event, rows)
    # Whole points throughout: the score is a count of points, never tenths.
    return write(fmt, iterate_ema(event, rows), event, SHEET, True, heading)
