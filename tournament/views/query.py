"""The query a shared page is made for: only the parameters it reads, each checked.

A shared page's cache key holds the parsed query (`StandingsQuery.key`), never the address's
raw query string, so nobody can make a page — or a cache entry — per made-up parameter
(issue 31, "bounded keys"):
- a parameter the page does not read is dropped by a redirect to the same address without it
  (`known_query`), before the view runs;
- a value the page cannot show is 404: a stage the event does not have, a sort by no column,
  a page past the last.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from math import ceil
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect

from tournament.exports.standings import standings_sort_keys
from tournament.models import Event
from tournament.selectors.events import entry_count
from tournament.selectors.standings import event_has_stage


def known_query(
    *names: str,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view that reads only `names` from its query: an address with any other parameter is
    sent to itself without it (302), so the view never sees one."""

    def wrap(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            unknown = [k for k in request.GET if k not in names]
            if not unknown:
                return view(request, *args, **kwargs)
            kept = request.GET.copy()
            for key in unknown:
                del kept[key]
            query = kept.urlencode()
            return HttpResponseRedirect(request.path + (f"?{query}" if query else ""))

        return checked

    return wrap


STANDINGS_PARAMETERS = ("stage", "sort", "page")


@dataclass(frozen=True)
class StandingsQuery:
    """What a standings page shows: a stage's tab ("" for all), the sort column ("" for the
    ranking) and the page (1…)."""

    stage: str = ""
    sort: str = ""
    page: int = 1

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.stage, self.sort, self.page)

    @property
    def encoded(self) -> str:
        """The query as an address carries it, defaults left out."""
        shown = {"stage": self.stage, "sort": self.sort, "page": self.page if self.page > 1 else ""}
        return urlencode({k: v for k, v in shown.items() if v})


def _one(request: HttpRequest, name: str) -> str:
    values = request.GET.getlist(name)
    if len(values) > 1:
        raise Http404  # which one? no page asks twice
    return values[0] if values else ""


def standings_query(request: HttpRequest, event: Event, per_page: int | None) -> StandingsQuery:
    """The checked query of a standings page (the page, its live table, the venue screen);
    404 for a value it cannot show. Queries: one per parameter given (none for the plain
    address)."""
    stage = _one(request, "stage")
    if stage and not event_has_stage(event, stage):
        raise Http404
    sort = _one(request, "sort")
    if sort and sort not in standings_sort_keys(event.rules.players):
        raise Http404
    raw_page = _one(request, "page")
    page = 1
    if raw_page:
        if per_page is None or not raw_page.isascii() or not raw_page.isdigit():
            raise Http404  # the venue screen pages itself; a page is a number
        page = int(raw_page)
        pages = max(1, ceil(entry_count(event) / per_page))
        if not 1 <= page <= pages:
            raise Http404
    return StandingsQuery(stage=stage, sort=sort, page=page)
