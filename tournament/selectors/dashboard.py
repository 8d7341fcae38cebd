"""The organizer's dashboard of an event, as one record (`event_dashboard`): its players,
rounds, tables, stages, plan and teams; what it says of each stage (its result, the rounds it
is played in, whether it is done or begun, the tie it must settle); and the cut the next round
seats from. The view adds its forms and renders it."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from scoring import Standings
from scoring.standings import Format, StageResult
from scoring.standings import Stage as StageRule
from tournament.i18n import team_rule_text
from tournament.models import Entry, Event, GuessLock, Round, Stage
from tournament.outages import task_queue_seen
from tournament.selectors.checkin import checkin_code_shown, checkin_screen_key
from tournament.selectors.events import (
    event_stages,
    format_text,
    players_key,
    registered_entries,
)
from tournament.selectors.games import round_tables
from tournament.selectors.plans import (
    PlanSummary,
    ReportShown,
    plan_rounds_default,
    plan_summary,
    seat_method_default,
)
from tournament.selectors.rounds import table_size
from tournament.selectors.standings import event_standings
from tournament.selectors.tables import (
    RoundPhase,
    TableState,
    round_phase,
    seating_shown,
    table_states,
)
from tournament.selectors.tasks import task_queue_stalled_since
from tournament.selectors.teams import event_teams

# The limit a held network reached, as the dashboard names it, by the kind of its count
# (services/throttle.LIMITS); every other kind is a code or link typed wrong.
NETWORK_LIMITS = {"signup": "signups", "push": "notifications"}


@dataclass
class StageRow:
    stage: Stage
    result: StageResult | None  # None for a stage after an open tie
    played: tuple[int | None, int | None]  # the rounds it is played in (its heading)
    done: bool  # the engine calls it complete (a league: its tables are done)
    tied: list[str]  # the players whose shared place must be settled before closing
    begun: bool  # its own rounds have begun
    # What closing waits for, by the rule stage_close keeps (services/stages.py `_missing`):
    # its last round while one of its rounds is not seated; else its tables not finished,
    # (round, table) in play order. Closing is offered only when it waits for nothing.
    unseated: int | None = None
    open_tables: list[tuple[int, int]] = field(default_factory=list)
    tie_form: Any = None  # the view's: the form that settles `tied`
    # Closing it early (services/stages.stage_close_early, issue 66): the round it would
    # end after, and each later stage's name and the rounds it would then be played in. None
    # where that service would refuse: a table open, a later stage seated, nothing played.
    early: tuple[int, list[tuple[str, int | None, int | None]]] | None = None

    @property
    def closable(self) -> bool:
        """stage_close accepts it as far as its games go (a tie it names is asked apart)."""
        return self.begun and self.unseated is None and not self.open_tables


def stage_rows(
    standings: Standings,
    stages: list[Stage],
    latest: int,
    played_out: bool,
    seated: set[int] | None = None,
    unfinished: list[tuple[int, int]] | None = None,
) -> list[StageRow]:
    """A row per stage, from the standings (no query). `latest`: the last round seated;
    `played_out`: the tables of the round in play are all done; `seated`: the numbers of the
    rounds seated (1–`latest` when not given); `unfinished`: (round, table) of every game
    not finished, in play order (the dashboard's table states hold them all)."""
    seated = set(range(1, latest + 1)) if seated is None else seated
    unfinished = sorted(unfinished or [])
    results = {r.stage.name: r for r in standings.stages}  # a stage after an open tie has none
    rows = []
    for stage, played in zip(stages, played_rounds(stages), strict=True):
        result = results.get(stage.name)
        # A tie is asked about only once the engine says the stage is complete and names one
        # to settle: a new event's players all share 0 across the cut, and each result
        # moves them (issue 43: a 16-way tie panel before any game). A league has no last
        # round, so the engine never calls it complete: its shared places are settled once
        # its tables are done (before a game, everyone shares every place).
        done = result is not None and (
            result.complete if stage.last_round is not None else played_out
        )
        tied = [str(p) for p in result.to_settle] if done and result is not None else []
        # Its own rounds have begun (a Baba final ranks on 1–8 but begins at 7).
        begun = latest >= (played[0] or 1)
        first, last = stage.first_round or 1, stage.last_round
        unseated = None
        if last is not None and not set(range(first, last + 1)) <= seated:
            unseated = last
        open_tables = [
            (n, table) for n, table in unfinished if n >= first and (last is None or n <= last)
        ]
        row = StageRow(stage, result, played, done, tied, begun, unseated, open_tables)
        row.early = early_close(stages, stage, played[0] or 1, latest, seated, open_tables)
        rows.append(row)
    return rows


def early_close(
    stages: list[Stage],
    stage: Stage,
    own: int,
    latest: int,
    seated: set[int],
    open_tables: list[tuple[int, int]],
) -> tuple[int, list[tuple[str, int | None, int | None]]] | None:
    """What closing `stage` now would do, where stage_close_early takes it: its own rounds
    (from `own`) begun, none after it seated, every round up to the latest seated and its
    tables finished. The round it ends after, and the later stages' new rounds."""
    last = stage.last_round
    if stage.closed or last is None or not own <= latest < last or open_tables:
        return None
    if not set(range(stage.first_round or 1, latest + 1)) <= seated:
        return None
    rules = [StageRule(s.name, s.first_round, s.last_round, s.advance) for s in stages]
    moved = Format("", tuple(rules)).closed_after(stage.name, latest).stages
    at = stages.index(stage)
    later = list(zip(moved, played_rounds(list(moved)), strict=True))[at + 1 :]
    return latest, [(rule.name, first, end) for rule, (first, end) in later]


def cut_before(rows: list[StageRow], next_round: int) -> StageRow | None:
    """The last stage that advanced players and ended before `next_round`: after a cut the
    next round seats those through it, not everyone registered."""
    return next(
        (
            row
            for row in reversed(rows)
            if row.stage.advance
            and row.stage.last_round is not None
            and row.stage.last_round < next_round
            and row.result is not None
        ),
        None,
    )


def played_rounds(stages: Sequence[Stage | StageRule]) -> list[tuple[int | None, int | None]]:
    """The rounds each stage is played in, as its heading shows them: from the round after the
    stage before it ends (a Baba final ranks on rounds 1–8 but is played in 7–8); None for
    a league's open ends."""
    out = []
    before: int | None = None
    for stage in stages:
        first = stage.first_round
        if before is not None and (first is None or first <= before):
            first = before + 1
        out.append((first, stage.last_round))
        before = stage.last_round
    return out


@dataclass(frozen=True)
class DashboardPage:
    """What the organizer's dashboard shows, each field under the name its template reads
    (tournament/manage/dashboard.html); its forms are the view's."""

    event: Event
    entries: list[Entry]  # as registered (the pasted list), stand-ins last
    active: int  # in play: neither withdrawn nor a stand-in
    present: int  # of those, checked in
    absent_count: int
    checkin_code: str  # changes every few minutes
    screen_key: str  # the projector's private link
    table_size: int
    rounds: list[Round]  # with how many tables each
    state_round: int | None
    states: list[TableState]  # every game not finished is among them
    phase: RoundPhase
    seating: ReportShown  # the seating report
    # Networks whose backstop is full, naming the limit reached: codes or sign-ups from
    # there wait until the organizer lifts it or it ends.
    networks_held: list[tuple[str, str, int]]
    # A task queue that stopped moving (no worker): said here, and logged.
    queue_stalled: datetime | None
    # A referee sees the tables and rounds; settings, seating, stages and players are the
    # organizers' (tournament/permissions.py).
    can_organize: bool
    players_key: str  # what the kept list of players shows (selectors/events.players_key)
    stages: list[StageRow]
    next_round: int
    through: int | None  # how many the cut before the next round let through
    cut_stage: Stage | None
    plan: PlanSummary | None
    teams: dict[str, list[str]]
    team_rule: str

    def seat_method(self, keep_refusal: Callable[[Event, int], object | None]) -> str:
        """The seating method the seat form offers first. Whether the round after a cut may
        keep the last round's seats is asked here, only when the view draws that form, of
        `keep_refusal` — services/rounds.round_keep_refusal, the seating's own check, handed
        in by the view: a selector imports no service."""
        keeps = self.cut_stage is not None and (keep_refusal(self.event, self.next_round) is None)
        stages = [row.stage for row in self.stages]
        plan_rounds = self.plan["rounds"] if self.plan else 0
        return seat_method_default(self.next_round, plan_rounds, stages, keeps=keeps)

    @property
    def format_text(self) -> str:
        """The format in words, as its stages are now (a stage closed early: its rounds)."""
        return format_text(self.event, [row.stage for row in self.stages])

    @property
    def rounds_done(self) -> int | None:
        """Every round the format has is seated already: its number of rounds (the last
        stage's last round), so the page offers no round past it (issue 66: the demo's Baba
        day offered round 9 of 8); None while a round is left, or the format has no end (a
        league)."""
        last = self.stages[-1].stage.last_round if self.stages else None
        return last if last is not None and self.next_round > last else None

    def plan_rounds(self) -> int:
        """The rounds the plan form offers to plan."""
        return plan_rounds_default([row.stage for row in self.stages])


def event_dashboard(event: Event, *, can_organize: bool) -> DashboardPage:
    """The organizer's dashboard of `event` (`can_organize`: the reader may change more than
    results). Queries: the standings (3), the plan, the stages, the tables' states, the
    rounds, the entries, the round's phase, the seating report, held networks (1), the task
    queue (1), the teams (1)."""
    standings = event_standings(event)
    plan = plan_summary(event)
    stages = event_stages(event)
    state_round, states = table_states(event)
    rounds = list(round_tables(event))
    latest = max((r.number for r in rounds), default=0)
    played_out = state_round is not None and all(s.state == "done" for s in states)
    # Every game not finished is among the states (an earlier round's open table too).
    unfinished = [(s.game.round.number, s.game.table) for s in states if not s.game.finished]
    rows = stage_rows(standings, stages, latest, played_out, {r.number for r in rounds}, unfinished)
    entries = registered_entries(event)
    in_play = [e for e in entries if not e.withdrawn and not e.substitute]
    active = len(in_play)
    present = sum(1 for e in in_play if e.present)
    next_round = latest + 1
    cut = cut_before(rows, next_round)
    return DashboardPage(
        event=event,
        entries=entries,
        active=active,
        present=present,
        absent_count=active - present,
        checkin_code=checkin_code_shown(event),
        screen_key=checkin_screen_key(event),
        table_size=table_size(event),
        rounds=rounds,
        state_round=state_round,
        states=states,
        phase=round_phase(event),
        seating=seating_shown(event),
        networks_held=networks_limited(),
        queue_stalled=queue_stalled(),
        can_organize=can_organize,
        players_key=players_key(event, entries, can_organize),
        stages=rows,
        next_round=next_round,
        through=len(cut.result.advancing) if cut and cut.result else None,
        cut_stage=cut.stage if cut else None,
        plan=plan,
        teams=event_teams(event),
        team_rule=team_rule_text(event.team_rule, event.team_best),
    )


def networks_held() -> list[tuple[str, str, int]]:
    """Networks (addresses) whose backstop is full now: (address, the kind whose count is full
    — the dashboard names the limit reached —, minutes left), by address (one query). Read
    from the locks services/throttle.py keeps (GuessLock, its key "kind:who:digest"), which
    network_release lifts."""
    now = timezone.now()
    rows = (
        GuessLock.objects.filter(address__isnull=False, until__gt=now)
        .values_list("address", "key", "until")
        .order_by("address", "key")
    )
    return [
        (address, key.split(":", 1)[0], math.ceil((until - now).total_seconds() / 60))
        for address, key, until in rows
    ]


def networks_limited() -> list[tuple[str, str, int]]:
    """(address, limit reached — "codes", "signups" or "notifications" —, minutes left) for
    each held network and limit: the sign-up cap reached by a venue's crowd is not called
    wrong codes (issue 63). One query."""
    held: dict[tuple[str, str], int] = {}
    for address, kind, minutes in networks_held():
        limit = NETWORK_LIMITS.get(kind, "codes")
        held[address, limit] = max(minutes, held.get((address, limit), 0))
    return [(address, limit, minutes) for (address, limit), minutes in held.items()]


def queue_stalled() -> datetime | None:
    """Since when the task queue has stalled (None: it moves), told to the outage log as
    read (outages.task_queue_seen: logged and mailed at its start and end). One query."""
    stalled = task_queue_stalled_since()
    task_queue_seen(stalled)
    return stalled
