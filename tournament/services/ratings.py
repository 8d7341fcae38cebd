"""Ratings kept in step with the games (issue 34, CONTRACT §4), off the results write (issue 46).

A rating pool is the whole site (`series` None) or one series' events. In each pool every
finished game is one step of its players' skills (scoring/ratings.py), in the order of play:
events by day (`Event.held_on`), then event, round and table — `order_key`.

Every write that changes results goes through `changes.results_changed`, which calls
`ratings_mark`: a game's write names where the games whose places it moved stand in the order
of play (services/game_change.py works it out from the rows it locked and wrote); an import's
finished games are compared with the steps kept for them. Each pool of the event is marked due
from the first game that changed (a `RatingDue` row, the earliest key of every write since
the last replay), and a task is queued (services/queue.py). The write takes no pool lock and
replays nothing. The task (tournament/tasks.py → `ratings_catch_up`) rewinds the pool from
that key — each player back to their skill before their first step from there — and replays
it to its end: ten writes before it runs, one replay. `ratings_rebuild` replays a pool from
its start (`manage.py rebuild_ratings`), which every replay must equal
(tests/tournament/test_ratings.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from django.db import transaction
from django.db.models import F, Q, QuerySet, Value
from django.db.models.functions import Least

from scoring.ratings import NEW, Skill, rate, shown
from tournament.models import (
    Event,
    Rating,
    RatingDue,
    RatingStep,
    Round,
    Seat,
    Series,
    SeriesEvent,
)
from tournament.services.locks import pool_lock
from tournament.services.queue import enqueue_on_commit

KEY_START = ""  # before every game
BATCH = 2000  # rows per INSERT when a pool is replayed at length


def order_key(held_on: date, event_id: int, number: int, table: int) -> str:
    """Where a game stands in the order of play, as text that sorts: day, event, round, table."""
    return f"{held_on.isoformat()}|{event_id:010d}|{number:05d}|{table:05d}"


def _after(key: str) -> Q:
    """Seats of games at `key` or after it in the order of play."""
    if key == KEY_START:
        return Q()
    day, event_id, number, table = key.split("|")
    held_on, eid, rnd, tbl = date.fromisoformat(day), int(event_id), int(number), int(table)
    # The rounds first, by a subquery the planner can start from (the seats' index on their
    # round): with the OR alone it read every seat on the site and joined it to its game,
    # round and event (36 ms at 100,000 seats, each replay after a result; 0.5 ms so).
    rounds = Round.objects.filter(
        Q(event__held_on__gt=held_on)
        | Q(event__held_on=held_on, event_id__gt=eid)
        | Q(event_id=eid, number__gte=rnd)
    )
    return Q(round__in=rounds.values("pk")) & (
        Q(round__event__held_on__gt=held_on)
        | Q(round__event__held_on=held_on, round__event_id__gt=eid)
        | Q(round__event_id=eid, round__number__gt=rnd)
        | Q(round__event_id=eid, round__number=rnd, game__table__gte=tbl)
    )


SEAT_FIELDS = (
    "round__event__held_on",
    "round__event_id",
    "round__number",
    "game__table",
    "game_id",
    "player_id",
    "rank",
)


def _finished_seats() -> QuerySet[Seat]:
    """Seats of finished games, each game's by position (the order `rate` is given them). Not
    Seat's default order, whose joins (event, round) cost more to plan than the read."""
    return Seat.objects.filter(game__finished=True, rank__isnull=False).order_by(
        "game_id", "position"
    )


RatedGame = tuple[str, int, int, list[tuple[int, int]]]  # key, event, game, (player, place)…


def _games(rows: Iterable[tuple]) -> list[RatedGame]:
    """Seats grouped into games, in the order of play; a game of fewer than two rated seats
    (never one a player could finish) is left out."""
    games: dict[int, RatedGame] = {}
    for held_on, event_id, number, table, game_id, player_id, place in rows:
        game = games.get(game_id)
        if game is None:
            game = games[game_id] = (
                order_key(held_on, event_id, number, table),
                event_id,
                game_id,
                [],
            )
        game[3].append((player_id, place))
    return sorted((g for g in games.values() if len(g[3]) > 1), key=lambda g: g[0])


