"""What result entry reads of one game beyond its sheet (selectors/games.py) — and the two rules
every read of a game's rows follows, here once: its seats are read in seat order with their
players (`with_players`, `seats_prefetch`), and its last hand is the one numbered highest
(`last_first`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils.translation import get_language

from scoring.rules import Ruleset
from tournament.models import AuditEntry, Game, Hand, Seat


def with_players(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """`seats` by wind (East first), each with its player: one query, whatever reads them (a
    sheet's names, a table's page, a write comparing what it stores)."""
    return seats.select_related("player").order_by("position")


def seats_prefetch() -> Prefetch:
    """`with_players` into each game's `seats.all()`, for many games in one query."""
    return Prefetch("seats", with_players(Seat.objects.all()))


def last_first(hands: QuerySet[Hand]) -> QuerySet[Hand]:
    """`hands` (a game's, or a subquery's by OuterRef), the last played first: hands are
    numbered from 1 in the order played, so "the last hand" is `.first()` of this (`[:1]` in a
    subquery)."""
    return hands.order_by("-number")


def seats_in_order(game: Game) -> QuerySet[Seat]:
    """The game's seats by wind, each with its player."""
    return with_players(game.seats.all())


def load_seats(game: Game) -> None:
    """The game's seats with their players, read once into `game.seats.all()` (one query):
    a table's page reads them for the names, the sheet and the entered result."""
    prefetch_related_objects([game], seats_prefetch())


def game_read_again(game: Game) -> None:
    """The game's row read again into `game` (one query; its seats and hands are read again
    when next asked): a table's write refused as stale shows the game as it is now."""
    game.refresh_from_db()


def last_hand(game: Game) -> Hand | None:
    return last_first(game.hands.all()).first()


def hands_recorded(game: Game) -> int:
    """How many hands a game kept hand by hand has (numbered from 1); none for final scores,
    without a query."""
    if game.mode != "hands":
        return 0
    return last_first(game.hands.all()).values_list("number", flat=True).first() or 0


def last_hand_said(game: Game) -> dict[str, Any] | None:
    """The last hand's label, record and score changes: what the page says was recorded."""
    return last_first(game.hands.all()).values("label", "data", "deltas").first()


@dataclass(frozen=True)
class HandButtons:
    """What a hand form's buttons are made of but the seats' names (forms/hands.HandForm): the
    rules, how many seats, whether it offers to stop (アガリ止め) or to end at time up, whether
    the seats' buttons go two to a line. The same for every table of the event and every hand,
    so their HTML is kept once (manage/_hand_form.html: 107 buttons were two thirds of a
    table's page, docs/performance.md "A table's page"), each table's names put in as drawn."""

    rules: Ruleset
    seats: int
    can_stop: bool
    time_up: bool  # the round's time is up: the choice to end is shown
    clock_running: bool  # the round's clock runs: the choice is there, shown once time is up
    wide: bool

    @property
    def key(self) -> str:
        """What the rendered buttons are kept by: all of the above and the language."""
        made = (self.rules, self.seats, self.can_stop, self.time_up, self.clock_running)
        return repr((*made, self.wide, get_language()))


def entry_taken_back(game: Game, entry_id: UUID) -> bool:
    """Whether this entry's hand was saved and then taken back (an undo, or replaced from the
    conflict screen), or left out by a later write — a correction of an earlier hand
    (services/hand_fix.py), final scores over the hands (services/games.game_replace logs
    what it leaves out as `gone`): its late copy is not written again. One query, for a hand not
    found."""
    entry = str(entry_id)
    undone = AuditEntry.objects.filter(
        Q(action="game.undo", before__entry=entry) | Q(before__gone__has_key=entry),
        # Since the game began (the log's index: event, time): a day's log is read no further
        # back than this game's round, whatever the number of hands entered before it.
        event_id=game.round.event_id,
        created_at__gte=game.created_at,
    )
    return undone.exists()


def entry_saved(game: Game, entry_id: UUID) -> bool:
    """Whether a table's phone's entry was written to this game (CONTRACT §3): on one of its
    hands, or taken back or left out since (`entry_taken_back`). Two queries at most."""
    return game.hands.filter(entry_id=entry_id).exists() or entry_taken_back(game, entry_id)
