"""Writes hand by hand at a table: play one more hand, take the last back, or replace the
last with one typed meanwhile on another phone. A hand that leaves the game in play is one row
(`_plays_on`); one that ends or reopens the game writes it over (games.game_replace). A tap
whose answer was lost, sent again, finds its hand saved and writes nothing twice; a hand a
table's phone sends with its own `entry_id` (`game_hand_enter`, CONTRACT §3) is written once
however often and late it comes. Each is one `game_change` (services/game_change.py): locked,
version checked, the change said."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NotRequired, TypedDict, cast
from uuid import UUID

from django.db import IntegrityError

from scoring.flow import GameFlow
from tournament.models import Game, Hand
from tournament.selectors.sheets import entry_taken_back, last_first
from tournament.services.confirmation import AtTable
from tournament.services.errors import ConflictError, ServiceError, fields_within
from tournament.services.game_change import GameChange, game_change
from tournament.services.game_data import (
    DerivedHand,
    Evaluated,
    game_evaluate,
    game_to_data,
    hand_row,
)
from tournament.services.games import game_replace


class HandGame(TypedDict):
    """A game kept hand by hand, as an event file holds it."""

    round: int
    table: int
    seats: list[str]
    hands: list[Any]  # each hand as entered (the engine checks it)
    # Its own rounding, if not the event's (an imported log's era): a hand fixed keeps it.
    rounding: NotRequired[str]


class StoredHand(TypedDict):
    """The last hand as its row stores it (what an undo reads)."""

    pk: int
    label: str
    data: Any
    deltas: list[int]
    entry_id: UUID | None


class LoggedHand(TypedDict):
    """One hand as the change log keeps it, and as an undo answers the page: where, who sat
    where, the hand and what it paid. Stored as JSON (AuditEntry.before/after) in this order."""

    round: int
    table: int
    seats: list[str]
    number: int
    label: str
    hand: Any
    deltas: list[int]
    # The phone's entry id of a hand taken back: a late copy of it is then answered as saved,
    # never written again (`game_hand_enter`).
    entry: NotRequired[str]


def hand_logged(data: HandGame, number: int, row: DerivedHand | StoredHand) -> LoggedHand:
    """`row`: the hand as derived (label, data, deltas), evaluated or stored."""
    return LoggedHand(
        round=data["round"],
        table=data["table"],
        seats=data["seats"],
        number=number,
        label=row["label"],
        hand=row["data"],
        deltas=row["deltas"],
    )


# The phones' entry ids of a game's hands, by hand number.
Entries = dict[int, UUID]


def hand_rows(game: Game) -> list[Hand]:
    """The game's hand rows in order (none for a game kept by final scores). One query,
    ordered by number alone: the model's ordering starts with the game, whose own ordering
    joins the round and the event — on every hand a table enters (issue 67)."""
    return list(game.hands.order_by("number")) if game.mode == "hands" else []


def hands_data(game: Game, rows: list[Hand] | None = None) -> tuple[HandGame, Entries]:
    """The game as an event file holds it, kept hand by hand (none yet if it was not), and
    its hands' entry ids — from one read of its hands (`rows`: read already, `hand_rows`)."""
    rows = hand_rows(game) if rows is None else rows
    data = game_to_data(game, hands=rows)
    hands = data["hands"] if game.mode == "hands" else []
    entries = {row.number: row.entry_id for row in rows if row.entry_id is not None}
    game_data = HandGame(round=data["round"], table=data["table"], seats=data["seats"], hands=hands)
    if "rounding" in data:
        game_data["rounding"] = data["rounding"]
    return game_data, entries


def hands_replaced(
    change: GameChange, ev: Evaluated, data: HandGame, entries: Entries, **log: Any
) -> Game:
    """`game_replace` for a hand that ends or reopens the game: it writes every hand anew,
    each with its entry id (`entries`, by number: the hand just entered's among them)."""
    return game_replace(change, ev, data, entries=entries, **log)


