"""Writes for rounds: seat the next round (tables, seat winds, byes or substitutes, or the last
round's seats kept with a new starting dealer), unseat it."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from django.db import transaction
from django.db.models import Max, Q

from scoring.seating import assign_winds, choose_byes, draw_dealer, meetings, seat
from tournament.models import Entry, Event, Game, Player, Round, Seat, SitOut, TeamMember
from tournament.selectors.plans import plan_of
from tournament.selectors.rounds import table_size
from tournament.selectors.standings import event_standings
from tournament.services.changes import change_record
from tournament.services.channels import channels_round_seated
from tournament.services.errors import ServiceError, StageName, Tables, engine_errors
from tournament.services.locks import event_lock
from tournament.services.push import push_round_seated
from tournament.services.stages import stage_require_open
from tournament.services.tables import table_links_for_round

SHORTFALLS = ("bye", "substitute")
# Methods that seat by the standings: they need every table done (an open one would move them).
RANKED_METHODS = ("standings", "swiss", "interval")
# The last round's tables kept, each with a drawn starting dealer (a Baba final's second game).
KEEP = "same"


class RoundSeatedError(ServiceError):
    """The round a form meant to seat is seated already (a replay of the same request)."""

    def __init__(self, number: int) -> None:
        self.number = number
        super().__init__("round.seated", "round", round=number)


SUBSTITUTE_NAME = "代走 {n}"  # 代走: the usual word at a Japanese table for a stand-in


def _pool(event: Event, number: int) -> tuple[list[str], list[str]]:
    """(who plays, in standings order; who is cut). Where the event seats only players
    checked in, the others are not in the pool (`_absent` names them)."""
    stages = list(event.stages.order_by("position"))
    # The last stage's last round ends the event (a Baba day's round 8): nothing after it.
    last = stages[-1].last_round if stages else None
    if last is not None and number > last:
        raise ServiceError("round.beyond", "round", round=number, last=last)
    table = event_standings(event)
    order = [str(r.player) for r in table.rows]
    in_play = Entry.objects.filter(event=event, withdrawn=False, substitute=False)
    if event.checkin_required:
        in_play = in_play.filter(present=True)
    active = set(in_play.values_list("player__name", flat=True))
    pool = [p for p in order if p in active]
    pool += sorted(active - set(pool))  # registered after the last standings were read
    for stage, result in zip(stages, table.stages, strict=False):
        if stage.advance is None or stage.last_round is None or number <= stage.last_round:
            continue
        if not stage.closed:
            raise ServiceError(
                "round.stage_open",
                "round",
                stage=StageName(stage.name),
                first=stage.first_round,
                last=stage.last_round,
                round=number,
            )
        advancing = {str(p) for p in result.advancing}
        cut = [p for p in pool if p not in advancing]
        return [p for p in pool if p in advancing], cut
    return pool, []


def _absent(event: Event) -> list[str]:
    """Players in play who have not checked in, where the event seats only those who have."""
    if not event.checkin_required:
        return []
    absent = Entry.objects.filter(event=event, withdrawn=False, substitute=False, present=False)
    return list(absent.order_by("pk").values_list("player__name", flat=True))


def _substitutes(event: Event, count: int) -> list[Player]:
    """Stand-ins, reused from earlier rounds first; new ones are registered as substitutes."""
    entries = list(Entry.objects.filter(event=event).select_related("player"))
    known = sorted((e.player for e in entries if e.substitute), key=lambda p: p.name)
    players = known[:count]
    taken = {e.player.name for e in entries}
    n = 1
    while len(players) < count:
        name = SUBSTITUTE_NAME.format(n=n)
        n += 1
        if name in taken:
            continue
        player, _ = Player.objects.get_or_create(name=name)
        Entry.objects.create(event=event, player=player, substitute=True)
        players.append(player)
    return players


def _shortfall(
    event: Event, pool: list[str], size: int, shortfall: str, method: str, rng: random.Random
) -> tuple[list[str], list[Player]]:
    """Who sits out (byes) or who stands in, when the players in play do not fill the tables."""
    extra = len(pool) % size
    if not extra:
        return [], []
    if shortfall not in SHORTFALLS:
        raise ServiceError(
            "round.shortfall",
            "shortfall",
            players=len(pool),
            extra=extra,
            size=size,
            stand_ins=size - extra,
        )
    if shortfall == "substitute":
        return [], _substitutes(event, size - extra)
    earlier = SitOut.objects.filter(round__event=event, reason="bye")
    so_far: dict[str, int] = defaultdict(int)
    for name in earlier.values_list("player__name", flat=True):
        so_far[name] += 1
    return choose_byes(pool, extra, so_far, rng, ranked=method in RANKED_METHODS), []


def _drawn(
    event: Event, playing: list[str], size: int, method: str, rng: random.Random
) -> list[list[str]]:
    """The round's tables by `method`, against who has met whom and keeping teammates apart,
    each player at the wind they have had least (two queries: the event's seats so far, its
    teams)."""
    history_rows = Seat.objects.filter(round__event=event).values_list(
        "game_id", "player__name", "position"
    )
    tables_before: dict[int, list[str]] = defaultdict(list)
    winds_so_far: dict[str, list[int]] = defaultdict(lambda: [0] * size)
    for game_id, name, position in history_rows:
        tables_before[game_id].append(name)
        if position < size:
            winds_so_far[name][position] += 1
    teams = dict(
        TeamMember.objects.filter(team__event=event).values_list("entry__player__name", "team_id")
    )
    with engine_errors():
        tables = seat(
            playing,
            size,
            method,
            history=meetings(tables_before.values()),
            rng=rng,
            teams=teams,
        )
    return [assign_winds(table, winds_so_far, rng) for table in tables]


def _planned(event: Event, number: int, pool: list[str]) -> tuple[list[list[str]], list[str]]:
    """Round `number` of the event's plan: its tables (in seat order) and byes — refused when
    there is no plan, no such round, or the players in play are not the plan's."""
    plan = plan_of(event)
    if plan is None:
        raise ServiceError("plan.none", "method")
    if number > len(plan.rounds):
        raise ServiceError("plan.no_round", "method", rounds=len(plan.rounds), round=number)
    planned = plan.rounds[number - 1]
    listed = [p for t in planned.tables for p in t] + list(planned.byes)
    differ = sorted(set(listed) ^ set(pool))
    if differ:
        raise ServiceError("plan.stale", "method", round=number, name=", ".join(differ[:5]))
    return [list(t) for t in planned.tables], list(planned.byes)


