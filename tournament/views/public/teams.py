"""An event's teams (issue 34): the team standings (a tab beside the stages, shown before any
game), a team's page, the venue screen's team view and downloads."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from tournament.charts import score_chart
from tournament.exports.files import teams_file
from tournament.http_caching import by_event_version
from tournament.i18n import round_heading, team_rule_text
from tournament.models import Event
from tournament.permissions import can_referee
from tournament.selectors.events import event_by_slug
from tournament.selectors.published import published
from tournament.selectors.standings_page import standings_summary
from tournament.selectors.teams import TeamTable, team_detail
from tournament.views.public.downloads import download
from tournament.views.public.standings import REFRESH_SECONDS


def _rule(event: Event) -> dict[str, Any]:
    """How the event makes a team's total, said on every team page, and how points are shown."""
    return {
        "rule": team_rule_text(event.team_rule, event.team_best),
        "best_rule": event.team_rule == "best",
        "whole": event.rules.whole_points,
    }


def _team_context(event: Event, screen: bool) -> dict[str, Any]:
    """What the team table says, the same for the page and the screen. The table is kept by
    `_team_table.html` (`teams.key`): its rows are read only when it does not hold them."""
    return {
        "event": event,
        "teams": TeamTable(event, screen),
        "screen": screen,
        **_rule(event),
        **standings_summary(event, "").context(),
        "team_tab": True,
    }


@require_GET
@by_event_version
def teams_page(request: HttpRequest, event: Event) -> HttpResponse:
    """The team standings, by the event's rule (said above the table); a tab of the standings
    page. Every team is listed before any game."""
    if not published(event).has_teams:  # a team always has members (scoring.teams.check_teams)
        raise Http404
    context = {**_team_context(event, screen=False), "can_manage": can_referee(request.user, event)}
    return render(request, "tournament/teams.html", context)


@require_GET
@by_event_version
def team_page(request: HttpRequest, event: Event, team_id: int) -> HttpResponse:
    """One team: its place, its members with their totals (those its total counts marked),
    their games, and the team's total and each member's round by round."""
    detail = team_detail(event, team_id)
    if detail is None:
        raise Http404
    chart = None
    if detail.rounds:
        names = [name for name, _values in detail.lines]
        series = [[values[i] for _name, values in detail.lines] for i in range(len(detail.rounds))]
        labels = [round_heading(n) for n in detail.rounds]
        chart = score_chart(names, 0, series, labels)
    return render(
        request,
        "tournament/team_page.html",
        {
            "event": event,
            "detail": detail,
            "chart": chart,
            **_rule(event),
        },
    )


@require_GET
@vary_on_headers("X-Requested-With")  # the page and the table it fetches share an address
def teams_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The venue screen's team view: the team table in type sized to the room (screen.js),
    fetched again every interval."""
    event = event_by_slug(slug)
    if event is None:
        raise Http404
    html = render_to_string("tournament/_team_table.html", _team_context(event, screen=True))
    if request.headers.get("X-Requested-With") == "fetch":
        response = HttpResponse(html)
    else:
        context = {
            **standings_summary(event, "").context(),
            "event": event,
            "body": html,
            "refresh": REFRESH_SECONDS,
            "team_tab": True,
        }
        response = render(request, "tournament/teams_screen.html", context)
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
@by_event_version
def teams_export(request: HttpRequest, event: Event, fmt: str) -> HttpResponse:
    """`export_standings --teams` as a download (CONTRACT §2 columns), from the same rows."""
    return download(teams_file(event, fmt), fmt, f"{event.slug}-teams")