def _plays_on(locked: Game, ev: Evaluated) -> bool:
    """A hand added to (or taken back from) a game that was and stays in play: nothing but
    that hand changes — no seat, no result, no standings."""
    return (
        locked.mode == "hands"
        and not locked.finished
        and not locked.confirmation
        and ev.mode == "hands"
        and not ev.finished
    )


def _one_row(
    change: GameChange,
    write: Callable[[], Any],
    *,
    action: str,
    detail: str,
    before: LoggedHand | None = None,
    after: LoggedHand | None = None,
) -> Game:
    """A hand game played on: `write` adds or deletes the one hand row; the game's version
    moves on and the change is logged as any other — no player counts before or after, since
    no seat or result changed."""
    change.require_open()
    write()
    change.save()
    change.log(action, detail=detail, before=before, after=after)
    return change.game


def game_hand_add(
    *,
    game: Game,
    hand: Any,
    expected_version: int,
    user: Any = None,
    at: AtTable | None = None,
    played: GameFlow | None = None,
) -> Game:
    """Play one more hand at a table recorded hand by hand; the game closes itself when the
    flow says it is over. An error names the field of the hand (`result.wins[1].seat`).
    Refused (ConflictError) unless the game is still at `expected_version`: a form loaded
    before another phone's save is never written as a hand of its own.

    `played`: the flow of `game`'s hands as the caller replayed them (the entry page showed
    them): when nothing has changed since `game` was read, the new hand is played on it and
    the engine does not replay the game again. The caller gives it up."""

    def done(locked: Game) -> bool:  # this very hand, saved by a tap whose answer was lost
        if locked.version != expected_version + 1 or locked.mode != "hands":
            return False
        return last_first(locked.hands.all()).values_list("data", flat=True).first() == hand

    with game_change(game, expected_version, user=user, at=at, done=done) as change:
        if change.replay:
            return change.game
        # The caller's flow holds these very hands if the game has not moved since it was read
        # (every change moves its version on) — checked here, under the lock.
        same = played is not None and game.version == change.game.version
        return _hand_add(change, hand, played if same else None)


def game_hand_enter(
    *,
    game: Game,
    hand: Any,
    entry_id: UUID,
    number: int,
    at: AtTable | None = None,
    user: Any = None,
    played: GameFlow | None = None,
) -> bool:
    """A hand a table's phone recorded with its own `entry_id`, for hand `number` (CONTRACT
    §3), perhaps long ago in an offline outbox: written at most once per entry and game.
    Returns whether this call wrote it (False: the entry was saved before — a retry, a late
    copy, a copy that lost a race — and nothing is written).

    The form's version is not asked: a phone that queued three hands offline saw one version
    for all three. What proves the form is not stale is its number: the next free one is
    written; a number another entry filled, or one past the next (the table was taken back
    meanwhile), is a ConflictError and nothing is written. A hand saved and then taken back
    (undone, or replaced from the conflict screen) stays taken back: its late copy is answered
    as saved. `played`: as for game_hand_add."""
    try:
        with game_change(game, None, user=user, at=at) as change:
            locked = change.game
            data, entries = hands_data(locked)
            if entry_id in entries.values() or entry_taken_back(locked, entry_id):
                change.replay = True
                return False
            if locked.confirmation or number != len(data["hands"]) + 1:
                raise ConflictError("game.conflict", "version")
            same = played is not None and game.version == locked.version
            _hand_add(
                change, hand, played if same else None, entry_id=entry_id, read=(data, entries)
            )
            return True
    except IntegrityError:
        # Two copies of one entry in a race: the constraint lets one through, and the change
        # (its own savepoint) of the other is rolled back whole. It is saved: say so.
        if Hand.objects.filter(game=game, entry_id=entry_id).exists():
            return False
        raise


