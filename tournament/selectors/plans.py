"""Reads for an event's whole-day seating plan (services/plans.py writes it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from django.utils.translation import get_language

from scoring.plans import Plan, PlannedRound
from tournament.models import Entry, Event, SeatingPlan, Stage


class PlanReport(TypedDict):
    """A plan's (or the seating's) report as the seating report template reads it: CONTRACT
    §5's (scoring.plans.Plan.report), with the players whose winds are uneven and the
    number of rounds."""

    max_meetings: int
    pairs_met_more_than_once: int
    winds: dict[str, list[int]]
    repeated_pairs: list[list[str | int]]  # [a, b, how often], most often first
    repeat_meetings: int
    best_max_meetings: int
    best_pairs_met_more_than_once: int
    best_repeat_meetings: int
    byes: dict[str, int]
    unbalanced: list[str]
    rounds: int
    # The rounds of a single table (selectors.tables.seating_report only).
    one_table: NotRequired[list[int]]


@dataclass(frozen=True)
class ReportShown:
    """A seating report as a page shows it (manage/_seating_report.html): the seatings' so far
    or a whole-day plan's (`of_plan`); None before anything is seated. Kept by `key`."""

    report: PlanReport | None
    of_plan: bool = False

    @property
    def key(self) -> tuple:
        """What the rendered report is kept by: the report itself (plain numbers and names,
        all it shows), whose it is, and the language. Its table of every player's winds was a
        sixth of the dashboard's time at 256 players."""
        return (self.report, self.of_plan, get_language())


class PlanSummary(TypedDict):
    """What the dashboard says of the kept plan."""

    kept: SeatingPlan
    report: ReportShown
    rounds: int


def players_in_play(event: Event) -> list[str]:
    """The players a plan seats: registered, not withdrawn, no stand-ins — and checked in,
    where the event seats only those (as a round does: services/rounds._pool; a plan for
    everyone registered would be refused at the first round); as registered. One query."""
    entries = Entry.objects.filter(event=event, withdrawn=False, substitute=False)
    if event.checkin_required:
        entries = entries.filter(present=True)
    return list(entries.order_by("pk").values_list("player__name", flat=True))


# A league keeps no number of rounds: a plan of this many unless the organizer says.
LEAGUE_PLAN_ROUNDS = 8


def plan_rounds_default(stages: Sequence[Stage]) -> int:
    """The rounds a plan is made for unless the organizer says: the rounds everyone plays —
    up to the first cut (a Baba qualifier's 6; the final's players are known only then), else
    the last stage's last round; a league keeps none (LEAGUE_PLAN_ROUNDS)."""
    for stage in stages:
        if stage.advance is not None and stage.last_round is not None:
            return stage.last_round
    last = stages[-1].last_round if stages else None
    return last or LEAGUE_PLAN_ROUNDS


def seat_method_default(
    number: int, plan_rounds: int, stages: Sequence[Stage], *, keeps: bool = False
) -> str:
    """The seating method the form offers first for round `number`. After a cut (a final):
    the last round's seats kept, only the starting dealer drawn, where that round is of the
    same stage and seated the same players (`keeps`: services.rounds.round_keep_refusal finds
    nothing) — a Baba final's seats are drawn once, before its first game (RULES §baba);
    else by standings (those through, seated by their standings; a plan seats everyone, so
    even a plan that has the round is no answer there). Before any cut: the plan's for a
    round the plan has; else at random."""
    if any(s.advance is not None and s.last_round and number > s.last_round for s in stages):
        return "same" if keeps else "standings"
    return "plan" if number <= plan_rounds else "random"


def plan_of(event: Event, kept: SeatingPlan | None = None) -> Plan | None:
    """The event's kept plan as the engine's Plan (its rounds, its report). One query."""
    kept = kept or SeatingPlan.objects.filter(event=event).first()
    if kept is None:
        return None
    rounds = tuple(
        PlannedRound(tuple(tuple(t) for t in r["tables"]), tuple(r["byes"])) for r in kept.rounds
    )
    players = dict.fromkeys(p for r in rounds for t in (*r.tables, r.byes) for p in t)
    return Plan(rounds, tuple(players), event.rules.players)


def plan_summary(event: Event) -> PlanSummary | None:
    """What the dashboard says of the plan: where it came from, its rounds and its report (as
    the seating report reads), the next round it would seat. One query."""
    kept = SeatingPlan.objects.filter(event=event).first()
    plan = plan_of(event, kept)
    if kept is None or plan is None:
        return None
    report = ReportShown(page_report(plan), of_plan=True)
    return PlanSummary(kept=kept, report=report, rounds=len(plan.rounds))


def page_report(plan: Plan) -> PlanReport:
    """A plan's report as the seating report template reads it (PlanReport)."""
    report = plan.report()
    winds: dict[str, list[int]] = report["winds"]
    return PlanReport(
        max_meetings=report["max_meetings"],
        pairs_met_more_than_once=report["pairs_met_more_than_once"],
        winds=winds,
        repeated_pairs=report["repeated_pairs"],
        repeat_meetings=report["repeat_meetings"],
        best_max_meetings=report["best_max_meetings"],
        best_pairs_met_more_than_once=report["best_pairs_met_more_than_once"],
        best_repeat_meetings=report["best_repeat_meetings"],
        byes=report["byes"],
        unbalanced=[p for p, c in winds.items() if max(c) - min(c) > 1],
        rounds=len(plan.rounds),
    )
