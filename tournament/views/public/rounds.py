"""A round's pages: its tables with results, and its seating to print for the wall."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament.http_caching import answer_by_tag, page_tag
from tournament.models import Event
from tournament.selectors.cache import event_stamp
from tournament.selectors.events import event_by_slug
from tournament.selectors.rounds import round_page
from tournament.selectors.tables import (
    round_seating,
    seats_named,
)
from tournament.views.public.standings import REFRESH_SECONDS
from tournament.views.query import known_query


@require_GET
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every table of a round with seats, scores and points; tables still playing marked.
    While a table plays, the page follows the round (live.js): tagged by the event's version
    (a hand moves a table's live score, a start the clock), so a phone polling with nothing
    new gets 304 for one query. Never kept whole for the next reader: its clock counts from
    the server's time when it was drawn, as the venue screen's."""
    event = event_by_slug(slug)
    if event is None:
        raise Http404
    tag = page_tag(request, request.path, [event_stamp(event)])
    return answer_by_tag(request, tag, _round_page, event, number, tag)


def _round_page(request: HttpRequest, event: Event, number: int, tag: str) -> HttpResponse:
    page = round_page(event, number)
    if page is None:
        raise Http404
    context = {
        "event": event,
        "page": page,  # its tables kept by `page.tables_key` (round_detail.html)
        "round": page.round,
        "clock": page.clock,
        "live_tag": tag,  # live.js's first poll sends it: 304 unless the round moved
        "refresh": REFRESH_SECONDS,
    }
    return render(request, "tournament/round_detail.html", context)


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
