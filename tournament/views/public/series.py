"""A season's public pages: its standings (a column per event) and downloads."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament.exports.files import series_file
from tournament.exports.series import series_table
from tournament.permissions import can_manage_series
from tournament.selectors.events import series_by_slug
from tournament.selectors.series import series_standings
from tournament.selectors.teams import series_teams
from tournament.views.public.downloads import download


@require_GET
def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    series = series_by_slug(slug)
    if series is None:
        raise Http404
    result = series_standings(series)
    return render(
        request,
        "tournament/series_detail.html",
        {
            "series": series,
            "result": result,
            "table": series_table(result),
            "teams": series_teams(series),
            "whole": all(e.rules.whole_points for e in result.events),
            "can_manage": can_manage_series(request.user, series),
        },
    )


@require_GET
def series_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    series = series_by_slug(slug)
    if series is None:
        raise Http404
    return download(series_file(series, fmt), fmt, f"{series.slug}-standings")
