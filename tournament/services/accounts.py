"""Log-in throttling: a few wrong passwords for one account, or many from one address, and
log-ins stop for a while — even with the right password — so guessing gets nowhere."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.forms import UsernameField
from django.utils import timezone

from tournament.models import LoginFailure

WINDOW = timedelta(minutes=15)
PER_ACCOUNT = 5  # wrong passwords for one username within the window
PER_ADDRESS = 20  # wrong passwords from one address (any usernames) within the window


def _account(username: str) -> str:
    """The name failures are counted under: exactly what log-in compares — Django's log-in
    form trims the name and folds it by NFKC (` victim1` and `ｖｉｃｔｉｍ1` are victim1) — so
    no other spelling of one account gets guesses of its own. NUL characters are dropped
    (PostgreSQL text cannot hold them, and the form refuses them anyway); the field's length."""
    return UsernameField().to_python(username.replace("\x00", ""))[:150]


def login_wait(username: str, address: str | None) -> timedelta | None:
    """How long until this log-in may be tried, or None if it may be now."""
    username = _account(username)
    since = timezone.now() - WINDOW
    recent = LoginFailure.objects.filter(at__gte=since)
    for rows, limit in (
        (recent.filter(username__iexact=username), PER_ACCOUNT),
        (recent.filter(address=address) if address else recent.none(), PER_ADDRESS),
    ):
        times = list(rows.order_by("-at").values_list("at", flat=True)[:limit])
        if len(times) >= limit:
            return max(times[-1] + WINDOW - timezone.now(), timedelta(seconds=1))
    return None


def login_failed(username: str, address: str | None) -> None:
    LoginFailure.objects.filter(at__lt=timezone.now() - WINDOW).delete()  # keep the table small
    LoginFailure.objects.create(username=_account(username), address=address)


def login_succeeded(username: str) -> None:
    LoginFailure.objects.filter(username__iexact=_account(username)).delete()
