"""Sign-up (issue 50, CONTRACT §8): the public form while registration is open, the page that
says to check the mail, and the private link, which confirms the address when first opened
(issue 63), then shows the entry and withdraws it."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournament.forms.registration import SignUpForm, WithdrawForm
from tournament.i18n import error_text
from tournament.models import Entry, Event
from tournament.models.registration import CONFIRM_WITHIN
from tournament.selectors.events import event_by_slug
from tournament.selectors.registration import signup_room
from tournament.selectors.rounds import any_round_seated
from tournament.services.checkin import checkin_proved
from tournament.services.errors import ServiceError
from tournament.services.registration import (
    registration_of,
    signup_by_token,
    signup_confirm,
    signup_create,
    signup_entry_of,
    signup_expired,
    signup_withdraw,
    waiting_place,
)
from tournament.services.throttle import Throttled, client_network, guess_take
from tournament.views.errors import stopped


def _event(slug: str) -> Event:
    event = event_by_slug(slug)
    if event is None:
        raise Http404
    return event


def _too_many(stop: Throttled) -> str:
    return ngettext(
        "Too many sign-ups from this network. Try again in %(n)d minute.",
        "Too many sign-ups from this network. Try again in %(n)d minutes.",
        stop.minutes,
    ) % {"n": stop.minutes}


@never_cache
@require_http_methods(["GET", "POST"])
def signup_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The form; a sign-up made goes to the page that says to check the mail — never to its
    private link, which only the mailbox may open (opening it confirms the address). An
    address already used in the event is answered exactly so too (the service mails its
    owner): a stranger learns nothing. Each sign-up takes a place in the address's count
    (services/throttle.py); one the service refuses (a typo, a name taken) gives it back."""
    event = _event(slug)
    settings = registration_of(event)
    form = SignUpForm(request.POST if request.method == "POST" else None)
    status = 200
    stopped_by: Throttled | None = None
    if settings.open and form.is_bound:
        status = 400
        if form.is_valid():
            try:
                guess = guess_take("signup", address=client_network(request))
            except Throttled as stop:
                form.add_error(None, _too_many(stop))
                status, stopped_by = 429, stop
            else:
                data = form.cleaned_data
                try:
                    signup_create(
                        event=event,
                        name=data["name"],
                        email=data["email"],
                        ema=data["ema"],
                        country=data["country"],
                        language=(get_language() or "en")[:2],
                        site=request.build_absolute_uri("/"),
                    )
                except ServiceError as exc:
                    guess.right()
                    form.add_service_error(exc)
                else:
                    # The address as it was typed (the form's own), the same whatever it held.
                    sent = _("We have e-mailed a link to %(email)s.") % {"email": data["email"]}
                    messages.success(request, sent)
                    return redirect("signup-sent", event.slug)
    elif form.is_bound:
        status = 403
    room, waiting = signup_room(event, settings.capacity) if settings.open else (None, 0)
    context = {
        "event": event,
        "form": form,
        "registration": settings,
        "room": room,
        "next_place": waiting + 1,
    }
    page = render(request, "tournament/register.html", context, status=status)
    return stopped(page, stopped_by) if stopped_by else page


@never_cache
@require_http_methods(["GET"])
def signup_sent(request: HttpRequest, slug: str) -> HttpResponse:
    """After a sign-up: check the mail. The same page whether the address was new to the event
    or not (CONTRACT §8)."""
    event = _event(slug)
    return render(request, "tournament/register_sent.html", {"event": event})


# What the page says when opening the link did not confirm the sign-up (signup_confirm).
NOT_CONFIRMED = {
    "closed": gettext_lazy(
        "This event does not take sign-ups now, so your sign-up is not confirmed. If sign-ups "
        "open again within a day of signing up, open this link again."
    ),
    "name_taken": gettext_lazy(
        "Another player has taken the name %(name)s in this event since you signed up, so "
        "this sign-up holds nothing. Sign up again with something that tells you apart, such "
        "as an initial."
    ),
}


def _not_confirmed(outcome: str | None, signup) -> str:
    """Why opening the link did not confirm the sign-up, or "" (it did, or had already)."""
    why = NOT_CONFIRMED.get(outcome or "")
    return str(why) % {"name": signup.name} if why else ""


@never_cache
@require_http_methods(["GET", "POST"])
def signup_entry(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The private link: opened the first time (any GET, as CONTRACT §8 says: the mailbox's
    owner opened it), it confirms the address and the sign-up counts from then; then the
    entry, its place on the waiting list, and withdrawing it (the box ticked). Expired, it
    says so and points to the form. A link that names no sign-up counts toward the address's
    limit; a valid one never does, so a player is never kept from withdrawing."""
    event = _event(slug)
    signup = signup_by_token(event, token)
    if signup is None:
        try:
            guess_take("signup_link", address=client_network(request))
        except Throttled as stop:
            answer = HttpResponse(_too_many(stop), status=429, content_type="text/plain")
            return stopped(answer, stop)
        raise Http404
    confirmed = None
    if request.method == "GET" and signup.state == "unconfirmed":
        confirmed = signup_confirm(signup=signup)
    if signup_expired(signup):
        # Ended within its day: only a name confirmed by someone else first does that.
        early = signup.created_at > timezone.now() - CONFIRM_WITHIN
        context = {
            "event": event,
            "signup": signup,
            "registration": registration_of(event),
            "why": _not_confirmed("name_taken" if early else None, signup),
        }
        # 410: the link named a sign-up that is gone for good (a new one takes its place).
        return render(request, "tournament/register_expired.html", context, status=410)
    if request.method == "POST" and request.POST.get("do") == "checkin":
        return _checkin(request, event, signup)
    form = WithdrawForm(request.POST if request.method == "POST" else None)
    status = 200
    if form.is_bound:
        if form.is_valid():
            signup_withdraw(signup=signup)
            messages.success(request, _("Your entry is withdrawn."))
            return redirect("signup-entry", event.slug, signup.token)
        status = 400
    entry = signup_entry_of(signup)
    registered = signup.state == "registered"
    context = {
        "event": event,
        "signup": signup,
        "just_confirmed": confirmed == "confirmed",
        "not_confirmed": _not_confirmed(confirmed, signup),
        # Where to play, when the event names its venue; the day, where it was given (else
        # `held_on` is only the day the event was made: Event.held_on_given).
        "venue": event.venue.name if event.venue_id else "",
        "held_on": event.held_on if event.held_on_given else None,
        # Find your seat, once a round is seated (a round exists only seated): one query.
        "seated": registered and entry is not None and any_round_seated(event),
        "place": waiting_place(signup),
        "form": form,
        "entry": entry,
        "can_check_in": entry is not None and event.checkin_required and not entry.withdrawn,
    }
    return render(request, "tournament/register_entry.html", context, status=status)


def _checkin(request: HttpRequest, event: Event, signup) -> HttpResponse:
    """Check in from the private link (issue 33's seam, services/checkin.checkin_proved): the
    link proves who the player is, so no code from the venue is asked."""
    entry = signup_entry_of(signup)
    if entry is None:
        messages.error(request, _("Only a registered player checks in."))
    else:
        try:
            checkin_proved(entry=entry, by=Entry.CHECKED_IN_BY_PHONE)
        except ServiceError as exc:
            messages.error(request, error_text(exc))
        else:
            messages.success(request, _("You are checked in. Wait for the seating."))
    return redirect("signup-entry", event.slug, signup.token)
