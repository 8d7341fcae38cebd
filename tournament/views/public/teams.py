"""An event's teams (issue 34): the team standings (a tab beside the stages, shown before any
game), a team's page, the venue screen's team view and downloads."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from tournament.caching import event_stamp, shared
from tournament.charts import score_chart
from tournament.exports.teams import export_teams
from tournament.i18n import round_heading, team_rule_text
from tournament.models import Event
from tournament.permissions import can_referee
from tournament.selectors.teams import team_detail, team_table
from tournament.views.conditional import by_event_version
from tournament.views.public.downloads import download
from tournament.views.public.standings import REFRESH_SECONDS, standings_summary


def _rule(event: Event) -> dict[str, Any]:
    """How the event makes a team's total, said on every team page, and how points are shown."""
    return {
        "rule": team_rule_text(event.team_rule, event.team_best),
        "best_rule": event.team_rule == "best",
        "whole": event.rules.whole_points,
    }


def _team_context(event: Event) -> dict[str, Any]:
    """What the team table says, the same for the page and the screen."""
    return {
        "event": event,
        "lines": team_table(event),
        **_rule(event),
        **standings_summary(event, ""),
        "team_tab": True,
    }


@require_GET
@by_event_version
def teams_page(request: HttpRequest, event: Event) -> HttpResponse:
    """The team standings, by the event's rule (said above the table); a tab of the standings
    page. Every team is listed before any game. Made once per version and language."""

    def content() -> dict[str, str]:
        context = _team_context(event)
        if not context["lines"]:
            return {}
        return {"content": render_to_string("tournament/_teams.html", context)}

    shown = shared("teams-page", event_stamp(event), (get_language(),), content)
    if not shown:
        raise Http404
    return render(
        request,
        "tournament/teams.html",
        {"event": event, "can_manage": can_referee(request.user, event), **shown},
    )


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
    event = get_object_or_404(Event, slug=slug)

    def body() -> str:
        return render_to_string(
            "tournament/_team_table.html", {**_team_context(event), "screen": True}
        )

    html = shared("teams-screen", event_stamp(event), (get_language(),), body)
    if request.headers.get("X-Requested-With") == "fetch":
        response = HttpResponse(html)
    else:
        context = {
            **standings_summary(event, ""),
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
    data = shared(
        "teams-file", event_stamp(event), (fmt, get_language()), lambda: export_teams(event, fmt)
    )
    return download(data, fmt, f"{event.slug}-teams")
