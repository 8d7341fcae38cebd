"""A round's pages: its tables with results, and its seating to print for the wall."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournament.selectors.events import event_by_slug
from tournament.selectors.games import round_list
from tournament.selectors.rounds import round_numbers
from tournament.selectors.tables import (
    round_clock,
    round_seating,
    seats_named,
)
from tournament.views.query import known_query


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every table of a round with seats, scores and points; tables still playing marked."""
    event = event_by_slug(slug)
    if event is None:
        raise Http404
    rnd = get_object_or_404(round_list(event), number=number)
    numbers = round_numbers(event)
    return render(
        request,
        "tournament/round_detail.html",
        {"event": event, "round": rnd, "numbers": numbers, "clock": round_clock(rnd)},
    )


SEATING_ORDERS = ("table", "name")


@require_GET
@known_query("order")
def round_seating_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's seating to print for the wall (one A4 for up to 16 tables): by table, each
    with its players by wind; or (`?order=name`) every player by name with their table and
    wind, for a room looking for its own name."""
    event = event_by_slug(slug)
    if event is None:
        raise Http404
    order = request.GET.get("order") or "table"
    if order not in SEATING_ORDERS:
        raise Http404
    seating = round_seating(event, number)
    if not seating:
        raise Http404  # a round this event has not seated
    return render(
        request,
        "tournament/round_seating.html",
        {
            "event": event,
            "number": number,
            "order": order,
            "seating": seating,
            "by_name": seats_named(seating, "") if order == "name" else [],
        },
    )
