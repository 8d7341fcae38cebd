"""Ratings across events (issue 34): the leaderboard of a pool (the site's, or a series' with
`?series=`), players below a minimum of games set aside, and its downloads. A player's rating
and its history are on their page (public/players.py). Reads only: services/ratings.py keeps
the ratings in step with the games."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournament.exports.files import ratings_file
from tournament.exports.ratings import ranked
from tournament.i18n import scale_text
from tournament.selectors.events import series_by_slug, series_choices
from tournament.selectors.ratings import (
    MIN_GAMES_CHOICES,
    MIN_GAMES_DEFAULT,
    Pool,
    board_and_due,
    pool_of,
    ratings_due,
)
from tournament.views.public.downloads import download
from tournament.views.query import known_query

PER_PAGE = 100


MOST_GAMES = 100_000  # a minimum beyond any player's games: no one listed, never an error


def _pool(request: HttpRequest) -> Pool:
    slug = request.GET.get("series", "")
    if not slug:
        return pool_of(None, _("Ratings"))
    series = series_by_slug(slug)
    if series is None:
        raise Http404
    return pool_of(series, series.name)


def _least(request: HttpRequest) -> int:
    try:
        least = int(request.GET.get("min", MIN_GAMES_DEFAULT))
    except ValueError:
        least = MIN_GAMES_DEFAULT
    return max(0, min(least, MOST_GAMES))


@require_GET
@known_query("series", "min", "page")
def ratings_page(request: HttpRequest) -> HttpResponse:
    """The leaderboard, 100 a page: rank, player, rating, games (μ and σ beside)."""
    pool = _pool(request)
    least = _least(request)
    paginator = Paginator(board_and_due(pool, least), PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    offset = (page.number - 1) * PER_PAGE
    listed = list(page.object_list)  # each row ends with whether the pool waits for a replay
    due = listed[0][-1] if listed else ratings_due(pool)
    rows = ranked([row[:-1] for row in listed], pool, least, offset)  # the files' and the API's
    return render(
        request,
        "tournament/ratings.html",
        {
            "pool": pool,
            "page": page,
            "rows": rows,
            "least": least,
            "due": due,
            "choices": sorted({*MIN_GAMES_CHOICES, least}),
            "scale": scale_text(),
            "series_list": series_choices(),
        },
    )


@require_GET
@known_query("series", "min")
def ratings_export(request: HttpRequest, fmt: str) -> HttpResponse:
    """The leaderboard as CSV, XLSX or JSON (CONTRACT §4's keys), the same minimum of games."""
    pool = _pool(request)
    least = _least(request) if "min" in request.GET else 0
    return download(ratings_file(pool, fmt, least), fmt, pool.slug)
