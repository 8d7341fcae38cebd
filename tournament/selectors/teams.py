"""Reads for an event's teams (issue 34, CONTRACT §2)."""

from __future__ import annotations

from decimal import Decimal

from scoring.teams import TeamRow, team_standings
from tournament.models import Event, TeamMember
from tournament.selectors.standings import published_standings


def event_teams(event: Event) -> dict[str, list[str]]:
    """Each team's members by name, teams and members in the order the event lists them. One
    query."""
    teams: dict[str, list[str]] = {}
    members = TeamMember.objects.filter(team__event=event).order_by("team__position", "position")
    for team, player in members.values_list("team__name", "entry__player__name"):
        teams.setdefault(team, []).append(player)
    return teams


def team_rows(event: Event) -> list[TeamRow]:
    """The team standings by CONTRACT §2's rule (the sum of the members' totals), from the
    published standings."""
    teams = event_teams(event)
    if not teams:
        return []
    rows = published_standings(event).rows
    totals = {str(r.player): Decimal(r.total) for r in rows}
    games = {str(r.player): r.games for r in rows}
    return team_standings(teams, totals, games)
