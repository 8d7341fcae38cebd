"""The read model: what the public pages and downloads show of an event at one version, as one
frozen record (`published(event) -> PublishedEvent`), made once per version and kept by it.

Every write to an event moves its version on in the write's own transaction
(services/changes.py), so a record made for the version a reader read is the event as that
reader found it, and nothing needs clearing. What a record holds:

- `standings`: ranked by stage, the rows every page, file and message reads;
- `player_ids`: the players' ids by name (pages link players by id);
- `stamp` (the event's version) and `rows_stamp` (the version the rows were last ranked at: a
  hand recounts nobody and leaves it, a result moves it) — the two stamps everything made of
  a record is kept by: what shows the rows alone (the standings table, the standings file)
  by `rows_stamp`, what shows more by `stamp`;
- `over`: every stage closed, the results final;
- and, made the first time a reader asks, each once per version and shared by every server
  through selectors/cache.py: `progress` (the rounds with a result and the one in play),
  `has_teams`, and a whole-point venue's `fractions`.

The ranked rows stay in each process rather than in the shared cache: at 10,000 players
unpickling them costs more than ranking again (108 / 63 ms on 2026-11-25; `make bench`
prints both), and after a result the next version is ranked from the one held and the few
entries the result recounted (selectors/standings.py `rank_since`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from django.db.models import Exists, OuterRef

from scoring import Standings
from tournament.models import Event, Game, Round, Seat, Stage, Team
from tournament.selectors.cache import event_stamp, shared, stamped_cache
from tournament.selectors.standings import (
    Ranked,
    fraction_rounds,
    rank_event,
    rank_events,
    rank_since,
)
from tournament.selectors.tables import PLAYED_OUT, round_begun


class Progress(NamedTuple):
    """Where the event's rounds stand: `rounds` with at least one result, in order (the
    standings' round columns); `in_progress`, the first round with a table still playing (the
    live marker), or None; `seating`, whether that round is only seated — no table has begun
    (no hand, no result) and its clock has not started — so pages say "take your seats", as
    the venue screen does, and not "in progress" (a status is a decision, never a forecast);
    `confirming`, whether every table of that round has played out and a result waits for a
    second seat (or is disputed) — said so, as on the venue screen (`RoundPhase.confirming`,
    the same rule: `PLAYED_OUT`)."""

    rounds: list[int]
    in_progress: int | None
    seating: bool
    confirming: bool = False

    @property
    def playing(self) -> int | None:
        """The round in play once play has begun there (the live marker of its column)."""
        return None if self.seating else self.in_progress


@dataclass(frozen=True)
class PublishedEvent:
    """An event as its public pages and downloads show it at one version (the module's
    docstring says what each field is and what it is kept by)."""

    event: Event  # the row as read at `stamp`: its name, address and rules
    stamp: str
    rows_stamp: str
    standings: Standings
    player_ids: dict[str, int]
    over: bool
    # What the next version's standings are ranked from (`rank_since`).
    ranked: Ranked = field(repr=False, compare=False)

    @cached_property
    def progress(self) -> Progress:
        """The event's `Progress`. Once per version across every server."""
        return shared_progress(self.event)

    @cached_property
    def has_teams(self) -> bool:
        """Whether the event has teams (the standings show their tab). Teams change only by a
        write that is not a result (services/teams.py, an import), which moves the event's
        `structure_version`: kept by it, a result entered asks nothing more. One query when
        not kept."""
        event = self.event
        exists = Team.objects.filter(event=event).exists
        return shared("event-has-teams", structure_stamp(event), None, exists)

    @cached_property
    def fractions(self) -> frozenset[int]:
        """A venue of whole points: the rounds where some result has a fraction of a point (a
        round's column is shown whole only when none has). Made of the rows alone, once per
        `rows_stamp` across every server: at 10,000 players it reads every row. Elsewhere
        none is asked."""
        if not self.event.rules.whole_points:
            return frozenset()
        return shared(
            "published-fractions",
            self.rows_stamp,
            None,
            lambda: frozenset(fraction_rounds(self.standings)),
        )

    def row_count(self, stage_name: str = "") -> int:
        """How many rows the standings show: every ranked player, or those of the stage named
        (its ranking's groups) — what a window of them is a part of (the venue screen's
        "page 3 of 500")."""
        stage = self.standings.stage(stage_name)
        if stage is None or not stage_name:
            return len(self.standings.rows)
        return sum(len(group) for group in stage.order)


# Hundreds of phones refresh the same standings between two results: a record per event,
# made once per version in each process (selectors/cache.py).
_records = stamped_cache(slots=32)


def published(event: Event) -> PublishedEvent:
    """The event's record at the version `event` was read at. Queries: none when this process
    holds the version; after a result, the entries it recounted (one); else the stages,
    entries and penalties (three). Writes and organizer screens read the exact standings of
    their own transaction (selectors/standings.event_standings) instead."""

    def make(held: PublishedEvent | None) -> PublishedEvent:
        if held is not None and held.ranked.follows(event):
            return _record(event, rank_since(event, held.ranked))
        return _record(event, rank_event(event))

    return _records.get_or_follow(event.pk, event_stamp(event), make)


