"""A player checking in at the venue from their own phone."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournament.forms.events import CheckinForm
from tournament.models import Event
from tournament.selectors.events import event_by_slug
from tournament.services.checkin import (
    checkin_code_right,
    checkin_phone_player,
    checkin_self,
)
from tournament.services.errors import ServiceError
from tournament.services.throttle import Throttled, client_network, guess_take
from tournament.views.errors import stopped
from tournament.views.table.phone import phone_id

CHECKIN_KEY = "checkin:{event}"  # the session's note of the player this phone checked in


@never_cache
@require_http_methods(["GET", "POST"])
def event_checkin(request: HttpRequest, slug: str) -> HttpResponse:
    """A player checks in at the venue: name and the code shown there (it changes every few
    minutes). Wrong codes count per phone and per address (services/throttle.py); a right one
    gives its try back. A phone checks in one player, its own: once it has, it says whom and
    refuses another name until the organizer undoes that check-in."""
    event = event_by_slug(slug)
    if event is None:
        raise Http404
    held = checkin_phone_player(event, request.session.get(CHECKIN_KEY.format(event=event.pk)))
    form = CheckinForm(request.POST or None)
    status: int | Throttled = 200
    if form.is_bound:
        status = 400
        if form.is_valid():
            status = _checkin_try(request, event, form)
            if status == 302:
                return redirect("event-checkin", event.slug)
    context = {"event": event, "form": form, "held": held}
    if isinstance(status, Throttled):
        return stopped(render(request, "tournament/checkin.html", context, status=429), status)
    return render(request, "tournament/checkin.html", context, status=status)


def _checkin_try(request: HttpRequest, event: Event, form: CheckinForm) -> int | Throttled:
    """The answer's status, or the limit that stopped this try (its wait said on `form`)."""
    try:
        guess = guess_take("checkin", phone=phone_id(request), address=client_network(request))
    except Throttled as stop:
        minutes = max(1, -(-stop.seconds // 60))
        form.add_error(
            "code",
            ngettext(
                "Too many wrong codes from this phone or network. Try again in %(n)d minute, "
                "or ask the organizer to tick you present.",
                "Too many wrong codes from this phone or network. Try again in %(n)d minutes, "
                "or ask the organizer to tick you present.",
                minutes,
            )
            % {"n": minutes},
        )
        return stop
    if not checkin_code_right(event, form.cleaned_data["code"]):
        form.add_service_error(ServiceError("checkin.code_wrong", "code"))
        return 400
    guess.right()
    key = CHECKIN_KEY.format(event=event.pk)
    try:
        entry = checkin_self(
            event=event, name=form.cleaned_data["name"], phone_player=request.session.get(key)
        )
    except ServiceError as exc:
        form.add_service_error(exc)
        return 400
    request.session[key] = entry.pk
    messages.success(
        request, _("%(name)s is checked in. Wait for the seating.") % {"name": entry.player.name}
    )
    return 302
