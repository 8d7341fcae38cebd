"""`GET /api/v1/events/<slug>/entries` (issue 50, CONTRACT §8): who is registered and who
waits, names only (e-mail addresses are for the event's organizers). Its own module, as the
API's is full; imported by urls.py so the endpoint is on `api` before its URLs are made."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Schema
from ninja.decorators import decorate_view

from tournament.api import ERRORS, api, event_or_404
from tournament.http_caching import api_by_event_version
from tournament.selectors.registration import entry_lists


class EntriesOut(Schema):
    registered: list[str]
    waiting: list[str]


@api.get("/events/{slug}/entries", response={200: EntriesOut, **ERRORS})
@decorate_view(api_by_event_version)
def entries(request: HttpRequest, slug: str) -> dict[str, list[str]]:
    """The players registered, in order, and the waiting list, in order; pending sign-ups in
    neither."""
    return entry_lists(event_or_404(slug))
