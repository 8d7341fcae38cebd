"""Who holds a place in an event (issue 50, CONTRACT §8): the registration's settings and the
capacity counted (every entry in play, names the organizer pasted too), where a sign-up counted
now goes (registered while there is room and nobody waits, else the waiting list), the waiting
list moved up while there is room, and a registered sign-up's entry made (as the organizer's
pasted names are, services/players.entries_add) or taken away. The moves every sign-up write
shares (services/registration.py), run under the event's lock its caller took."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Max

from tournament.models import Entry, Event, Seat
from tournament.models.registration import REGISTERED, WAITING, Registration, SignUp
from tournament.services.players import entries_add
from tournament.services.queue import enqueue_on_commit


def registration_of(event: Event) -> Registration:
    """The event's settings; an event never set up takes no sign-ups (not saved here)."""
    try:
        return Registration.objects.get(event=event)
    except Registration.DoesNotExist:
        return Registration(event=event)


def registered_count(event: Event) -> int:
    """Players in play: the capacity counts every entry not withdrawn (names pasted too)."""
    return Entry.objects.filter(event=event, withdrawn=False, substitute=False).count()


def next_position(event: Event) -> int:
    """The number after the event's last sign-up: the waiting list's order."""
    last = SignUp.objects.filter(event=event).aggregate(last=Max("position"))["last"]
    return (last or 0) + 1


def signups_enter(event: Event, signups: Sequence[SignUp]) -> None:
    """Entries for these sign-ups (profile included); an entry withdrawn earlier under the same
    name is taken back in."""
    if not signups:
        return
    names = [s.name for s in signups]
    entries_add(event, names)
    for s in signups:
        # What the player typed wins; left empty, the profile of their last event stays.
        typed = {"ema_number": s.ema_number, "country": str(s.country or "")}
        profile = {k: v for k, v in typed.items() if v}
        Entry.objects.filter(event=event, player__name=s.name).update(withdrawn=False, **profile)


def entry_leave(event: Event, name: str) -> None:
    """The entry of a registered sign-up leaving: removed while it has no seat (the event has
    not started for them), withdrawn otherwise (their games stay in the standings)."""
    entry = Entry.objects.filter(event=event, player__name=name).first()
    if entry is None:
        return
    if Seat.objects.filter(round__event=event, player_id=entry.player_id).exists():
        Entry.objects.filter(pk=entry.pk).update(withdrawn=True)
    else:
        entry.delete()


def waiting_fill(event: Event, settings: Registration) -> list[SignUp]:
    """The first on the waiting list move up while there is room, in order; each is told by
    e-mail. Returns them."""
    waiting = SignUp.objects.filter(event=event, state=WAITING).order_by("position")
    if settings.capacity is not None:
        room = settings.capacity - registered_count(event)
        if room <= 0:
            return []
        waiting = waiting[:room]
    moved = list(waiting)
    if not moved:
        return []
    SignUp.objects.filter(pk__in=[s.pk for s in moved]).update(state=REGISTERED)
    signups_enter(event, moved)
    for s in moved:
        s.state = REGISTERED
        enqueue_on_commit("registration_mail_task", s.pk, "moved")
    return moved


def place_for(event: Event, settings: Registration) -> str:
    """Where a sign-up counted now goes: registered while there is room and nobody waits
    before it, the waiting list otherwise."""
    if settings.capacity is None:
        return REGISTERED
    if SignUp.objects.filter(event=event, state=WAITING).exists():
        return WAITING
    return REGISTERED if registered_count(event) < settings.capacity else WAITING
