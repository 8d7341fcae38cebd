"""Writes hand by hand at a table: play one more hand, take the last back, or replace the
last with one typed meanwhile on another phone. A hand that leaves the game in play is one row
(`_plays_on`); one that ends or reopens the game writes it over (games.game_replace). A tap
whose answer was lost, sent again, finds its hand saved and writes nothing twice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

from scoring.flow import GameFlow
from tournament.models import Game, Hand
from tournament.services.confirmation import AtTable
from tournament.services.errors import ConflictError, ServiceError, fields_within
from tournament.services.game_data import Evaluated, game_evaluate, game_to_data, hand_row
from tournament.services.games import check_version, game_changed, game_lock, game_replace
from tournament.services.stages import stage_require_open


def _hand_logged(data: dict[str, Any], number: int, row: dict[str, Any]) -> dict[str, Any]:
    """One hand as the change log keeps it: where, who sat where, the hand and what it paid.
    `row`: the hand as derived (label, data, deltas), evaluated or stored."""
    return {
        "round": data["round"],
        "table": data["table"],
        "seats": data["seats"],
        "number": number,
        "label": row["label"],
        "hand": row["data"],
        "deltas": row["deltas"],
    }


def _hands_data(game: Game) -> dict[str, Any]:
    """The game as an event file holds it, kept hand by hand (none yet if it was not)."""
    data = game_to_data(game)
    if game.mode != "hands":
        data = {"round": data["round"], "table": data["table"], "seats": data["seats"]}
        data["hands"] = []
    return data


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
    locked: Game,
    write: Callable[[], Any],
    *,
    user: Any,
    at: AtTable | None,
    action: str,
    detail: str,
    before: Any = None,
    after: Any = None,
) -> Game:
    """A hand game played on: `write` adds or deletes the one hand row; the game's version
    moves on and the change is recorded as any other (games.game_changed) — with no player,
    since no seat or result changed."""
    stage_require_open(locked.round.event, rounds=[locked.round.number])
    write()
    locked.version += 1
    locked.save(update_fields=["version", "updated_at"])
    return game_changed(
        locked,
        players=[],
        user=user,
        at=at,
        action=action,
        detail=detail,
        before=before,
        after=after,
    )


@transaction.atomic
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
    locked = game_lock(game)
    # The caller's flow holds these very hands if the game has not moved since it was read
    # (every change moves its version on) — checked here, under the lock.
    same = played is not None and game.version == locked.version
    return _hand_add(locked, hand, expected_version, user, at, played if same else None)


def _hand_add(
    locked: Game,
    hand: Any,
    expected_version: int,
    user: Any,
    at: AtTable | None,
    played: GameFlow | None,
) -> Game:
    """`game_hand_add` on a game locked already; `played` holds its hands if given."""
    if locked.version == expected_version + 1 and locked.mode == "hands":
        last = locked.hands.order_by("-number").values_list("data", flat=True).first()
        if last == hand:  # this very hand, saved by a tap whose answer was not seen
            return locked
    check_version(locked, expected_version)
    if locked.mode == "scores" and locked.finished:
        raise ServiceError("game.by_scores", "type")
    data = _hands_data(locked)
    index = len(data["hands"])
    data["hands"].append(hand)
    continued = played if played is not None and len(played.records) == index else None
    detail = f"hand {index + 1}"
    with fields_within(f"hands[{index}]"):  # the form holds this hand alone
        ev = game_evaluate(locked.round.event.rules, data, continued)
        added = _hand_logged(data, index + 1, ev.hands[index])
        if _plays_on(locked, ev):
            row = hand_row(locked, index + 1, ev.hands[index])
            return _one_row(
                locked, row.save, user=user, at=at, action="game.hand", detail=detail, after=added
            )
        return game_replace(
            locked,
            ev,
            data,
            user=user,
            at=at,
            action="game.hand",
            detail=detail,
            logged=(None, added),
        )


@transaction.atomic
def game_hand_undo(
    *, game: Game, expected_version: int, user: Any = None, at: AtTable | None = None
) -> dict[str, Any]:
    """Take back the last hand (the game reopens if that hand had ended it). Returns the hand
    taken back as the log keeps it (number, label, hand, deltas): the page says what went."""
    return _hand_undo(game_lock(game), expected_version, user, at)


def _hand_undo(
    locked: Game, expected_version: int, user: Any, at: AtTable | None
) -> dict[str, Any]:
    """`game_hand_undo` on a game locked already."""
    check_version(locked, expected_version)
    data = _hands_data(locked)
    if locked.mode != "hands" or not data["hands"]:
        raise ServiceError("game.no_hand", "version")
    last = locked.hands.order_by("-number").values("pk", "label", "data", "deltas").first()
    number = len(data["hands"])
    taken_back = _hand_logged(data, number, last)
    data["hands"].pop()
    ev = game_evaluate(locked.round.event.rules, data)
    detail = f"hand {number}"
    if _plays_on(locked, ev):
        delete = Hand.objects.filter(pk=last["pk"]).delete
        _one_row(
            locked, delete, user=user, at=at, action="game.undo", detail=detail, before=taken_back
        )
    else:
        game_replace(
            locked,
            ev,
            data,
            user=user,
            at=at,
            action="game.undo",
            detail=detail,
            logged=(taken_back, None),
        )
    return taken_back


@transaction.atomic
def game_hand_replace(
    *,
    game: Game,
    hand: Any,
    expected_version: int,
    number: int,
    user: Any = None,
    at: AtTable | None = None,
) -> Game:
    """The conflict screen's "replace the last hand with mine": hand `number`, which another
    phone saved at `expected_version` while this one was typing, is taken back and `hand`
    played in its place — one transaction, refused if the table has moved on since the
    screen was shown (a stale save is never written as a hand of its own)."""
    locked = game_lock(game)
    last = locked.hands.order_by("-number").values_list("number", "data").first()
    if locked.version == expected_version + 2 and last == (number, hand):
        return locked  # this very replacement, sent twice
    check_version(locked, expected_version)
    if locked.mode != "hands" or last is None or last[0] != number:
        raise ConflictError("game.conflict", "version")
    # Under the one lock taken above: the undo moves the version on, the hand goes on from it.
    _hand_undo(locked, expected_version, user, at)
    return _hand_add(locked, hand, expected_version + 1, user, at, None)
