"""Reads for a player's page: every finished game across events (one query), and where the
player stands in each (the published standings: cached, or three queries for all the rest)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from scoring.standings import Row
from tournament.models import Event, Player, Seat
from tournament.selectors.standings import published_standings_of


@dataclass
class EventRecord:
    event: Event
    seats: list[Seat] = field(default_factory=list)
    standing: Row | None = None  # the player's row in the event's standings
    field_size: int = 0  # how many are ranked

    @property
    def total(self) -> Decimal:
        return sum((s.points for s in self.seats), Decimal(0))

    @property
    def games(self) -> int:
        return len(self.seats)

    def rank_counts(self) -> list[int]:
        size = max([self.event.rules.players, *(s.rank for s in self.seats)])
        return [sum(1 for s in self.seats if s.rank == k) for k in range(1, size + 1)]

    @property
    def top_rate(self) -> float:
        return self.rank_counts()[0] / self.games if self.games else 0.0

    @property
    def average_rank(self) -> float:
        return sum(s.rank for s in self.seats) / self.games if self.games else 0.0

    def cumulative(self) -> list[tuple[int, float]]:
        """(round, total so far) after each round the player played."""
        out, running = [], Decimal(0)
        for seat in self.seats:
            running += seat.points
            out.append((seat.round.number, float(running)))
        return out


def player_record(player: Player) -> list[EventRecord]:
    """Finished games grouped by event, newest event first, rounds in order."""
    seats = (
        Seat.objects.filter(player=player, rank__isnull=False)
        .select_related("round__event", "game")
        .order_by("-round__event__created_at", "round__event_id", "round__number")
    )
    records: dict[int, EventRecord] = {}
    for seat in seats:
        event = seat.round.event
        records.setdefault(event.pk, EventRecord(event)).seats.append(seat)
    tables = published_standings_of([r.event for r in records.values()])
    for record in records.values():
        table = tables[record.event.pk]
        record.field_size = len(table.rows)
        record.standing = next((r for r in table.rows if r.player == player.name), None)
    return list(records.values())
