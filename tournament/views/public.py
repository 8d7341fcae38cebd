"""Pages anyone may read."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournament.models import Event
from tournament.permissions import can_create_events, can_manage
from tournament.selectors.standings import event_list, event_standings


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournament/home.html",
        {"events": event_list(), "can_create": can_create_events(request.user)},
    )


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("venue"), slug=slug)
    return render(
        request,
        "tournament/event_detail.html",
        {
            "event": event,
            "standings": event_standings(event),
            "can_manage": can_manage(request.user, event),
        },
    )
