"""A season's pages: its public standings (a column per event) and downloads, and the
organizer's screens to make it and fill it. Thin: forms collect, services write, the
selector reads (selectors/series.py)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournament.exports import export_series
from tournament.forms.series import SeriesAddEventForm, SeriesForm
from tournament.html_tables import series_table
from tournament.models import Event, Series
from tournament.permissions import (
    can_manage_series,
    event_creator_required,
    series_organizer_required,
)
from tournament.selectors.series import series_standings
from tournament.selectors.teams import series_teams
from tournament.services.errors import ServiceError
from tournament.services.series import (
    series_add_event,
    series_create,
    series_remove_event,
    series_set_rule,
)
from tournament.views.public import download


@require_GET
def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
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
    series = get_object_or_404(Series, slug=slug)
    return download(export_series(series_standings(series), fmt), fmt, f"{series.slug}-standings")


@event_creator_required
def series_new(request: HttpRequest) -> HttpResponse:
    form = SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            series = series_create(user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("The series is made; add its events."))
            return redirect("series-manage", series.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, "tournament/series_new.html", {"form": form}, status=status)


@series_organizer_required
def series_manage(request: HttpRequest, series: Series) -> HttpResponse:
    """The rule and the events of a season."""
    events = Event.objects.exclude(series_members__series=series).order_by("-created_at")
    rule_form = SeriesForm(
        request.POST if request.POST.get("action") == "rule" else None,
        instance_rule=series,
        rule_only=True,
    )
    add_form = SeriesAddEventForm(
        request.POST if request.POST.get("action") == "add" else None, events=events
    )
    status = 200
    if request.method == "POST":
        form = rule_form if request.POST.get("action") == "rule" else add_form
        if form.is_valid():
            try:
                if form is rule_form:
                    data = form.cleaned_data
                    series_set_rule(
                        series=series,
                        rule=data["rule"],
                        best_of=data["best_of"],
                        min_games=data["min_games"],
                        user=request.user,
                    )
                else:
                    series_add_event(
                        series=series, slug=form.cleaned_data["event"], user=request.user
                    )
            except ServiceError as exc:
                form.add_service_error(exc)
            else:
                messages.success(request, _("Saved."))
                return redirect("series-manage", series.slug)
        status = 400
    members = series.members.select_related("event").order_by("position")
    return render(
        request,
        "tournament/series_manage.html",
        {"series": series, "rule_form": rule_form, "add_form": add_form, "members": members},
        status=status,
    )


@series_organizer_required
@require_POST
def series_event_remove(request: HttpRequest, series: Series, event_id: int) -> HttpResponse:
    series_remove_event(series=series, event_id=event_id, user=request.user)
    messages.success(request, _("The event is out of the series."))
    return redirect("series-manage", series.slug)
