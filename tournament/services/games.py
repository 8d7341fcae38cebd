"""Writes of whole games: record, correct, remove — and `game_replace`, the one way a game's
record is written over (a correction, a hand that ends or reopens it, a confirmation). Each
validates with the scoring engine first and writes inside one transaction, so a game is never
half-saved. A game as data is services/game_data.py; hand by hand, services/hands.py."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from tournament.models import Entry, Event, Game, Hand, Round, Seat
from tournament.services.changes import results_changed
from tournament.services.confirmation import AtTable, held
from tournament.services.errors import ConflictError, ServiceError
from tournament.services.game_data import (
    Evaluated,
    check_seats,
    game_evaluate,
    game_fill,
    game_has_result,
    game_rows,
    game_to_data,
)
from tournament.services.locks import event_lock
from tournament.services.stages import stage_require_open


def _check_players(event: Event, ev: Evaluated, exclude_game: Game | None) -> dict[str, Any]:
    entries = {
        e.player.name: e.player
        for e in Entry.objects.filter(event=event, player__name__in=ev.seats).select_related(
            "player"
        )
    }
    others = Seat.objects.filter(
        round__event=event, round__number=ev.round, player__name__in=ev.seats
    ).order_by()  # the default order joins four tables for nothing
    if exclude_game is not None:
        others = others.exclude(game=exclude_game)
    taken = {
        (ev.round, name): table for name, table in others.values_list("player__name", "game__table")
    }
    check_seats(ev, entries, taken)
    return entries


def _write(game: Game, ev: Evaluated, players: dict[str, Any]) -> None:
    game_fill(game, ev).save()
    seats, hands = game_rows(game, ev, players)
    Seat.objects.bulk_create(seats)
    Hand.objects.bulk_create(hands)


def _same(game: Game, ev: Evaluated) -> bool:
    """Whether the stored game is exactly what `ev` would store (a replayed save)."""
    seats = list(game.seats.select_related("player").order_by("position"))
    stored = game_to_data(game, seats)
    wanted: dict[str, Any] = {"round": ev.round, "table": ev.table, "seats": ev.seats}
    if ev.mode == "hands":
        wanted["hands"] = [h["data"] for h in ev.hands]
    else:
        wanted.update(scores=ev.scores, deposits=ev.deposits, busts=ev.busts, yakuman=ev.yakuman)
    return game.mode == ev.mode and stored == wanted


def _recorded_already(ev: Evaluated) -> ServiceError:
    return ServiceError("game.recorded", "table", round=ev.round, table=ev.table)


@transaction.atomic
def game_record(*, event: Event, data: Any, user: Any = None) -> Game:
    """Record a new game (final scores or hands) and its derived results. The same save twice
    (a double tap, a retry) records it once: the second finds it and changes nothing."""
    ev = game_evaluate(event.rules, data)
    event_lock(event.pk)
    stage_require_open(event, rounds=[ev.round])
    existing = Game.objects.filter(round__event=event, round__number=ev.round, table=ev.table)
    game = existing.select_related("round").first()
    if game is not None:
        if game_has_result(game) and _same(game, ev):
            return game
        raise _recorded_already(ev)
    players = _check_players(event, ev, None)
    rnd, _created = Round.objects.get_or_create(event=event, number=ev.round)
    game = Game(round=rnd, table=ev.table)
    try:
        with transaction.atomic():  # a savepoint: the unique indexes decide between racers
            _write(game, ev, players)
    except IntegrityError:
        raise _recorded_already(ev) from None
    results_changed(
        event=event,
        players=[p.pk for p in players.values()] if game.finished else [],
        user=user,
        action="game.record",
        summary=f"round {ev.round} table {ev.table}",
        after=data,
    )
    return game


def game_lock(game: Game) -> Game:
    """The game's event locked first (services/locks.py), then the game itself: what every
    change to an existing game starts with, inside its transaction."""
    event_id = Game.objects.filter(pk=game.pk).values_list("round__event_id", flat=True).first()
    if event_id is None:
        raise ServiceError("game.deleted", "version")
    event_lock(event_id)
    return Game.objects.select_for_update().select_related("round__event").get(pk=game.pk)


def check_version(locked: Game, expected_version: int) -> None:
    """Refused (ConflictError) unless the game is still as the writer's form saw it."""
    if locked.version != expected_version:
        raise ConflictError("game.conflict", "version")