def _hand_add(
    change: GameChange,
    hand: Any,
    played: GameFlow | None,
    *,
    entry_id: UUID | None = None,
    read: tuple[HandGame, Entries] | None = None,
) -> Game:
    """`game_hand_add` inside its change; `played` holds the game's hands if given;
    `entry_id`, the phone's id for this hand; `read`, the game's hands if read already."""
    locked = change.game
    if locked.mode == "scores" and locked.finished:
        raise ServiceError("game.by_scores", "type")
    data, entries = read if read is not None else hands_data(locked)
    index = len(data["hands"])
    data["hands"].append(hand)
    continued = played if played is not None and len(played.records) == index else None
    detail = f"hand {index + 1}"
    with fields_within(f"hands[{index}]"):  # the form holds this hand alone
        ev = game_evaluate(locked.round.event.rules, data, continued)
        added = hand_logged(data, index + 1, ev.hands[index])
        if _plays_on(locked, ev):
            row = hand_row(locked, index + 1, ev.hands[index])
            row.entry_id = entry_id
            return _one_row(change, row.save, action="game.hand", detail=detail, after=added)
        if entry_id is not None:
            entries = {**entries, index + 1: entry_id}
        return hands_replaced(
            change, ev, data, entries, action="game.hand", detail=detail, logged=(None, added)
        )


def game_hand_undo(
    *, game: Game, expected_version: int, user: Any = None, at: AtTable | None = None
) -> LoggedHand:
    """Take back the last hand (the game reopens if that hand had ended it). Returns the hand
    taken back as the log keeps it (number, label, hand, deltas): the page says what went."""
    with game_change(game, expected_version, user=user, at=at) as change:
        return _hand_undo(change)


def _hand_undo(change: GameChange) -> LoggedHand:
    """`game_hand_undo` inside its change."""
    locked = change.game
    data, entries = hands_data(locked)
    if locked.mode != "hands" or not data["hands"]:
        raise ServiceError("game.no_hand", "version")
    rows = last_first(locked.hands.all()).values("pk", "label", "data", "deltas", "entry_id")
    last = cast(StoredHand, rows.first())  # a game with hands has a last one
    number = len(data["hands"])
    taken_back = hand_logged(data, number, last)
    if last["entry_id"] is not None:
        taken_back["entry"] = str(last["entry_id"])
    data["hands"].pop()
    ev = game_evaluate(locked.round.event.rules, data)
    detail = f"hand {number}"
    if _plays_on(locked, ev):
        delete = Hand.objects.filter(pk=last["pk"]).delete
        _one_row(change, delete, action="game.undo", detail=detail, before=taken_back)
    else:
        logged = (taken_back, None)
        hands_replaced(change, ev, data, entries, action="game.undo", detail=detail, logged=logged)
    return taken_back


def _last(locked: Game) -> tuple[int, Any] | None:
    """The last hand's number and data."""
    return last_first(locked.hands.all()).values_list("number", "data").first()


def game_hand_replace(
    *,
    game: Game,
    hand: Any,
    expected_version: int,
    number: int,
    user: Any = None,
    at: AtTable | None = None,
    entry_id: UUID | None = None,
) -> Game:
    """The conflict screen's "replace the last hand with mine": hand `number`, which another
    phone saved at `expected_version` while this one was typing, is taken back and `hand`
    played in its place — one change, refused if the table has moved on since the screen was
    shown (a stale save is never written as a hand of its own). `entry_id`: the id this
    phone gave its hand, kept on it (a late copy of it is then answered as saved)."""

    def done(locked: Game) -> bool:  # this very replacement, sent twice
        return locked.version == expected_version + 2 and _last(locked) == (number, hand)

    with game_change(game, expected_version, user=user, at=at, done=done) as change:
        if change.replay:
            return change.game
        last = _last(change.game)
        if change.game.mode != "hands" or last is None or last[0] != number:
            raise ConflictError("game.conflict", "version")
        # Under the one lock: the undo moves the version on, the hand goes on from it.
        _hand_undo(change)
        return _hand_add(change, hand, None, entry_id=entry_id)
