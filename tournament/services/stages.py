"""Writes for stages: settle a tie the rules leave open, close a stage (the cut), reopen it;
and the check every other write makes so that a closed stage's result cannot change."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.standings import Stage as StageRule
from scoring.standings import StageResult
from tournament.models import Event, Game, Round, Stage
from tournament.selectors.standings import stage_result
from tournament.services.audit import audit_record
from tournament.services.errors import ServiceError
from tournament.services.locks import event_lock


def stage_require_open(event: Event, *, rounds: Iterable[int] = (), entrants: bool = False) -> None:
    """Refuse a write that would change a closed stage's result: one to a game of its rounds
    (`rounds`), or to who takes part (`entrants`: registering, withdrawing). The caller holds
    the event lock (services/locks.py), so a stage cannot close between this check and the
    write. One query."""
    numbers = sorted(set(rounds))
    for stage in Stage.objects.filter(event=event, closed=True).order_by("position"):
        rule = StageRule(stage.name, stage.first_round, stage.last_round, stage.advance)
        hit = next((n for n in numbers if rule.counts(n)), None)
        if hit is not None:
            raise ServiceError(
                _(
                    "Round %(round)d belongs to the %(stage)s, which is closed: its results "
                    "are final. Reopen the %(stage)s first to change them."
                )
                % {"round": hit, "stage": stage.name},
                "",
            )
        if entrants:
            raise ServiceError(
                _(
                    "The %(stage)s is closed: its players are final. Reopen the %(stage)s "
                    "first to change them."
                )
                % {"stage": stage.name},
                "",
            )


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
    event_lock(event.pk)
    stage.refresh_from_db()
    if stage.closed:
        raise ServiceError(
            _("The %(stage)s is closed: reopen it first to change its tie decision.")
            % {"stage": stage.name},
            "order",
        )
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
    event_lock(event.pk)
    stage.refresh_from_db()
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
    """Open a closed stage again (logged). Refused while a later stage has begun: its seating
    and results were made from this stage's cut."""
    event_lock(event.pk)
    stage.refresh_from_db()
    if not stage.closed:
        raise ServiceError(_("The %(stage)s is open already.") % {"stage": stage.name}, "stage")
    if stage.last_round is not None and event.rounds.filter(number__gt=stage.last_round).exists():
        raise ServiceError(
            _(
                "Round %(round)d, after the %(stage)s, is seated already: unseat it (and delete "
                "its results) before reopening the %(stage)s."
            )
            % {"round": stage.last_round + 1, "stage": stage.name},
            "stage",
        )
    stage.closed = False
    stage.save(update_fields=["closed"])
    audit_record(event=event, user=user, action="stage.reopen", summary=f"{stage.name} reopened")
    return stage
