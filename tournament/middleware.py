"""What Django 5.2's own middleware does not do: the Content-Security-Policy header, and a
clean answer when the database goes away in the middle of a request."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """The database unreachable (stopped, restarted, connection cut): every write runs in
        one transaction, so nothing was saved; say so and ask to try again, not a bare 500."""
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error(
            "database unavailable during %s %s", request.method, request.path, exc_info=exception
        )
        # No request context: its processors would ask the session, in the database, again.
        html = render_to_string("503.html")
        response = HttpResponse(html, status=503)
        response["Retry-After"] = "10"
        return response
