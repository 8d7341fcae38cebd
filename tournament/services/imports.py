"""Event files (CONTRACT §2): import all or nothing, export so that a round trip is lossless."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from scoring import FORMATS, PRESETS
from scoring.errors import ScoringError
from scoring.messages import fail
from scoring.parse import Doc, load_json
from scoring.teams import check_rule, check_teams
from tournament.models import (
    Entry,
    Event,
    Game,
    Hand,
    Player,
    Round,
    Seat,
    Stage,
)
from tournament.selectors.teams import event_teams
from tournament.services.changes import change_record, results_changed
from tournament.services.errors import ServiceError, engine_errors
from tournament.services.events import check_slug, event_create, parse_ruleset, player_names
from tournament.services.game_data import (
    Evaluated,
    check_seats,
    game_evaluate,
    game_fill,
    game_has_result,
    game_rows,
    game_to_data,
)
from tournament.services.profiles import (
    PROFILE_COLUMNS,
    profiles_export,
    profiles_read,
    profiles_write,
)
from tournament.services.ratings import ratings_forget_event
from tournament.services.registration import registered_count
from tournament.services.registration_file import (
    registration_export,
    registration_read,
    registration_write,
)
from tournament.services.stages import stages_as
from tournament.services.tables import table_links_for_round
from tournament.services.teams import teams_write

EVENT_KEYS = (
    *("name", "slug", "ruleset", "format", "players", "games", "entries", "stages"),
    "teams",  # CONTRACT §2: {"Team name": [members, …], …}
    "team_rule",
    "date",
    "profiles",  # CONTRACT §2: {"Aoki": {"ema": "04090012", "country": "FR"}, …}
    "registration",  # CONTRACT §2, §8: {"open": true, "capacity": 16, "approval": false}
)
# Beyond CONTRACT §2, optional, so that a backup restores an event whole (older files, and
# files written by hand, simply leave them out):
#   "entries": {"withdrawn": [names], "substitutes": [names]}  — among "players"
#   "stages": [{"name": "qualifier", "closed": true, "decision": [names]}]
#   (and "closed_after": 5 for a stage closed early, after round 5: the later stages' rounds
#   follow on, as services/stages.stage_close_early leaves them)
#   "team_rule": {"rule": "best", "best": 2}  — a team's total (scoring/teams.py); "sum" if absent
#   "date": "2026-11-24"  — the day it was played (ratings follow the order of play); the
#                           day of the import if absent
#   "profiles" also takes "tenhou" and "mahjongsoul": the player's names online, which
#                           import_tenhou matches a log's nicknames to (services/profiles.py),
#                           and "family_name": the EMA's last name (exports/ema.py)


def event_file_read(path: Path) -> Any:
    """An event file's JSON, or a ServiceError in one line: missing, over the size limit
    (checked before a byte is parsed), not UTF-8, not JSON, nested too deeply, or holding a
    number no field takes (scoring.parse.load_json names where)."""
    limit = settings.EVENT_FILE_MAX_BYTES
    try:
        size = path.stat().st_size
        if size > limit:
            raise ServiceError(
                "file.large", str(path), size=f"{size / 1e6:.1f}", limit=f"{limit / 1e6:g}"
            )
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ServiceError("file.missing", str(path)) from None
    except IsADirectoryError:
        raise ServiceError("file.folder", str(path)) from None
    except UnicodeDecodeError as exc:
        raise ServiceError("file.encoding", str(path), reason=exc.reason, byte=exc.start) from None
    try:
        return load_json(text)
    except ScoringError as exc:
        if exc.field == "input":  # the syntax: say which file
            raise ServiceError("file.json", str(path), error=ServiceError.engine(exc, "")) from None
        raise ServiceError.engine(exc) from None


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
    with engine_errors():
        doc = Doc(data).only(*EVENT_KEYS)
        name = doc.text("name")
        slug = check_slug(doc.text("slug"))
        fmt = doc.text("format", tuple(FORMATS), default="league")
        players = player_names(doc.list("players", default=[]))
        games = doc.list("games", default=[])
        flags = _entry_flags(doc, players)
        stage_states = _stage_states(doc, fmt, players)
        teams = _teams(doc, players)
        team_rule = _team_rule(doc)
        held_on = _held_on(doc)
        profiles = profiles_read(doc.raw("profiles", default=None), players)
    signups = registration_read(data.get("registration"))
    rules = parse_ruleset(data.get("ruleset", "baba"))
    existing = Event.objects.filter(slug=slug).first()
    if existing is not None:
        if not replace:
            raise ServiceError("file.slug_taken", "slug", slug=slug)
        ratings_forget_event(existing)
        existing.delete()
    event = event_create(
        name=name,
        slug=slug,
        ruleset=_spec(rules),
        format=fmt,
        players=players,
        held_on=held_on,  # before the games: their ratings follow the day
        user=user,
    )
    entries = {
        e.player.name: e.player for e in Entry.objects.filter(event=event).select_related("player")
    }
    _stages_closed_early(event, stage_states)  # before the games: they count by stage rounds
    _games_write(event, _games_check(event, games, entries), entries, user=user)
    for flag, names in flags.items():
        Entry.objects.filter(event=event, player__name__in=names).update(**{flag: True})
    for name, state in stage_states.items():
        Stage.objects.filter(event=event, name=name).update(**state)
    teams_write(event, teams)
    profiles_write(event, profiles)
    registration_write(event, signups, registered_count(event))
    if team_rule != ("sum", None):
        Event.objects.filter(pk=event.pk).update(team_rule=team_rule[0], team_best=team_rule[1])
    transaction.on_commit(_planner_statistics_refresh)
    return event


FILLED_IN_BULK = (Player, Entry, Round, Game, Seat, Hand)


def _planner_statistics_refresh() -> None:
    """ANALYZE the tables an import filled in bulk, once it is committed. Until autovacuum
    gets to them (minutes on a busy server) the planner plans on the sizes they had before: a
    10,000-player import left PostgreSQL estimating 4,000 games of 25,000 and reading every
    game for each player's page (7 ms instead of 0.3; docs/performance.md). SQLite's planner
    uses the same statistics when there are some."""
    with connection.cursor() as cursor:
        for model in FILLED_IN_BULK:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def _held_on(doc: Doc) -> date | None:
    """The day the event was played, as ISO 8601 (YYYY-MM-DD)."""
    text = doc.text("date", default=None)
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise fail("value.date", "date", value=text) from None


def _team_rule(doc: Doc) -> tuple[str, int | None]:
    """How a team's total is made: sum (CONTRACT §2, the default), best N, or average."""
    raw = doc.raw("team_rule", default={"rule": "sum"})
    if not isinstance(raw, dict):
        raise fail("value.object", "team_rule")
    rule, best = raw.get("rule", "sum"), raw.get("best")
    if best is not None and (isinstance(best, bool) or not isinstance(best, int)):
        raise fail("value.int", "team_rule.best", value=best)
    best = best if rule == "best" else None
    check_rule(str(rule), best)
    return rule, best


