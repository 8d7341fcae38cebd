"""Fix a wrong seat (issue 33, Pantheon #778): two players sat at each other's wind, or at each
other's table, and hands were entered before anyone noticed. The organizer swaps the two seats
of open games of one round; every hand stays as entered — it happened at those seats — and the
engine replays each game with its players as they really sat, refusing a swap that would not
make a valid game. One transaction, logged, each game's version moved on (a form loaded
before is refused)."""

from __future__ import annotations

from typing import Any

from tournament.models import Game, Seat
from tournament.services.errors import ServiceError
from tournament.services.game_change import game_change
from tournament.services.game_data import game_evaluate, game_to_data


def seats_swap(
    *,
    game_a: Game,
    position_a: int,
    game_b: Game,
    position_b: int,
    versions: dict[int, int],
    user: Any = None,
) -> None:
    """Swap the player at `game_a`'s seat `position_a` with the one at `game_b`'s seat
    `position_b` (one game or two of the same round, neither finished). `versions`: each
    game's version as the organizer's form saw it."""
    with game_change(game_a, None, user=user, other=game_b) as change:
        first = change.game
        second = change.games[-1]  # game_b locked (game_a again when it is one game)
        for game in sorted(change.games, key=lambda g: g.pk):
            change.check_version(versions.get(game.pk, -1), game=game)
            if game.finished or game.confirmation:
                raise ServiceError("swap.closed", "seat", round=game.round.number, table=game.table)
        if first.round_id != second.round_id:
            raise ServiceError("swap.other_round", "seat")
        if first.pk == second.pk and position_a == position_b:
            raise ServiceError("swap.same", "seat")
        seat_a = Seat.objects.filter(game=first, position=position_a)
        seat_a = seat_a.select_related("player").first()
        seat_b = Seat.objects.filter(game=second, position=position_b)
        seat_b = seat_b.select_related("player").first()
        if seat_a is None or seat_b is None:
            raise ServiceError("swap.unknown", "seat")
        before = _where(first, seat_a) | _where(second, seat_b)
        # Both rows again with the players exchanged: swapping in place would put one player
        # twice in a round for a moment, which the database refuses.
        Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
        moved = [
            Seat(game=first, round_id=first.round_id, position=position_a, player=seat_b.player),
            Seat(game=second, round_id=second.round_id, position=position_b, player=seat_a.player),
        ]
        Seat.objects.bulk_create(moved)
        rules = change.event.rules
        for game in sorted(change.games, key=lambda g: g.pk):
            game_evaluate(rules, game_to_data(game))  # the engine: still a valid game, or refused
            change.save(game=game)
        after = {
            seat_b.player.name: before[seat_a.player.name],
            seat_a.player.name: before[seat_b.player.name],
        }
        # Neither game counts (both open): no player's standings move.
        detail = f"{seat_a.player.name} ↔ {seat_b.player.name}"
        change.log("game.seats", detail=detail, before=before, after=after)


def _where(game: Game, seat: Seat) -> dict[str, dict[str, int]]:
    return {seat.player.name: {"table": game.table, "seat": seat.position}}
