"""The organizer's sign-up list (issue 50): registered, waiting and pending with their e-mails
(this page only, kept by no cache), the settings (open, capacity, approval), and one button per
sign-up: approve, refuse, remove, and a waiting one moved on the list. Thin: services/
registration.py and registration_list.py check, write and log."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament.exports.files import entrants_file
from tournament.forms.registration import RegistrationSettingsForm
from tournament.i18n import error_text
from tournament.models import Event, SignUp
from tournament.permissions import organizer_required
from tournament.selectors.registration import signup_of, signups_for_organizers
from tournament.services.errors import ServiceError
from tournament.services.registration import (
    registered_count,
    registration_of,
    registration_set,
    signup_approve,
    signup_refuse,
    signup_withdraw,
)
from tournament.services.registration_list import MOVES, signup_move
from tournament.views.public.downloads import download


def _one(event: Event, request: HttpRequest) -> SignUp | None:
    pk = request.POST.get("signup", "")
    return signup_of(event, pk) if pk.isdigit() else None


def _act(request: HttpRequest, event: Event) -> str:
    """A button's action on one sign-up (or all pending), and what it did in a sentence (issue
    66: every action answered "Done."); "" if it names none."""
    do = request.POST.get("do")
    if do == "approve_all":
        signup_approve(event=event, user=request.user)
        return _("Every sign-up waiting for approval is approved.")
    signup = _one(event, request)
    if signup is None:
        return ""
    name = {"name": signup.name}
    if do == "approve":
        signup_approve(event=event, signups=[signup], user=request.user)
        return _("%(name)s is approved.") % name
    if do == "refuse":
        signup_refuse(signup=signup, user=request.user)
        return _("%(name)s is refused and told so by e-mail.") % name
    if do == "remove":
        signup_withdraw(signup=signup, user=request.user)
        return _("%(name)s is removed from the list.") % name
    if do in MOVES:
        signup_move(signup=signup, to=do, user=request.user)
        return _("%(name)s is moved on the waiting list.") % name
    return ""


@organizer_required
@require_http_methods(["GET", "POST"])
def signups_manage(request: HttpRequest, event: Event) -> HttpResponse:
    settings = registration_of(event)
    initial = {
        "open": settings.open,
        "capacity": settings.capacity or "",
        "approval": settings.approval,
    }
    form = RegistrationSettingsForm(initial=initial)
    status = 200
    if request.method == "POST":
        try:
            if request.POST.get("do") == "settings":
                form = RegistrationSettingsForm(request.POST)
                if form.is_valid():
                    data = form.cleaned_data
                    _row, moved = registration_set(
                        event=event,
                        open=data["open"],
                        capacity=data["capacity"].strip(),
                        approval=data["approval"],
                        user=request.user,
                    )
                    messages.success(request, _("The registration settings are saved."))
                    if moved:
                        names = _(", ").join(m.name for m in moved)
                        messages.info(request, _("Moved up: %(names)s") % {"names": names})
                    return redirect("signups-manage", event.slug)
            elif done := _act(request, event):
                messages.success(request, done)
                return redirect("signups-manage", event.slug)
            else:
                messages.error(request, _("Choose a sign-up on this list."))
                return redirect("signups-manage", event.slug)
        except ServiceError as exc:
            if request.POST.get("do") == "settings":
                form.add_service_error(exc)
            else:
                messages.error(request, error_text(exc))
                return redirect("signups-manage", event.slug)
        status = 400
    lists = signups_for_organizers(event)
    registered = registered_count(event)
    context = {
        "event": event,
        "form": form,
        "lists": lists,
        "registered": registered,
        # Players in play who never signed up (names pasted on the players page): counted
        # above, not listed under Registered.
        "added": max(registered - len(lists["registered"]), 0),
        "registration": settings,
    }
    return render(request, "tournament/manage/signups.html", context, status=status)


@organizer_required
@require_http_methods(["GET"])
def entrants_download(request: HttpRequest, event: Event, fmt: str) -> HttpResponse:
    """The entrants with their e-mails (exports/entrants.py): the organizers' to keep."""
    return download(entrants_file(event, fmt), fmt, f"{event.slug}-entrants")
