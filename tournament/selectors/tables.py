"""Reads for table links and the tables' states (the organizer's dashboard)."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from scoring import parse_hand, replay
from scoring.names import name_key
from scoring.plans import Plan, PlannedRound
from tournament.models import Event, Game, Hand, Round, Seat, SitOut, TableLink
from tournament.selectors.plans import ReportShown, page_report


@dataclass
class Clock:
    """A round's clock as a page shows it: when time is up (server time), how long is left
    at render time, and the server's now (a phone's clock may be off: the script counts from
    the difference)."""

    ends: datetime
    now: datetime

    @property
    def up(self) -> bool:
        return self.now >= self.ends

    @property
    def left(self) -> str:
        seconds = max(0, int((self.ends - self.now).total_seconds()))
        return f"{seconds // 60}:{seconds % 60:02d}"


def round_clock(rnd: Round, game: Game | None = None) -> Clock | None:
    """The round's clock (for one table: with its extra minutes); None when not running, or
    once that table — or, for the round, every table — has played out (finished, or its
    result waiting for a second seat or disputed): "time left" and "time is up: finish the
    hand in play" are never shown for play that is over. The round's tables read as
    `rnd.games.all()` (prefetched where a page lists them)."""
    if game is not None:
        return None if _played_out(game) else _running(rnd, game.extra_minutes)
    if all(_played_out(g) for g in rnd.games.all()):
        return None
    return _running(rnd, 0)


# A table has played out: finished, or its result waiting for a second seat or disputed.
# `PLAYED_OUT` asks it of the database, `_played_out` of a game already read: one rule.
PLAYED_OUT = Q(finished=True) | ~Q(confirmation="")


def _played_out(game: Game) -> bool:
    return game.finished or bool(game.confirmation)


def round_begun(round_id: int, clock_started_at: datetime | None) -> bool:
    """Whether play has begun in a round: its clock started, or one of its tables has a
    result (final, waiting or disputed) or a hand. Until then the room is taking its seats —
    the venue screen (`round_phase`) and the standings (selectors/published.py
    `round_progress`) both ask here. No query once the clock is started; else two probes that
    stop at their first row (a hand found through its game's index: a probe correlated on every
    game read every hand of the event, 250,000 at 10,000 players)."""
    if clock_started_at is not None:
        return True
    played = Game.objects.filter(PLAYED_OUT, round_id=round_id)
    return played.exists() or Hand.objects.filter(game__round_id=round_id).exists()


def _running(rnd: Round, extra: int) -> Clock | None:
    minutes = rnd.event.round_minutes
    if not minutes or rnd.clock_started_at is None:
        return None
    ends = rnd.clock_started_at + timedelta(minutes=minutes + extra)
    return Clock(ends, timezone.now())


def table_link_by_token(token: str) -> TableLink | None:
    """The link, live or revoked (the page says which), with its game and event. One query,
    asked by every request of a table's phone: `get` on the unique token, which orders
    nothing — `.first()` ordered by the model's ordering, and through its game's the
    round's and the event's, which Django took 0.35 ms to build each time (issue 67)."""
    try:
        return TableLink.objects.select_related("game__round__event").get(token=token[:64])
    except TableLink.DoesNotExist:
        return None


# What a table's page shows that can move while it is open, the same for every phone at the
# table: the link's revocation, the game (every write moves its version on), its confirmation
# and who entered the waiting result, the event's entry settings, the round's clock and this
# table's extra minutes (none of which moves the game's version). The page's tag is these and
# the phone's own seat (views/table/page.py); the table's stream (tournament/streams.py)
# follows these alone, for every followed table at once.
TABLE_MOVES = (
    "revoked_at",
    "game__version",
    "game__finished",
    "game__confirmation",
    "game__submitted_phone",
    "game__extra_minutes",
    "game__round__clock_started_at",
    "game__round__event__table_entry",
    "game__round__event__table_mode",
    "game__round__event__round_minutes",
)


def table_moves(link: TableLink) -> str:
    """TABLE_MOVES of a link already read with its game, round and event (no query), as a short
    stamp: equal to `tables_moved`'s for the same rows."""
    values = []
    for path in TABLE_MOVES:
        value: Any = link
        for name in path.split("__"):
            value = getattr(value, name)
        values.append(value)
    return _stamp(values)


