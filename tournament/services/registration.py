"""Sign-up and the waiting list (issue 50, CONTRACT §8). A sign-up counts only once its address
is confirmed (issue 63): made unconfirmed, holding nothing, it takes a place or a number on the
waiting list when the link mailed to it is opened (`signup_confirm`), so a script that cannot
read the mail fills nothing; unconfirmed for a day, it expires. Every write takes the event's
lock first (services/locks.py), so two confirmations for the last place at once are one
registered and one waiting, never both registered. A sign-up registered is an Entry of the
event, so check-in starts from them; the capacity counts the event's entries in play, pasted
names too (services/registration_places.py: who holds a place, and the moves every write here
shares). E-mails go once the write commits (services/registration_mail.py), never inside the
request's time."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any, Literal

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F, QuerySet, Value
from django.db.models.functions import Replace
from django.utils import timezone

from scoring.names import name_key, normalize_name
from tournament.models import Entry, Event
from tournament.models.registration import (
    ACTIVE_STATES,
    ADDRESS_STATES,
    CONFIRM_WITHIN,
    EXPIRED,
    PENDING,
    REFUSED,
    REGISTERED,
    UNCONFIRMED,
    WAITING,
    WITHDRAWN,
    Registration,
    SignUp,
)
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError, engine_errors
from tournament.services.locks import event_lock
from tournament.services.profiles import check_country, check_ema
from tournament.services.queue import enqueue_on_commit
from tournament.services.registration_places import (
    entry_leave,
    next_position,
    place_for,
    registered_count,
    registration_of,
    signups_enter,
    waiting_fill,
)

TOKEN_BYTES = 24  # 192 bits from `secrets`: CONTRACT §3/§8 ask at least 128
EMAIL_MAX = 254  # RFC 5321's longest path, as Django's EmailField
# The owner of an address signed up again is told at most once in this time: a script repeating
# the address cannot fill their inbox through us.
TELL_AGAIN_EVERY = timedelta(minutes=15)
# What opening a private link did (`signup_confirm`).
Confirmation = Literal["confirmed", "unchanged", "expired", "closed", "name_taken"]


def check_email(value: Any, field: str = "email") -> str:
    """An e-mail address, stripped and in lower case (one address, one sign-up per event)."""
    if not isinstance(value, str) or len(value.strip()) > EMAIL_MAX:
        raise ServiceError("signup.email", field)
    value = value.strip().lower()
    try:
        validate_email(value)
    except ValidationError:
        raise ServiceError("signup.email", field) from None
    return value


def check_capacity(value: Any, field: str = "capacity") -> int | None:
    """A whole number of players, at least 1, or None (or "") for no limit."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ServiceError("signup.capacity", field)
    try:
        number = int(value)
    except ValueError:
        raise ServiceError("signup.capacity", field) from None
    if number < 1 or number > 100_000:
        raise ServiceError("signup.capacity", field)
    return number


def signup_check(
    event: Event, *, name: Any, email: Any, ema: Any = "", country: Any = ""
) -> dict[str, str]:
    """The fields as a sign-up keeps them, each refused naming its field; a name signed up
    (confirmed) or registered by the organizer too. An address already used is not refused
    here: that would tell a stranger who has signed up (`signup_create`)."""
    with engine_errors("name"):
        name = normalize_name(name, "name")
    fields = {
        "name": name,
        "email": check_email(email),
        "ema_number": check_ema(ema if ema is not None else "", "ema"),
        "country": check_country(country if country is not None else "", "country"),
    }
    taken = _same_name(event, SignUp.objects.filter(event=event, state__in=ACTIVE_STATES), name)
    if taken is not None:
        raise ServiceError("signup.name_taken", "name", name=taken)
    return fields


