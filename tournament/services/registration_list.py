"""The organizer's hand on the sign-up list (issue 50, CONTRACT §8): moving a sign-up within
the waiting list, and a withdrawn player taken back on the players page — refused while the
event is full (it would go past the capacity the players were told), their sign-up registered
again when there is room. Beside services/registration.py, which keeps the list's own moves
(sign-up, withdrawal, approval, the settings); every write here is under the event's lock."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q

from tournament.models import Entry, SignUp
from tournament.models.registration import (
    ACTIVE_STATES,
    ADDRESS_STATES,
    REGISTERED,
    WAITING,
    WITHDRAWN,
)
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError
from tournament.services.locks import event_lock
from tournament.services.registration import registered_count, registration_of, signups_expire

MOVES = ("top", "up", "down")  # the buttons of a waiting sign-up's row


@transaction.atomic
def signup_move(*, signup: SignUp, to: str, user: Any = None) -> int:
    """A waiting sign-up moved on the waiting list: to its head, one place up or one down.
    The list keeps the positions it had, handed out again in the new order (places stay 1…n,
    no gap, no two alike). Returns its place now (1: next to move up)."""
    event = signup.event
    event_lock(event.pk)
    if to not in MOVES:
        raise ServiceError("signup.move", "do")
    waiting = list(SignUp.objects.filter(event=event, state=WAITING).order_by("position", "pk"))
    ids = [s.pk for s in waiting]
    if signup.pk not in ids:
        raise ServiceError("signup.not_waiting", "signup", name=signup.name)
    was = ids.index(signup.pk)
    now = {"top": 0, "up": max(was - 1, 0), "down": min(was + 1, len(ids) - 1)}[to]
    if now == was:
        return was + 1
    order = waiting[:]
    order.insert(now, order.pop(was))
    positions = sorted(s.position for s in waiting)
    changed = []
    for row, position in zip(order, positions, strict=True):
        if row.position != position:
            row.position = position
            changed.append(row)
    SignUp.objects.bulk_update(changed, ["position"])
    change_record(
        event=event,
        user=user,
        action="signup.move",
        summary=f"{signup.name} moved on the waiting list: {was + 1} → {now + 1}",
        before={"player": signup.name, "place": was + 1},
        after={"player": signup.name, "place": now + 1},
    )
    return now + 1


def reinstate_check(entry: Entry) -> None:
    """Taking a withdrawn player back is refused naming the capacity while the event is full:
    the organizer raises it first, or withdraws another player (the admin's form asks this
    before saving; entry_withdraw again under the lock)."""
    settings = registration_of(entry.event)
    if settings.capacity is not None and registered_count(entry.event) >= settings.capacity:
        raise ServiceError(
            "signup.full_back",
            "capacity",
            name=entry.player.name,
            capacity=settings.capacity,
        )


def signup_back(entry: Entry) -> None:
    """A withdrawn player taken back (services/events.entry_withdraw, under the event's lock,
    before anything is saved): within the capacity only (`reinstate_check`). Their last
    sign-up withdrawn is registered again (their private link says so), unless its name or
    e-mail has been taken by a sign-up since (an unconfirmed one holds the e-mail for its day:
    one live sign-up per address)."""
    reinstate_check(entry)
    signup = (
        SignUp.objects.filter(event_id=entry.event_id, name=entry.player.name, state=WITHDRAWN)
        .order_by("-position")
        .first()
    )
    if signup is None:
        return
    signups_expire(entry.event)
    taken = SignUp.objects.filter(event_id=entry.event_id).filter(
        Q(state__in=ACTIVE_STATES, name=signup.name)
        | Q(state__in=ADDRESS_STATES, email=signup.email)
    )
    if not taken.exists():
        SignUp.objects.filter(pk=signup.pk).update(state=REGISTERED)
