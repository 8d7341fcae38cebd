"""Writes for events: create, register players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from scoring import FORMATS, Ruleset, ScoringError, ruleset_from_json
from tournament.models import Entry, Event, Player, Stage, Venue
from tournament.services.audit import audit_record
from tournament.services.errors import ServiceError

RESERVED_SLUGS = {"new"}  # /events/new/ creates an event


def ruleset_snapshot(rules: Ruleset) -> dict[str, Any]:
    """Every knob, so the event's results never follow later changes to a preset or venue.
    (All knobs are stored, so the preset named is only where `ruleset_from_json` starts.)"""
    from scoring import PRESETS

    return {**rules.to_json(), "preset": rules.slug if rules.slug in PRESETS else "baba"}


def parse_ruleset(spec: Any) -> Ruleset:
    try:
        return ruleset_from_json(spec)
    except ScoringError as exc:
        raise ServiceError(exc.message, exc.field) from None


def player_names(names: Sequence[Any], field: str = "players") -> list[str]:
    out: list[str] = []
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise ServiceError("must be a player's name", f"{field}[{i}]")
        name = " ".join(name.split())
        if len(name) > 100:
            raise ServiceError("is longer than 100 characters", f"{field}[{i}]")
        if name in out:
            raise ServiceError(f"{name} is listed twice", f"{field}[{i}]")
        out.append(name)
    return out


@transaction.atomic
def event_create(
    *,
    name: str,
    slug: str = "",
    ruleset: Any = None,
    venue: Venue | None = None,
    format: str = "league",
    players: Sequence[str] = (),
    user: Any = None,
) -> Event:
    if not name or not name.strip():
        raise ServiceError("an event needs a name", "name")
    slug = slug or slugify(name, allow_unicode=False) or "event"
    if slug in RESERVED_SLUGS:
        raise ServiceError(f"{slug!r} is taken by a page of the site; choose another", "slug")
    if Event.objects.filter(slug=slug).exists():
        raise ServiceError(f"an event called {slug!r} exists already", "slug")
    if format not in FORMATS:
        raise ServiceError(f"unknown format {format!r} (known: {', '.join(FORMATS)})", "format")
    if venue is not None and ruleset is None:
        rules = venue.ruleset()
    else:
        rules = parse_ruleset(ruleset if ruleset is not None else "baba")
    event = Event.objects.create(
        name=name.strip(),
        slug=slug,
        venue=venue,
        format=format,
        ruleset_snapshot=ruleset_snapshot(rules),
    )
    Stage.objects.bulk_create(
        Stage(
            event=event,
            position=i,
            name=s.name,
            first_round=s.first_round,
            last_round=s.last_round,
            advance=s.advance,
        )
        for i, s in enumerate(FORMATS[format].stages)
    )
    if user is not None and getattr(user, "is_authenticated", False):
        event.organizers.add(user)
    names = player_names(players)
    event_register_players(event=event, names=names, user=None)
    audit_record(
        event=event,
        user=user,
        action="event.create",
        summary=f"created {event.name}",
        after={"slug": slug, "format": format, "players": names},
    )
    return event


@transaction.atomic
def event_register_players(*, event: Event, names: Sequence[str], user: Any = None) -> list[Player]:
    """New names become players; known names are reused. Already registered: left as they are."""
    names = player_names(names)
    existing = {p.name: p for p in Player.objects.filter(name__in=names)}
    created = Player.objects.bulk_create(Player(name=n) for n in names if n not in existing)
    players = {**existing, **{p.name: p for p in created}}
    registered = set(Entry.objects.filter(event=event).values_list("player__name", flat=True))
    Entry.objects.bulk_create(
        Entry(event=event, player=players[n]) for n in names if n not in registered
    )
    if user is not None and names:
        audit_record(
            event=event,
            user=user,
            action="event.players",
            summary=f"registered {len(names)} players",
            after={"players": names},
        )
    return [players[n] for n in names]


@transaction.atomic
def entry_withdraw(*, entry: Entry, withdrawn: bool = True, user: Any = None) -> Entry:
    """Withdraw a player from the rounds still to be seated (or take them back). Their games so
    far stay in the standings."""
    if entry.withdrawn == withdrawn:
        return entry
    entry.withdrawn = withdrawn
    entry.save(update_fields=["withdrawn"])
    audit_record(
        event=entry.event,
        user=user,
        action="event.withdraw" if withdrawn else "event.reinstate",
        summary=f"{entry.player.name} {'withdrawn' if withdrawn else 'reinstated'}",
    )
    return entry
