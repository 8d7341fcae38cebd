"""The organizer's screen to set an event's teams and the rule of a team's total (issue 34).
Thin: the form collects, services/teams.py writes, selectors/teams.py reads."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament.forms.teams import TeamsForm
from tournament.models import Event
from tournament.permissions import organizer_required
from tournament.selectors.events import names_in_play
from tournament.selectors.teams import event_teams
from tournament.services.errors import ServiceError
from tournament.services.teams import teams_set


@organizer_required
@require_http_methods(["GET", "POST"])
def teams_edit(request: HttpRequest, event: Event) -> HttpResponse:
    """Set the teams (one line each: the team's name, a colon, its members) and how a team's
    total is made. A mistake is named and what was typed stays in the box."""
    initial = {
        "teams": "\n".join(
            f"{name}: {', '.join(members)}" for name, members in event_teams(event).items()
        ),
        "rule": event.team_rule,
        "best": event.team_best,
    }
    form = TeamsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            teams_set(event=event, **form.service_kwargs(), user=request.user)
        except ServiceError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("The teams are saved."))
            return redirect("event-teams-edit", event.slug)
    status = 400 if form.is_bound else 200
    return render(
        request,
        "tournament/manage/teams.html",
        {"event": event, "form": form, "players": _unteamed(event)},
        status=status,
    )


def _unteamed(event: Event) -> list[str]:
    """The players in no team, in registration order: what is left to place."""
    teamed = {name for members in event_teams(event).values() for name in members}
    return [name for name in names_in_play(event) if name not in teamed]
