"""A short id for every request: on its log lines, in the `X-Request-ID` answer header and on
the error page, so "reference 3f9c0e1a2b4d" from an organizer finds the traceback at once."""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse

_current: ContextVar[str] = ContextVar("request_id", default="-")
# What a proxy in front of us may hand on (nginx's $request_id is 32 hex digits).
_FORWARDED = re.compile(r"[A-Za-z0-9._-]{1,64}")


def current_request_id() -> str:
    return _current.get()


class RequestIdMiddleware:
    """First in MIDDLEWARE: everything after it, logging included, knows the id."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        forwarded = request.META.get("HTTP_X_REQUEST_ID", "") if settings.BEHIND_PROXY else ""
        request_id = forwarded if _FORWARDED.fullmatch(forwarded) else uuid.uuid4().hex[:12]
        request.request_id = request_id  # type: ignore[attr-defined]
        token = _current.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            _current.reset(token)
        response["X-Request-ID"] = request_id
        return response


class RequestIdFilter(logging.Filter):
    """Puts `request_id` on every record (`-` outside a request: commands, start-up)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _current.get()
        return True
