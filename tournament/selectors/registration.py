"""Reads for sign-up (issue 50, CONTRACT §8): the public lists (names only) and the organizer's."""

from __future__ import annotations

from django.utils import timezone

from tournament.models import Entry, Event, SignUp
from tournament.models.registration import CONFIRM_WITHIN, PENDING, UNCONFIRMED, WAITING


def entry_lists(event: Event) -> dict[str, list[str]]:
    """`{"registered": [...], "waiting": [...]}`, names only, each in order: the players in
    play in the order they were registered (pasted or signed up), then the waiting list.
    Pending sign-ups are in neither (CONTRACT §8), nor unconfirmed ones (they count once their
    address is confirmed). Two queries."""
    registered = (
        Entry.objects.filter(event=event, withdrawn=False, substitute=False)
        .order_by("pk")
        .values_list("player__name", flat=True)
    )
    waiting = (
        SignUp.objects.filter(event=event, state=WAITING)
        .order_by("position")
        .values_list("name", flat=True)
    )
    return {"registered": list(registered), "waiting": list(waiting)}


def signups_for_organizers(event: Event) -> dict[str, list[SignUp]]:
    """Every sign-up still holding a place, by state, in order, with e-mails: organizers only.
    Those awaiting their address's confirmation (within their day) apart, under UNCONFIRMED:
    the page counts them, never lists them (anyone may type any name and address); past their
    day they are among the "other"."""
    rows = SignUp.objects.filter(event=event).order_by("position")
    lists: dict[str, list[SignUp]] = {
        "registered": [],
        WAITING: [],
        PENDING: [],
        UNCONFIRMED: [],
        "other": [],
    }
    cutoff = timezone.now() - CONFIRM_WITHIN
    for signup in rows:
        if signup.state == UNCONFIRMED and signup.created_at <= cutoff:
            lists["other"].append(signup)
        else:
            lists.get(signup.state, lists["other"]).append(signup)
    return lists


def signup_of(event: Event, pk: int | str) -> SignUp | None:
    """One of the event's sign-ups, by its id as the organizer's buttons post it."""
    return SignUp.objects.filter(event=event, pk=pk).first()


def signup_room(event: Event, capacity: int | None) -> tuple[int | None, int]:
    """What the sign-up form tells a player before they sign up: the places left (None: no
    limit) and how many wait already. Two queries with a capacity, none without."""
    if capacity is None:
        return None, 0
    registered = Entry.objects.filter(event=event, withdrawn=False, substitute=False).count()
    waiting = SignUp.objects.filter(event=event, state=WAITING).count()
    return max(capacity - registered, 0), waiting
