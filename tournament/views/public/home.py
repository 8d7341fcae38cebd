"""The front page: the events and the series."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.permissions import can_create_events
from tournament.selectors.series import series_list
from tournament.selectors.standings import event_list


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournament/home.html",
        {
            "events": event_list(),
            "series": series_list(),
            "can_create": can_create_events(request.user),
        },
    )
