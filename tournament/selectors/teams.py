"""Reads for an event's teams (issue 34, CONTRACT §2): the team standings by the event's rule,
one team's page (members, games, chart), and a season's team league."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property

from django.utils.translation import get_language

from scoring.series import EventResult, SeriesRow, SeriesRule, rank_series
from scoring.teams import TeamRow, team_standings
from tournament.models import Event, Seat, Series, Team, TeamMember
from tournament.selectors.published import published, published_of


def event_teams(event: Event) -> dict[str, list[str]]:
    """Each team's members by name, teams and members in the order the event lists them. One
    query."""
    teams: dict[str, list[str]] = {}
    members = TeamMember.objects.filter(team__event=event).order_by("team__position", "position")
    for team, player in members.values_list("team__name", "entry__player__name"):
        teams.setdefault(team, []).append(player)
    return teams


def _rows(event: Event, teams: dict[str, list[str]], standings_rows: list) -> list[TeamRow]:
    totals = {str(r.player): Decimal(r.total) for r in standings_rows}
    games = {str(r.player): r.games for r in standings_rows}
    return team_standings(teams, totals, games, event.team_rule, event.team_best)


def team_rows(event: Event) -> list[TeamRow]:
    """The team standings by the event's rule (CONTRACT §2's sum unless the organizer chose
    the best N members' totals or their average), from the published standings. Every team
    is listed before any game (all at 0, sharing rank 1). One query besides the standings."""
    teams = event_teams(event)
    if not teams:
        return []
    return _rows(event, teams, published(event).standings.rows)


@dataclass(frozen=True)
class TeamLine:
    """A team standings row with what a page links to: the team's id."""

    row: TeamRow
    team_id: int


def team_table(event: Event) -> list[TeamLine]:
    """The team standings for a page: each row with its team's id. Two queries besides the
    standings."""
    ids = dict(Team.objects.filter(event=event).values_list("name", "pk"))
    return [TeamLine(row, ids[row.team]) for row in team_rows(event)]


@dataclass(frozen=True)
class TeamTable:
    """The team standings table as a page or the venue screen (`screen`: names as plain text)
    shows it (_team_table.html): kept by `key`, its rows read only when it is not."""

    event: Event
    screen: bool

    @property
    def key(self) -> tuple:
        """What the rendered table is kept by: the standings' rows, which the team rows are
        summed from (selectors/published.py `rows_stamp`: a result moves it, and so do the
        teams and the team rule, as every change but a result does; a hand does not), the
        language and the place."""
        return (published(self.event).rows_stamp, get_language(), self.screen)

    @cached_property
    def lines(self) -> list[TeamLine]:
        return team_table(self.event)


@dataclass(frozen=True)
class MemberLine:
    name: str
    player_id: int | None
    rank: int | None  # in the event's standings (None before their first game)
    total: Decimal
    games: int
    counted: bool  # their total makes the team's (always, but under "best N")


@dataclass(frozen=True)
class TeamGame:
    round: int
    table: int
    game_id: int
    player: str
    place: int | None
    score: int | None
    points: Decimal | None


@dataclass(frozen=True)
class TeamDetail:
    team: Team
    row: TeamRow
    teams: int  # how many teams the event has
    members: list[MemberLine]
    games: list[TeamGame]  # the members' finished games, by round and table
    rounds: list[int]  # rounds with a finished game of a member
    lines: list[tuple[str, list[float]]]  # (name, cumulative total after each of `rounds`)


def team_detail(event: Event, team_id: int) -> TeamDetail | None:
    """One team's page: its row in the team standings, its members with their totals and
    places in the event, every finished game a member played, and the team's total and each
    member's round by round (for the chart). Four queries besides the standings; None for a
    team the event does not have."""
    team = Team.objects.filter(event=event, pk=team_id).first()
    if team is None:
        return None
    teams = event_teams(event)
    members = teams[team.name]
    record = published(event)
    standings = record.standings.rows
    rows = _rows(event, teams, standings)
    row = next(r for r in rows if r.team == team.name)
    ids = record.player_ids
    by_name = {str(r.player): r for r in standings}
    member_lines = [
        MemberLine(
            name=name,
            player_id=ids.get(name),
            rank=by_name[name].rank if name in by_name and by_name[name].games else None,
            total=Decimal(by_name[name].total) if name in by_name else Decimal(0),
            games=by_name[name].games if name in by_name else 0,
            counted=name in row.counted,
        )
        for name in members
    ]
    seats = (
        Seat.objects.filter(round__event=event, player__name__in=members, game__finished=True)
        .order_by("round__number", "game__table", "position")
        .values_list(
            "round__number", "game__table", "game_id", "player__name", "rank", "score", "points"
        )
    )
    games = [TeamGame(*seat) for seat in seats]
    rounds = sorted({g.round for g in games})
    # Round by round: each member's points so far, and the team's total by its rule over them.
    per_round: dict[str, dict[int, Decimal]] = defaultdict(dict)
    for g in games:
        per_round[g.player][g.round] = per_round[g.player].get(g.round, Decimal(0)) + (
            g.points or Decimal(0)
        )
    running = dict.fromkeys(members, Decimal(0))
    team_line: list[float] = []
    member_series: dict[str, list[float]] = {name: [] for name in members}
    for number in rounds:
        for name in members:
            running[name] += per_round[name].get(number, Decimal(0))
            member_series[name].append(float(running[name]))
        so_far = team_standings({team.name: members}, running, {}, event.team_rule, event.team_best)
        team_line.append(float(so_far[0].total))
    lines = [(team.name, team_line), *member_series.items()]
    return TeamDetail(team, row, len(teams), member_lines, games, rounds, lines)


@dataclass
class SeriesTeams:
    """A season's team league: each team (by name, across events) ranked by the series' rule —
    its team total in every event, or its best N events."""

    events: list[Event]
    rows: list[SeriesRow]  # `player` holds the team's name


def series_teams(series: Series) -> SeriesTeams:
    """The season's teams ranked as its players are (scoring/series.py), each event giving a
    team its total by that event's team rule. A team is the same team in every event that
    names it alike. Three queries besides the events' standings."""
    events = list(
        Event.objects.filter(series_members__series=series).order_by("series_members__position")
    )
    members = (
        TeamMember.objects.filter(team__event__in=events)
        .order_by("team__position", "position")
        .values_list("team__event_id", "team__name", "entry__player__name")
    )
    teams: dict[int, dict[str, list[str]]] = defaultdict(dict)
    for event_id, team, player in members:
        teams[event_id].setdefault(team, []).append(player)
    tables = published_of([e for e in events if teams.get(e.pk)])
    per_event = []
    for event in events:
        if not teams.get(event.pk):
            per_event.append({})
            continue
        rows = _rows(event, teams[event.pk], tables[event.pk].standings.rows)
        per_event.append({r.team: EventResult(r.total, r.games) for r in rows if r.games})
    rule = SeriesRule(series.rule, series.best_of)  # a team plays whenever a member does
    return SeriesTeams(events, rank_series(rule, per_event) if any(per_event) else [])
