"""A standings page as one record (`standings_page`): what it says besides its table — the stage
tabs, the cut notes, the rounds in play, whether the standings are final — and, read only when
the template's cache does not hold the table, what the table is made from (`StandingsPage.table`).
The standings page, its live table and the venue screen render it; the team pages and the
screen's header read its summary (`standings_summary`)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, fields
from typing import Any

from django.conf import settings
from django.utils.translation import get_language

from scoring import Standings
from scoring.standings import StageResult
from tournament.i18n import cut_tie_text, tie_first_text, undecided_text
from tournament.models import Event
from tournament.selectors.cache import event_stamp
from tournament.selectors.conditions import Panels, event_panels
from tournament.selectors.events import format_text
from tournament.selectors.published import (
    Progress,
    PublishedEvent,
    published,
    standings_shown,
)


@dataclass(frozen=True)
class StandingsSummary:
    """What a standings page says besides its table, each field under the name its templates
    read (`context`)."""

    stages: list[str]  # the stage tabs; none for a single stage that advances nobody
    tab: str  # the tab asked for, if it is one
    has_teams: bool  # their tab beside the stages'
    cut_notes: list[str]  # of the stages shown
    complete: bool  # the last stage is complete
    undecided: str  # a later stage whose players are not decided yet: said instead of a table
    # The rows the tab shows, of which a screen shows a window: none in place of a note.
    rows: int

    def context(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def standings_summary(event: Event, tab: str) -> StandingsSummary:
    """What every page with the stage tabs says besides its table (the standings, the venue
    screen, the team pages), from the event's record (selectors/published.py): no query of its
    own unless whether the event has teams is not shared yet."""
    return _summary(published(event), tab)


def _summary(record: PublishedEvent, tab: str) -> StandingsSummary:
    event, result = record.event, record.standings
    names = list(result.named)  # every stage, where the ranking stops at a tie across a cut
    staged = len(names) > 1 or any(s.stage.advance for s in result.stages)
    stage = result.stage(tab) if staged else None
    shown = [stage] if stage is not None else result.stages
    notes = [cut_tie_text(s, event.rules.whole_points) for s in shown]
    # A later stage's tab before its players are decided: a note, not a table of the players
    # in the cut now (helper-51 read the final's four after round 1 of 6); where a played
    # stage's cut falls inside a tie, the note says the organizer settles it.
    deciding = result.deciding(tab) if staged else None
    undecided = ""
    if deciding is not None:
        undecided = tie_first_text(deciding) if deciding.complete else undecided_text(tab, deciding)
    return StandingsSummary(
        stages=names if staged else [],
        tab=tab if stage is not None or undecided else "",
        has_teams=record.has_teams,
        cut_notes=[str(n) for n in notes if n],
        complete=staged and result.complete,
        undecided=undecided,
        rows=0 if undecided else record.row_count(tab if stage is not None else ""),
    )


@dataclass(frozen=True)
class Kept:
    """What a `{% cache %}` fragment is kept by, made here and read by its template as
    `….key` (tests/tournament/test_fragment_keys.py: no view, form or template puts a key
    together)."""

    key: tuple


def screen_body_kept(
    event: Event, query: tuple[str, str, int], window: tuple[int, int], phase_key: tuple
) -> Kept:
    """What the venue screen's body is kept by (`_screen_body.html`): the event's version
    (it shows the seating or the rows, and the conditions), the checked query's key, the
    window of rows or tables, the language and the room's phase."""
    return Kept((event_stamp(event), query, window, get_language(), phase_key))


@dataclass(frozen=True)
class TableSource:
    """What the standings table is made from (exports/standings.standings_table)."""

    result: Standings
    stage: StageResult | None  # the tab's stage; None for the overall standings
    whole: bool  # a venue of whole points
    fractions: Collection[int]  # there, the rounds where some result has a fraction of a point
    player_ids: dict[str, int]  # names link to players by id; none for plain names
    rounds: list[int]  # the rounds with a result: the columns
    in_progress: int | None  # the round in play once play has begun: its column waits


@dataclass(frozen=True)
class StandingsPage:
    """A standings page of an event at one version, for one tab."""

    event: Event
    record: PublishedEvent = field(repr=False)
    summary: StandingsSummary
    # The round columns, the live marker and whether a round is only seated: once per version
    # (every write that starts, ends or changes a game moves it on), so the columns are chosen
    # without reading every player's rounds and only the rows shown are read.
    progress: Progress
    # The published rankings' stamp: a hand leaves it, a result moves it (`table_kept`).
    rows_stamp: str
    final: bool  # every stage closed: the page says so and stops asking
    panels: Panels | None  # what each player needs (issue 35), where the page shows it

    @property
    def live(self) -> bool:
        """The page follows itself (live.js) until it is final, or its last stage is complete
        with no round in play."""
        return not self.final and not (self.summary.complete and self.progress.in_progress is None)

    @property
    def format_text(self) -> str:
        """The format in words, as its stages are now (a stage closed early: its rounds)."""
        return format_text(self.event, self.record.ranked.stages)

    @property
    def round_numbers(self) -> list[int]:
        """The rounds the page links: those with a result and the one in play."""
        in_progress = self.progress.in_progress
        return sorted(set(self.progress.rounds) | ({in_progress} if in_progress else set()))

    def table_kept(
        self,
        query: tuple[str, str, int],
        per_page: int | None,
        links: bool,
        window: tuple[int, int] | None,
    ) -> Kept:
        """What the rendered table is kept by (`_standings.html`): the ranking, the round
        columns, the language and how the view shows it (its checked query's key, page size,
        links, window). Between two results every phone gets the same bytes, however many
        hands the tables enter."""
        progress = self.progress
        rounds, playing = tuple(progress.rounds), progress.playing
        return Kept(
            (self.rows_stamp, rounds, playing, get_language(), query, per_page, links, window)
        )

    def content_kept(self, query: tuple[str, str, int], can_manage: bool) -> Kept:
        """What the page's content is kept by (event_detail.html): what it shows (its tag's
        stamps, selectors/published.py `standings_shown`), the checked query's key, the
        language, whether the reader gets the organizer's link, and whether the site streams
        (the content says so: `data-stream`)."""
        kept = (standings_shown(self.event), query, get_language(), can_manage, settings.STREAMS)
        return Kept(kept)

    def table(self, *, links: bool) -> TableSource:
        """What the table is made from: read only when the template's cache does not hold
        the table (the published standings this process holds; a whole-point venue's
        fractions, shared per version). `links` False: names as plain text."""
        record, tab = self.record, self.summary.tab
        result = record.standings
        return TableSource(
            result=result,
            stage=result.stage(tab) if tab else None,
            whole=self.event.rules.whole_points,
            fractions=record.fractions,
            player_ids=record.player_ids if links else {},
            rounds=self.progress.rounds,
            in_progress=self.progress.playing,
        )


def standings_page(event: Event, tab: str, *, panels: bool = False) -> StandingsPage:
    """The standings page of `event` at `tab` (a stage's name, or "" for the overall
    standings); `panels`: with what each player needs. Queries: the standings (3, unless this
    process has ranked the version), the rounds (1, unless shared already), whether the event
    has teams (1, unless shared); the panels none unless a round is in play and they are not
    shared (conditions.event_panels)."""
    record = published(event)
    return StandingsPage(
        event=event,
        record=record,
        summary=_summary(record, tab),
        progress=record.progress,
        rows_stamp=record.rows_stamp,
        final=record.over,
        panels=event_panels(event) if panels else None,
    )
