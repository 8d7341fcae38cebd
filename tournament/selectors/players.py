"""Reads for a player's page: every finished game across events (one query) with their
statistics, shared until one of those games changes, and where the player stands in each event
(the published placings: shared, made where the event is ranked). And for the organizer's forms
that pick a player: the few names they offer, a search, and typed names checked."""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache

from django.db.models import Case, F, Q, QuerySet, Value, When
from django.db.models.functions import Replace

from scoring.names import name_key
from scoring.statistics import Tally
from tournament.models import Entry, Event, Game, Player, Seat, SitOut
from tournament.selectors.cache import event_stamp, shared
from tournament.selectors.placings import Placing, published_placings
from tournament.selectors.statistics import player_statistics
from tournament.selectors.versions import sql_rows


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
    as it is — unlike where the player stands (`published_placings`). Read whenever a player's
    page is made again (after any result in one of their events), so written as SQL as the
    pages' tags are (selectors/versions.py; its queryset in tests/tournament/
    test_tag_queries.py)."""
    return sql_rows(_own_games_sql(), [player_id])


@cache
def _own_games_sql() -> str:
    seat, game = Seat._meta.db_table, Game._meta.db_table
    return f"""
        SELECT s.game_id, g.version, g."table" FROM {seat} s JOIN {game} g ON g.id = s.game_id
        WHERE s.player_id = %s AND s.rank IS NOT NULL ORDER BY s.game_id"""


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


@dataclass(frozen=True)
class OwnIndex:
    """All a player's page needs of their own games while its parts are kept: the events it
    has a section for, each with the player's total there (`sections`, newest event first),
    and `key` the parts are kept by. A page made again after every result in one of their
    events (where they stand moves) reads this and not `OwnGames`, whose model rows took
    2.5 ms of a 6-ms page to fetch and unpickle at 10 rounds (issue 46)."""

    sections: tuple[tuple[int, Decimal], ...]
    key: Hashable

    @classmethod
    def of(cls, own: OwnGames) -> OwnIndex:
        return cls(tuple((r.event.pk, r.total) for r in own.records), own.key)


def player_own_games(player: Player, events: Hashable) -> tuple[OwnIndex, Callable[[], OwnGames]]:
    """`own_games`, made once until one of the player's own games changes (`own_games_key`:
    the one query a reader pays) or an event of theirs is renamed (`events`: what the page
    shows of each, as its tag read them); shared. Its index, and the games themselves to read
    only when a part of the page is not kept."""
    parts = (player.name, own_games_key(player.pk), events)
    stamp = str(player.pk)

    @cache
    def whole() -> OwnGames:
        return shared("player-games", stamp, parts, lambda: own_games(player, parts))

    return shared("player-games-index", stamp, parts, lambda: OwnIndex.of(whole())), whole


# The organizer's forms that pick a player list a few names and find the rest (issue 46: all
# 10,000 players in four selects made a 1.7 MB page that took 4.7 s). An event this small is
# still listed whole, as the organizer pasted it; a larger one lists the table's players, or
# the latest registered (a late table holds late entrants), and the search finds anyone else.
LISTED_WHOLE = 64
LATEST = 20
SEARCH_MOST = 20  # the names a search answers: a screenful of suggestions


def player_suggestions(event: Event, seated: Sequence[str] = ()) -> list[str]:
    """The names a form offers: `seated` (the table's players) first; then every player of a
    small event, in the order they were registered — code-point order put 中村 before 井上
    and 伊藤 (issue 32), an order nobody looks a name up in; of a larger event, the latest
    registered when nobody is seated, else nobody more. One query, of at most 65 rows."""
    latest = list(
        event.entries.order_by("-pk").values_list("player__name", flat=True)[: LISTED_WHOLE + 1]
    )
    if len(latest) > LISTED_WHOLE:
        latest = [] if seated else latest[:LATEST]
    listed = set(seated)
    return [*seated, *(name for name in reversed(latest) if name not in listed)]


def _compact(name: str) -> str:
    """A name as the database compares it with `name_key`: spaces out (names are stored in
    their one spelling, so a space is the only whitespace left); case is left to the
    database's case-insensitive match — PostgreSQL's for every script, SQLite's for ASCII."""
    return name.replace(" ", "")


def _keyed(event: Event) -> QuerySet[Entry]:
    return event.entries.annotate(key=Replace(F("player__name"), Value(" "), Value("")))


def players_matching(event: Event, typed: str) -> list[str]:
    """At most SEARCH_MOST of the event's players whose name holds `typed` (in its one
    spelling, scoring.names, as `name_key` compares: any width, any case, spaces aside),
    those it begins first, then by name. One query over the event's entries."""
    part = _compact(typed)
    if not part:
        return []
    found = (
        _keyed(event)
        .filter(key__icontains=part)
        .annotate(later=Case(When(key__istartswith=part, then=Value(0)), default=Value(1)))
        .order_by("later", "player__name")
        .values_list("player__name", flat=True)
    )
    return list(found[:SEARCH_MOST])


def entries_matching(event: Event, typed: str, most: int) -> list[tuple[str, int]]:
    """The event's players still in it whose name holds `typed` (as `players_matching`
    compares), by name, at most `most` + 1 (the page says when more match): (name, id).
    Find your seat before round 1 is seated (issue 49: "Notify me" from the start). One
    query."""
    part = _compact(typed)
    if not part:
        return []
    found = (
        _keyed(event)
        .filter(key__icontains=part, withdrawn=False)
        .order_by("player__name")
        .values_list("player__name", "player_id")
    )
    return list(found[: most + 1])


def sit_outs_matching(event: Event, number: int, typed: str) -> list[tuple[str, int, str]]:
    """The players sitting out the event's round `number` (a bye, the cut, …) whose name
    holds `typed`, by name: (name, id, reason). One query."""
    part = _compact(typed)
    if not part:
        return []
    found = (
        SitOut.objects.filter(round__event=event, round__number=number)
        .annotate(key=Replace(F("player__name"), Value(" "), Value("")))
        .filter(key__icontains=part)
        .order_by("player__name")
        .values_list("player__name", "player_id", "reason")
    )
    return list(found)


def players_named(event: Event, names: Collection[str]) -> dict[str, str]:
    """Each of `names` (in their one spelling) that is a player of the event → the name as
    registered. One indexed query (the name is unique) for names typed as registered; those it
    misses compared as `name_key` does (any case, spaces aside) in one more, and taken when they
    are one player's name only — never by loading every player."""
    wanted = set(names)
    if not wanted:
        return {}
    exact = event.entries.filter(player__name__in=wanted).values_list("player__name", flat=True)
    found = {name: name for name in exact}
    missed = wanted - found.keys()
    if not missed:
        return found
    near = Q()
    for name in missed:
        near |= Q(key__iexact=_compact(name))
    candidates = list(_keyed(event).filter(near).values_list("player__name", flat=True))
    for name in missed:
        same = [c for c in candidates if name_key(c) == name_key(name)]
        if len(same) == 1:
            found[name] = same[0]
    return found


def player_named(name: str) -> Player | None:
    """The player of this name (as normalized), one query."""
    return Player.objects.filter(name=name).first()


def player_of(player_id: int) -> Player | None:
    return Player.objects.filter(pk=player_id).first()
