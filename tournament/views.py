from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournament.models import Event
from tournament.selectors.standings import event_list, event_standings


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournament/home.html", {"events": event_list()})


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("venue"), slug=slug)
    return render(
        request,
        "tournament/event_detail.html",
        {"event": event, "standings": event_standings(event)},
    )
