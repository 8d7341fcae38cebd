"""Writes for a season (series of events): create it, set its ranking rule, add and remove
events. Each checks before writing and writes in one transaction, logged in the change log
(for no event: a season's page is read afresh each time, its events' standings from their
own caches);
the ranking itself is the engine's (scoring/series.py), read by selectors/series.py."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.text import slugify

from scoring import ScoringError
from scoring.series import SeriesRule
from tournament.models import Event, Series, SeriesEvent
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError
from tournament.services.events import check_slug
from tournament.services.ratings import ratings_rebuild


def _rule(rule: Any, best_of: Any, min_games: Any) -> SeriesRule:
    try:
        return SeriesRule(rule, best_of if rule == "best" else None, int(min_games or 0))
    except ScoringError as exc:
        raise ServiceError.engine(exc) from None


@transaction.atomic
def series_create(
    *,
    name: str,
    slug: str = "",
    rule: str = "all",
    best_of: int | None = None,
    min_games: int = 0,
    user: Any = None,
) -> Series:
    name = (name or "").strip()
    if not name:
        raise ServiceError("name.event_empty", "name")
    slug = check_slug(slug or slugify(name, allow_unicode=True) or "series")
    checked = _rule(rule, best_of, min_games)
    try:
        with transaction.atomic():
            series = Series.objects.create(
                name=name,
                slug=slug,
                rule=checked.rule,
                best_of=checked.best_of,
                min_games=checked.min_games,
            )
    except IntegrityError:
        raise ServiceError("series.slug_taken", "slug", slug=slug) from None
    if user is not None and getattr(user, "is_authenticated", False):
        series.organizers.add(user)
    _logged(series, user, "series.create", after=_rule_data(series))
    return series


def _rule_data(series: Series) -> dict[str, Any]:
    return {"rule": series.rule, "best_of": series.best_of, "min_games": series.min_games}


def _logged(series: Series, user: Any, action: str, before: Any = None, after: Any = None) -> None:
    change_record(
        event=None, user=user, action=action, summary=series.slug, before=before, after=after
    )


@transaction.atomic
def series_set_rule(
    *, series: Series, rule: str, best_of: Any, min_games: Any, user: Any = None
) -> Series:
    checked = _rule(rule, best_of, min_games)
    before = _rule_data(series)
    series.rule, series.best_of, series.min_games = checked.rule, checked.best_of, checked.min_games
    series.save(update_fields=["rule", "best_of", "min_games"])
    _logged(series, user, "series.rule", before=before, after=_rule_data(series))
    return series


@transaction.atomic
def series_add_event(*, series: Series, slug: str, user: Any = None) -> SeriesEvent:
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise ServiceError("series.no_event", "event", slug=slug)
    if series.members.filter(event=event).exists():
        raise ServiceError("series.event_twice", "event", name=event.name)
    last = series.members.aggregate(last=Max("position"))["last"] or 0
    try:
        with transaction.atomic():
            member = SeriesEvent.objects.create(series=series, event=event, position=last + 1)
    except IntegrityError:  # added meanwhile by another request
        raise ServiceError("series.event_twice", "event", name=event.name) from None
    _logged(series, user, "series.add_event", after={"event": event.slug})
    ratings_rebuild(series)  # the series' own pool, its events in their order of play
    return member


@transaction.atomic
def series_remove_event(*, series: Series, event_id: int, user: Any = None) -> None:
    slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
    if series.members.filter(event_id=event_id).delete()[0]:
        _logged(series, user, "series.remove_event", before={"event": slug})
        ratings_rebuild(series)
