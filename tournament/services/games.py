"""Writes of whole games: record, correct, remove — and `game_replace`, the one way a game's
record is written over (a correction, a hand that ends or reopens it, a confirmation). Each
validates with the scoring engine first and writes inside one transaction, so a game is never
half-saved. A game as data is services/game_data.py; hand by hand, services/hands.py."""

from __future__ import annotations

from functools import partial
from typing import Any
from uuid import UUID

from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery

from tournament.models import Event, Game, Hand, Player, Round, Seat
from tournament.selectors.sheets import with_players
from tournament.services.confirmation import AtTable, held
from tournament.services.errors import ServiceError
from tournament.services.game_change import GameChange, game_change, game_create
from tournament.services.game_data import (
    Evaluated,
    check_seats,
    game_evaluate,
    game_fill,
    game_has_result,
    game_rows,
    game_to_data,
)


def _check_players(event: Event, ev: Evaluated, exclude_game: Game | None) -> dict[str, Player]:
    """The seats' players by name, checked (`check_seats`): each entered in the event, none
    at another table of the round. One query: the entered players among the names, each with
    the table they already sit at in the round, if any (`exclude_game`'s seats aside)."""
    elsewhere = Seat.objects.filter(
        round__event=event, round__number=ev.round, player=OuterRef("pk")
    ).order_by()  # the default order joins four tables for nothing
    if exclude_game is not None:
        elsewhere = elsewhere.exclude(game=exclude_game)
    found = Player.objects.filter(entries__event=event, name__in=ev.seats).annotate(
        elsewhere=Subquery(elsewhere.values("game__table")[:1])
    )
    players = {p.name: p for p in found}
    taken = {(ev.round, p.name): p.elsewhere for p in players.values() if p.elsewhere is not None}
    check_seats(ev, players, taken)
    return players


def _write_rows(
    game: Game, ev: Evaluated, players: dict[str, Any], entries: dict[int, UUID] | None = None
) -> list[Seat]:
    """The game's seats and hands for `ev` (the game's own row is saved already); the seats.
    `entries`: the phones' entry ids of its hands, by number, put back on the hands written."""
    seats, hands = game_rows(game, ev, players)
    for hand in hands:
        hand.entry_id = (entries or {}).get(hand.number)
    Seat.objects.bulk_create(seats)
    Hand.objects.bulk_create(hands)
    return seats


def _same(game: Game, ev: Evaluated) -> bool:
    """Whether the stored game is exactly what `ev` would store (a replayed save)."""
    seats = list(with_players(game.seats.all()))
    stored = game_to_data(game, seats)
    wanted: dict[str, Any] = {"round": ev.round, "table": ev.table, "seats": ev.seats}
    if ev.mode == "hands":
        wanted["hands"] = [h["data"] for h in ev.hands]
    else:
        wanted.update(scores=ev.scores, deposits=ev.deposits, busts=ev.busts, yakuman=ev.yakuman)
    if ev.rounding:
        wanted["rounding"] = ev.rounding
    return game.mode == ev.mode and stored == wanted


def _recorded_already(ev: Evaluated) -> ServiceError:
    return ServiceError("game.recorded", "table", round=ev.round, table=ev.table)


def game_record(*, event: Event, data: Any, user: Any = None) -> Game:
    """Record a new game (final scores or hands) and its derived results. The same save twice
    (a double tap, a retry) records it once: the second finds it and changes nothing."""
    ev = game_evaluate(event.rules, data)
    with game_create(event, user=user) as change:
        change.require_open(ev.round)
        # The round with the game already at the table, if any: one query for both.
        there = Subquery(Game.objects.filter(round=OuterRef("pk"), table=ev.table).values("pk")[:1])
        rnd = Round.objects.filter(event=event, number=ev.round).annotate(there=there).first()
        if rnd is not None and rnd.there is not None:
            game = Game.objects.select_related("round").get(pk=rnd.there)
            if game_has_result(game) and _same(game, ev):
                return game
            raise _recorded_already(ev)
        players = _check_players(event, ev, None)
        if rnd is None:
            rnd = Round.objects.create(event=event, number=ev.round)
        game = Game(round=rnd, table=ev.table)
        try:
            # No savepoint: the event is locked, so only a bug can break a unique index
            # here, and the error leaves the whole write (PostgreSQL refuses any statement
            # after it in the transaction; nothing runs one).
            with transaction.atomic(savepoint=False):
                game_fill(game, ev).save()
                seats = _write_rows(game, ev, players)
        except IntegrityError:
            raise _recorded_already(ev) from None
        change.created(game, seats)
        change.log("game.record", after=data)
    return game