def tables_moved(link_ids: Collection[int]) -> dict[int, str]:
    """Each link's TABLE_MOVES stamp, by link id; a link that is no more is missing. One
    query, however many tables."""
    rows = TableLink.objects.filter(pk__in=link_ids).values_list("pk", *TABLE_MOVES)
    return {pk: _stamp(values) for pk, *values in rows}


def _stamp(values: list[Any]) -> str:
    # A time by its instant: the same moment read through another path may carry another
    # spelling of UTC.
    plain = [v.timestamp() if isinstance(v, datetime) else v for v in values]
    return hashlib.blake2b(repr(plain).encode(), digest_size=8).hexdigest()


def table_link_by_code(code: str) -> TableLink | None:
    """The live link a typed code names. One query."""
    return TableLink.objects.filter(code=code, revoked_at__isnull=True).first()


def live_links(rnd: Round) -> dict[int, TableLink]:
    """Each table's live link in a round, by game id (the round sheet prints them). One query."""
    links = TableLink.objects.filter(game__round=rnd, revoked_at__isnull=True)
    return {link.game_id: link for link in links}


@dataclass
class TableState:
    game: Game
    state: str  # not_started, playing, waiting, disputed or done
    label: str  # the hand in play ("E3-1") while playing
    late: bool = False  # the round's clock (with the table's extra minutes) is up, no result yet

    @property
    def urgency(self) -> int:
        """What the organizer looks at first: a dispute, a result waiting, a table past its
        time; then the tables playing, those not started, those done."""
        if self.state in ("disputed", "waiting"):
            return 0 if self.state == "disputed" else 1
        if self.late:
            return 2
        return {"playing": 3, "not_started": 4}.get(self.state, 5)


def table_states(event: Event) -> tuple[int | None, list[TableState]]:
    """The latest round's tables, and any table of an earlier round still open (a round seated
    over one never hides it), and where each stands: not started · playing (the hand in play)
    · waiting for confirmation · disputed · done. Three queries (the round, the games with
    their round and seat counts, their hands), whatever the number of tables: the hand in play
    comes from replaying each table's hands through the engine, as the score sheet does."""
    number = event.rounds.order_by("-number").values_list("number", flat=True).first()
    if number is None:
        return None, []
    games = list(
        Game.objects.filter(round__event=event)
        .filter(Q(round__number=number) | Q(finished=False))
        .select_related("round")
        .annotate(seat_count=Count("seats"))
        .order_by("round__number", "table")
    )
    hands: dict[int, list[Any]] = defaultdict(list)
    for game_id, data in (
        Hand.objects.filter(game__in=[g.pk for g in games])
        .order_by("game_id", "number")
        .values_list("game_id", "data")
    ):
        hands[game_id].append(data)
    rules = event.rules
    now = timezone.now()
    states = []
    for game in games:
        label = ""
        if game.finished:
            state = "done"
        elif game.confirmation:
            state = game.confirmation
        elif hands[game.pk]:
            state = "playing"
            n = game.seat_count
            flow = replay(rules, n, [parse_hand(h, rules, n) for h in hands[game.pk]])
            upcoming = flow.next()
            label = upcoming["label"] if upcoming else ""
        else:
            state = "not_started"
        started = game.round.clock_started_at
        late = (
            state in ("playing", "not_started")
            and bool(event.round_minutes)
            and started is not None
            and now >= started + timedelta(minutes=event.round_minutes + game.extra_minutes)
        )
        states.append(TableState(game, state, label, late))
    # Within each round, the tables needing the organizer first (the page groups by round).
    states.sort(key=lambda s: (s.game.round.number, s.urgency, s.game.table))
    return number, states


