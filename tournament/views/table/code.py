"""/t/: a table's page found by the 6-character code printed under its QR code."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournament.selectors.tables import table_link_by_code
from tournament.services.tables import normalize_code
from tournament.services.throttle import WINDOW, Throttled, client_network, guess_take
from tournament.views.errors import stopped
from tournament.views.table.forms import CodeForm
from tournament.views.table.phone import CODE_PHONE_COOKIE, PHONE_KEY, wait_text


@never_cache
@require_http_methods(["GET", "POST"])
def table_code(request: HttpRequest) -> HttpResponse:
    """/t/: type the 6-character code printed under the table's QR code."""
    form = CodeForm(request.POST or None)
    if not form.is_bound:
        return render(request, "tournament/table_code.html", {"form": form})
    if not form.is_valid():
        return render(request, "tournament/table_code.html", {"form": form}, status=400)
    phone, new_phone = _code_phone(request)
    try:
        guess = guess_take("code", phone=phone, address=client_network(request))
    except Throttled as stop:
        form.add_error("code", wait_text(stop))
        page = render(request, "tournament/table_code.html", {"form": form}, status=429)
        response = stopped(page, stop)
    else:
        link = table_link_by_code(normalize_code(form.cleaned_data["code"]))
        if link is not None:
            guess.right()
            return redirect("table-page", link.token)
        form.add_error("code", _("No open table has this code. Check the sheet on the table."))
        response = render(request, "tournament/table_code.html", {"form": form}, status=400)
    if new_phone:
        response.set_signed_cookie(
            CODE_PHONE_COOKIE,
            phone,
            salt=CODE_PHONE_COOKIE,
            max_age=WINDOW,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


def _code_phone(request: HttpRequest) -> tuple[str, bool]:
    """The id /t/ counts this phone's wrong codes under, and whether it is new (then sent as
    a cookie): the session's phone id when it has one, else the phone's own signed cookie —
    never a session made for a try, since a client sending no cookies left a session row per
    refused try (issue 44)."""
    phone = request.session.get(PHONE_KEY)
    if not (isinstance(phone, str) and len(phone) == 32):
        phone = request.get_signed_cookie(CODE_PHONE_COOKIE, None, salt=CODE_PHONE_COOKIE)
    if isinstance(phone, str) and len(phone) == 32:
        return phone, False
    return secrets.token_hex(16), True
