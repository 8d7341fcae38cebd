"""An event's teams (issue 34, CONTRACT §2): set on the organizer's screen or by the event file,
and the rule that makes a team's total (scoring/teams.py). One write replaces the teams whole,
checked first: a player in two teams, an unknown member or an empty team is refused naming it,
and nothing is kept."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from scoring.teams import check_rule, check_teams
from tournament.models import Entry, Event, Team, TeamMember
from tournament.selectors.teams import event_teams
from tournament.services.changes import change_record
from tournament.services.errors import engine_errors
from tournament.services.locks import event_lock


def teams_write(event: Event, teams: dict[str, list[str]]) -> None:
    """The teams as rows, in the order given (the members already the event's entries). Inside
    a caller's transaction, after the teams were checked."""
    if not teams:
        return
    entries = {e.player.name: e for e in Entry.objects.filter(event=event).select_related("player")}
    made = Team.objects.bulk_create(
        Team(event=event, name=name, position=i) for i, name in enumerate(teams)
    )
    TeamMember.objects.bulk_create(
        TeamMember(team=team, entry=entries[member], position=k)
        for team, members in zip(made, teams.values(), strict=True)
        for k, member in enumerate(members)
    )


@transaction.atomic
def teams_set(
    *,
    event: Event,
    teams: dict[str, list[str]],
    rule: str = "sum",
    best: int | None = None,
    user: Any = None,
) -> Event:
    """The event's teams and team rule, replacing what was there (an empty `teams` removes
    every team). Logged, and the event's version moves on: every page shows the new teams."""
    event_lock(event.pk)
    players = list(Entry.objects.filter(event=event).values_list("player__name", flat=True))
    best = best if rule == "best" else None
    with engine_errors():
        check_teams(teams, players)
        check_rule(rule, best)
    before = {"teams": event_teams(event), "rule": event.team_rule, "best": event.team_best}
    Team.objects.filter(event=event).delete()
    teams_write(event, teams)
    event.team_rule, event.team_best = rule, best
    event.save(update_fields=["team_rule", "team_best"])
    change_record(
        event=event,
        user=user,
        action="teams.set",
        summary=f"{len(teams)} teams, {rule}" + (f" {best}" if best else ""),
        before=before,
        after={"teams": teams, "rule": rule, "best": best},
    )
    return event
