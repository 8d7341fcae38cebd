"""An event's standings: the page, the table alone for its refresh, and its downloads. Each
renders the page's record (selectors/standings_page.py); the table and its notes
(`standings_context`) are shared with the venue screen."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from tournament.exports.files import standings_file
from tournament.exports.standings import StandingsTable, standings_table
from tournament.http_caching import by_event_shown, by_event_version
from tournament.models import Event
from tournament.permissions import can_referee
from tournament.selectors.conditions import Panels
from tournament.selectors.published import standings_shown
from tournament.selectors.standings import event_has_stage
from tournament.selectors.standings_page import StandingsPage, standings_page
from tournament.views.public.downloads import download
from tournament.views.query import (
    STANDINGS_PARAMETERS,
    StandingsQuery,
    known_query,
    standings_query,
)

# How often the standings, a round's page and the venue screen ask again (issue 66: 30 s left
# them 27–29 s behind the tables, whose own page follows in 1–4 s). A poll that finds nothing
# new is a 304 from the event's row and shared stamps (the standings' tag moves only with what
# they show: selectors/published.py `standings_shown`).
REFRESH_SECONDS = 5


PER_PAGE = 100  # a phone scrolls 100 rows comfortably; a 1,000-player table is 10 pages


def standings_context(
    request: HttpRequest,
    page: StandingsPage,
    query: StandingsQuery,
    per_page: int | None = PER_PAGE,
    links: bool = True,
    window: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """A standings table and its notes as `page` has them (selectors/standings_page.py). The
    table itself is rendered only when `_standings.html` does not hold it for `table_kept`
    already (`table_html`, called by the template inside its `{% cache %}`). `per_page` None:
    every row (the venue screen pages through them itself); `links` False: names as plain
    text (the projector: nobody clicks it); `window` (first, count): those rows only, sliced
    from the ranked standings (the venue screen asks for a screenful at a time), and
    `window_rows` says which rows were sent of how many."""
    summary, progress = page.summary, page.progress

    @cache
    def made() -> StandingsTable:
        source = page.table(links=links)
        table = standings_table(
            source.result,
            players_per_table=page.event.rules.players,
            whole=source.whole,
            stage=source.stage,
            in_progress=source.in_progress,  # a seated round's column waits for its play
            sorted_by_user=bool(query.sort and query.sort != "rank"),
            player_ids=source.player_ids,
            rounds=source.rounds,
            fractions=source.fractions,
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

    # The table's own links are made from the request's query, which `known_query` has left
    # holding only what the key holds.
    return {
        "cut_notes": summary.cut_notes,
        "undecided": summary.undecided,  # said instead of the table
        "event": page.event,
        "table_html": render_table,
        "table_kept": page.table_kept(query.key, per_page, links, window),
        "window_rows": window_rows if window is not None and summary.rows else None,
        "stages": summary.stages,
        "tab": summary.tab,
        "has_teams": summary.has_teams,
        "in_progress": progress.in_progress,
        "seating": progress.seating,
        "confirming": progress.confirming,
        "round_numbers": page.round_numbers,
        "format_text": page.format_text,
        "final": page.final,
        "live": page.live,
        "refresh": REFRESH_SECONDS,
        "streams": settings.STREAMS,  # the page follows its stream where the site runs one
        # When the standings last changed (a hand leaves it: the page's tag does not move
        # with one either); an event older than the field, its last change of any kind.
        "updated": page.event.rows_changed_at or page.event.updated_at,
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


def conditions_context(event: Event, panels: Panels | None) -> dict[str, Any]:
    """What each player needs (issue 35), as the templates read it: the panels of the tables
    at their last hand in the deciding round, and — before its games — the gaps and each
    place's need (selectors/conditions.event_panels)."""
    return {**(panels or {}), "whole": event.rules.whole_points}


@known_query(*STANDINGS_PARAMETERS)
@by_event_shown(standings_shown)
def event_detail(request: HttpRequest, event: Event) -> HttpResponse:
    """The standings page. Its content is kept by the template (event_detail.html) per
    version, checked query and language (and apart for those who may manage the event: their
    link); the frame around it is drawn per request, or the whole page kept by its tag for
    readers not signed in (http_caching.py `whole_page`)."""
    can_manage = can_referee(request.user, event)  # organizers and referees
    query = standings_query(request, event, PER_PAGE)
    page = standings_page(event, query.stage, panels=True)
    context = {
        **standings_context(request, page, query),
        **conditions_context(event, page.panels),
        "can_manage": can_manage,
        "content_kept": page.content_kept(query.key, can_manage),
    }
    return render(request, "tournament/event_detail.html", context)


@require_GET
@known_query(*STANDINGS_PARAMETERS)
@by_event_shown(standings_shown)
def standings_live(request: HttpRequest, event: Event) -> HttpResponse:
    """The standings table alone, for the page to refresh itself without reloading."""
    return _table_fragment(request, event, PER_PAGE)


def _table_fragment(request: HttpRequest, event: Event, per_page: int | None) -> HttpResponse:
    """The standings table alone (the page's refresh): the table the same bytes for every
    reader of a version, query, language and page size (kept by `_standings.html`)."""
    query = standings_query(request, event, per_page)
    context = standings_context(request, standings_page(event, query.stage), query, per_page)
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
