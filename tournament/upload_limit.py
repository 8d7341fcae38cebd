"""More files in one form than the site takes (DATA_UPLOAD_MAX_NUMBER_FILES, the Tenhou upload's
limit) was Django's bare "Bad Request (400)": Django raises it where the CSRF check first reads
the form, before any view. Read here first instead (after the session, the language and
messages): the person goes back to the page the form is on, told the limit in the site's
words, and nothing was kept."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import TooManyFilesSent
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _


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