def _kept(event: Event, number: int, pool: list[str]) -> list[list[str]]:
    """Round `number - 1`'s tables in seat order, to keep for round `number` — refused when
    there is none in the stage (round `number` opens the event or a stage: its seats are
    drawn) or it seated other players than those in play now (a withdrawal, a stand-in, a
    bye, an absence). Two queries."""
    previous = number - 1
    if previous < 1 or event.stages.filter(last_round=previous).exists():
        raise ServiceError("round.keep_none", "method", round=number)
    rows = Seat.objects.filter(round__event=event, round__number=previous).order_by(
        "game__table", "position"
    )
    tables: dict[int, list[str]] = defaultdict(list)
    for table, name in rows.values_list("game__table", "player__name"):
        tables[table].append(name)
    differ = sorted({p for t in tables.values() for p in t} ^ set(pool))
    if differ:
        raise ServiceError(
            "round.keep_changed",
            "method",
            round=number,
            previous=previous,
            name=", ".join(differ[:5]),
        )
    return [tables[t] for t in sorted(tables)]


def round_keep_refusal(event: Event, number: int) -> ServiceError | None:
    """Why round `number` cannot keep the last round's seats (`_kept`), or None: the dashboard
    offers keeping them first only where round_seat would not refuse it."""
    try:
        _kept(event, number, _pool(event, number)[0])
    except ServiceError as exc:
        return exc
    return None


