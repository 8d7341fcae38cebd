"""The event's players: registered from a pasted list, withdrawn or back in, checked in at the
venue (or not, and the absent withdrawn), and each one's profile (EMA number, country, names
online)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament.exports.files import ema_file
from tournament.forms.events import PlayersForm
from tournament.forms.players import ProfileForm
from tournament.i18n import error_text
from tournament.models import Event
from tournament.permissions import organizer_required
from tournament.selectors.checkin import checkin_code_shown
from tournament.selectors.events import entry_of
from tournament.services.checkin import (
    checkin_mark,
    checkin_require,
    withdraw_absent,
)
from tournament.services.errors import ServiceError
from tournament.services.events import (
    entry_withdraw,
    event_register_players,
)
from tournament.services.profiles import entry_profile, entry_profile_set
from tournament.views.manage.dashboard import dashboard_page, registered_messages
from tournament.views.public.downloads import download


@organizer_required
@require_POST
def players_add(request: HttpRequest, event: Event) -> HttpResponse:
    form = PlayersForm(request.POST)
    if form.is_valid():
        try:
            registered = event_register_players(
                event=event, names=form.cleaned_data["players"], user=request.user
            )
        except ServiceError as exc:
            form.add_service_error(exc)
        else:
            added = len(registered.new) + len(registered.known)
            messages.success(
                request,
                ngettext("%(n)d player registered.", "%(n)d players registered.", added)
                % {"n": added},
            )
            registered_messages(request, registered)
            return redirect("event-manage", event.slug)
    return dashboard_page(request, event, players_form=form, status=400)


@organizer_required
@require_http_methods(["GET", "POST"])
def player_withdraw(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    """GET asks first (a withdrawal from a phone is one stray tap away); POST withdraws, or
    with `withdrawn=0` reinstates."""
    entry = entry_of(event, entry_id)
    if entry is None:
        raise Http404
    if request.method == "GET":
        return render(
            request, "tournament/manage/player_withdraw.html", {"event": event, "entry": entry}
        )
    withdrawn = request.POST.get("withdrawn", "1") == "1"
    try:
        entry_withdraw(entry=entry, withdrawn=withdrawn, user=request.user)
    except ServiceError as exc:
        messages.error(request, error_text(exc))
        return redirect("event-manage", event.slug)
    messages.success(
        request,
        (_("%(name)s is withdrawn.") if withdrawn else _("%(name)s is back in."))
        % {"name": entry.player.name},
    )
    return redirect("event-manage", event.slug)


@organizer_required
@require_http_methods(["GET", "POST"])
def player_profile(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    """A player's profile in the event: shown, and changed by POST (services/profiles.py)."""
    entry = entry_of(event, entry_id)
    if entry is None:
        raise Http404
    status = 200
    if request.method == "POST":
        form = ProfileForm(request.POST, name=entry.player.name)
        if form.is_valid():
            try:
                entry_profile_set(entry=entry, profile=form.cleaned_data, user=request.user)
            except ServiceError as exc:
                form.add_service_error(exc)
            else:
                messages.success(
                    request, _("%(name)s's profile is saved.") % {"name": entry.player.name}
                )
                return redirect(reverse("event-manage", args=[event.slug]) + "#players-h")
        status = 400
    else:
        form = ProfileForm(initial=entry_profile(entry), name=entry.player.name)
    context = {"event": event, "entry": entry, "form": form}
    return render(request, "tournament/manage/player_profile.html", context, status=status)


@organizer_required
@require_GET
def ema_download(request: HttpRequest, event: Event, fmt: str) -> HttpResponse:
    """The results the EMA asks for (`export_standings --format ema`), for the organizers to
    send: their players' EMA numbers are the organizers' to hand on, not a public page's."""
    return download(ema_file(event, fmt), fmt, f"{event.slug}-ema")


@organizer_required
@require_POST
def checkin_require_view(request: HttpRequest, event: Event) -> HttpResponse:
    required = request.POST.get("required") == "1"
    checkin_require(event=event, required=required, user=request.user)
    if required:
        said = _(
            "Only players checked in are seated now. The check-in code is %(code)s; it changes "
            "every 5 minutes, on the venue screen and here."
        ) % {"code": checkin_code_shown(event)}
    else:
        said = _("Every player in play is seated again, checked in or not.")
    messages.success(request, said)
    return redirect(reverse("event-manage", args=[event.slug]) + "#checkin-h")


@organizer_required
@require_POST
def checkin_mark_view(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    entry = entry_of(event, entry_id)
    if entry is None:
        raise Http404
    present = request.POST.get("present") == "1"
    checkin_mark(entry=entry, present=present, user=request.user)
    if not present:
        messages.success(
            request,
            _("%(name)s's check-in is undone: their phone may check in again.")
            % {"name": entry.player.name},
        )
    return redirect(reverse("event-manage", args=[event.slug]) + "#players-h")


@organizer_required
@require_POST
def withdraw_absent_view(request: HttpRequest, event: Event) -> HttpResponse:
    names = withdraw_absent(event=event, user=request.user)
    if names:
        messages.success(
            request,
            ngettext(
                "%(n)d player who did not check in is withdrawn: %(names)s.",
                "%(n)d players who did not check in are withdrawn: %(names)s.",
                len(names),
            )
            % {"n": len(names), "names": _(", ").join(names)},
        )
    else:
        messages.info(request, _("Everyone in play has checked in: nobody was withdrawn."))
    return redirect(reverse("event-manage", args=[event.slug]) + "#checkin-h")
