"""Reads for events and standings. Each costs a fixed number of queries, whatever the size."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal
from itertools import groupby
from operator import itemgetter

from django.db.models import Count, Q, QuerySet

from scoring import FORMATS, GameResult, Standings
from scoring.standings import Format, Row, StageResult, rank_rows
from scoring.standings import Penalty as EnginePenalty
from scoring.standings import Stage as StageRule
from scoring.standings.again import rank_again
from tournament.models import Entry, Event, Penalty, Player, Seat, Stage


def event_list() -> QuerySet[Event]:
    """Events, newest first, with their players counted: every entry (`player_count`), and —
    for an event taking check-in, whose list says "checked in 13 / registered 16" — those in
    play and those of them checked in. One query."""
    in_play = Q(entries__withdrawn=False, entries__substitute=False)
    present = in_play & Q(entries__present=True)
    return (
        Event.objects.select_related("venue")
        .annotate(
            player_count=Count("entries", distinct=True),
            in_play_count=Count("entries", filter=in_play, distinct=True),
            present_count=Count("entries", filter=present, distinct=True),
        )
        .order_by("-created_at", "name")
    )


def event_has_stage(event: Event, name: str) -> bool:
    """Whether `?stage=name` names one of the event's stages (downloads and the API refuse
    any other). One query."""
    return event.stages.filter(name=name).exists()


def event_format(event: Event, stages: list[Stage] | None = None) -> Format:
    """The event's stages as stored (they were copied from the format when it was made)."""
    rows = stages if stages is not None else list(event.stages.all())
    if not rows:
        return FORMATS[event.format]
    return Format(
        event.format,
        tuple(StageRule(s.name, s.first_round, s.last_round, s.advance) for s in rows),
    )


SEAT_FIELDS = ("game_id", "round__number", "player_id", "rank", "points", "chips")
# An entry as standings read it: who, and the figures the writes keep (services/standings.py);
# the per-round results are JSON text, decoded only for rows whose rounds are shown.
ENTRY_FIELDS = ("player_id", "player__name", "substitute", "total", "games", "firsts", "results")


def event_results(event: Event) -> list[GameResult]:
    """Every finished game's stored per-seat results, in one query (the figures the entries
    keep are counted from these; a test compares the two)."""
    rows = list(
        Seat.objects.filter(round__event=event, rank__isnull=False)
        .order_by("game_id", "position")
        .values_list(*SEAT_FIELDS)
    )
    names = dict(Player.objects.filter(pk__in={r[2] for r in rows}).values_list("pk", "name"))
    results = []
    for _, seated in groupby(rows, itemgetter(0)):
        _, rounds, ids, ranks, points, chips = zip(*seated, strict=True)
        # Points stay Decimals: the engine adds them exactly (a float would be rounded back).
        players = tuple(names[i] for i in ids)
        results.append(GameResult(rounds[0], players, ranks, points, chips))
    return results


def event_standings(event: Event) -> Standings:
    """Standings of one event. Queries: stages, entries, penalties — three, whatever the
    size: each entry holds its player's figures, so no seat is read."""
    return rank_event(event).standings


@dataclass(frozen=True, slots=True)
class Ranked:
    """Standings with what they were ranked from: the event's version they were read at and
    its stages, entries (by player id) and penalties — so the next version's standings can be
    ranked from these and the few entries a result has recounted since (`rank_since`)."""

    standings: Standings
    # Player id by name, from the entries read anyway: pages link players by id, never by a
    # name that may hold any character.
    ids: dict[str, int]
    created: datetime  # with the version, which event's state (ids repeat after a rollback)
    version: int
    stages: list[Stage]
    entries: dict[int, tuple]  # ENTRY_FIELDS by player id
    penalties: Sequence[tuple]

    def follows(self, event: Event) -> bool:
        """These standings can be brought up to `event`'s version by re-reading the entries
        recounted since: only games' results have changed in between (services/changes.py
        moves `structure_version` on at any other change)."""
        return (
            self.created == event.created_at
            and event.structure_version < self.version < event.version
        )


def _entries(event: Event) -> QuerySet[Entry]:
    """The rows the standings rank: a player withdrawn before finishing a game is in none (as
    one whose sign-up was withdrawn from their own link, whose entry is gone); withdrawn after,
    their games stay."""
    # No order: ranking orders them; sorting 10,000 names by collation costs PostgreSQL ~10 ms.
    return Entry.objects.filter(event=event).exclude(withdrawn=True, games=0).order_by()


def rank_event(event: Event) -> Ranked:
    """The event ranked from scratch, never kept (selectors/published.py keeps the read
    model; bench/run.py times it against a cache). Queries: stages, entries, penalties."""
    stages = list(event.stages.all())
    with collector_paused():
        entries = {row[0]: _kept(row) for row in _entries(event).values_list(*ENTRY_FIELDS)}
        penalties = list(
            Penalty.objects.filter(event=event, cancelled_at__isnull=True).values_list(
                *PENALTY_FIELDS
            )
        )
        return _ranked_from(event, stages, entries, penalties)