def _same_name(event: Event, active: QuerySet[SignUp], name: str) -> str | None:
    """The name of a player in play or a sign-up holding a place that is `name` as names are
    matched everywhere (scoring.names.name_key: any case, spaces aside — "aoki taro" is Aoki
    Taro), or None. The database narrows (case left to its iexact, spaces taken out), the key
    decides. Two queries, as the exact matches took."""
    compact = name.replace(" ", "")
    spaceless = Replace(F("player__name"), Value(" "), Value(""))
    entered = Entry.objects.filter(event=event, withdrawn=False).annotate(key=spaceless)
    found = list(entered.filter(key__iexact=compact).values_list("player__name", flat=True))
    signed = active.annotate(key=Replace(F("name"), Value(" "), Value("")))
    found += signed.filter(key__iexact=compact).values_list("name", flat=True)
    return next((n for n in found if name_key(n) == name_key(name)), None)


def _stale(signup: SignUp) -> bool:
    """Unconfirmed for longer than CONFIRM_WITHIN: it holds nothing, even before it is marked."""
    return signup.state == UNCONFIRMED and signup.created_at <= timezone.now() - CONFIRM_WITHIN


def signup_expired(signup: SignUp) -> bool:
    """The sign-up expired unconfirmed (marked so, or due to be): its link says so."""
    return signup.state == EXPIRED or _stale(signup)


def signups_expire(event: Event) -> int:
    """Mark the event's sign-ups unconfirmed past their day as expired, their addresses
    forgotten (never proved to be their owners'): done lazily, by the next write that needs
    the addresses free (under the event's lock), so no scheduled job is needed. How many."""
    cutoff = timezone.now() - CONFIRM_WITHIN
    stale = SignUp.objects.filter(event=event, state=UNCONFIRMED, created_at__lte=cutoff)
    return stale.update(state=EXPIRED, email="")


def _tell_again(signup: SignUp) -> None:
    """The address's owner is told that it was signed up again (with their link), at most
    once every TELL_AGAIN_EVERY."""
    now = timezone.now()
    if signup.told_again_at is not None and signup.told_again_at > now - TELL_AGAIN_EVERY:
        return
    SignUp.objects.filter(pk=signup.pk).update(told_again_at=now)
    enqueue_on_commit("registration_mail_task", signup.pk, "again")


@transaction.atomic
def signup_create(
    *,
    event: Event,
    name: Any,
    email: Any,
    ema: Any = "",
    country: Any = "",
    language: str = "en",
    site: str = "",
) -> SignUp:
    """A player signs up: unconfirmed, holding nothing, and e-mailed the private link that
    confirms it (`signup_confirm`) once this commits. An address already used in the event
    (a sign-up confirmed, or unconfirmed within its day) makes no new sign-up: its owner is
    e-mailed their link instead, and theirs is returned — the caller answers exactly as for a
    first sign-up (CONTRACT §8: a stranger learns nothing of who has signed up).

    Nothing is logged and the event's version does not move: nothing anyone sees has changed
    (a script's sign-ups that are never confirmed leave no trace in the organizer's log)."""
    event_lock(event.pk)
    settings = registration_of(event)
    if not settings.open:
        raise ServiceError("signup.closed", "")
    signups_expire(event)
    fields = signup_check(event, name=name, email=email, ema=ema, country=country)
    used = SignUp.objects.filter(event=event, email=fields["email"], state__in=ADDRESS_STATES)
    if (owner := used.first()) is not None:
        _tell_again(owner)
        return owner
    signup = SignUp.objects.create(
        event=event,
        state=UNCONFIRMED,
        position=next_position(event),
        token=secrets.token_urlsafe(TOKEN_BYTES),
        language="ja" if language == "ja" else "en",
        site=site[:200],
        **fields,
    )
    enqueue_on_commit("registration_mail_task", signup.pk, "signed")
    return signup


