"""Check-in (issue 33): who came. When an event seats only players checked in, a player checks
in on the event's page with their name and the code shown at the venue, or the organizer ticks
them; a latecomer is checked in between rounds; a no-show for the whole event is withdrawn in
one step. Seating (services/rounds.py) then seats the players present; the rest sit out,
recorded as not checked in.

Issue 44: the code on the screen changes every few minutes (a photo of it goes stale), and a
phone checks in one player, its own (the view keeps whom in the phone's session); the entry
records how it was checked in, so the organizer sees and can undo a phone's check-in."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.db import transaction

from scoring.names import name_key, normalize_name
from tournament.models import Entry, Event
from tournament.models.games import CODE_ALPHABET
from tournament.selectors.checkin import CHECKIN_CODE_LENGTH, checkin_codes_good
from tournament.selectors.published import event_over_now
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError, engine_errors
from tournament.services.locks import event_lock
from tournament.services.tables import normalize_code


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
    """The organizer ticks a player present, or undoes a check-in (a phone's too: the player's
    phone is then free to check in the right player). The log says how it had been made."""
    event_lock(entry.event_id)
    entry.refresh_from_db(fields=["present", "checked_in_by"])
    before = {"present": entry.present, "by": entry.checked_in_by}
    if bool(present) == entry.present:
        return entry  # a second tap of the same button changes nothing
    entry.present = bool(present)
    entry.checked_in_by = Entry.CHECKED_IN_BY_ORGANIZER if present else ""
    entry.save(update_fields=["present", "checked_in_by"])
    change_record(
        event=entry.event,
        user=user,
        action="checkin.mark",
        summary=f"{entry.player.name} {'present' if present else 'not present'}",
        before=before,
        after={"player": entry.player.name, "present": entry.present},
    )
    return entry


def checkin_code_right(event: Event, code: str, *, at: datetime | None = None) -> bool:
    """Whether `code` is the code shown now or in the window before (typed any case and width,
    spaces and dashes aside). Older codes are refused: a photo of yesterday's screen is no key."""
    typed = normalize_code(code).encode()
    # Both compared, whichever matches: the time taken says nothing about which one was right.
    matches = [
        secrets.compare_digest(typed, good.encode()) for good in checkin_codes_good(event, at=at)
    ]
    return any(matches)


def checkin_phone_player(event: Event, entry_id: Any) -> Entry | None:
    """The player this phone checked in (`entry_id` from its session), while they stay checked
    in: once the organizer undoes it, the phone may check in someone else."""
    if not isinstance(entry_id, int):
        return None
    return (
        Entry.objects.select_related("player")
        .filter(pk=entry_id, event=event, present=True)
        .first()
    )


@transaction.atomic
def checkin_self(*, event: Event, name: str, phone_player: Any = None) -> Entry:
    """A player checks themself in by name on their phone (the view has checked the code shown
    at the venue and counts the wrong ones). A phone checks in one player, its own:
    `phone_player` is the entry it checked in before, and another name is refused while that
    player stays checked in. Refused too when the event does not take check-ins, or the name
    is not a player of the event in play."""
    event_lock(event.pk)
    event.refresh_from_db(fields=["checkin_required"])
    if not event.checkin_required:
        raise ServiceError("checkin.closed", "name")
    with engine_errors("name"):
        name = normalize_name(name, "name")
    entry = _entry_named(event, name)
    held = checkin_phone_player(event, phone_player)
    if held is not None and held.pk != entry.pk:
        raise ServiceError("checkin.phone_taken", "name", name=held.player.name)
    return checkin_proved(entry=entry, by=Entry.CHECKED_IN_BY_PHONE)


@transaction.atomic
def checkin_proved(*, entry: Entry, by: str) -> Entry:
    """Check in a player whose identity is already proved — today their phone with the code
    shown at the venue (checkin_self); with sign-up (issue 50), their private link, which needs
    no code. Refused when the event does not take check-ins, is over (every stage closed:
    helper-49 was told to wait for the seating after the final standings) or the player is
    withdrawn; checking in a player present already changes nothing."""
    event = entry.event
    event_lock(event.pk)
    event.refresh_from_db(fields=["checkin_required"])
    if not event.checkin_required or event_over_now(event):
        raise ServiceError("checkin.closed", "name")
    entry.refresh_from_db(fields=["present", "withdrawn", "checked_in_by"])
    name = entry.player.name
    if entry.withdrawn:
        raise ServiceError("checkin.withdrawn", "name", name=name)
    if not entry.present:
        entry.present = True
        entry.checked_in_by = by
        entry.save(update_fields=["present", "checked_in_by"])
        change_record(
            event=event,
            user=None,
            action="checkin.self",
            summary=f"{name} checked in",
            after={"player": name, "present": True, "by": by},
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
