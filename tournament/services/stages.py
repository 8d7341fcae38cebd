"""Writes for stages: settle a tie the rules leave open, close a stage (the cut), reopen it;
and the check every other write makes so that a closed stage's result cannot change."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction

from scoring.standings import Format, StageResult
from scoring.standings import Stage as StageRule
from tournament.models import Event, Game, Round, Stage
from tournament.selectors.standings import event_format, stage_result
from tournament.services.changes import change_record
from tournament.services.channels import channels_stage_closed
from tournament.services.errors import ServiceError, StageName
from tournament.services.locks import event_lock


def stage_require_open(
    event: Event, *, rounds: Iterable[int] = (), entrants: bool = False, every: bool = False
) -> None:
    """Refuse a write that would change a closed stage's result: one to a game of its rounds
    (`rounds`), to who takes part (`entrants`: registering, withdrawing), or to what every
    stage counts (`every`: a penalty given for no round). The caller holds the event lock
    (services/locks.py), so a stage cannot close between this check and the write. One
    query."""
    numbers = sorted(set(rounds))
    for stage in Stage.objects.filter(event=event, closed=True).order_by("position"):
        rule = StageRule(stage.name, stage.first_round, stage.last_round, stage.advance)
        hit = next((n for n in numbers if rule.counts(n)), None)
        if hit is not None:
            raise ServiceError("stage.closed_round", "", round=hit, stage=StageName(stage.name))
        if entrants:
            raise ServiceError("stage.closed_players", "", stage=StageName(stage.name))
        if every:
            raise ServiceError("stage.closed_penalty", "round_number", stage=StageName(stage.name))


def _result(event: Event, stage: Stage) -> StageResult:
    result = stage_result(event, stage.name)
    if result is None:
        raise ServiceError("stage.no_players", "stage", stage=StageName(stage.name))
    return result


def _missing(event: Event, stage: Stage) -> ServiceError | None:
    """What keeps the stage from closing, or None when every one of its games is finished.
    A stage of some rounds needs each of them played; a league (no last round), every table
    of every round from its first."""
    first, last = stage.first_round or 1, stage.last_round
    name = StageName(stage.name)
    games = Game.objects.filter(round__event=event, round__number__gte=first, finished=False)
    if last is not None:
        numbers = set(
            Round.objects.filter(event=event, number__range=(first, last)).values_list(
                "number", flat=True
            )
        )
        for n in range(first, last + 1):
            if n not in numbers:
                return ServiceError("stage.round_unplayed", "stage", stage=name, round=n)
        games = games.filter(round__number__lte=last)
    open_game = games.select_related("round").order_by("round__number", "table").first()
    if open_game is None:
        return None
    return ServiceError(
        "stage.table_open",
        "stage",
        stage=name,
        round=open_game.round.number,
        table=open_game.table,
    )


@transaction.atomic
def stage_decide(*, event: Event, stage: Stage, order: Sequence[str], user: Any = None) -> Stage:
    """The organizer's order for players the rules leave tied (by lot, play-off, …): across
    the cut; in a league or a final, the best place still shared (one tie at a time, each
    kept: a league may settle first place, then another)."""
    event_lock(event.pk)
    stage.refresh_from_db()
    if stage.closed:
        raise ServiceError("stage.closed_decision", "order", stage=StageName(stage.name))
    result = _result(event, stage)
    tied = [str(p) for p in result.to_settle]
    if not tied:
        raise ServiceError("stage.no_tie", "order", stage=StageName(stage.name))
    if sorted(order) != sorted(tied) or len(set(order)) != len(order):
        raise ServiceError("stage.tie_order", "order", players=", ".join(tied))
    before = list(stage.decision)
    stage.decision = [p for p in before if p not in order] + list(order)
    stage.save(update_fields=["decision"])
    change_record(
        event=event,
        user=user,
        action="stage.decide",
        summary=f"{stage.name}: tie settled as {' > '.join(order)}",
        before={"decision": before},
        after={"stage": stage.name, "decision": list(order)},
    )
    return stage


def _closed(stage: Stage, result: Any) -> dict[str, Any]:
    """What the log keeps of a stage closed: who goes on from a stage with a cut; from the
    last stage (a final, a league) its order, the winner first — not "advancing" everyone
    (issue 66: closing the final read 「決勝：通過 …」)."""
    names = [str(p) for p in result.advancing]
    if stage.advance is None:
        return {"stage": stage.name, "order": names}
    return {"stage": stage.name, "advancing": names}


@transaction.atomic
def stage_close(*, event: Event, stage: Stage, user: Any = None) -> Stage:
    """Close a stage: its games are all finished and its cut is clear of ties (a league's or
    a final's first place too). Its results are then frozen (stage_require_open)."""
    event_lock(event.pk)
    stage.refresh_from_db()
    if stage.closed:
        raise ServiceError("stage.closed_already", "stage", stage=StageName(stage.name))
    missing = _missing(event, stage)
    if missing is not None:
        raise missing
    result = _result(event, stage)
    _close(event, stage, result, user=user, action="stage.close", summary=f"{stage.name} closed")
    return stage


def _close(
    event: Event,
    stage: Stage,
    result: Any,
    *,
    user: Any,
    action: str,
    summary: str,
    before: Any = None,
    **after: Any,
) -> None:
    """Close `stage`, ranked as `result`, and say so — refused while a tie sits at its cut, or
    at its top for a stage that sends nobody on (a league or a final closes with its winner
    decided). `after`: what the log keeps beside who goes on (`_closed`)."""
    if result.tied_at_cut:
        names = ", ".join(str(p) for p in result.tied_at_cut)
        raise ServiceError("stage.tie_first", "stage", players=names)
    if result.tied_at_top:
        names = ", ".join(str(p) for p in result.tied_at_top)
        raise ServiceError("stage.tie_top", "stage", players=names)
    stage.closed = True
    stage.save(update_fields=["closed"])
    change_record(
        event=event,
        user=user,
        action=action,
        summary=summary,
        before=before,
        after={**_closed(stage, result), **after},
    )
    channels_stage_closed(event, stage)  # the final standings posted, if not yet (issue 49)


def stages_as(stages: list[Stage], fmt: Format) -> list[Stage]:
    """The stored `stages` given the rounds of `fmt`'s (the event's format with a stage closed
    early: Format.closed_after), not saved; those whose rounds changed."""
    moved = []
    for row, rule in zip(stages, fmt.stages, strict=True):
        if (row.first_round, row.last_round) != (rule.first_round, rule.last_round):
            row.first_round, row.last_round = rule.first_round, rule.last_round
            moved.append(row)
    return moved


def _own_rounds(stages: list[Stage], at: int) -> int:
    """The first round stage `at` is played in: the round after the stage before it ends (a
    Baba final ranks on 1–8 but is played from 7), else its own first."""
    first = stages[at].first_round or 1
    before = stages[at - 1].last_round if at else None
    return max(first, before + 1) if before is not None else first


@transaction.atomic
def stage_close_early(*, event: Event, stage: Stage, user: Any = None) -> Stage:
    """Close a stage before its last round (the Baba qualifier after round 5 when time runs
    out): its last round becomes the last one played, each later stage keeps its number of
    rounds and plays them straight after (Format.closed_after), and the stage closes as
    `stage_close` closes it — every game so far finished, no tie at the cut. Refused while a
    later stage has a round seated or none of the stage's own rounds is."""
    event_lock(event.pk)
    stages = list(Stage.objects.filter(event=event).order_by("position"))
    at = next(i for i, s in enumerate(stages) if s.pk == stage.pk)
    stage = stages[at]
    name = StageName(stage.name)
    if stage.closed:
        raise ServiceError("stage.closed_already", "stage", stage=name)
    last = stage.last_round
    if last is None:  # a league has no last round to come before: it closes as it is
        raise ServiceError("stage.early_open_end", "stage", stage=name)
    own = _own_rounds(stages, at)
    seated = sorted(event.rounds.filter(number__gte=own).values_list("number", flat=True))
    if not seated:
        raise ServiceError("stage.early_nothing", "stage", stage=name)
    if seated[-1] > last:  # the later stage's seating and results were made from this cut
        raise ServiceError("stage.early_later", "stage", round=seated[-1], stage=name)
    played = seated[-1]
    if played == last:
        raise ServiceError("stage.early_last", "stage", stage=name, round=last)
    before = {s.name: [s.first_round, s.last_round] for s in stages}
    moved = stages_as(stages, event_format(event, stages).closed_after(stage.name, played))
    missing = _missing(event, stage)  # every round up to `played` seated, its tables finished
    if missing is not None:
        raise missing
    for row in moved:
        row.save(update_fields=["first_round", "last_round"])
    result = _result(event, stage)  # ranked over the new rounds (a refusal below undoes them)
    _close(
        event,
        stage,
        result,
        user=user,
        action="stage.close_early",
        summary=f"{stage.name} closed after round {played}",
        before={"rounds": before},
        round=played,
        rounds={s.name: [s.first_round, s.last_round] for s in stages},
    )
    return stage


@transaction.atomic
def stage_reopen(*, event: Event, stage: Stage, user: Any = None) -> Stage:
    """Open a closed stage again (logged). Refused while a later stage has begun: its seating
    and results were made from this stage's cut."""
    event_lock(event.pk)
    stage.refresh_from_db()
    if not stage.closed:
        raise ServiceError("stage.open_already", "stage", stage=StageName(stage.name))
    if stage.last_round is not None and event.rounds.filter(number__gt=stage.last_round).exists():
        raise ServiceError(
            "stage.reopen_later", "stage", round=stage.last_round + 1, stage=StageName(stage.name)
        )
    stage.closed = False
    stage.save(update_fields=["closed"])
    change_record(
        event=event,
        user=user,
        action="stage.reopen",
        summary=f"{stage.name} reopened",
        after={"stage": stage.name},
    )
    return stage