def pools_of(event: Event) -> list[int | None]:
    """The pools an event's games count in: the site's, and each series it belongs to (by id,
    the order their locks are taken in)."""
    series = SeriesEvent.objects.filter(event=event).order_by("series_id")
    return [None, *series.values_list("series_id", flat=True)]


def _in_pool(pool: int | None) -> Q:
    return Q() if pool is None else Q(round__event__series_members__series_id=pool)


def _finished_now(event: Event, players: list[int] | None) -> set[tuple[str, int, int, int]]:
    """The event's finished games of `players` (None: everyone's) as the steps would keep them
    (key, game, player, place): the same in every pool, so read once a write. One query."""
    seats = _finished_seats().filter(round__event=event).order_by()  # compared as sets
    if players is not None:
        seats = seats.filter(player_id__in=players)
    return {
        (order_key(d, e, n, t), g, p, r) for d, e, n, t, g, p, r in seats.values_list(*SEAT_FIELDS)
    }


def _first_change(
    pool: int | None, event: Event, players: list[int] | None, now: set[tuple[str, int, int, int]]
) -> str | None:
    """The first game, in the order of play, at which `now` (`_finished_now`) and the steps
    the pool keeps for them differ; None when they agree. One query."""
    steps = RatingStep.objects.filter(series_id=pool, event=event)
    if players is not None:
        steps = steps.filter(player_id__in=players)
    kept = set(steps.values_list("key", "game_id", "player_id", "place"))
    differ = now ^ kept
    return min(k for k, *_rest in differ) if differ else None


def _parts(ids: list[int]) -> Iterable[list[int]]:
    """Ids in slices a query can hold (SQLite takes 32,766 parameters at most; a replay from a
    site's first game names every player)."""
    return (ids[i : i + BATCH] for i in range(0, len(ids), BATCH))


def _replay(pool: int | None, key: str, *, leave_out: int | None = None) -> int:
    """Rewind the pool to just before `key` and rate every game from there again (leaving out
    the games of event `leave_out`, about to be deleted); how many games were rated. Holds the
    pool's lock (services/locks.py) for the rest of the transaction."""
    pool_lock(pool)
    stale = RatingStep.objects.filter(series_id=pool, key__gte=key)
    state: dict[int, Skill] = {}
    if key == KEY_START:  # from nothing: what was kept is not trusted
        Rating.objects.filter(series_id=pool).delete()
    else:
        for player_id, mu, sigma, games in stale.order_by("key").values_list(
            "player_id", "mu_before", "sigma_before", "games"
        ):
            state.setdefault(player_id, Skill(mu, sigma, games - 1))
    stale.delete()
    seats = _finished_seats().filter(_in_pool(pool) & _after(key))
    if leave_out is not None:
        seats = seats.exclude(round__event_id=leave_out)
    games = _games(seats.values_list(*SEAT_FIELDS))
    newcomers = sorted({p for g in games for p, _place in g[3]} - set(state))
    for part in _parts(newcomers):
        for player_id, mu, sigma, played in Rating.objects.filter(
            series_id=pool, player_id__in=part
        ).values_list("player_id", "mu", "sigma", "games"):
            state[player_id] = Skill(mu, sigma, played)
    steps = []
    for game_key, event_id, game_id, seated in games:
        before = [state.get(p, NEW) for p, _place in seated]
        after = rate(before, [place for _p, place in seated])
        for (player_id, place), old, new in zip(seated, before, after, strict=True):
            state[player_id] = new
            steps.append(
                RatingStep(
                    series_id=pool,
                    player_id=player_id,
                    event_id=event_id,
                    game_id=game_id,
                    key=game_key,
                    place=place,
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu=new.mu,
                    sigma=new.sigma,
                    games=new.games,
                )
            )
    RatingStep.objects.bulk_create(steps, batch_size=BATCH)
    if key != KEY_START:  # from nothing, the pool's ratings are gone already
        for part in _parts(list(state)):
            Rating.objects.filter(series_id=pool, player_id__in=part).delete()
    Rating.objects.bulk_create(
        (
            Rating(
                series_id=pool,
                player_id=player_id,
                mu=skill.mu,
                sigma=skill.sigma,
                games=skill.games,
                rating=shown(skill.mu, skill.sigma),
            )
            for player_id, skill in state.items()
            if skill.games
        ),
        batch_size=BATCH,
    )
    return len(games)