@dataclass
class SeatedTable:
    """A table of a round as the room reads it: its number and its players by seat (East
    first)."""

    table: int
    players: list[str]


def round_seating(event: Event, number: int) -> list[SeatedTable]:
    """Each table of the event's round `number` and who sits where. One query."""
    tables: dict[int, SeatedTable] = {}
    seats = (
        Seat.objects.filter(round__event=event, round__number=number)
        .order_by("game__table", "position")
        .values_list("game__table", "player__name")
    )
    for table, name in seats:
        tables.setdefault(table, SeatedTable(table, [])).players.append(name)
    return list(tables.values())


def round_table_count(event: Event, number: int) -> int:
    """How many tables of the event's round `number` have anyone seated (the tables
    `round_seating` lists). One query."""
    return _seated_games(event, number).count()


def _seated_games(event: Event, number: int) -> Any:
    return Game.objects.filter(round__event=event, round__number=number).filter(
        Exists(Seat.objects.filter(game=OuterRef("pk")))
    )


@dataclass
class SeatingWindow:
    """`count` tables of a round from its `first` (from 0, in table order), of `total`."""

    first: int
    total: int
    tables: list[SeatedTable]


def round_seating_window(event: Event, number: int, first: int, count: int) -> SeatingWindow:
    """The tables of the event's round `number` from its `first` (a window past the end is
    the last `count` tables, as the standings' window is), sliced in the database: the venue
    screen of a 2,500-table round asks for a screenful at a time. Two queries (the tables
    counted, the window's seats)."""
    total = round_table_count(event, number)
    first = max(0, min(first, total - count))
    games = _seated_games(event, number).order_by("table").values("pk")[first : first + count]
    tables: dict[int, SeatedTable] = {}
    seats = (
        Seat.objects.filter(game__in=games)
        .order_by("game__table", "position")
        .values_list("game__table", "player__name")
    )
    for table, name in seats:
        tables.setdefault(table, SeatedTable(table, [])).players.append(name)
    return SeatingWindow(first, total, list(tables.values()))


@dataclass
class FoundSeat:
    name: str
    table: int
    position: int  # 0 is East


def seats_named(seating: list[SeatedTable], typed: str) -> list[FoundSeat]:
    """The seats whose player's name holds `typed` (all of them for ""), by name — the same
    family name together, as a list on the wall is read."""
    wanted = name_key(typed)
    found = [
        FoundSeat(name, t.table, position)
        for t in seating
        for position, name in enumerate(t.players)
        if wanted in name_key(name)
    ]
    return sorted(found, key=lambda seat: (name_key(seat.name), seat.table))


@dataclass
class RoundPhase:
    """Where the latest round stands for the room: `seating` (seated, nobody playing yet: the
    screen shows who sits where), `play` (the clock runs or a table has begun), `done` (every
    table has its result: the clock stops), or `none` (no round yet). In play, `confirming`:
    every table has played out, and a result still waits for a second seat (or is
    disputed) — the room is told so, not "in progress" (the walk of 2026-11-30)."""

    number: int | None
    phase: str
    clock: Clock | None = None
    confirming: bool = False

    @property
    def key(self) -> str:
        """The phase as one word a page compares with the one it was drawn in (screen.js)."""
        return f"{self.phase}:{self.number or 0}" + (":confirming" if self.confirming else "")


