"""An event's whole-day seating plan (CONTRACT §5, issue 33): made here from the players in
play (scoring/plans/), or uploaded — a plan made elsewhere, as JSON (the `python -m scoring
seat` document) or CSV (round, table, then the players East first; a bye is a row whose table
is "bye"). Checked before anything is kept: every round seats each player in play once, at
tables of the event's size, and names nobody unknown; an error names the round and table.
Rounds are then seated from it one at a time (services/rounds.round_seat, method "plan")."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.db import transaction

from scoring.errors import ScoringError
from scoring.names import normalize_name
from scoring.parse import load_json
from scoring.plans import MAX_ROUNDS, Plan, PlannedRound, plan
from tournament.models import Event, SeatingPlan
from tournament.selectors.plans import players_in_play
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError, engine_errors
from tournament.services.locks import event_lock

PLAN_MAX_BYTES = 1_000_000  # a plan for 1,000 players over 40 rounds is under half of this
BYE = "bye"
BYES = (BYE, "抜け番")  # the table column of a CSV row of byes, as written or typed in Japanese


@transaction.atomic
def plan_make(*, event: Event, rounds: int, seed: int = 0, user: Any = None) -> SeatingPlan:
    """A plan for every round at once, for the players in play now; it replaces one kept."""
    event_lock(event.pk)
    if not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise ServiceError("plan.rounds", "rounds", most=MAX_ROUNDS)
    with engine_errors():
        made = plan(players_in_play(event), rounds, event.rules.players, seed)
    return _keep(event, made, "made", seed, user)


@transaction.atomic
def plan_upload(*, event: Event, content: bytes, name: str = "", user: Any = None) -> SeatingPlan:
    """A plan made elsewhere, checked whole before it is kept."""
    event_lock(event.pk)
    if len(content) > PLAN_MAX_BYTES:
        raise ServiceError("plan.too_big", "file", most=PLAN_MAX_BYTES // 1000)
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ServiceError("plan.encoding", "file") from None
    stripped = text.lstrip()
    looks_json = name.lower().endswith(".json") or stripped.startswith(("{", "["))
    rounds = _from_json(stripped) if looks_json else _from_csv(text)
    checked = _checked(event, rounds)
    return _keep(event, checked, "uploaded", None, user)


@transaction.atomic
def plan_remove(*, event: Event, user: Any = None) -> None:
    event_lock(event.pk)
    removed, _ = SeatingPlan.objects.filter(event=event).delete()
    if removed:
        change_record(event=event, user=user, action="plan.remove", summary="seating plan removed")


def _keep(event: Event, made: Plan, source: str, seed: int | None, user: Any) -> SeatingPlan:
    rounds = [{"tables": [list(t) for t in r.tables], "byes": list(r.byes)} for r in made.rounds]
    SeatingPlan.objects.filter(event=event).delete()
    kept = SeatingPlan.objects.create(event=event, rounds=rounds, source=source, seed=seed)
    report = made.report()
    change_record(
        event=event,
        user=user,
        action="plan.make" if source == "made" else "plan.upload",
        summary=f"seating plan: {len(rounds)} rounds ({source})",
        after={
            "rounds": len(rounds),
            "seed": seed,
            "max_meetings": report["max_meetings"],
            "pairs_met_more_than_once": report["pairs_met_more_than_once"],
        },
    )
    return kept


# --- reading a plan made elsewhere ------------------------------------------------------------


def _from_json(text: str) -> list[dict[str, list[Any]]]:
    """The event file's reader (scoring.parse.load_json): nesting deeper than Python reads is
    refused naming where, and a number no name can be (NaN, 1e999, thousands of digits) is
    left for the name check to refuse by round and table."""
    try:
        data = load_json(text)
    except ScoringError as exc:
        if exc.code == "json.deep":
            raise ServiceError("plan.deep", "file", path=exc.field) from None
        raise ServiceError("plan.json", "file") from None
    rounds = data.get("rounds") if isinstance(data, dict) else None
    if not isinstance(rounds, list):
        raise ServiceError("plan.json", "file")
    out = []
    for number, raw in enumerate(rounds, start=1):
        if not isinstance(raw, dict) or not isinstance(raw.get("tables"), list):
            raise ServiceError("plan.round_shape", "file", round=number)
        byes = raw.get("byes") or []
        if not isinstance(byes, list):
            raise ServiceError("plan.round_shape", "file", round=number)
        out.append({"tables": raw["tables"], "byes": byes})
    return out


def _from_csv(text: str) -> list[dict[str, list[Any]]]:
    """round, table, then the table's players East first; `bye` (抜け番) in the table column
    seats its players out. A header row (round, table, …) is skipped."""
    rounds: dict[int, dict[str, Any]] = {}
    reader = csv.reader(io.StringIO(text))
    try:
        rows = list(enumerate(reader, start=1))
    except csv.Error:  # a cell over the csv module's 128 kB: no name is
        raise ServiceError("plan.csv_row", "file", line=reader.line_num) from None
    for line, row in rows:
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if line == 1 and cells[0].lower() in ("round", "回戦"):
            continue
        if len(cells) < 3 or not cells[0].isdigit():
            raise ServiceError("plan.csv_row", "file", line=line)
        number = int(cells[0])
        rnd = rounds.setdefault(number, {"tables": {}, "byes": []})
        names = [c for c in cells[2:] if c]
        if cells[1].lower() in BYES:
            rnd["byes"] += names
        elif cells[1].isdigit():
            if int(cells[1]) in rnd["tables"]:
                raise ServiceError("plan.table_twice", "file", round=number, table=int(cells[1]))
            rnd["tables"][int(cells[1])] = names
        else:
            raise ServiceError("plan.csv_row", "file", line=line)
    numbers = sorted(rounds)
    if numbers != list(range(1, len(numbers) + 1)):
        missing = next(n for n in range(1, len(numbers) + 2) if n not in rounds)
        raise ServiceError("plan.round_missing", "file", round=missing)
    return [
        {"tables": [t for _n, t in sorted(rounds[n]["tables"].items())], "byes": rounds[n]["byes"]}
        for n in numbers
    ]


def _checked(event: Event, rounds: list[dict[str, list[Any]]]) -> Plan:
    """Each round seats each player in play once, at tables of the event's size, and nobody
    else; the first fault is named by its round and table."""
    if not rounds:
        raise ServiceError("plan.empty", "file")
    if len(rounds) > MAX_ROUNDS:
        raise ServiceError("plan.rounds", "file", most=MAX_ROUNDS)
    players = players_in_play(event)
    known = set(players)
    size = event.rules.players
    planned = []
    for number, rnd in enumerate(rounds, start=1):
        seen: dict[str, int] = {}
        tables = []
        for t, table in enumerate(rnd["tables"], start=1):
            if not isinstance(table, list) or len(table) != size:
                count = len(table) if isinstance(table, list) else 0
                raise ServiceError(
                    "plan.table_size", "file", round=number, table=t, size=size, count=count
                )
            tables.append(tuple(_named(name, number, t, seen, known) for name in table))
        byes = tuple(_named(name, number, None, seen, known) for name in rnd["byes"])
        missing = [p for p in players if p not in seen]
        if missing:
            raise ServiceError(
                "plan.player_missing", "file", round=number, name=", ".join(missing[:5])
            )
        planned.append(PlannedRound(tuple(tables), byes))
    return Plan(tuple(planned), tuple(players), size)


def _named(raw: Any, number: int, table: int | None, seen: dict[str, int], known: set[str]) -> str:
    """A name of round `number` at `table` (None: among the byes), checked."""
    bye = table is None
    try:
        name = normalize_name(raw, "file")
    except ScoringError:
        code = "plan.bye_bad_name" if bye else "plan.bad_name"
        raise ServiceError(code, "file", round=number, table=table) from None
    if name not in known:
        code = "plan.bye_unknown" if bye else "plan.unknown"
        raise ServiceError(code, "file", round=number, table=table, name=name)
    if name in seen:
        if bye:
            raise ServiceError("plan.bye_twice", "file", round=number, name=name)
        raise ServiceError(
            "plan.twice", "file", round=number, table=table, name=name, first=seen[name]
        )
    seen[name] = table or 0
    return name