def _mark(pool: int | None, key: str) -> None:
    """The pool due from `key`, or from its earlier key already marked: one row a pool however
    many writes come. One statement when the row is there (most writes: its task has not run
    yet), a second to add it; no lock but the row's, held to the write's commit."""
    due = RatingDue.objects.filter(series_id=pool)
    moved = {"from_key": Least("from_key", Value(key)), "marks": F("marks") + 1}
    if not due.update(**moved):  # a write racing this one may add the row first: then as above
        row = RatingDue(series_id=pool, from_key=key, marks=0)
        RatingDue.objects.bulk_create([row], ignore_conflicts=True)  # ON CONFLICT DO NOTHING
        due.update(**moved)


def ratings_mark(
    event: Event, players: Iterable[int] | None, rated: list[str] | None = None
) -> None:
    """After a write that changed the event's results (inside its transaction, from
    `results_changed`): every pool of the event where a game changed marked due from the
    first one, and its replay queued. `rated`: where the games whose places the write moved
    stand (`order_key`), as the write worked out — nothing read but the event's pools; None:
    found by comparing the event's finished games of `players` (every player whose results
    the write may have moved; None: all) with the steps each pool keeps (an import)."""
    if rated is not None:
        if rated:
            key = min(rated)
            for pool in pools_of(event):
                _mark(pool, key)
                enqueue_on_commit("ratings_catch_up_task", pool)
        return
    named = None if players is None else sorted(set(players))
    if named == []:
        return  # a hand entered at an open table: no finished game changed
    now = _finished_now(event, named)
    for pool in pools_of(event):
        key = _first_change(pool, event, named, now)
        if key is not None:
            _mark(pool, key)
            enqueue_on_commit("ratings_catch_up_task", pool)


def ratings_day_moved(event: Event, before: date) -> None:
    """After the event's day moved from `before` (services/event_settings.py): its games
    stand elsewhere in the order of play, so every pool it counts in is due from the earlier
    of the two days — rewound and replayed from there as after a result. Nothing where no
    game of the event is finished."""
    if not Seat.objects.filter(round__event=event, rank__isnull=False).exists():
        return
    key = order_key(min(before, event.held_on), event.pk, 0, 0)
    for pool in pools_of(event):
        _mark(pool, key)
        enqueue_on_commit("ratings_catch_up_task", pool)


def ratings_catch_up(pool: int | None) -> int | None:
    """The queue's task: the pool replayed from the key its due row holds; how many games were
    rated, None when no row was due (another task's replay took it). The row goes only if no
    write marked it meanwhile (`marks` unchanged): a write during the replay leaves it for its
    own task. Holds the pool's lock, which no results write takes, so two replays of a pool
    never interleave and writes never wait for one."""
    with transaction.atomic():
        pool_lock(pool)
        due = RatingDue.objects.filter(series_id=pool).values_list("pk", "from_key", "marks")
        found = due.first()
        if found is None:
            return None
        pk, key, marks = found
        games = _replay(pool, key)
        RatingDue.objects.filter(pk=pk, marks=marks).delete()
    return games


def ratings_catch_up_all() -> int:
    """Every due pool replayed now, as the queue's worker would (tests, and `rebuild_ratings`
    callers that want no wait); how many pools were."""
    pools = list(RatingDue.objects.values_list("series_id", flat=True))
    for pool in pools:
        ratings_catch_up(pool)
    return len(pools)


def ratings_forget_event(event: Event) -> None:
    """Before an event is deleted: every pool it counts in replayed without its games."""
    start = order_key(event.held_on, event.pk, 0, 0)
    for pool in pools_of(event):
        _replay(pool, start, leave_out=event.pk)


@transaction.atomic
def ratings_rebuild(series: Series | None = None) -> int:
    """A pool (the site's, or a series') replayed from its first game; how many games were
    rated. What every incremental update must equal. Its due row goes first, before the
    games are read: a write committed after that marks the pool again."""
    pool = series.pk if series else None
    pool_lock(pool)
    RatingDue.objects.filter(series_id=pool).delete()
    return _replay(pool, KEY_START)
