"""What Django 5.2's own middleware does not do: the Content-Security-Policy header, a clean
answer when the database goes away in the middle of a request (logged by the outage, not per
answer: `AnswerLoggedOnce` on django.request), and a NUL character refused before any view
reads it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from tournament.outages import Outage
from tournament.requestid import current_request_id

logger = logging.getLogger(__name__)


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if database_outage.ongoing:
            # While the database is gone, a query that answers ends the outage (its one line
            # and mail); otherwise no query pays for watching.
            with connection.execute_wrapper(_database_answered):
                response = self.get_response(request)
        else:
            response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_GONE):
            return database_gone_response(request, exception)
        return None


DATABASE_GONE = (OperationalError, InterfaceError)


database_outage = Outage("The database", logger)


def _database_answered(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    result = execute(sql, params, many, context)
    database_outage.ended()
    return result


def database_gone_response(request: HttpRequest, exception: BaseException) -> HttpResponse:
    """The database unreachable (stopped, restarted, connection cut): every write runs in one
    transaction, so nothing was saved; say so and ask to try again, not a bare 500."""
    database_outage.failed(exception, f"{request.method} {request.path}")
    html = render_to_string(
        "error.html",
        {
            "title": _("Try again in a moment"),
            "message": _(
                "The database did not answer. Nothing was saved by this request: go back and "
                "send it again in a few seconds."
            ),
            "request_id": current_request_id(),
        },
    )
    response = HttpResponse(html, status=503)
    response["Retry-After"] = "10"
    # Logged by the outage, once a minute: not django.request's ERROR (and mail) per answer
    # (AnswerLoggedOnce leaves this request's 503 out).
    request.logged_by_outage = True  # type: ignore[attr-defined]
    return response


class AnswerLoggedOnce(logging.Filter):
    """On the django.request logger (settings.LOGGING), before its handlers (stderr, mail): an
    outage's 503 is not logged per answer — the outage logs it, once a minute — and an answer
    made again for the same failure (the API's JSON for a 500 whose traceback is in the log
    already) is not logged a second time. Django marks a response it has logged with a
    private attribute; this marks the request, with attributes of our own."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        status = getattr(record, "status_code", None)
        if request is None or status is None:
            return True
        if status == 503 and getattr(request, "logged_by_outage", False):
            return False
        logged: frozenset[int] = getattr(request, "statuses_logged", frozenset())
        if status in logged and record.exc_info is None:
            return False  # the same status again, without a traceback: nothing new to say
        request.statuses_logged = logged | {status}
        return True


class ApiErrorsAsJsonMiddleware:
    """Under /api/ every refusal is JSON `{"error", "field"}` (CONTRACT §4): a 405 from the
    API's router, a 500 from Django's handler or any other non-JSON error page becomes one,
    its status kept. The API's own errors are JSON already and pass untouched."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            request.path.startswith("/api/")
            and response.status_code >= 400
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            reason = response.reason_phrase or "error"
            converted = JsonResponse(
                {"error": reason.lower(), "field": ""}, status=response.status_code
            )
            if response.has_header("Allow"):
                converted["Allow"] = response["Allow"]
            # Logged already (a 500's traceback, an outage's 503): not once more as JSON
            # (AnswerLoggedOnce, on django.request).
            return converted
        return response


def _has_nul(request: HttpRequest) -> bool:
    return "\x00" in request.path or any(
        "\x00" in key or "\x00" in value for key, values in request.GET.lists() for value in values
    )


def _form_not_utf8(request: HttpRequest) -> bool:
    """A form body (application/x-www-form-urlencoded) that is not percent-encoded UTF-8, as
    every browser sends it: Django reads raw bytes in it as Latin-1 and invalid UTF-8 as
    U+FFFD, so a player would be named "ÿþ" or "��" (issue 63)."""
    if request.method != "POST" or request.content_type != "application/x-www-form-urlencoded":
        return False
    body = request.body
    if not body.isascii():
        return True
    try:
        unquote_to_bytes(body.replace(b"+", b" ")).decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


class RefuseNulMiddleware:
    """A NUL character is in no slug, token, code or parameter, and PostgreSQL text cannot
    hold one (every address carrying one reached the database and answered 500 there).
    Refused at the edge, 400, before any view reads the address: JSON under /api/, a page
    elsewhere. Forms need no help: Django's form fields refuse a NUL next to the field, with
    what was typed kept. A form body that is not UTF-8 is refused here too (`_form_not_utf8`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request):
            message = _("The address holds a NUL character (U+0000); remove it.")
        elif _form_not_utf8(request):
            message = _(
                "The form was not sent as UTF-8. Send it from the page, or encode it as UTF-8."
            )
        else:
            return self.get_response(request)
        if request.path.startswith("/api/"):
            return JsonResponse({"error": message, "field": ""}, status=400)
        html = render_to_string(
            "error.html",
            {"title": _("That request cannot be read"), "message": message},
        )
        return HttpResponse(html, status=400)
