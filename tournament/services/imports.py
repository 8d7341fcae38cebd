"""Event files (CONTRACT §2): import all or nothing, export so that a round trip is lossless."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from scoring import FORMATS, PRESETS
from scoring.errors import ScoringError
from scoring.parse import Doc
from tournament.models import Event, Game
from tournament.services.errors import ServiceError
from tournament.services.events import event_create, parse_ruleset, player_names
from tournament.services.games import game_record, game_to_data

EVENT_KEYS = ("name", "slug", "ruleset", "format", "players", "games")


def _game_label(data: Any, index: int) -> str:
    if (
        isinstance(data, dict)
        and isinstance(data.get("round"), int)
        and isinstance(data.get("table"), int)
    ):
        return f"round {data['round']} table {data['table']}"
    return f"games[{index}]"


@transaction.atomic
def event_import(data: Any, *, replace: bool = False, user: Any = None) -> Event:
    """Create an event and all its games from an event file; any error leaves nothing behind."""
    try:
        doc = Doc(data).only(*EVENT_KEYS)
        name = doc.text("name")
        slug = doc.text("slug")
        fmt = doc.text("format", tuple(FORMATS), default="league")
        players = player_names(doc.list("players", default=[]))
        games = doc.list("games", default=[])
    except ScoringError as exc:
        raise ServiceError(exc.message, exc.field) from None
    rules = parse_ruleset(data.get("ruleset", "baba"))
    existing = Event.objects.filter(slug=slug).first()
    if existing is not None:
        if not replace:
            raise ServiceError(f"an event called {slug!r} exists already (use --replace)", "slug")
        existing.delete()
    event = event_create(
        name=name,
        slug=slug,
        ruleset=_spec(rules),
        format=fmt,
        players=players,
        user=user,
    )
    for i, game in enumerate(games):
        try:
            game_record(event=event, data=game, user=user)
        except ServiceError as exc:
            where = f"{exc.field}: " if exc.field else ""
            raise ServiceError(f"{where}{exc.message}", _game_label(game, i)) from None
    return event


def _spec(rules: Any) -> Any:
    """The shortest ruleset spec: a preset slug, or the preset and the knobs that differ
    (every knob, for a venue that renamed its ruleset)."""
    if rules.slug not in PRESETS:
        return {**rules.to_json(), "preset": "baba"}
    preset = PRESETS[rules.slug]
    if rules == preset:
        return rules.slug
    ours, theirs = rules.to_json(), preset.to_json()
    return {"preset": rules.slug, **{k: v for k, v in ours.items() if theirs.get(k) != v}}


def event_export(event: Event) -> dict[str, Any]:
    """The event file: what `event_import` takes back to make the same event."""
    games = (
        Game.objects.filter(round__event=event)
        .select_related("round")
        .prefetch_related("seats__player", "hands")
        .order_by("round__number", "table")
    )
    players = list(event.entries.order_by("id").values_list("player__name", flat=True))
    return {
        "name": event.name,
        "slug": event.slug,
        "ruleset": _spec(event.rules),
        "format": event.format,
        "players": players,
        "games": [game_to_data(g, list(g.seats.all()), list(g.hands.all())) for g in games],
    }
