"""Reads for a player's page: every finished game across events (one query) with their
statistics, shared until one of those games changes, and where the player stands in each event
(the published placings: shared, made where the event is ranked)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from decimal import Decimal

from scoring.statistics import Tally
from tournament.models import Event, Player, Seat
from tournament.selectors.cache import event_stamp, shared
from tournament.selectors.standings import Placing, published_placings
from tournament.selectors.statistics import player_statistics


@dataclass
class EventRecord:
    event: Event
    seats: list[Seat] = field(default_factory=list)
    standing: Placing | None = None  # where the player stands (player_record only)

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


def player_games(player: Player) -> list[EventRecord]:
    """Finished games grouped by event, newest event first, rounds in order. One query."""
    seats = (
        Seat.objects.filter(player=player, rank__isnull=False)
        .select_related("round__event", "game")
        .order_by("-round__event__created_at", "round__event_id", "round__number")
    )
    records: dict[int, EventRecord] = {}
    for seat in seats:
        event = seat.round.event
        records.setdefault(event.pk, EventRecord(event)).seats.append(seat)
    return list(records.values())


def player_record(player: Player) -> list[EventRecord]:
    """`player_games` with where the player stands in each event."""
    records = player_games(player)
    stamps = [(r.event.pk, event_stamp(r.event)) for r in records]
    placings = published_placings(stamps, player.name)
    for record in records:
        record.standing = placings.get(record.event.pk)
    return records


def own_games_key(player_id: int) -> list[tuple]:
    """What a player's page shows of their own games changes only with this: each finished
    game of theirs with its version and table (one query). Results at other tables leave it
    as it is — unlike where the player stands (`published_placings`)."""
    return list(
        Seat.objects.filter(player_id=player_id, rank__isnull=False)
        .order_by("game_id")
        .values_list("game_id", "game__version", "game__table")
    )


@dataclass(frozen=True)
class OwnGames:
    """What a player's page shows from their own games: each event's record, and their
    statistics per event (by id) and over every event; `key`, what they were kept by (None:
    made for one request), for the page's fragments."""

    records: list[EventRecord]
    per_event: dict[int, Tally]
    overall: Tally
    key: Hashable = None


def own_games(player: Player, key: Hashable = None) -> OwnGames:
    """`player_games` and `player_statistics`: three queries."""
    per_event, overall = player_statistics(player)
    return OwnGames(player_games(player), per_event, overall, key)


def player_own_games(player: Player, events: Hashable) -> OwnGames:
    """`own_games`, made once until one of the player's own games changes (`own_games_key`:
    the one query a reader pays) or an event of theirs is renamed (`events`: what the page
    shows of each, as its tag read them); shared."""
    parts = (player.name, own_games_key(player.pk), events)
    return shared("player-games", str(player.pk), parts, lambda: own_games(player, parts))


def event_player_names(event: Event) -> list[str]:
    """The event's players in the order they were registered — the list the organizer pasted
    — for the forms that pick one (penalties, a table's seats). Code-point order put 中村
    before 井上 and 伊藤 (issue 32), an order nobody looks a name up in. One query."""
    return list(event.entries.order_by("pk").values_list("player__name", flat=True))


def player_named(name: str) -> Player | None:
    """The player of this name (as normalized), one query."""
    return Player.objects.filter(name=name).first()


def player_of(player_id: int) -> Player | None:
    return Player.objects.filter(pk=player_id).first()
