"""The organizer's download of the entrants (issue 50): every sign-up holding a place — the
registered, the waiting list, those waiting for approval — in order, with their e-mails, for
the organizers only (views/manage/signups.py). Through the one export pipeline (formats.py),
so a name a spreadsheet would run as a formula is written as text, as everywhere."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.exports.columns import Column, Kind
from tournament.exports.formats import Sheet, write
from tournament.models import Event
from tournament.selectors.registration import signups_for_organizers

# The states as the organizer's list heads them; the CSV and JSON keep CONTRACT §8's words.
STATE_WORDS = {
    "registered": _("Registered"),
    "waiting": _("Waiting list"),
    "pending": _("Waiting for approval"),
}
COLUMNS = (
    Column("state", _("State"), words=STATE_WORDS),  # registered, waiting or pending
    # The order within its state, 1 first: its own word (受付順), not the rankings' "Place" (順位).
    Column("place", pgettext_lazy("entrants", "Order"), Kind.COUNT),
    Column("player", _("Player")),
    Column("email", _("E-mail")),
    Column("ema", _("EMA number")),
    Column("country", _("Country"), Kind.COUNTRY),
)
SHEET = Sheet("entrants", _("Entrants"))


def iterate_entrants(event: Event) -> Iterator[list[Any]]:
    """COLUMNS, then a row per sign-up: registered, waiting, then pending, each in order."""
    yield list(COLUMNS)
    lists = signups_for_organizers(event)
    for state in ("registered", "waiting", "pending"):
        for place, s in enumerate(lists[state], start=1):
            yield [state, place, s.name, s.email, s.ema_number, str(s.country or "")]


def export_entrants(event: Event, fmt: str) -> bytes:
    """The entrants as `fmt` (csv, xlsx or json)."""
    return write(fmt, iterate_entrants(event), event, SHEET, event.rules.whole_points)
