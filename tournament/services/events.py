"""Writes for events: create, register players, withdraw, set the date and the rules, the
table on stream."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_unicode_slug
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from scoring import FORMATS, PRESETS, Ruleset, ruleset_from_json
from scoring.names import EVENT_NAME_MAX, normalize_name
from tournament.models import Entry, Event, Game, Stage, Venue
from tournament.models.events import TABLE_ENTRY_CHOICES, TABLE_MODE_CHOICES
from tournament.services.changes import change_record
from tournament.services.errors import ServiceError, engine_errors
from tournament.services.locks import event_lock
from tournament.services.players import Registered, entries_add
from tournament.services.registration import signup_left
from tournament.services.registration_list import signup_back
from tournament.services.stages import stage_require_open

RESERVED_SLUGS = {"new"}  # /events/new/ creates an event
SLUG_MAX = 80  # the column's length


def ruleset_snapshot(rules: Ruleset) -> dict[str, Any]:
    """Every knob, so the event's results never follow later changes to a preset or venue.
    (All knobs are stored, so the preset named is only where `ruleset_from_json` starts.)"""
    return {**rules.to_json(), "preset": rules.slug if rules.slug in PRESETS else "baba"}


def parse_ruleset(spec: Any) -> Ruleset:
    with engine_errors():
        return ruleset_from_json(spec)


def ruleset_overridden(base: Ruleset, overrides: Mapping[str, Any]) -> Ruleset:
    """`base` with the knobs of `overrides` changed, checked as an event file's `{"preset":
    slug, knob: value}` is (the same function: CONTRACT §1): from the preset where `base` is
    one, else from every knob of `base` (a venue's rules). Errors name `ruleset.<knob>`."""
    start = {"preset": base.slug} if PRESETS.get(base.slug) == base else ruleset_snapshot(base)
    return parse_ruleset({**start, **overrides})


def ruleset_overrides(rules: Ruleset) -> dict[str, Any]:
    """The knobs where `rules` differ from the preset its snapshot starts from: what the
    settings form shows, so that saving it unchanged gives the same rules."""
    preset = PRESETS[ruleset_snapshot(rules)["preset"]]
    theirs = preset.to_json()
    return {k: v for k, v in rules.to_json().items() if theirs.get(k) != v}


def player_names(names: Sequence[Any], field: str = "players") -> list[str]:
    """Every name in its one spelling (scoring.names); a name listed twice is refused, naming
    both places. Linear: a list of thousands costs what its length costs."""
    out: dict[str, int] = {}
    for i, raw in enumerate(names):
        with engine_errors():
            name = normalize_name(raw, f"{field}[{i}]")
        if name in out:
            raise ServiceError(
                "event.listed_twice",
                f"{field}[{i}]",
                name=name,
                first=f"{field}[{out[name]}]",
                second=f"{field}[{i}]",
            )
        out[name] = i
    return list(out)


def check_slug(slug: Any, field: str = "slug") -> str:
    """An event's address as given by a person or a file: letters (any script), digits,
    hyphens, underscores; not a page of the site."""
    if not isinstance(slug, str):
        raise ServiceError("value.text", field)
    try:
        validate_unicode_slug(slug)
    except ValidationError:
        raise ServiceError("event.slug_invalid", field, slug=slug[:100]) from None
    if len(slug) > SLUG_MAX:
        raise ServiceError("name.long", field, length=len(slug), max=SLUG_MAX)
    if slug in RESERVED_SLUGS:
        raise ServiceError("event.slug_reserved", field, slug=slug)
    return slug


def _has_letter(text: str) -> bool:
    return any(char.isalpha() for char in text)


def _latin_only(text: str) -> bool:
    """Every letter of `text` is Latin, accents aside (é, ü: what ASCII spells as e, u)."""
    return all(
        unicodedata.normalize("NFKD", char).encode("ascii", "ignore").isalpha()
        for char in text
        if char.isalpha()
    )


def event_slug(name: str) -> str:
    """A readable address made from the name: ASCII where every letter of the name is Latin
    (Chloé Cup → chloe-cup), the name's own script otherwise — a Japanese name keeps its
    Japanese beside any Latin word (馬場11時大会 walk 杯 → 馬場11時大会-walk-杯, issue 66, not
    11-walk) — and the date when it has no letters at all, never a bare number. Taken already
    by another event: -2, -3, … is added."""
    base = slugify(name) if _latin_only(name) else slugify(name, allow_unicode=True)
    if not _has_letter(base):
        base = slugify(name, allow_unicode=True)
    if not _has_letter(base):
        base = "-".join(p for p in (timezone.localdate().isoformat(), base) if p)
    base = base[: SLUG_MAX - 4].strip("-_")
    taken = (
        set(Event.objects.filter(slug__startswith=base).values_list("slug", flat=True))
        | RESERVED_SLUGS
    )
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    return slug


def _created_event(**fields: Any) -> Event:
    """Insert the event; a second request that raced this one to the same address is told the
    event exists (the unique index decides, so one of two simultaneous taps wins)."""
    try:
        with transaction.atomic():  # a savepoint: PostgreSQL may go on after the refusal
            return Event.objects.create(**fields)
    except IntegrityError:
        raise ServiceError("event.created_meanwhile", "slug", slug=fields["slug"]) from None


@transaction.atomic
def event_create(
    *,
    name: str,
    slug: str = "",
    ruleset: Any = None,
    venue: Venue | None = None,
    format: str = "league",
    players: Sequence[str] = (),
    held_on: date | None = None,
    overrides: Mapping[str, Any] | None = None,
    user: Any = None,
) -> Event:
    """A new event. A slug given is kept or refused; without one, one is made from the name.
    The same name twice without a slug is refused (a double tap, the back button), never a
    second copy of the event. `held_on`: the day it is played (else today, not said to
    players); `overrides`: knobs changed from the rules chosen, as an event file gives them."""
    with engine_errors():
        name = normalize_name(name, "name", max_length=EVENT_NAME_MAX, event=True)
    if format not in FORMATS:
        raise ServiceError("standings.format", "format", value=format, known=", ".join(FORMATS))
    if slug:
        slug = check_slug(slug)
        if Event.objects.filter(slug=slug).exists():
            raise ServiceError("event.slug_taken", "slug", slug=slug)
    else:
        twin = Event.objects.filter(name=name).order_by("-created_at").first()
        if twin is not None:
            raise ServiceError("event.name_taken", "name", name=name, slug=twin.slug)
        slug = event_slug(name)
    if venue is not None and ruleset is None:
        rules = venue.ruleset()
    else:
        rules = parse_ruleset(ruleset if ruleset is not None else "baba")
    if overrides:
        rules = ruleset_overridden(rules, overrides)
    names = player_names(players)
    dated = {"held_on": held_on, "held_on_given": True} if held_on is not None else {}
    event = _created_event(
        name=name,
        slug=slug,
        venue=venue,
        format=format,
        ruleset_snapshot=ruleset_snapshot(rules),
        **dated,
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
    registered = entries_add(event, names)
    change_record(
        event=event,
        user=user,
        action="event.create",
        summary=f"created {event.name}",
        after={"slug": slug, "format": format, "players": names, "known": registered.known},
    )
    event.registered = registered  # for the confirmation: who was known already
    return event


@transaction.atomic
def event_register_players(*, event: Event, names: Sequence[str], user: Any = None) -> Registered:
    """New names become players; known names are reused. Already registered: left as they are
    (so a second tap on the same list registers nobody twice)."""
    names = player_names(names)
    event_lock(event.pk)
    registered = entries_add(event, names)
    added = registered.new + registered.known
    if added:
        # New entrants would join a closed stage's ranking.
        stage_require_open(event, entrants=True)
    if added:  # with or without a user (a script): readers must see the new players
        change_record(
            event=event,
            user=user,
            action="event.players",
            summary=f"registered {len(added)} players",
            after={"players": added, "known": registered.known},
        )
    return registered


@transaction.atomic
def entry_withdraw(*, entry: Entry, withdrawn: bool = True, user: Any = None) -> Entry:
    """Withdraw a player from the rounds still to be seated (or take them back). Their games so
    far stay in the standings."""
    event_lock(entry.event_id)
    entry.refresh_from_db(fields=["withdrawn"])
    if entry.withdrawn == withdrawn:
        return entry
    stage_require_open(entry.event, entrants=True)
    if not withdrawn:  # within the capacity, their sign-up registered again (issue 50)
        signup_back(entry)
    entry.withdrawn = withdrawn
    entry.save(update_fields=["withdrawn"])
    if withdrawn:  # a player who signed up (issue 50): their place goes to the first waiting
        signup_left(entry, user=user)
    change_record(
        event=entry.event,
        user=user,
        action="event.withdraw" if withdrawn else "event.reinstate",
        summary=f"{entry.player.name} {'withdrawn' if withdrawn else 'reinstated'}",
        after={"player": entry.player.name},
    )
    return entry


@transaction.atomic
def event_rename(*, event: Event, name: str, user: Any = None) -> Event:
    """A new name for the event (its address stays: printed links keep working)."""
    with engine_errors():
        name = normalize_name(name, "name", max_length=EVENT_NAME_MAX, event=True)
    event_lock(event.pk)
    before = Event.objects.values_list("name", flat=True).get(pk=event.pk)
    if before == name:
        return event
    Event.objects.filter(pk=event.pk).update(name=name)
    event.name = name
    change_record(
        event=event,
        user=user,
        action="event.rename",
        summary=f"renamed {before} → {name}",
        before={"name": before},
        after={"name": name},
    )
    return event


@transaction.atomic
def event_organizers_set(*, event: Event, users: Sequence[Any], user: Any = None) -> None:
    """Who may change the event (logged: rights over results are worth a line in the log)."""
    _people_set(event, "organizers", users, user)


def event_referees_set(*, event: Event, users: Sequence[Any], user: Any = None) -> None:
    """Who may enter and correct its results (tournament/permissions.py), logged likewise."""
    _people_set(event, "referees", users, user)


def _people_set(event: Event, relation: str, users: Sequence[Any], user: Any) -> None:
    event_lock(event.pk)
    people = getattr(event, relation)
    before = sorted(people.values_list("username", flat=True))
    people.set(users)
    after = sorted(u.get_username() for u in users)
    if before != after:
        change_record(
            event=event,
            user=user,
            action=f"event.{relation}",
            summary=f"{relation}: {', '.join(after) or '—'}",
            before={relation: before},
            after={relation: after},
        )


@transaction.atomic
def event_table_entry_set(
    *, event: Event, table_entry: str, table_mode: str | None = None, user: Any = None
) -> Event:
    """Who enters results — the organizers, or the tables through their links (a second seat
    confirming) — and what a table link enters (hand by hand, or final scores). Results
    already entered stay as they are."""
    table_mode = table_mode or event.table_mode
    if table_entry not in dict(TABLE_ENTRY_CHOICES):
        raise ServiceError("event.table_entry", "table_entry")
    if table_mode not in dict(TABLE_MODE_CHOICES):
        raise ServiceError("event.table_entry", "table_mode")
    event_lock(event.pk)
    before = dict(
        zip(
            ("table_entry", "table_mode"),
            Event.objects.values_list("table_entry", "table_mode").get(pk=event.pk),
            strict=True,
        )
    )
    after = {"table_entry": table_entry, "table_mode": table_mode}
    if before == after:
        return event
    event.table_entry, event.table_mode = table_entry, table_mode
    event.save(update_fields=["table_entry", "table_mode", "updated_at"])
    change_record(
        event=event,
        user=user,
        action="event.table_entry",
        summary=f"results entered by {table_entry} ({table_mode})",
        before=before,
        after=after,
    )
    return event


@transaction.atomic
def event_feature_game(*, event: Event, game: Game | None, user: Any = None) -> Event:
    """The table on stream (CONTRACT §9): the overlay without `?round=&table=` and the
    featured feed show `game` from now on; None, no table. A game of another event is
    refused; one deleted meanwhile too (its deletion takes the same lock)."""
    event_lock(event.pk)
    after: dict[str, int] | None = None
    if game is not None:
        found = Game.objects.filter(pk=game.pk).values_list(
            "round__event_id", "round__number", "table"
        )
        where = found.first()
        if where is None:
            raise ServiceError("game.deleted", "game")
        if where[0] != event.pk:
            raise ServiceError("event.feature_other", "game")
        after = {"round": where[1], "table": where[2]}
    featured, *shown = Event.objects.values_list(
        "featured_game_id", "featured_game__round__number", "featured_game__table"
    ).get(pk=event.pk)
    if featured == (game.pk if game is not None else None):
        return event
    Event.objects.filter(pk=event.pk).update(featured_game=game)
    event.featured_game = game
    before = dict(zip(("round", "table"), shown, strict=True)) if featured is not None else None
    change_record(
        event=event,
        user=user,
        action="event.feature",
        summary=(
            f"round {after['round']} table {after['table']} on stream"
            if after is not None
            else "no table on stream"
        ),
        before=before,
        after=after,
    )
    return event
