"""Penalties and bonuses: the report, one given, one cancelled."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.forms.events import PenaltyForm
from tournament.models import Event
from tournament.permissions import referee_required
from tournament.selectors.events import penalty_list, penalty_of
from tournament.selectors.players import player_suggestions, players_named
from tournament.services.errors import ServiceError
from tournament.services.penalties import penalty_cancel, penalty_give
from tournament.views.manage.buttons import act


@referee_required
def penalties(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's penalty report: every penalty given (cancelled ones kept, marked), and the
    form to give one."""
    form = PenaltyForm(
        request.POST or None,
        players=player_suggestions(event),
        lookup=partial(players_named, event),
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                penalty_give(
                    event=event,
                    player=form.cleaned_data["player"],
                    points=form.cleaned_data["points"],
                    reason=form.cleaned_data["reason"],
                    round_number=form.cleaned_data["round_number"],
                    user=request.user,
                )
            except ServiceError as exc:
                form.add_service_error(exc)
            else:
                given = (
                    _("The penalty is given; the standings count it.")
                    if form.cleaned_data["points"] < 0
                    else _("The bonus is given; the standings count it.")
                )
                messages.success(request, given)
                return redirect("penalties", event.slug)
        status = 400
    rows = penalty_list(event)
    return render(
        request,
        "tournament/manage/penalties.html",
        {"event": event, "form": form, "penalties": rows},
        status=status,
    )


@referee_required
@require_POST
def penalty_cancel_view(request: HttpRequest, event: Event, penalty_id: int) -> HttpResponse:
    penalty = penalty_of(event, penalty_id)
    if penalty is None:
        raise Http404
    act(
        request,
        lambda: penalty_cancel(penalty=penalty, user=request.user),
        _("The penalty is cancelled; it no longer counts."),
    )
    return redirect("penalties", event.slug)
