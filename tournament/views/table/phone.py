"""What a table's page knows of the phone: its id, the seat it holds, a wait said."""

from __future__ import annotations

import secrets

from django.http import HttpRequest
from django.utils.translation import ngettext

from tournament.services.throttle import Throttled

PHONE_KEY = "table-phone"  # a random id per phone: the entering phone cannot confirm


SEAT_KEY = "table-seat"  # [token, seat]: the one seat this phone has proved, at one table


# The token of the table whose result this phone has just confirmed: its next visit (the
# confirmation's redirect) says so; later ones answer as any closed link does.
CONFIRMED_KEY = "table-confirmed"


# /t/'s count of a phone that has no session: a cookie, not a session row per try.
CODE_PHONE_COOKIE = "table-code-phone"


def phone_id(request: HttpRequest) -> str:
    """This phone's random id, made on first need and kept in its session."""
    phone = request.session.get(PHONE_KEY)
    if not isinstance(phone, str) or len(phone) != 32:
        phone = request.session[PHONE_KEY] = secrets.token_hex(16)
    return phone


def wait_text(stop: Throttled) -> str:
    return ngettext(
        "Too many wrong codes from this phone or network. Try again in %(n)d minute, "
        "or scan the QR code on your table's sheet.",
        "Too many wrong codes from this phone or network. Try again in %(n)d minutes, "
        "or scan the QR code on your table's sheet.",
        stop.minutes,
    ) % {"n": stop.minutes}
