"""The standings' stored figures: each entry's total, games, first places and per-round
results (models.Entry), kept in step with the games by every write that changes a result,
inside that write's transaction. A reader then ranks one row per player (selectors/standings.py)
instead of reading every seat of the event.

`entries_recount` recounts the given players from their seats: a write touches at most the
players of the game before and after it, so it costs a few rows whatever the event's size.
A write never calls it alone: `services/changes.results_changed` recounts, moves the event's
version and logs, together (docs/standings.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db import connection

from tournament.models import Entry, Event, Seat

# Seat fields a recount reads, in this order (see `count_figures`).
FIGURE_FIELDS = ("player_id", "round__number", "rank", "points", "chips")


def count_figures(rows: Iterable[tuple[Any, ...]]) -> dict[int, dict[str, Any]]:
    """Each player's figures from their finished seats (FIGURE_FIELDS): the Entry columns.
    Pure: the tests count with it too (migration 0011 holds its own copy, as it stood)."""
    played: dict[int, list[list[Any]]] = {}
    for player_id, number, rank, points, chips in rows:
        played.setdefault(player_id, []).append([number, str(points), rank, chips])
    figures = {}
    for player_id, results in played.items():
        results.sort()
        figures[player_id] = {
            "total": sum((Decimal(r[1]) for r in results), Decimal(0)),
            "games": len(results),
            "firsts": sum(1 for r in results if r[2] == 1),
            "results": json.dumps(results, separators=(",", ":")),
        }
    return figures


EMPTY = {"total": Decimal(0), "games": 0, "firsts": 0, "results": "[]"}
FIGURE_COLUMNS = tuple(EMPTY)


def entries_recount(event_id: int, player_ids: Iterable[int] | None = None) -> int:
    """Recount these players' entries in the event (None: every entry) from their finished
    games; how many were written. Call it inside the write's transaction, after the write
    (which holds the event's lock). The players a write names (its game's, before and after
    it) are written as counted, whether their figures moved or not: two statements, the
    seats read and one update — comparing first cost a third, for a write that moved them
    all anyway. Every entry (an import, `rebuild_standings`): those that changed only."""
    seats = Seat.objects.filter(round__event_id=event_id, rank__isnull=False).order_by()
    if player_ids is not None:
        ids = set(player_ids)
        if not ids:
            return 0
        figures = count_figures(seats.filter(player_id__in=ids).values_list(*FIGURE_FIELDS))
        _write_figures(event_id, {p: figures.get(p, EMPTY) for p in ids})
        return len(ids)
    figures = count_figures(seats.values_list(*FIGURE_FIELDS))
    entries = Entry.objects.filter(event_id=event_id).only("player_id", *FIGURE_COLUMNS)
    changed = {}
    for entry in entries:
        wanted = figures.get(entry.player_id, EMPTY)
        if any(getattr(entry, k) != v for k, v in wanted.items()):
            changed[entry.player_id] = wanted
    _write_figures(event_id, changed)
    return len(changed)


def _write_figures(event_id: int, figures: dict[int, dict[str, Any]]) -> None:
    """One UPDATE by event and player, sent for every entry at once (executemany: psycopg 3
    pipelines it). Django's bulk_update builds a CASE of every row for every column, ~1.5 ms a
    row in Python: recounting 2,000 entries took 3.3 s that way, 0.3 s this way."""
    if not figures:
        return
    quote = connection.ops.quote_name
    column = quote(Entry._meta.get_field("figures_version").column)
    event_table, event_pk = quote(Event._meta.db_table), quote(Event._meta.pk.column)
    version = quote(Event._meta.get_field("version").column)
    event_column = quote(Entry._meta.get_field("event").column)
    player_column = quote(Entry._meta.get_field("player").column)
    columns = ", ".join(f"{quote(Entry._meta.get_field(k).column)} = %s" for k in FIGURE_COLUMNS)
    table = quote(Entry._meta.db_table)
    # Marked with the event's version as this write found it, read under the event's lock
    # whether the version has moved yet or not: a reader holding standings of that version or
    # an older one re-reads the entry (selectors/standings.py).
    marked = (
        f"{column} = (SELECT e.{version} FROM {event_table} e"
        f" WHERE e.{event_pk} = {table}.{event_column})"
    )
    where = f"{event_column} = %s AND {player_column} = %s"
    sql = f"UPDATE {table} SET {columns}, {marked} WHERE {where}"
    rows = [[v[k] for k in FIGURE_COLUMNS] + [event_id, p] for p, v in figures.items()]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)
