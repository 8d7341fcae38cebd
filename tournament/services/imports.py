"""Event files (CONTRACT §2): import all or nothing, export so that a round trip is lossless."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from scoring import FORMATS, PRESETS
from scoring.errors import ScoringError
from scoring.parse import Doc
from tournament.models import Entry, Event, Game, Hand, Round, Seat, Stage
from tournament.services.audit import audit_record
from tournament.services.errors import ServiceError
from tournament.services.events import event_create, parse_ruleset, player_names
from tournament.services.games import (
    Evaluated,
    check_seats,
    game_evaluate,
    game_fill,
    game_rows,
    game_to_data,
)

EVENT_KEYS = ("name", "slug", "ruleset", "format", "players", "games", "entries", "stages")
# Beyond CONTRACT §2, optional, so that a backup restores an event whole (older files, and
# files written by hand, simply leave them out):
#   "entries": {"withdrawn": [names], "substitutes": [names]}  — among "players"
#   "stages": [{"name": "qualifier", "closed": true, "decision": [names]}]


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
        flags = _entry_flags(doc, players)
        stage_states = _stage_states(doc, fmt)
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
    entries = {
        e.player.name: e.player for e in Entry.objects.filter(event=event).select_related("player")
    }
    _games_write(event, _games_check(event, games, entries), entries, user=user)
    for flag, names in flags.items():
        Entry.objects.filter(event=event, player__name__in=names).update(**{flag: True})
    for name, state in stage_states.items():
        Stage.objects.filter(event=event, name=name).update(**state)
    return event


def _entry_flags(doc: Doc, players: list[str]) -> dict[str, list[str]]:
    if not doc.has("entries"):
        return {}
    entries = doc.doc("entries").only("withdrawn", "substitutes")
    flags = {}
    for key, flag in (("withdrawn", "withdrawn"), ("substitutes", "substitute")):
        names = entries.list(key, default=[])
        for i, name in enumerate(names):
            if name not in players:
                raise ScoringError(f"entries.{key}[{i}]", f"{name!r} is not among the players")
        flags[flag] = list(names)
    return flags


def _stage_states(doc: Doc, fmt: str) -> dict[str, dict[str, Any]]:
    known = [s.name for s in FORMATS[fmt].stages]
    states = {}
    for i, raw in enumerate(doc.list("stages", default=[])):
        stage = Doc(raw, f"stages[{i}]").only("name", "closed", "decision")
        name = stage.text("name", tuple(known))
        decision = stage.list("decision", default=[])
        if not all(isinstance(p, str) for p in decision):
            raise ScoringError(f"stages[{i}].decision", "a decision is a list of player names")
        states[name] = {"closed": stage.bool("closed", default=False), "decision": decision}
    return states


def _games_check(event: Event, games: list[Any], entries: dict[str, Any]) -> list[Evaluated]:
    """Every game through the engine and the seating rules, before anything is written."""
    taken: dict[tuple[int, str], int] = {}
    tables: set[tuple[int, int]] = set()
    checked = []
    for i, game in enumerate(games):
        try:
            ev = game_evaluate(event.rules, game)
            check_seats(ev, entries, taken)
            if (ev.round, ev.table) in tables:
                raise ServiceError(
                    f"round {ev.round} table {ev.table} is recorded already", "table"
                )
        except ServiceError as exc:
            where = f"{exc.field}: " if exc.field else ""
            raise ServiceError(f"{where}{exc.message}", _game_label(game, i)) from None
        tables.add((ev.round, ev.table))
        taken.update(((ev.round, name), ev.table) for name in ev.seats)
        checked.append(ev)
    return checked


def _games_write(
    event: Event, checked: list[Evaluated], entries: dict[str, Any], *, user: Any
) -> None:
    """All games in a handful of bulk inserts (a thousand-player event imports in seconds);
    one audit entry for the file."""
    rounds = {
        r.number: r
        for r in Round.objects.bulk_create(
            Round(event=event, number=n) for n in sorted({ev.round for ev in checked})
        )
    }
    games = Game.objects.bulk_create(
        game_fill(Game(round=rounds[ev.round], table=ev.table), ev) for ev in checked
    )
    seats: list[Seat] = []
    hands: list[Hand] = []
    for game, ev in zip(games, checked, strict=True):
        game_seats, game_hands = game_rows(game, ev, entries)
        seats += game_seats
        hands += game_hands
    Seat.objects.bulk_create(seats, batch_size=2000)
    Hand.objects.bulk_create(hands, batch_size=2000)
    audit_record(
        event=event,
        user=user,
        action="event.import",
        summary=f"{len(entries)} players, {len(games)} games",
    )


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
    entries = list(
        event.entries.order_by("id").values_list("player__name", "withdrawn", "substitute")
    )
    out: dict[str, Any] = {
        "name": event.name,
        "slug": event.slug,
        "ruleset": _spec(event.rules),
        "format": event.format,
        "players": [name for name, _, _ in entries],
        "games": [game_to_data(g, list(g.seats.all()), list(g.hands.all())) for g in games],
    }
    flags = {
        "withdrawn": [name for name, withdrawn, _ in entries if withdrawn],
        "substitutes": [name for name, _, substitute in entries if substitute],
    }
    if any(flags.values()):
        out["entries"] = flags
    stages = [
        {"name": s.name, "closed": s.closed, "decision": s.decision}
        for s in event.stages.order_by("position")
        if s.closed or s.decision
    ]
    if stages:
        out["stages"] = stages
    return out