def _teams(doc: Doc, players: list[str]) -> dict[str, list[str]]:
    """CONTRACT §2's teams: each named, with members, each a player, in one team at most."""
    raw = doc.raw("teams", default={})
    if not isinstance(raw, dict):
        raise fail("value.object", "teams")
    teams = {
        str(name).strip(): player_names(members, f"teams.{name}")
        if isinstance(members, list)
        else members
        for name, members in raw.items()
    }
    check_teams(teams, players)
    return teams


def _entry_flags(doc: Doc, players: list[str]) -> dict[str, list[str]]:
    if not doc.has("entries"):
        return {}
    entries = doc.doc("entries").only("withdrawn", "substitutes")
    flags = {}
    for key, flag in (("withdrawn", "withdrawn"), ("substitutes", "substitute")):
        names = player_names(entries.list(key, default=[]), f"entries.{key}")
        _among_players(names, players, f"entries.{key}")
        flags[flag] = names
    return flags


def _among_players(names: list[str], players: list[str], field: str) -> None:
    known = set(players)
    for i, name in enumerate(names):
        if name not in known:
            raise fail("players.unknown", f"{field}[{i}]", name=name)


def _stage_states(doc: Doc, fmt: str, players: list[str]) -> dict[str, dict[str, Any]]:
    """A decision orders players of the event (each once); anything else is refused here,
    before it could rank somebody who never played. A stage closed early names the round it
    was closed after (`closed_after`), before its own last."""
    rules = FORMATS[fmt]
    known = [s.name for s in rules.stages]
    states = {}
    for i, raw in enumerate(doc.list("stages", default=[])):
        stage = Doc(raw, f"stages[{i}]").only("name", "closed", "decision", "closed_after")
        name = stage.text("name", tuple(known))
        field = f"stages[{i}].decision"
        decision = player_names(stage.list("decision", default=[]), field)
        _among_players(decision, players, field)
        states[name] = {"closed": stage.bool("closed", default=False), "decision": decision}
        if "closed_after" in stage.data:
            # Before its own last round: a league, with none, cannot end early.
            last = next(s.last_round for s in rules.stages if s.name == name) or 1
            states[name]["closed_after"] = stage.int("closed_after", low=1, high=last - 1)
    return states


def _stages_closed_early(event: Event, states: dict[str, dict[str, Any]]) -> None:
    """The stored stages' rounds as a stage closed early leaves them (Format.closed_after), each
    `closed_after` applied in the format's order."""
    stages = list(event.stages.order_by("position"))
    rules = FORMATS[event.format]
    for name in [s.name for s in rules.stages]:
        after = states.get(name, {}).pop("closed_after", None)
        if after is not None:
            rules = rules.closed_after(name, after)
    for row in stages_as(stages, rules):
        row.save(update_fields=["first_round", "last_round"])


