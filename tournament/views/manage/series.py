"""A season's organizer screens: make it, set its rule, add and remove its events."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.forms.series import SeriesAddEventForm, SeriesForm
from tournament.models import Series
from tournament.permissions import (
    event_creator_required,
    series_organizer_required,
)
from tournament.selectors.events import events_outside, series_members
from tournament.services.errors import ServiceError
from tournament.services.series import (
    series_add_event,
    series_create,
    series_remove_event,
    series_set_rule,
)


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
    events = events_outside(series)
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
    members = series_members(series)
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