@transaction.atomic
def signup_confirm(*, signup: SignUp) -> Confirmation:
    """The private link opened: an unconfirmed sign-up counts from now — registered while there
    is room and nobody waits, else at the back of the waiting list (its position given now, so
    the list is in the order addresses were confirmed), or pending with approval on. Opening it
    again changes nothing ("unchanged"). Past its day it is marked expired ("expired"); while
    registration is closed it stays as it is ("closed"); a name confirmed by someone else
    meanwhile ends it ("name_taken": the address is free to sign up again, told apart)."""
    event = signup.event
    event_lock(event.pk)
    signup.refresh_from_db(fields=["state", "created_at"])
    if signup.state == EXPIRED:
        return "expired"
    if signup.state != UNCONFIRMED:
        return "unchanged"
    if _stale(signup):
        SignUp.objects.filter(pk=signup.pk).update(state=EXPIRED, email="")
        signup.state = EXPIRED
        return "expired"
    settings = registration_of(event)
    if not settings.open:
        return "closed"
    active = SignUp.objects.filter(event=event, state__in=ACTIVE_STATES)
    if _same_name(event, active, signup.name) is not None:
        SignUp.objects.filter(pk=signup.pk).update(state=EXPIRED)
        signup.state = EXPIRED
        return "name_taken"
    signup.state = PENDING if settings.approval else place_for(event, settings)
    signup.position = next_position(event)
    signup.save(update_fields=["state", "position"])
    if signup.state == REGISTERED:
        signups_enter(event, [signup])
    # Logged as the sign-up: to the organizer it is made now, when it counts.
    change_record(
        event=event,
        user=None,
        action="signup.create",
        summary=f"{signup.name} signed up ({signup.state})",
        after={"player": signup.name, "state": signup.state},
    )
    return "confirmed"


def waiting_place(signup: SignUp) -> int | None:
    """The sign-up's place on the waiting list (1: next to move up), None if not waiting."""
    if signup.state != WAITING:
        return None
    return SignUp.objects.filter(
        event_id=signup.event_id, state=WAITING, position__lte=signup.position
    ).count()


@transaction.atomic
def signup_withdraw(*, signup: SignUp, user: Any = None) -> list[SignUp]:
    """The player (their link) or the organizer withdraws a sign-up; a registered one's place
    goes to the first waiting, in this same transaction. Returns who moved up. A sign-up
    withdrawn or refused already is left as it is (a second tap); one unconfirmed is withdrawn
    without a word or a line in the log (it held nothing, and nobody saw it)."""
    event = signup.event
    event_lock(event.pk)
    signup.refresh_from_db(fields=["state"])
    if signup.state == UNCONFIRMED:
        SignUp.objects.filter(pk=signup.pk).update(state=WITHDRAWN)
        signup.state = WITHDRAWN
        return []
    if signup.state not in ACTIVE_STATES:
        return []
    was = signup.state
    signup.state = WITHDRAWN
    signup.save(update_fields=["state"])
    if was == REGISTERED:
        entry_leave(event, signup.name)
    moved = waiting_fill(event, registration_of(event)) if was == REGISTERED else []
    if user is None:  # the player, from their link: a mail says it went through
        enqueue_on_commit("registration_mail_task", signup.pk, "withdrawn")
    change_record(
        event=event,
        user=user,
        action="signup.withdraw",
        summary=f"{signup.name} withdrew"
        + (f"; {', '.join(s.name for s in moved)} moved up" if moved else ""),
        before={"player": signup.name, "state": was},
        after={"moved_up": [s.name for s in moved]},
    )
    return moved


def signup_left(entry: Entry, *, user: Any = None) -> list[SignUp]:
    """The organizer withdrew a player on the players page (services/events.entry_withdraw,
    under the event's lock): their sign-up, if any, is withdrawn too, and the first waiting
    move up, as if they had withdrawn from their link — for a name the organizer pasted too,
    whose place the capacity counted as well."""
    name = entry.player.name
    signup = SignUp.objects.filter(event_id=entry.event_id, name=name, state=REGISTERED).first()
    if signup is not None:
        SignUp.objects.filter(pk=signup.pk).update(state=WITHDRAWN)
    elif not SignUp.objects.filter(event_id=entry.event_id, state=WAITING).exists():
        return []  # a pasted name and nobody waiting: nothing moves
    moved = waiting_fill(entry.event, registration_of(entry.event))
    if moved:
        change_record(
            event=entry.event,
            user=user,
            action="signup.withdraw",
            summary=f"{name} withdrew; {', '.join(s.name for s in moved)} moved up",
            before={"player": name, "state": REGISTERED},
            after={"moved_up": [s.name for s in moved]},
        )
    return moved