def _seated(rules: Any, game: Any) -> Evaluated | None:
    """A table seated and not played yet — its round, table and seats, neither scores nor
    hands (event_export writes one so: a backup taken while a round is seated) — as a game
    with nothing recorded; None for a game with a record."""
    if not isinstance(game, dict) or "scores" in game or "hands" in game:
        return None
    ev = game_evaluate(rules, {**game, "hands": []})  # round, table and seats checked
    return replace(ev, mode="scores", scores=[], finished=False)


def _games_check(event: Event, games: list[Any], entries: dict[str, Any]) -> list[Evaluated]:
    """Every game through the engine and the seating rules, before anything is written."""
    taken: dict[tuple[int, str], int] = {}
    tables: set[tuple[int, int]] = set()
    checked = []
    for i, game in enumerate(games):
        try:
            ev = _seated(event.rules, game) or game_evaluate(event.rules, game)
            check_seats(ev, entries, taken)
            if (ev.round, ev.table) in tables:
                raise ServiceError("game.recorded", "table", round=ev.round, table=ev.table)
        except ServiceError as exc:
            raise ServiceError("file.game", _game_label(game, i), error=exc) from None
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
        if ev.mode == "scores" and not ev.scores:  # seated, nothing recorded (`_seated`)
            seats += [
                Seat(game=game, round=game.round, position=i, player=entries[name])
                for i, name in enumerate(ev.seats)
            ]
            continue
        game_seats, game_hands = game_rows(game, ev, entries)
        seats += game_seats
        hands += game_hands
    Seat.objects.bulk_create(seats, batch_size=2000)
    Hand.objects.bulk_create(hands, batch_size=2000)
    # A table still to play (seated, or in play hand by hand: a backup taken mid-round) gets
    # its phones' link, as a round seated here does; the file holds no link (they are secret).
    table_links_for_round([g for g in games if not g.finished])
    results_changed(
        event=event,
        players=None,  # every entry: the event is new
        user=user,
        action="event.import",
        summary=f"{len(entries)} players, {len(games)} games",
        after={"players": len(entries), "games": len(games)},
    )


def _game_data(game: Game) -> dict[str, Any]:
    """A game as the file holds it; a table seated with nothing recorded yet as its seats
    alone (`_seated` reads it back): its scores are not zeros, and no hand was played."""
    data = game_to_data(game, list(game.seats.all()), list(game.hands.all()))
    if game.mode == "scores" and not game_has_result(game):
        return {key: data[key] for key in ("round", "table", "seats")}
    return data


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
        event.entries.order_by("id").values_list(
            "player__name", "withdrawn", "substitute", *PROFILE_COLUMNS
        )
    )
    out: dict[str, Any] = {
        "name": event.name,
        "slug": event.slug,
        "ruleset": _spec(event.rules),
        "format": event.format,
        "date": event.held_on.isoformat(),
        "players": [name for name, *_ in entries],
        "games": [_game_data(g) for g in games],
    }
    flags = {
        "withdrawn": [name for name, withdrawn, *_ in entries if withdrawn],
        "substitutes": [name for name, _, substitute, *_ in entries if substitute],
    }
    if any(flags.values()):
        out["entries"] = flags
    stages = []
    rules = FORMATS[event.format]
    for s, rule in zip(event.stages.order_by("position"), rules.stages, strict=False):
        stage: dict[str, Any] = {"name": s.name, "closed": s.closed, "decision": s.decision}
        planned = next(r.last_round for r in rules.stages if r.name == rule.name)
        if s.last_round is not None and planned is not None and s.last_round < planned:
            # Closed early (services/stages.stage_close_early): its later stages follow on.
            stage["closed_after"] = s.last_round
            rules = rules.closed_after(s.name, s.last_round)
        if s.closed or s.decision or "closed_after" in stage:
            stages.append(stage)
    if stages:
        out["stages"] = stages
    teams = event_teams(event)
    if teams:
        out["teams"] = teams
    if event.team_rule != "sum":
        out["team_rule"] = {"rule": event.team_rule, "best": event.team_best}
    profiles = profiles_export((name, *profile) for name, _, _, *profile in entries)
    if profiles:
        out["profiles"] = profiles
    signups = registration_export(event)
    if signups is not None:
        out["registration"] = signups
    return out


@transaction.atomic
def event_delete(*, event: Event, user: Any = None) -> None:
    """Delete an event with everything in it. Its event file is kept in the log entry (with
    no event to point at), so a mistaken deletion can be imported back."""
    change_record(
        event=None,
        user=user,
        action="event.delete",
        summary=f"deleted {event.name} ({event.slug})",
        before=event_export(event),
    )
    ratings_forget_event(event)
    event.delete()
