"""What result entry reads of one game beyond its sheet (selectors/games.py): its seats in
order with their players, and its last hand."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet, prefetch_related_objects

from tournament.models import Game, Hand, Seat


def seats_in_order(game: Game) -> QuerySet[Seat]:
    """The game's seats by wind, each with its player."""
    return game.seats.select_related("player").order_by("position")


def load_seats(game: Game) -> None:
    """The game's seats with their players, read once into `game.seats.all()` (one query):
    a table's page reads them for the names, the sheet and the entered result."""
    prefetch_related_objects(
        [game], Prefetch("seats", Seat.objects.select_related("player").order_by("position"))
    )


def game_read_again(game: Game) -> None:
    """The game's row read again into `game` (one query; its seats and hands are read again
    when next asked): a table's write refused as stale shows the game as it is now."""
    game.refresh_from_db()


def last_hand(game: Game) -> Hand | None:
    return game.hands.order_by("-number").first()


def hands_recorded(game: Game) -> int:
    """How many hands a game kept hand by hand has (numbered from 1); none for final scores,
    without a query."""
    if game.mode != "hands":
        return 0
    return game.hands.order_by("-number").values_list("number", flat=True).first() or 0


def last_hand_said(game: Game) -> dict[str, Any] | None:
    """The last hand's label, record and score changes: what the page says was recorded."""
    return game.hands.order_by("-number").values("label", "data", "deltas").first()
