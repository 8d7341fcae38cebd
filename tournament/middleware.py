"""The site's own middleware, every class in settings.MIDDLEWARE that is not Django's or a
library's: a short id per request (on its log lines, the answer's header, the error page), the
Content-Security-Policy header, a clean answer when the database goes away in the middle of a
request (logged by the outage, not per answer: `AnswerLoggedOnce` on django.request), a NUL
character or a form not sent as UTF-8 refused before any view reads it, and more files in one
form than the site takes sent back to the form, told so."""

from __future__ import annotations

import contextlib
import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import TooManyFilesSent
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from tournament.outages import Outage

logger = logging.getLogger(__name__)


# --- A short id per request ------------------------------------------------------------------
# On its log lines, in the `X-Request-ID` answer header and on the error page, so "reference
# 3f9c0e1a2b4d" from an organizer finds the traceback at once.

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


# --- Security headers, and the database gone -------------------------------------------------


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


# --- More files in one form than the site takes ----------------------------------------------
# (DATA_UPLOAD_MAX_NUMBER_FILES, the Tenhou upload's limit) was Django's bare "Bad Request
# (400)": Django raises it where the CSRF check first reads the form, before any view. Read
# here first instead (after the session, the language and messages): the person goes back to
# the page the form is on, told the limit in the site's words, and nothing was kept.


class TooManyFilesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.content_type == "multipart/form-data":
            try:
                request.FILES  # noqa: B018 — parsed here to catch the limit, kept for the view
            except TooManyFilesSent:
                return too_many_files(request)
        return self.get_response(request)


def too_many_files(request: HttpRequest) -> HttpResponse:
    # The rest of the upload is read (and dropped) so the browser, still sending, gets the
    # answer rather than a connection reset.
    with contextlib.suppress(OSError):
        while request.read(1 << 16):
            pass
    most = settings.DATA_UPLOAD_MAX_NUMBER_FILES
    messages.error(
        request,
        _(
            "At most %(most)d files can be sent at once; nothing was saved. Choose at most "
            "%(most)d and send them again."
        )
        % {"most": most},
    )
    back = request.headers.get("Referer", "")
    safe = url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return HttpResponseRedirect(back if safe else request.path, status=303)
