"""Check-in's codes, read (services/checkin.py writes check-ins): the code the venue screen
and the dashboard show, which changes every few minutes (issue 44: a photo of it goes stale),
the codes a player may type now, and the key of the venue screen's private link. Each is made
from the event's check-in secret (`checkin_code`, never shown) and the site's key: no query."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.utils import timezone
from django.utils.crypto import salted_hmac

from tournament.models import Event
from tournament.models.games import CODE_ALPHABET

# The code shown changes every window; the one before stays good, so a code read just before
# the change still works, and a photo of the screen is useless ten minutes on.
CHECKIN_CODE_SECONDS = 5 * 60
CHECKIN_CODE_LENGTH = 4  # typed on a phone at the door: short, and rate-limited per client


def _now() -> datetime:
    """The time the code is read at (one name, so a test can stop the clock)."""
    return timezone.now()


def _window(at: datetime | None) -> int:
    return int((at or _now()).timestamp()) // CHECKIN_CODE_SECONDS


def _code_in(event: Event, window: int) -> str:
    """The code shown in `window`: from the event's secret (`checkin_code`, never shown) and
    the site's key, so nobody can work out the next code from the ones they saw."""
    digest = salted_hmac(
        "tournament.checkin.code", f"{event.pk}:{event.checkin_code}:{window}", algorithm="sha256"
    ).digest()
    number = int.from_bytes(digest[:8], "big")
    chars = []
    for _ in range(CHECKIN_CODE_LENGTH):
        number, digit = divmod(number, len(CODE_ALPHABET))
        chars.append(CODE_ALPHABET[digit])
    return "".join(chars)


def checkin_code_shown(event: Event, *, at: datetime | None = None) -> str:
    """The code the venue screen and the dashboard show now (or at `at`); "" without check-in."""
    return _code_in(event, _window(at)) if event.checkin_code else ""


def checkin_codes_good(event: Event, *, at: datetime | None = None) -> tuple[str, ...]:
    """The codes a player may type now (or at `at`): the one shown and the one before, so a
    code read just before the change still works; none without check-in."""
    if not event.checkin_code:
        return ()
    window = _window(at)
    return (_code_in(event, window), _code_in(event, window - 1))


def checkin_code_seconds_left(*, at: datetime | None = None) -> int:
    """Seconds until the code shown changes (the screen reloads then to show the new one)."""
    now = (at or _now()).timestamp()
    return max(1, int((_window(at) + 1) * CHECKIN_CODE_SECONDS - now))


def checkin_screen_key(event: Event) -> str:
    """The key of the venue screen's private link (`/events/<slug>/screen/?key=…`, given on the
    dashboard, like a table link): the public screen shows no check-in code (issue 63: anyone
    reading it from elsewhere checked the room in); the projector opened by this link, or by
    the event's organizers and referees, does. Made from the event's check-in secret and the
    site's key: nobody works it out from the public pages. "" without check-in."""
    if not event.checkin_code:
        return ""
    digest = salted_hmac(
        "tournament.checkin.screen", f"{event.pk}:{event.checkin_code}", algorithm="sha256"
    )
    return digest.hexdigest()[:24]


def checkin_screen_key_right(event: Event, key: str) -> bool:
    right = checkin_screen_key(event)
    return bool(right) and secrets.compare_digest(key.encode(), right.encode())
