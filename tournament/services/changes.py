"""A change to an event: its version moved on and the change logged, together.

Two ways in, and no other (docs/standings.md states why):
- `change_record` for any write: names, players, penalties, stages, rules, imports. Readers rank
  the event from scratch afterwards.
- `results_changed` for a write that changed games, hands or results: it recounts the entries
  of the players whose figures may have moved, then moves the version so that a reader may
  re-rank from the standings it holds and those entries alone. A write to a game reaches it
  through `services/game_change.py` (`change.log`), which works out the players; only the
  whole-file import calls it directly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tournament.models import AuditEntry, Event
from tournament.selectors.published import stage_ends
from tournament.services.locks import event_lock
from tournament.services.queue import enqueue_on_commit
from tournament.services.ratings import ratings_mark
from tournament.services.standings import entries_recount


def event_touch(event_id: int, *, structure: bool = True, rows: bool = True) -> None:
    """Mark an event as changed: what readers cached for the old version is not served again,
    and pages say when the event last changed. `structure` (the default, so a write that does
    not say is never half-seen) makes every reader rank the event from scratch
    (`Event.structure_version`). Only `results_changed` passes `structure=False`, after
    recounting the entries a reader must re-read (test_results_changed.py holds this), and
    `rows=False` when it recounted none: the standings' rows are as they were
    (`Event.rows_version`)."""
    moved: dict[str, Any] = {"version": F("version") + 1, "updated_at": timezone.now()}
    if structure:
        moved["structure_version"] = F("version")
    if structure or rows:
        moved["rows_version"] = F("version")
        moved["rows_changed_at"] = moved["updated_at"]
    Event.objects.filter(pk=event_id).update(**moved)


def _logged(
    event: Event | None, user: Any, action: str, summary: str, before: Any, after: Any, at: Any
) -> AuditEntry:
    return AuditEntry.objects.create(
        event=event,
        user=user if getattr(user, "is_authenticated", False) else None,
        at_table=at.table if at is not None else None,  # through a table link (AtTable)
        at_seat=at.seat if at is not None else None,
        action=action,
        summary=summary[:300],
        before=before,
        after=after,
    )


def change_record(
    *,
    event: Event | None,
    user: Any,
    action: str,
    summary: str,
    before: Any = None,
    after: Any = None,
    at: Any = None,
) -> AuditEntry:
    """A change, as every write makes one, in the write's transaction: the event's version
    moves on (`event_touch`) and the change goes in the log (who, what, through which table,
    before and after). Named for both: no write may do one without the other. A write that
    changed games, hands or results calls `results_changed` instead."""
    if event is not None:
        event_touch(event.pk)
    return _logged(event, user, action, summary, before, after, at)


def results_changed(
    *,
    event: Event,
    players: Iterable[int] | None,
    rated: Iterable[str] | None = None,
    rounds: Iterable[int] = (),
    user: Any,
    action: str,
    summary: str,
    before: Any = None,
    after: Any = None,
    at: Any = None,
) -> AuditEntry:
    """The one way a write that changed games, hands or results says so, inside its
    transaction and after the write (which holds the event's lock): the entries of `players`
    — every player whose figures the write may have moved: the game's players before it and
    after it — are recounted from their seats and marked, their rating pools marked due from
    the first game that changed (`rated`: where each game whose places moved stands in the
    order of play, as `game_change` works out; None: found by comparing the event's games
    with the steps kept — replayed by a queued task: services/ratings.py), the event's
    version moves on as a results-only change, and the change is logged. `players=None`
    recounts every entry (an import): then readers rank from scratch, as after any other
    change. When what the standings page shows moved — the rows, or a hand in a stage's last
    round (`rounds`: the games'), where the page shows what each player needs — the page and
    its polled files are made by the queue once this commits (tournament/publish.py)."""
    players = None if players is None else list(players)
    recounted = entries_recount(event.pk, players)
    rows = players is None or recounted > 0
    event_touch(event.pk, structure=players is None, rows=rows)
    logged = _logged(event, user, action, summary, before, after, at)
    if rows or not set(rounds).isdisjoint(stage_ends(event)):
        enqueue_on_commit("publish_task", event.pk)
    # Last: the pool's due row, which other events' writes update too, is held only to the commit.
    ratings_mark(event, players, None if rated is None else list(rated))
    return logged


@transaction.atomic
def standings_rebuild(event: Event) -> int:
    """Recount every entry of the event from its games (by hand, `manage.py
    rebuild_standings`, should the figures ever be doubted); how many changed. A correction
    moves the event's version on, so no reader keeps the doubted standings."""
    event_lock(event.pk)
    changed = entries_recount(event.pk, None)
    if changed:
        event_touch(event.pk)
    return changed
