"""An event's whole-day seating plan as a download: CSV (rows services/plans reads back)
through the pipeline's writer, names a spreadsheet would run as a formula neutralised as in
every download; JSON as CONTRACT §5's document (its rounds and report), which services/plans
reads back too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext_lazy as _

from scoring.plans import Plan
from tournament.exports.columns import Column
from tournament.exports.formats import Sheet, dump_json, write
from tournament.i18n import SEAT_WINDS
from tournament.models import Event

ROUND = Column("round", _("Round"))
TABLE = Column("table", _("Table"))  # a table's number, or `bye` on a round's byes
KEYS = ("east", "south", "west", "north", "fifth")
# The players, East (the first dealer) first.
SEATS = tuple(Column(key, wind) for key, wind in zip(KEYS, [*SEAT_WINDS, "5"], strict=True))
SHEET = Sheet("plan", _("Seating"))
PLAN_FORMATS = ("csv", "json")  # what services/plans reads back


def iterate_plan(plan: Plan) -> Iterator[list[Any]]:
    """round, table, the players East first; a round's byes on a row whose table is `bye`
    (as many cells as byes)."""
    size = max((len(t) for r in plan.rounds for t in r.tables), default=0)
    yield [ROUND, TABLE, *SEATS[:size]]
    for number, rnd in enumerate(plan.rounds, start=1):
        for t, table in enumerate(rnd.tables, start=1):
            yield [number, t, *table]
        if rnd.byes:
            yield [number, "bye", *rnd.byes]


def export_plan(event: Event, plan: Plan, fmt: str) -> bytes:
    """The plan as `fmt`, one of PLAN_FORMATS."""
    if fmt == "json":
        return dump_json(plan.to_json()).encode()
    return write(fmt, iterate_plan(plan), event, SHEET, event.rules.whole_points)
