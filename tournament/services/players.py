"""Writes for players across events: a correction of a name."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from scoring.names import normalize_name
from tournament.models import Event, Player
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError, engine_errors
from tournament.services.locks import event_lock


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
