"""The page behind an uncaught exception (handler500), and what every 429 carries."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from tournament.middleware import DATABASE_GONE, current_request_id, database_gone_response
from tournament.services.throttle import Throttled


def server_error(request: HttpRequest) -> HttpResponse:
    """Django calls this inside its `except` block, so the exception is at hand. A database
    that went away outside a view (a session saved on the way out) still gets the 503 page
    that says nothing was saved; anything else is our fault and says so."""
    exception = sys.exc_info()[1]
    if isinstance(exception, DATABASE_GONE):
        return database_gone_response(request, exception)
    html = render_to_string(
        "error.html",
        {
            "title": _("Something went wrong on our side"),
            "message": _(
                "The error is logged for the organizers. Go back and try again; if it happens "
                "again, tell the tournament desk what you were doing."
            ),
            "request_id": current_request_id(),
        },
    )
    return HttpResponse(html, status=500)


def stopped(response: HttpResponse, stop: Throttled) -> HttpResponse:
    """A 429 with `Retry-After` (RFC 9110 §10.2.3): when the limit that stopped it lets the
    client try again."""
    response["Retry-After"] = str(stop.seconds)
    return response