def round_phase(event: Event) -> RoundPhase:
    """The latest round's phase and its clock (none once every table is done). Two queries;
    while a round is seated and its clock not started, up to two more (`round_begun`)."""
    rnd = event.rounds.order_by("-number").first()
    if rnd is None:
        return RoundPhase(None, "none")
    rnd.event = event  # round_clock reads the minutes from it
    games = rnd.games.aggregate(
        tables=Count("pk"),
        open=Count("pk", filter=Q(finished=False)),
        playing=Count("pk", filter=~PLAYED_OUT),
    )
    if games["tables"] and not games["open"]:
        return RoundPhase(rnd.number, "done")
    if not round_begun(rnd.pk, rnd.clock_started_at):
        return RoundPhase(rnd.number, "seating")
    # No clock once every table has played out (round_clock's rule, on the counts above);
    # then a result still waits for its confirmation.
    played_out = bool(games["tables"]) and not games["playing"]
    clock = None if played_out else _running(rnd, 0)
    return RoundPhase(rnd.number, "play", clock, confirming=played_out)


def stage_in_play(event: Event, number: int | None) -> str:
    """The stage the room is watching: the one holding round `number` (the latest seated; the
    first round before any), so the venue screen opens on the final while the final is
    played. "" (every stage) for an event of one stage, or a round no stage holds. One query."""
    stages = list(
        event.stages.order_by("position").values_list("name", "first_round", "last_round")
    )
    if len(stages) < 2:
        return ""
    at = number or 1
    for name, first, last in stages:
        if (first is None or first <= at) and (last is None or at <= last):
            return name
    return ""


def round_ends_stage(event: Event, number: int) -> bool:
    """Whether round `number` is the last of one of the event's stages (only such a round has
    a "before the last game" panel). One query."""
    return event.stages.filter(last_round=number).exists()


# The report's keys that judge who met whom (scoring.plans.Plan.report).
MEETING_KEYS = (
    "max_meetings",
    "pairs_met_more_than_once",
    "repeated_pairs",
    "repeat_meetings",
    "best_max_meetings",
    "best_pairs_met_more_than_once",
    "best_repeat_meetings",
)


def seating_report(event: Event, up_to: int | None = None) -> dict[str, Any] | None:
    """The event's seatings so far (through round `up_to`), reported as a whole-day plan is
    (scoring/plans/): the pairs who met more than once and who, each player's winds, and the
    least the numbers allow; `unbalanced` adds the players whose winds differ by more than
    one; `one_table` the rounds whose meetings are left out, each a single table. None
    before any round is seated. Two queries."""
    seats = Seat.objects.filter(round__event=event)
    byes = SitOut.objects.filter(round__event=event, reason="bye")
    if up_to is not None:
        seats, byes = seats.filter(round__number__lte=up_to), byes.filter(round__number__lte=up_to)
    tables: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    players: dict[str, None] = {}
    for number, table, name in seats.order_by(
        "round__number", "game__table", "position"
    ).values_list("round__number", "game__table", "player__name"):
        tables[number][table].append(name)
        players[name] = None
    sat_out: dict[int, list[str]] = defaultdict(list)
    for number, name in byes.values_list("round__number", "player__name"):
        sat_out[number].append(name)
        players[name] = None
    numbers = sorted(set(tables) | set(sat_out))
    if not numbers:
        return None
    size = max((len(t) for r in tables.values() for t in r.values()), default=event.rules.players)
    rounds = {
        n: PlannedRound(tuple(tuple(t) for _n, t in sorted(tables[n].items())), tuple(sat_out[n]))
        for n in numbers
    }
    report = page_report(Plan(tuple(rounds.values()), tuple(players), size))
    # A round of one table and no byes (a final of four) chose nobody's tablemates: its
    # meetings are forced, no flaw of the seating. The meetings are judged without it, and it
    # is named (`one_table`); the winds still count every round.
    report["one_table"] = [n for n in numbers if len(tables[n]) == 1 and not sat_out[n]]
    if report["one_table"]:
        chosen = [r for n, r in rounds.items() if n not in report["one_table"]]
        met = Plan(tuple(chosen), tuple(players), size).report()
        report.update({k: met[k] for k in MEETING_KEYS})
    return report


def seating_shown(event: Event, up_to: int | None = None) -> ReportShown:
    """`seating_report` as a page shows it (ReportShown). Two queries."""
    return ReportShown(seating_report(event, up_to))
