"""The event's settings page: the day it is played and its rules' knobs (issue 66)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament.forms.event_settings import EventSettingsForm
from tournament.models import Event
from tournament.permissions import organizer_required
from tournament.selectors.rounds import any_round_seated
from tournament.services.errors import ServiceError
from tournament.services.event_settings import event_settings_set


@organizer_required
def event_settings(request: HttpRequest, event: Event) -> HttpResponse:
    fixed = any_round_seated(event)  # the rules are fixed from the first round seated
    data = request.POST if request.method == "POST" else None
    form = EventSettingsForm(data, event=event, rules_fixed=fixed)
    if form.is_bound and form.is_valid():
        try:
            event_settings_set(event=event, **form.service_kwargs(), user=request.user)
        except ServiceError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("The date and the rules are saved."))
            return redirect("event-manage", event.slug)
    context = {"event": event, "form": form, "rules_fixed": fixed}
    status = 400 if form.is_bound else 200  # a bound form here has errors
    return render(request, "tournament/manage/event_settings.html", context, status=status)