def rank_since(event: Event, held: Ranked) -> Ranked:
    """`event` ranked from standings `held` of an earlier version that it `follows`: its
    stages and penalties have not changed, nor has any entry but those the writes since have
    recounted, each marked with the version it was recounted from. One query: those entries.
    Where the format lets it, only the places between those players' old and new ones are
    ranked again (`rank_again`), else everyone is.
    A write after this one was read may show in them already (newer, never older); the
    standings stay stamped with this read's version, and the next reader re-reads the entries
    of that version on."""
    with collector_paused():
        recounted = _entries(event).filter(figures_version__gte=held.version)
        fresh = {row[0]: _kept(row) for row in recounted.values_list(*ENTRY_FIELDS)}
        if not fresh:  # hands only since: the same entries, stages and penalties
            return replace(held, version=event.version)
        entries = {**held.entries, **fresh}
        fmt, decisions, substitutes, penalties = _engine_inputs(
            event, held.stages, entries, held.penalties
        )
        changed = [_row(entry) for entry in fresh.values() if entry[1] not in substitutes]
        again = rank_again(held.standings, changed, fmt, decisions, penalties)
        if again is None:
            return _ranked_from(event, held.stages, entries, held.penalties)
        return Ranked(
            again,
            held.ids,
            event.created_at,
            event.version,
            held.stages,
            entries,
            held.penalties,
        )


def rank_events(events: list[Event]) -> list[Ranked]:
    """`rank_event` of several events (a player's page, a series), read together — stages,
    entries, penalties: three queries however many events."""
    ids = [e.pk for e in events]
    stages: dict[int, list[Stage]] = {pk: [] for pk in ids}
    for stage in Stage.objects.filter(event_id__in=ids):
        stages[stage.event_id].append(stage)
    entries: dict[int, dict[int, tuple]] = {pk: {} for pk in ids}
    penalties: dict[int, list[tuple]] = {pk: [] for pk in ids}
    with collector_paused():
        # The same rows as `_entries`: a player withdrawn before any game is in none.
        rows = Entry.objects.filter(event_id__in=ids).exclude(withdrawn=True, games=0).order_by()
        for event_id, *entry in rows.values_list("event_id", *ENTRY_FIELDS):
            entries[event_id][entry[0]] = _kept(entry)
        for event_id, *penalty in Penalty.objects.filter(
            event_id__in=ids, cancelled_at__isnull=True
        ).values_list("event_id", *PENALTY_FIELDS):
            penalties[event_id].append(tuple(penalty))
        return [_ranked_from(e, stages[e.pk], entries[e.pk], penalties[e.pk]) for e in events]


def _row(entry: tuple) -> Row:
    """An entry as `_kept` holds it, as the engine's row; its rounds decoded when first asked."""
    _, name, _substitute, total, games, firsts, played = entry
    return Row(name, total=total, games=games, firsts=firsts, played=played)


def _engine_inputs(
    event: Event, stages: list[Stage], entries: dict[int, tuple], penalties: Sequence[tuple]
) -> tuple[Format, dict[str, list[str]], set[str], list[EnginePenalty]]:
    """What the engine ranks the entries by: the event's format, the organizer's decisions,
    the substitutes (who rank nowhere) and the penalties by name."""
    names = {pk: entries[pk][1] for pk, *_ in penalties}  # not every entry's: most have none
    return (
        event_format(event, stages),
        {s.name: s.decision for s in stages if s.decision},
        {entry[1] for entry in entries.values() if entry[2]},
        [EnginePenalty(names[pk], pts, number) for pk, pts, number in penalties],
    )


def _ranked_from(
    event: Event, stages: list[Stage], entries: dict[int, tuple], penalties: Sequence[tuple]
) -> Ranked:
    """Ranked from entries as `_kept` holds them (their results wrapped, not decoded)."""
    fmt, decisions, substitutes, engine_penalties = _engine_inputs(
        event, stages, entries, penalties
    )
    standings = rank_rows(
        [_row(entry) for entry in entries.values() if not entry[2]],
        fmt,
        decisions=decisions,
        substitutes=substitutes,
        penalties=engine_penalties,
    )
    ids = {entry[1]: pk for pk, entry in entries.items()}
    version = event.version
    return Ranked(standings, ids, event.created_at, version, stages, entries, penalties)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while the standings are made: 10,000 rows set off
    dozens of collections, each walking every object the process holds, though rows, tuples
    and their figures make no cycle for it to find — a quarter of the time ranking took on
    the bench machine. Left as it was if something else had paused it."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


PENALTY_FIELDS = ("player_id", "points", "round_number")


class KeptResults:
    """An entry's results by round as the writes keep them (services/standings.py): JSON
    text, `[[round, "points", rank, chips], …]`, points with one decimal as the seats hold
    them. Decoded only when a row's rounds are shown."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __call__(self) -> list[tuple[int, Decimal, int, int]]:
        return [(n, Decimal(p), rank, chips) for n, p, rank, chips in json.loads(self.text)]

    def has_fraction(self) -> bool:
        """Some result is not a whole number of points: found without decoding, as every
        point in the text is written with one decimal ("12.0", "-3.5")."""
        return self.text.count(".") != self.text.count('.0"')


def _kept(row: tuple) -> tuple:
    """An entry as ENTRY_FIELDS reads it, its results text wrapped (`KeptResults`) once:
    standings ranked again from the same entries share it."""
    *figures, text = row
    return (*figures, KeptResults(text))


def fraction_rounds(result: Standings) -> set[int]:
    """The rounds where some player's result has a fraction of a point: a venue of whole
    points shows a round's column whole only when none does. Only the rows that have one
    are decoded (a whole-point venue rarely has any)."""
    fractions: set[int] = set()
    for row in result.rows:
        kept = row.played
        if isinstance(kept, KeptResults) and not kept.has_fraction():
            continue
        fractions.update(n for n, points in row.rounds.items() if points % 1)
    return fractions


def stage_result(event: Event, name: str) -> StageResult | None:
    """One stage's ranking and cut (None until its players are known: a tie before it)."""
    return event_standings(event).stage(name)
