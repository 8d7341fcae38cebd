"""The tables' own entry: whether and how tables enter results, a table's link renewed, the
table on stream (CONTRACT §9), and the tables' states for the dashboard to refresh."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.models import Event
from tournament.permissions import (
    can_manage,
    organizer_required,
    referee_required,
)
from tournament.selectors.rounds import event_game
from tournament.selectors.tables import (
    round_phase,
    table_states,
)
from tournament.services.events import event_feature_game, event_table_entry_set
from tournament.services.tables import table_link_renew
from tournament.views.manage.buttons import act


@organizer_required
@require_POST
def table_entry_set(request: HttpRequest, event: Event) -> HttpResponse:
    act(
        request,
        lambda: event_table_entry_set(
            event=event,
            table_entry=request.POST.get("table_entry", ""),
            table_mode=request.POST.get("table_mode") or None,
            user=request.user,
        ),
        _("Saved."),
    )
    return redirect("event-manage", event.slug)


@organizer_required
@require_POST
def game_feature(request: HttpRequest, event: Event, game_id: int) -> HttpResponse:
    """Put a table on stream: the overlay without `?round=&table=` switches to it."""
    game = event_game(event, game_id)
    if game is None:
        raise Http404
    act(
        request,
        lambda: event_feature_game(event=event, game=game, user=request.user),
        _("Table %(t)d is on stream.") % {"t": game.table},
    )
    return redirect("event-manage", event.slug)


@organizer_required
@require_POST
def game_unfeature(request: HttpRequest, event: Event) -> HttpResponse:
    """No table on stream: the overlay says so until one is featured again."""
    act(
        request,
        lambda: event_feature_game(event=event, game=None, user=request.user),
        _("No table is on stream now."),
    )
    return redirect("event-manage", event.slug)


@referee_required
@require_POST
def table_link_new(request: HttpRequest, event: Event, game_id: int) -> HttpResponse:
    """Revoke a table's link (a lost or shared sheet) and print a new one."""
    game = event_game(event, game_id)
    if game is None:
        raise Http404
    act(
        request,
        lambda: table_link_renew(game=game, user=request.user),
        _("Table %(t)d has a new link; the old one no longer opens.") % {"t": game.table},
    )
    return redirect("round-sheet", event.slug, game.round.number)


@referee_required
def table_states_live(request: HttpRequest, event: Event) -> HttpResponse:
    """The tables' states alone, for the dashboard to refresh itself (live.js)."""
    number, states = table_states(event)
    response = render(
        request,
        "tournament/manage/_table_states.html",
        {
            "event": event,
            "state_round": number,
            "states": states,
            "phase": round_phase(event),
            "can_organize": can_manage(request.user, event),  # the table on stream's buttons
        },
    )
    response["Cache-Control"] = "no-cache"
    return response