@transaction.atomic
def round_seat(
    *,
    event: Event,
    method: str = "random",
    shortfall: str = "",
    number: int | None = None,
    user: Any = None,
    rng: random.Random | None = None,
    while_unfinished: bool = False,
) -> Round:
    """Seat the next round. Players who do not fill the last table sit out (`bye`, recorded)
    or play with stand-ins (`substitute`); with neither chosen, the organizer is asked.
    `method` "plan": the event's seating plan's round, as planned (services/plans.py);
    "same" (KEEP): the last round's tables and turn order, each table's starting dealer drawn
    (`_kept` says when it is refused).
    `number` is the round the organizer's form meant to seat: a second tap, a retry or the
    back button finds it seated and is refused (RoundSeatedError), never seats another.
    Tables still open in earlier rounds: seating at random asks first (`while_unfinished`,
    the organizer's "seat it anyway"), naming them; by standings is refused."""
    event_lock(event.pk)  # one seating at a time
    rng = rng or random.Random()
    next_number = (event.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    if number is not None and number != next_number:
        if number < next_number:
            raise RoundSeatedError(number)
        raise ServiceError("round.too_early", "round", round=number, next=next_number)
    number = next_number
    stage_require_open(event, rounds=[number])
    size = table_size(event)
    open_games = list(
        Game.objects.filter(round__event=event, finished=False)
        .order_by("round__number", "table")
        .values_list("round__number", "table")
    )
    if open_games and method in RANKED_METHODS:
        # Seating by standings needs them final: an open table would change who sits where.
        first_round, first_table = open_games[0]
        raise ServiceError("round.unfinished", "method", round=first_round, table=first_table)
    if open_games and not while_unfinished:
        raise ServiceError(
            "round.unfinished_ask", "while_unfinished", tables=Tables(open_games), round=number
        )
    pool, cut = _pool(event, number)
    absent = _absent(event)
    if len(pool) < size:
        # With check-in on, the pool is the players present: more are to check in, not register.
        code = "round.too_few_present" if event.checkin_required else "round.too_few"
        raise ServiceError(code, "round", players=len(pool), size=size)
    if method == "plan":  # a plan's tables and winds are settled already
        tables, byes = _planned(event, number, pool)
    elif method == KEEP:  # the same seats, turn order and all: only the dealer is drawn
        tables, byes = [draw_dealer(t, rng) for t in _kept(event, number, pool)], []
    else:
        byes, stand_ins = _shortfall(event, pool, size, shortfall, method, rng)
        playing = [p for p in pool if p not in byes] + [p.name for p in stand_ins]
        tables = _drawn(event, playing, size, method, rng)
    playing = [p for t in tables for p in t]
    rnd = Round.objects.create(event=event, number=number)
    players = {p.name: p for p in Player.objects.filter(name__in=playing + byes + cut + absent)}
    seated: list[list[str]] = []
    games = []
    for t, table in enumerate(tables, start=1):
        game = Game.objects.create(round=rnd, table=t, finished=False)
        order = list(table)
        seated.append(order)
        Seat.objects.bulk_create(
            Seat(game=game, round=rnd, position=i, player=players[name])
            for i, name in enumerate(order)
        )
        games.append(game)
    table_links_for_round(games)
    SitOut.objects.bulk_create(
        [SitOut(round=rnd, player=players[n], reason="bye") for n in byes]
        + [SitOut(round=rnd, player=players[n], reason="cut") for n in cut]
        + [SitOut(round=rnd, player=players[n], reason="absent") for n in absent]
    )
    # Each seated player's phones told their table and wind, by the queue once this commits.
    push_round_seated(rnd, [players[name].pk for name in playing])
    channels_round_seated(event, rnd)  # and the event's channels, its tables (issue 49)
    change_record(
        event=event,
        user=user,
        action="round.seat",
        summary=f"round {number}: {len(tables)} tables ({method})",
        after={"round": number, "tables": seated, "byes": byes, "cut": cut, "absent": absent},
    )
    return rnd


@transaction.atomic
def round_unseat(*, rnd: Round, user: Any = None) -> None:
    """Take back a seating, as long as no result has been entered for it."""
    event_lock(rnd.event_id)
    if not Round.objects.filter(pk=rnd.pk).exists():
        return  # taken back meanwhile by the same request sent twice: nothing left to do
    stage_require_open(rnd.event, rounds=[rnd.number])
    refusal = round_unseat_refusal(rnd)
    if refusal is not None:
        raise refusal
    tables = [
        [s.player.name for s in g.seats.select_related("player")]
        for g in rnd.games.order_by("table")
    ]
    change_record(
        event=rnd.event,
        user=user,
        action="round.unseat",
        summary=f"round {rnd.number} seating taken back",
        before={"round": rnd.number, "tables": tables},
    )
    rnd.delete()


def round_unseat_refusal(rnd: Round) -> ServiceError | None:
    """Why the round's seating cannot be taken back (a table has results, a later round is
    seated), or None: asked by round_unseat, and by the page that asks first, so it does not
    ask a question whose yes would be refused. Two queries."""
    started = rnd.games.filter(Q(finished=True) | Q(hands__isnull=False)).order_by("table").first()
    if started is not None:
        return ServiceError("round.has_results", "round", table=started.table, round=rnd.number)
    if Round.objects.filter(event=rnd.event_id, number__gt=rnd.number).exists():
        return ServiceError("round.not_last", "round", round=rnd.number)
    return None
