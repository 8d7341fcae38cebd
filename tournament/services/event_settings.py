"""The event's day and its rules' knobs, set after it is made (issue 66: the event form set
neither; event files only)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.db import transaction

from tournament.models import Event
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError
from tournament.services.events import parse_ruleset, ruleset_overrides, ruleset_snapshot
from tournament.services.locks import event_lock
from tournament.services.ratings import ratings_day_moved


@transaction.atomic
def event_settings_set(
    *, event: Event, held_on: date, overrides: Mapping[str, Any], user: Any = None
) -> Event:
    """The day the event is played, and its rules: the preset its snapshot starts from with
    `overrides`' knobs changed, checked as an event file's `{"preset": slug, knob: value}`.

    The rules change only while no round is seated: a seated round's tables are made for its
    table size, and results already kept were scored by the old rules (each seat's points
    stored, final scores checked against them) — re-scoring them is not something to do
    behind the organizer's back. The day may move at any time; with games finished, their
    ratings are replayed from the earlier day (services/ratings.ratings_day_moved)."""
    event_lock(event.pk)
    event.refresh_from_db()
    preset = event.ruleset_snapshot.get("preset", "baba")
    rules = parse_ruleset({"preset": preset, **overrides})
    before = {"date": event.held_on.isoformat(), "ruleset": ruleset_overrides(event.rules)}
    after = {"date": held_on.isoformat(), "ruleset": ruleset_overrides(rules)}
    fields = []
    if rules != event.rules:
        first = event.rounds.order_by("number").values_list("number", flat=True).first()
        if first is not None:
            raise ServiceError("event.rules_seated", "ruleset", round=first)
        event.ruleset_snapshot = ruleset_snapshot(rules)
        event.__dict__.pop("rules", None)  # the cached ruleset is the old one
        fields.append("ruleset_snapshot")
    moved = held_on != event.held_on
    if moved or not event.held_on_given:
        day_before = event.held_on
        event.held_on, event.held_on_given = held_on, True
        fields += ["held_on", "held_on_given"]
        if moved:
            ratings_day_moved(event, day_before)
    if not fields:
        return event
    event.save(update_fields=[*fields, "updated_at"])
    change_record(
        event=event,
        user=user,
        action="event.settings",
        summary=f"date {after['date']}, rules {after['ruleset'] or '—'}"[:300],
        before=before,
        after=after,
    )
    return event