def game_changed(
    locked: Game,
    *,
    players: list[int],
    user: Any,
    at: AtTable | None,
    action: str,
    detail: str = "",
    before: Any = None,
    after: Any = None,
) -> Game:
    """A change to a locked game, written: its version moved on already (a phone holding the
    old one is refused), the change goes through the one write API for results with `players`
    — those whose figures it may change — and the log names where it was."""
    where = f"round {locked.round.number} table {locked.table}"
    results_changed(
        event=locked.round.event,
        players=players,
        user=user,
        at=at,
        action=action,
        summary=f"{where}: {detail}" if detail else where,
        before=before,
        after=after,
    )
    return locked


def game_replace(
    locked: Game,
    ev: Evaluated,
    data: Any,
    *,
    user: Any,
    action: str,
    detail: str = "",
    logged: tuple[Any, Any] | None = None,
    at: AtTable | None = None,
    hold: bool = True,
) -> Game:
    """Write `ev` over a game locked already (`game_lock`), in the caller's transaction.
    Refused if the game's round, or the round it moves to, belongs to a closed stage. The log
    keeps the game before and after, or `logged` (one hand added or taken back: just that
    hand, not the whole game twice). A result entered `at` a table waits for confirmation
    unless `hold` is off (the confirmation itself)."""
    event = locked.round.event
    stage_require_open(event, rounds=[locked.round.number, ev.round])
    if logged is not None:
        before, after = logged
    else:
        before, after = (game_to_data(locked) if game_has_result(locked) else None), data
    players = _check_players(event, ev, locked)
    if ev.round != locked.round.number or ev.table != locked.table:
        rnd, _ = Round.objects.get_or_create(event=event, number=ev.round)
        if Game.objects.filter(round=rnd, table=ev.table).exclude(pk=locked.pk).exists():
            raise _recorded_already(ev)
        locked.round, locked.table = rnd, ev.table
    counted = list(locked.seats.values_list("player_id", flat=True)) if locked.finished else []
    locked.seats.all().delete()
    locked.hands.all().delete()
    written = held(event.table_entry, ev, at if hold else None)
    for name, value in written.fields.items():
        setattr(locked, name, value)
    locked.version += 1
    _write(locked, written.evaluated, players)
    if locked.finished:
        counted += [p.pk for p in players.values()]
    return game_changed(
        locked,
        players=counted,
        user=user,
        at=at,
        action=action,
        detail=detail,
        before=before,
        after=after,
    )


@transaction.atomic
def game_correct(
    *, game: Game, data: Any, expected_version: int, user: Any = None, at: AtTable | None = None
) -> Game:
    """Replace a game's record (or give a seated game its first). Refused if someone saved
    it since `expected_version` — unless what is stored is exactly this save (a double tap,
    a retry after a lost answer): then nothing is written twice."""
    locked = game_lock(game)
    rules = locked.round.event.rules
    if locked.version != expected_version and game_has_result(locked):
        try:
            if _same(locked, game_evaluate(rules, data)):
                return locked
        except ServiceError:
            pass  # not the same save: the conflict below says what happened
    check_version(locked, expected_version)
    ev = game_evaluate(rules, data)
    action = "game.correct" if game_has_result(locked) else "game.record"
    return game_replace(locked, ev, data, user=user, action=action, at=at)


@transaction.atomic
def game_remove(*, game: Game, user: Any = None) -> None:
    locked = game_lock(game)
    event = locked.round.event
    stage_require_open(event, rounds=[locked.round.number])
    before = game_to_data(locked)
    counted = list(locked.seats.values_list("player_id", flat=True)) if locked.finished else []
    locked.delete()
    results_changed(
        event=event,
        players=counted,
        user=user,
        action="game.remove",
        summary=f"round {before['round']} table {before['table']}",
        before=before,
        after={"game": game.pk},  # the id it had: a second tap on its page is told, not 404
    )
