"""Writes for stages: settle a tie the rules leave open, close a stage (the cut), reopen it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from scoring.standings import StageResult
from tournament.models import Event, Game, Round, Stage
from tournament.selectors.standings import stage_result
from tournament.services.audit import audit_record
from tournament.services.errors import ServiceError


def _result(event: Event, stage: Stage) -> StageResult:
    result = stage_result(event, stage.name)
    if result is None:
        raise ServiceError(f"the {stage.name} has no players yet", "stage")
    return result


def _missing(event: Event, stage: Stage) -> str:
    """What keeps the stage from closing, or "" when every one of its games is finished."""
    first, last = stage.first_round or 1, stage.last_round
    if last is None:
        return ""
    numbers = set(
        Round.objects.filter(event=event, number__range=(first, last)).values_list(
            "number", flat=True
        )
    )
    for n in range(first, last + 1):
        if n not in numbers:
            return f"round {n} has not been played"
    open_game = (
        Game.objects.filter(round__event=event, round__number__range=(first, last), finished=False)
        .select_related("round")
        .order_by("round__number", "table")
        .first()
    )
    if open_game is not None:
        return f"round {open_game.round.number} table {open_game.table} is not finished"
    return ""


@transaction.atomic
def stage_decide(*, event: Event, stage: Stage, order: Sequence[str], user: Any = None) -> Stage:
    """The organizer's order for players tied across the cut (by lot, play-off, …)."""
    result = _result(event, stage)
    tied = [str(p) for p in result.tied_at_cut]
    if not tied:
        raise ServiceError(f"nobody is tied at the {stage.name} cut", "order")
    if sorted(order) != sorted(tied) or len(set(order)) != len(order):
        raise ServiceError(f"give an order of exactly the tied players: {', '.join(tied)}", "order")
    before = list(stage.decision)
    stage.decision = list(order)
    stage.save(update_fields=["decision"])
    audit_record(
        event=event,
        user=user,
        action="stage.decide",
        summary=f"{stage.name}: tie settled as {' > '.join(order)}",
        before={"decision": before},
        after={"decision": list(order)},
    )
    return stage


@transaction.atomic
def stage_close(*, event: Event, stage: Stage, user: Any = None) -> Stage:
    """Close a stage: its games are all finished and its cut is clear of ties."""
    if stage.closed:
        raise ServiceError(f"the {stage.name} is closed already", "stage")
    missing = _missing(event, stage)
    if missing:
        raise ServiceError(f"the {stage.name} cannot close yet: {missing}", "stage")
    result = _result(event, stage)
    if result.tied_at_cut:
        names = ", ".join(str(p) for p in result.tied_at_cut)
        raise ServiceError(f"settle the tie at the cut first: {names}", "stage")
    stage.closed = True
    stage.save(update_fields=["closed"])
    audit_record(
        event=event,
        user=user,
        action="stage.close",
        summary=f"{stage.name} closed",
        after={"advancing": [str(p) for p in result.advancing]},
    )
    return stage


@transaction.atomic
def stage_reopen(*, event: Event, stage: Stage, user: Any = None) -> Stage:
    if stage.last_round is not None and event.rounds.filter(number__gt=stage.last_round).exists():
        raise ServiceError(
            f"round {stage.last_round + 1} is seated already; unseat it before reopening",
            "stage",
        )
    stage.closed = False
    stage.save(update_fields=["closed"])
    audit_record(event=event, user=user, action="stage.reopen", summary=f"{stage.name} reopened")
    return stage
