"""An event's standings: the page, the table alone for its refresh, and its downloads; and what
a standings page says besides its table (stage tabs, cut notes), shared with the venue
screen and the team pages."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from tournament.exports.files import standings_file
from tournament.exports.standings import StandingsTable, standings_table
from tournament.i18n import cut_tie_text, tie_first_text, undecided_text
from tournament.models import Event
from tournament.permissions import can_referee
from tournament.selectors.cache import event_stamp
from tournament.selectors.conditions import event_panels
from tournament.selectors.standings import (
    event_has_stage,
    published_fractions,
    published_over,
    published_player_ids,
    published_row_count,
    published_rows_stamp,
    published_standings,
    shared_progress,
)
from tournament.selectors.teams import has_teams
from tournament.views.conditional import by_event_version
from tournament.views.public.downloads import download
from tournament.views.query import (
    STANDINGS_PARAMETERS,
    StandingsQuery,
    known_query,
    standings_query,
)

REFRESH_SECONDS = 30


PER_PAGE = 100  # a phone scrolls 100 rows comfortably; a 1,000-player table is 10 pages


def standings_context(
    request: HttpRequest,
    event: Event,
    query: StandingsQuery,
    per_page: int | None = PER_PAGE,
    links: bool = True,
    window: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """What a standings table and its notes show, from the selectors: the standings (3
    queries unless this process has ranked the event's version), the rounds (1, unless
    shared already: those with results, the one in progress). The table itself is rendered
    only when `_standings.html` does not hold it for `table_key` already (`table_html`, called
    by the template inside its `{% cache %}`). `per_page` None: every row (the venue screen
    pages through them itself); `links` False: names as plain text (the projector: nobody
    clicks it); `window` (first, count): those rows only, sliced from the ranked standings
    (the venue screen asks for a screenful at a time), and `window_rows` says which rows
    were sent of how many."""
    summary = standings_summary(event, query.stage)
    # The round columns, the live marker and, at a venue of whole points, the rounds with a
    # fraction of a point: once per version (every write that starts, ends or changes a game
    # moves it on), so the columns are chosen without reading every player's rounds and only
    # the rows shown are read.
    progress = shared_progress(event)
    rounds, in_progress = progress.rounds, progress.in_progress

    @cache
    def made() -> StandingsTable:
        result = published_standings(event)
        whole = event.rules.whole_points
        fractions = published_fractions(event) if whole else ()
        table = standings_table(
            result,
            players_per_table=event.rules.players,
            whole=whole,
            stage=result.stage(summary["tab"]) if summary["tab"] else None,
            in_progress=progress.playing,  # a seated round's column waits for its play
            sorted_by_user=bool(query.sort and query.sort != "rank"),
            player_ids=published_player_ids(event) if links else {},
            rounds=rounds,
            fractions=fractions,
        )
        if window is None:
            paginate: Any = {"per_page": per_page} if per_page else False
            RequestConfig(request, paginate=paginate).configure(table)
        else:
            RequestConfig(request, paginate=False).configure(table)  # the reader's sort
            first, count = window
            table.paginate(RowWindow, per_page=count, first=first)
        return table

    def render_table() -> str:
        return made().as_html(request)

    def window_rows() -> tuple[int, int]:
        table = made()
        return table.paginator.first, table.paginator.count

    # The rendered table (a hundred rows of twenty cells is most of a page's time) is kept by
    # the template per ranking (`published_rows_stamp`: a hand leaves it, a result moves it),
    # round columns, language and checked query: between two results every phone gets the
    # same bytes, however many hands the tables enter. The table's own links are made from
    # the request's query, which `known_query` has left holding only what the key holds.
    stamp = published_rows_stamp(event)
    key = (
        stamp,
        tuple(rounds),
        progress.playing,
        get_language(),
        query.key,
        per_page,
        links,
        window,
    )
    played = set(rounds) | ({in_progress} if in_progress else set())
    return {
        "cut_notes": summary["cut_notes"],
        "undecided": summary["undecided"],  # said instead of the table
        "event": event,
        "table_html": render_table,
        "table_key": key,
        "window_rows": window_rows if window is not None and summary["rows"] else None,
        "stages": summary["stages"],
        "tab": summary["tab"],
        "has_teams": summary["has_teams"],
        "in_progress": in_progress,
        "seating": progress.seating,
        "round_numbers": sorted(played),
        # Every stage closed: the standings are final, the page says so and stops asking.
        "final": (final := published_over(event)),
        "live": not final and not (summary["complete"] and in_progress is None),
        "refresh": REFRESH_SECONDS,
        "updated": event.updated_at,  # the last change (services/changes.py), not this render
        "query": query.encoded,
    }


class RowWindow(Paginator):
    """`per_page` rows from row `first` as the one page there is (the venue screen's window):
    a window past the end is the last rows, never an empty table saying nobody plays."""

    def __init__(self, object_list: Any, per_page: int, first: int = 0) -> None:
        super().__init__(object_list, per_page)
        self.first = max(0, min(first, self.count - per_page))

    @property
    def num_pages(self) -> int:
        return 1  # the table draws no page links: the screen turns its own pages

    def page(self, number: Any) -> Page:
        return Page(self.object_list[self.first : self.first + self.per_page], 1, self)


def conditions_context(event: Event) -> dict[str, Any]:
    """What each player needs (issue 35): the panels of the tables at their last hand in the
    deciding round, and — before its games — the gaps and each place's need."""
    return {**event_panels(event), "whole": event.rules.whole_points}


def standings_summary(event: Event, tab: str) -> dict[str, Any]:
    """What a standings page says besides its table, from the ranking: the stage tabs (names;
    none for a single stage that advances nobody), the tab asked for if it is one, whether
    the event has teams (their tab), the cut notes of the stages shown, and whether the last
    stage is complete (every page with the tabs: the standings, the venue screen, the team
    pages). From the standings this process holds for the version; no query of its own
    unless whether the event has teams is not shared yet."""
    result = published_standings(event)
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
    return {
        "stages": names if staged else [],
        "tab": tab if stage is not None or undecided else "",
        "has_teams": has_teams(event),
        "cut_notes": [str(n) for n in notes if n],
        "complete": staged and result.complete,
        "undecided": undecided,
        # The rows the tab shows, of which a screen shows a window: none in place of a note.
        "rows": 0 if undecided else published_row_count(event, tab if stage is not None else ""),
    }


@known_query(*STANDINGS_PARAMETERS)
@by_event_version
def event_detail(request: HttpRequest, event: Event) -> HttpResponse:
    """The standings page. Its content is kept by the template (event_detail.html) per
    version, checked query and language (and apart for those who may manage the event: their
    link); the frame around it is drawn per request, or the whole page kept by its tag for
    readers not signed in (views/whole_pages.py)."""
    can_manage = can_referee(request.user, event)  # organizers and referees
    query = standings_query(request, event, PER_PAGE)
    context = {
        **standings_context(request, event, query),
        **conditions_context(event),
        "can_manage": can_manage,
        "content_key": (event_stamp(event), query.key, get_language(), can_manage),
    }
    return render(request, "tournament/event_detail.html", context)


@require_GET
@known_query(*STANDINGS_PARAMETERS)
@by_event_version
def standings_live(request: HttpRequest, event: Event) -> HttpResponse:
    """The standings table alone, for the page to refresh itself without reloading."""
    return _table_fragment(request, event, PER_PAGE)


def _table_fragment(request: HttpRequest, event: Event, per_page: int | None) -> HttpResponse:
    """The standings table alone (the page's refresh): the table the same bytes for every
    reader of a version, query, language and page size (kept by `_standings.html`)."""
    query = standings_query(request, event, per_page)
    context = standings_context(request, event, query, per_page)
    response = HttpResponse(render_to_string("tournament/_standings.html", context))
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
@known_query("stage")
@by_event_version
def standings_export(request: HttpRequest, event: Event, fmt: str) -> HttpResponse:
    """CONTRACT §2 files, from the same rows as the page (tournament/exports/standings.py)."""
    stage = request.GET.get("stage", "")
    if stage and not event_has_stage(event, stage):
        raise Http404  # as the API: a stage the event does not have is no file
    data = standings_file(event, fmt, stage)
    name = f"{event.slug}-{stage}-standings" if stage else f"{event.slug}-standings"
    return download(data, fmt, name)