def published_of(events: Iterable[Event]) -> dict[int, PublishedEvent]:
    """`published` of several events (a player's page, a series) by event id: the records
    this process holds as they are, the others ranked together (three queries however many
    events)."""
    out: dict[int, PublishedEvent] = {}
    missing = []
    for event in events:
        hit = _records.peek(event.pk, event_stamp(event))
        if hit is None:
            missing.append(event)
        else:
            out[event.pk] = hit[0]
    for event, ranked in zip(missing, rank_events(missing) if missing else [], strict=True):
        record = _record(event, ranked)
        _records.put(event.pk, record.stamp, record)
        out[event.pk] = record
    return out


def _record(event: Event, ranked: Ranked) -> PublishedEvent:
    return PublishedEvent(
        event=event,
        stamp=event_stamp(event),
        rows_stamp=rows_stamp(event),
        standings=ranked.standings,
        player_ids=ranked.ids,
        # From the stages the standings were ranked with: closing one moves the structure on.
        over=event_over(s.closed for s in ranked.stages),
        ranked=ranked,
    )


def structure_stamp(event: Event) -> str:
    """The event's stamp at its last change that was not a result's (players, stages, teams,
    rules): what is made of those alone is kept by it."""
    return event_stamp((event.pk, event.created_at, f"s{event.structure_version}"))


# The standings' tag reads these on every poll (`standings_shown`): each process keeps the
# version it last read, so hundreds of polls between two writes ask the shared cache once —
# a Redis round trip was a tenth of a 1,024-player day's server time (py-spy, issue 67).
_progress = stamped_cache(slots=64)
_stage_ends = stamped_cache(slots=64)


def shared_progress(event: Event) -> Progress:
    """`round_progress` once per version of the event across every server, and kept by each
    process for that version (no cache read when it holds it)."""
    stamp = event_stamp(event)
    return _progress.get(
        event.pk,
        stamp,
        lambda: shared("published-progress", stamp, None, lambda: round_progress(event)),
    )


def stage_ends(event: Event) -> list[int | None]:
    """The last round of each of the event's stages (where what each player needs shows),
    once per structure across every server and kept by each process."""
    stamp = structure_stamp(event)

    def read() -> list[int | None]:
        return list(Stage.objects.filter(event=event).values_list("last_round", flat=True))

    return _stage_ends.get(event.pk, stamp, lambda: shared("event-stage-ends", stamp, None, read))


def standings_shown(event: Event) -> list[object]:
    """What the standings page shows, as stamps — its tag (issue 67: a page's tag moves only
    when what it shows moves): the rows (`rows_stamp`: a result, or any change but a hand);
    the rounds with a result, the round in play and whether play has begun there (its
    column's marker: the first hand moves it); and, while the round in play is a stage's last
    — where the page shows what each player needs, which every hand there moves — the
    event's own stamp. A hand elsewhere leaves the tag, and a phone polling it gets 304. No
    query beyond the event's row once its progress and stages are shared."""
    progress = shared_progress(event)
    shown: list[object] = [rows_stamp(event), progress]
    if progress.in_progress is not None:
        latest = max([*progress.rounds, progress.in_progress])
        # The conditions panels may show (selectors/conditions.deciding).
        if latest in stage_ends(event):
            shown.append(event_stamp(event))
    return shown


def rows_stamp(event: Event) -> str:
    """What the standings' rows are, as one string, from the event's row alone: the version
    of the last change to them (`Event.rows_version`: a result that recounted someone, or any
    change but a result's — never a hand). The same on every server: what is made of the rows
    alone is kept by it and found without ranking (the standings table, the standings and
    team files)."""
    return event_stamp((event.pk, event.created_at, f"r{event.rows_version}"))


def round_progress(event: Event) -> Progress:
    """The event's `Progress`, found without reading every player's rounds. One query, two
    EXISTS probes per round (the second through the partial index of games in play: 0.25 ms
    at 25,000 games, 6 ms reading them all), and while the round in progress has no clock
    running, whether any of its tables has begun (`round_begun`: up to two more); readers ask it
    through `PublishedEvent.progress`."""
    rows = (
        Round.objects.filter(event=event)
        .annotate(
            counted=Exists(Seat.objects.filter(round=OuterRef("pk"), rank__isnull=False)),
            playing=Exists(Game.objects.filter(round=OuterRef("pk"), finished=False)),
            played_out=~Exists(Game.objects.filter(round=OuterRef("pk")).exclude(PLAYED_OUT)),
        )
        .order_by("number")
        .values_list("pk", "number", "counted", "playing", "played_out", "clock_started_at")
    )
    rounds, in_progress, seating, confirming = [], None, False, False
    for pk, number, counted, playing, played_out, clock in rows:
        if counted:
            rounds.append(number)
        if playing and in_progress is None:
            in_progress = number
            seating = not round_begun(pk, clock)
            confirming = bool(played_out)
    return Progress(rounds, in_progress, seating, confirming)


def event_over(closed: Iterable[bool]) -> bool:
    """Every stage closed (`closed`: each stage's flag): the results are final. An event
    with no stage stored never is. Its standings then say so and stop refreshing."""
    flags = list(closed)
    return bool(flags) and all(flags)


def event_over_now(event: Event) -> bool:
    """`event_over` of one event. One query: its stages' closed flags."""
    return event_over(Stage.objects.filter(event=event).values_list("closed", flat=True))
