"""Reads for an event's whole-day seating plan (services/plans.py writes it)."""

from __future__ import annotations

import csv
import io
from typing import Any

from scoring.plans import Plan, PlannedRound
from tournament.exports import neutralise
from tournament.models import Entry, Event, SeatingPlan


def players_in_play(event: Event) -> list[str]:
    """The players a plan seats: registered, not withdrawn, no stand-ins; as registered. One
    query."""
    entries = Entry.objects.filter(event=event, withdrawn=False, substitute=False).order_by("pk")
    return list(entries.values_list("player__name", flat=True))


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


def plan_summary(event: Event) -> dict[str, Any] | None:
    """What the dashboard says of the plan: where it came from, its rounds and its report (as
    the seating report reads), the next round it would seat. One query."""
    kept = SeatingPlan.objects.filter(event=event).first()
    plan = plan_of(event, kept)
    if kept is None or plan is None:
        return None
    return {"kept": kept, "report": page_report(plan), "rounds": len(plan.rounds)}


def page_report(plan: Plan) -> dict[str, Any]:
    """A plan's report as the seating report template reads it: CONTRACT §5's, with the
    players whose winds are uneven and the number of rounds."""
    report = plan.report()
    report["unbalanced"] = [p for p, c in report["winds"].items() if max(c) - min(c) > 1]
    report["rounds"] = len(plan.rounds)
    return report


def plan_csv(plan: Plan) -> str:
    """The plan as CSV (services/plans reads it back): round, table, the players East first;
    a round's byes on a row whose table is `bye`. Names that a spreadsheet would run as a
    formula are neutralised, as in every download (exports.neutralise)."""
    size = max((len(t) for r in plan.rounds for t in r.tables), default=0)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "table", *["east", "south", "west", "north", "fifth"][:size]])
    for number, rnd in enumerate(plan.rounds, start=1):
        for t, table in enumerate(rnd.tables, start=1):
            writer.writerow([number, t, *(neutralise(p) for p in table)])
        if rnd.byes:
            writer.writerow([number, "bye", *(neutralise(p) for p in rnd.byes)])
    return out.getvalue()
