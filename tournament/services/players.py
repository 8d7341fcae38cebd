"""Writes for players across events: the players and entries a list of names makes in an event
(an event's pasted names, a sign-up registered), and a correction of a name."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet, Subquery

from scoring.names import normalize_name
from tournament.models import Entry, Event, Player
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError, engine_errors
from tournament.services.locks import event_lock


@dataclass
class Registered:
    """What a registration did: new players, players known from earlier events (reused, not
    duplicated), and names that were registered for this event already."""

    new: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)


def _with_last_profile(players: QuerySet[Player]) -> QuerySet[Player]:
    """Each player with the EMA number, country and family name of their latest entry that has
    one: a returning player keeps them (profiles are an event's, CONTRACT §2, so one organizer's
    change never reaches another's event). Online names are not carried: they are unique per
    event, and two players may have held one name in different events."""
    latest = Entry.objects.filter(player=OuterRef("pk")).order_by("-pk")
    return players.annotate(
        last_ema=Subquery(latest.exclude(ema_number="").values("ema_number")[:1]),
        last_country=Subquery(latest.exclude(country="").values("country")[:1]),
        last_family=Subquery(latest.exclude(family_name="").values("family_name")[:1]),
    )


def entries_add(event: Event, names: list[str]) -> Registered:
    """Players and entries for `names` in a fixed number of statements, whatever the count —
    inside a write that holds the event's lock and logs (event_create, event_register_players,
    a sign-up registered: services/registration.py).
    Rows another request inserted meanwhile are skipped by the database (ignore_conflicts),
    then read back, so two simultaneous registrations both end well. The players are read
    back as plain values with whether each is entered already (one query): 5,000 pasted
    names made 5,000 Player objects only for their ids, and a second query of 5,000 names."""
    known = set(Player.objects.filter(name__in=names).values_list("name", flat=True))
    Player.objects.bulk_create(
        (Player(name=n) for n in names if n not in known), ignore_conflicts=True
    )
    rows = list(
        _with_last_profile(Player.objects.filter(name__in=names))
        .annotate(entered=Exists(Entry.objects.filter(event=event, player=OuterRef("pk"))))
        .values_list("name", "pk", "last_ema", "last_country", "last_family", "entered")
    )
    found = {name: (pk, ema, country, family) for name, pk, ema, country, family, _ in rows}
    entered = {name for name, *_rest, was in rows if was}
    Entry.objects.bulk_create(
        (
            Entry(
                event_id=event.pk,
                player_id=found[n][0],
                ema_number=found[n][1] or "",
                country=found[n][2] or "",
                family_name=found[n][3] or "",
            )
            for n in names
            if n not in entered
        ),
        ignore_conflicts=True,
    )
    return Registered(
        new=[n for n in names if n not in known],
        known=[n for n in names if n in known and n not in entered],
        already=[n for n in names if n in entered],
    )


@transaction.atomic
def player_rename(*, player: Player, name: str, user: Any = None) -> Player:
    """Correct a player's name everywhere. Standings show names, so every event the player
    is in is logged and moves on (readers do not keep the old name)."""
    with engine_errors("name"):
        name = normalize_name(name)
    before = Player.objects.values_list("name", flat=True).get(pk=player.pk)
    if before == name:
        return player
    if Player.objects.filter(name=name).exclude(pk=player.pk).exists():
        raise ServiceError("player.name_taken", "name", name=name)
    events = list(Event.objects.filter(entries__player=player).order_by("pk"))
    for event in events:
        event_lock(event.pk)
    Player.objects.filter(pk=player.pk).update(name=name)
    player.name = name
    for event in events:
        change_record(
            event=event,
            user=user,
            action="player.rename",
            summary=f"{before} → {name}",
            before={"name": before},
            after={"name": name},
        )
    return player