@transaction.atomic
def signup_approve(*, event: Event, signups: Sequence[SignUp] | None = None, user: Any = None):
    """The organizer's yes, to the sign-ups given or (None) every one pending, in the order
    they signed up: each counts from now on — registered while there is room, waiting (at the
    back of the list) otherwise. Returns the sign-ups approved."""
    event_lock(event.pk)
    settings = registration_of(event)
    pending = SignUp.objects.filter(event=event, state=PENDING).order_by("position")
    if signups is not None:
        pending = pending.filter(pk__in=[s.pk for s in signups])
    approved = list(pending)
    for signup in approved:
        signup.state = place_for(event, settings)
        signup.position = next_position(event)
        signup.save(update_fields=["state", "position"])
        if signup.state == REGISTERED:
            signups_enter(event, [signup])
        enqueue_on_commit("registration_mail_task", signup.pk, "approved")
    if approved:
        change_record(
            event=event,
            user=user,
            action="signup.approve",
            summary=f"approved {', '.join(s.name for s in approved)}",
            after={s.name: s.state for s in approved},
        )
    return approved


@transaction.atomic
def signup_refuse(*, signup: SignUp, user: Any = None) -> bool:
    """The organizer's no to a sign-up pending or waiting (told politely by e-mail). A
    registered player is withdrawn instead (their place moves the list on)."""
    event = signup.event
    event_lock(event.pk)
    signup.refresh_from_db(fields=["state"])
    if signup.state not in (PENDING, WAITING):
        raise ServiceError("signup.not_refusable", "", name=signup.name)
    before = signup.state
    signup.state = REFUSED
    signup.save(update_fields=["state"])
    change_record(
        event=event,
        user=user,
        action="signup.refuse",
        summary=f"refused {signup.name}",
        before={"player": signup.name, "state": before},
    )
    enqueue_on_commit("registration_mail_task", signup.pk, "refused")
    return True


@transaction.atomic
def registration_set(
    *,
    event: Event,
    open: bool | None = None,
    capacity: Any = ...,
    approval: bool | None = None,
    user: Any = None,
) -> tuple[Registration, list[SignUp]]:
    """Open or close sign-ups, set the capacity (None: no limit) and approval; what is not
    given stays. A capacity below the players registered is refused naming how many; a larger
    one moves the waiting list up (returned: who moved)."""
    event_lock(event.pk)
    settings = registration_of(event)
    before = {"open": settings.open, "capacity": settings.capacity, "approval": settings.approval}
    if open is not None:
        settings.open = bool(open)
    if capacity is not ...:
        settings.capacity = check_capacity(capacity)
        count = registered_count(event)
        if settings.capacity is not None and settings.capacity < count:
            raise ServiceError("signup.capacity_below", "capacity", count=count)
    if approval is not None:
        settings.approval = bool(approval)
    after = {"open": settings.open, "capacity": settings.capacity, "approval": settings.approval}
    settings.save()
    if before["approval"] and not settings.approval:
        # Approval off: nobody is left waiting for a yes that no longer comes; those pending
        # count from now, in the order they signed up.
        signup_approve(event=event, user=user)
    moved = waiting_fill(event, settings)
    if before != after or moved:
        words = [
            "open" if settings.open else "closed",
            f"capacity {settings.capacity if settings.capacity is not None else 'none'}",
            "approval" if settings.approval else "no approval",
        ]
        change_record(
            event=event,
            user=user,
            action="signup.settings",
            summary="registration: "
            + ", ".join(words)
            + (f"; {', '.join(s.name for s in moved)} moved up" if moved else ""),
            before=before,
            after={**after, "moved_up": [s.name for s in moved]},
        )
    return settings, moved


def signup_entry_of(signup: SignUp) -> Entry | None:
    """The entry of a registered sign-up (its player in the event), else None."""
    if signup.state != REGISTERED:
        return None
    return Entry.objects.filter(event_id=signup.event_id, player__name=signup.name).first()


def signup_by_token(event: Event, token: str) -> SignUp | None:
    """The sign-up a private link names, or None (a link of another event is none)."""
    if not isinstance(token, str) or not 20 <= len(token) <= 64:
        return None
    return SignUp.objects.filter(event=event, token=token).first()