def game_replace(
    change: GameChange,
    ev: Evaluated,
    data: Any,
    *,
    action: str,
    detail: str = "",
    logged: tuple[Any, Any] | None = None,
    hold: bool = True,
    entries: dict[int, UUID] | None = None,
) -> Game:
    """Write `ev` over the game of `change` (services/game_change.py). Refused if the game's
    round, or the round it moves to, belongs to a closed stage. The log keeps the game before
    and after, or `logged` (one hand added or taken back: just that hand, not the whole game
    twice). A result entered at a table (`change.at`) waits for confirmation unless `hold` is
    off (the confirmation itself).

    A hand's entry id (CONTRACT §3: one hand per id, however late it comes) lives as long as
    the hand: the hands written again keep theirs — `entries` by number, or as stored — and
    the ids of hands this leaves out (final scores over them, fewer hands) are logged as
    `gone`, so a late copy of one is answered as saved and written nowhere (hands.py
    `_taken_back`)."""
    locked, event = change.game, change.event
    change.require_open(ev.round)
    if logged is not None:
        before, after = logged
    else:
        before, after = (game_to_data(locked) if game_has_result(locked) else None), data
    if entries is None:
        entries = _entry_ids(locked)
    kept = len(ev.hands) if ev.mode == "hands" else 0
    gone = {str(entry): n for n, entry in entries.items() if n > kept}
    if gone:
        before = {**(before or {}), "gone": gone}
    players = _check_players(event, ev, locked)
    if ev.round != locked.round.number or ev.table != locked.table:
        rnd, _ = Round.objects.get_or_create(event=event, number=ev.round)
        if Game.objects.filter(round=rnd, table=ev.table).exclude(pk=locked.pk).exists():
            raise _recorded_already(ev)
        locked.round, locked.table = rnd, ev.table
    locked.seats.all().delete()
    locked.hands.all().delete()
    written = held(event.table_entry, ev, change.at if hold else None)
    for name, value in written.fields.items():
        setattr(locked, name, value)
    game_fill(locked, written.evaluated)
    change.save(whole=True)
    change.seated(locked, _write_rows(locked, written.evaluated, players, entries))
    change.log(action, detail=detail, before=before, after=after)
    return locked


def _entry_ids(game: Game) -> dict[int, UUID]:
    """The phones' entry ids of the game's stored hands, by number (none for a game kept by
    its final scores: no query)."""
    if game.mode != "hands":
        return {}
    return dict(game.hands.exclude(entry_id=None).values_list("number", "entry_id"))


def _replayed(locked: Game, data: Any) -> bool:
    """Whether a game not at the writer's version already holds exactly this save."""
    if not game_has_result(locked):
        return False
    try:
        return _same(locked, game_evaluate(locked.round.event.rules, data))
    except ServiceError:
        return False  # not the same save: the conflict says what happened


def game_correct(
    *,
    game: Game,
    data: Any,
    expected_version: int,
    user: Any = None,
    at: AtTable | None = None,
    replace_hands: bool = False,
) -> Game:
    """Replace a game's record (or give a seated game its first). Refused if someone saved
    it since `expected_version` — unless what is stored is exactly this save (a double tap,
    a retry after a lost answer): then nothing is written twice. Final scores over a game
    kept hand by hand replace its hands: refused unless `replace_hands` says so."""
    replayed = partial(_replayed, data=data)
    with game_change(game, expected_version, user=user, at=at, done=replayed) as change:
        if change.replay:
            return change.game
        # Nothing lost unasked: the hands go only when the organizer ticked that they may.
        locked = change.game
        unasked = "hands" not in data and not replace_hands and locked.mode == "hands"
        if unasked and locked.hands.exists():
            raise ServiceError("game.hands_replaced", "replace_hands")
        ev = game_evaluate(change.event.rules, data)
        if game_has_result(locked) and not locked.confirmation and _same(locked, ev):
            # The result saved again as it stands (issue 66: the log said 「結果修正：変更なし」):
            # nothing to write, no version moved, nothing logged. A result waiting or
            # disputed is another matter: the organizer's save settles it.
            change.require_open(ev.round)  # a closed stage says so, as for any save
            change.replay = True
            return locked
        action = "game.correct" if game_has_result(locked) else "game.record"
        return game_replace(change, ev, data, action=action)


def game_remove(*, game: Game, user: Any = None) -> None:
    with game_change(game, None, user=user) as change:
        change.require_open()
        before = game_to_data(change.game)
        change.delete()
        # The id it had: a second tap on its page is told, not 404.
        change.log("game.remove", before=before, after={"game": game.pk})
