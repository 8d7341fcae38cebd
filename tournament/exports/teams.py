"""An event's team standings (CONTRACT §2): the files and the API's answer, from one
declaration. (The pages draw the team table with its links and the screen's sizes:
templates/tournament/_team_table.html, from selectors/teams.team_table.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext_lazy as _

from scoring.teams import TeamRow
from tournament.exports.columns import Column, Kind, answer_schema
from tournament.exports.formats import Sheet, write
from tournament.models import Event
from tournament.selectors.teams import team_rows

COLUMNS = (
    Column("rank", _("Rank"), Kind.COUNT),
    Column("team", _("Team")),
    Column("total", _("Total"), Kind.POINTS),
    Column("games", _("Games"), Kind.COUNT),
    # In the order the event lists them: a list in the API, joined by "; " in a file.
    Column("members", _("Members"), Kind.NAMES),
)
SHEET = Sheet("teams", _("Teams"))
TeamOut = answer_schema("TeamOut", COLUMNS)


def team_record(row: TeamRow) -> dict[str, Any]:
    """A team's row by its columns' keys: what the API answers and every file writes."""
    return {
        "rank": row.rank,
        "team": row.team,
        "total": float(row.total),
        "games": row.games,
        "members": list(row.members),
    }


def team_records(event: Event) -> list[dict[str, Any]]:
    return [team_record(row) for row in team_rows(event)]


def iterate_teams(event: Event) -> Iterator[list[Any]]:
    yield list(COLUMNS)
    for record in team_records(event):
        yield [record[c.key] for c in COLUMNS]


def export_teams(event: Event, fmt: str) -> bytes:
    """The team standings file."""
    return write(fmt, iterate_teams(event), event, SHEET, event.rules.whole_points)
