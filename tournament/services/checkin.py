"""Check-in (issue 33): who came. When an event seats only players checked in, a player checks
in on the event's page with their name and the event's code (shown at the venue), or the
organizer ticks them; a latecomer is checked in between rounds; a no-show for the whole event
is withdrawn in one step. Seating (services/rounds.py) then seats the players present; the
rest sit out, recorded as not checked in."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction

from scoring.names import name_key, normalize_name
from tournament.models import Entry, Event
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError, engine_errors
from tournament.services.locks import event_lock
from tournament.services.tables import CODE_ALPHABET, normalize_code

CHECKIN_CODE_LENGTH = 4  # typed on a phone at the door: short, and rate-limited per client


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CHECKIN_CODE_LENGTH))


@transaction.atomic
def checkin_require(*, event: Event, required: bool, user: Any = None) -> Event:
    """Seat only players checked in (or everyone again). The event's code is made on first
    need and kept, so a code already on the venue's wall stays right."""
    event_lock(event.pk)
    event.refresh_from_db(fields=["checkin_required", "checkin_code"])
    event.checkin_required = bool(required)
    if required and not event.checkin_code:
        event.checkin_code = _new_code()
    event.save(update_fields=["checkin_required", "checkin_code"])
    change_record(
        event=event,
        user=user,
        action="checkin.require",
        summary=f"check-in {'required' if required else 'not required'}",
        after={"required": event.checkin_required},
    )
    return event


@transaction.atomic
def checkin_mark(*, entry: Entry, present: bool, user: Any = None) -> Entry:
    """The organizer ticks a player present (or not)."""
    event_lock(entry.event_id)
    entry.present = bool(present)
    entry.save(update_fields=["present"])
    change_record(
        event=entry.event,
        user=user,
        action="checkin.mark",
        summary=f"{entry.player.name} {'present' if present else 'not present'}",
        after={"player": entry.player.name, "present": entry.present},
    )
    return entry


def checkin_code_right(event: Event, code: str) -> bool:
    """Whether `code` is the event's check-in code (typed any case, spaces and dashes aside)."""
    wanted = event.checkin_code.encode()
    return bool(wanted) and secrets.compare_digest(normalize_code(code).encode(), wanted)


@transaction.atomic
def checkin_self(*, event: Event, name: str) -> Entry:
    """A player checks themself in by name (the view has checked the event's code and counts
    the wrong ones). Refused when the event does not take check-ins, or the name is not a
    player of the event in play."""
    event_lock(event.pk)
    event.refresh_from_db(fields=["checkin_required"])
    if not event.checkin_required:
        raise ServiceError("checkin.closed", "name")
    with engine_errors("name"):
        name = normalize_name(name, "name")
    entry = _entry_named(event, name)
    name = entry.player.name
    if entry.withdrawn:
        raise ServiceError("checkin.withdrawn", "name", name=name)
    if not entry.present:
        entry.present = True
        entry.save(update_fields=["present"])
        change_record(
            event=event,
            user=None,
            action="checkin.self",
            summary=f"{name} checked in",
            after={"player": name, "present": True},
        )
    return entry


def _entry_named(event: Event, typed: str) -> Entry:
    """The player whose name is `typed` as "find your seat" compares names (name_key: any
    width, any case, spaces aside — 鈴木花子 is 鈴木 花子), whole, never a part of it. Two
    players whose names differ only so are told apart by the name as registered."""
    wanted = name_key(typed)
    entries = Entry.objects.select_related("player", "event").filter(event=event, substitute=False)
    found = [e for e in entries if name_key(e.player.name) == wanted]
    if len(found) > 1:
        found = [e for e in found if e.player.name == typed]
        if len(found) != 1:
            raise ServiceError("checkin.ambiguous", "name", name=typed)
    if not found:
        raise ServiceError("checkin.unknown", "name", name=typed)
    return found[0]


@transaction.atomic
def withdraw_absent(*, event: Event, user: Any = None) -> list[str]:
    """Every player in play who has not checked in is withdrawn, in one step (a no-show for
    the whole event); reinstating one is the usual per-player undo. Returns their names."""
    event_lock(event.pk)
    absent = list(
        Entry.objects.filter(event=event, withdrawn=False, substitute=False, present=False)
        .select_related("player")
        .order_by("pk")
    )
    if not absent:
        return []
    Entry.objects.filter(pk__in=[e.pk for e in absent]).update(withdrawn=True)
    names = [e.player.name for e in absent]
    change_record(
        event=event,
        user=user,
        action="checkin.withdraw_absent",
        summary=f"{len(names)} absent withdrawn",
        after={"players": names},
    )
    return names
