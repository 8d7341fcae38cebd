"""The organizer's dashboard of an event (players, rounds, tables, stages, plan, teams), and
making an event. The forms of the other manage/ screens come back here with their errors."""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from tournament.forms.events import (
    EventCreateForm,
    PlanMakeForm,
    PlanUploadForm,
    PlayersForm,
    SeatRoundForm,
    TieDecisionForm,
)
from tournament.http_caching import answer_by_tag, page_tag
from tournament.models import Event
from tournament.models.events import TABLE_ENTRY_CHOICES, TABLE_MODE_CHOICES
from tournament.permissions import (
    can_manage,
    event_creator_required,
    organizer_required,
    referee_required,
)
from tournament.selectors.cache import event_stamp
from tournament.selectors.dashboard import event_dashboard
from tournament.selectors.tables import (
    round_phase,
    table_states,
)
from tournament.services.errors import ServiceError
from tournament.services.events import event_create
from tournament.services.players import Registered
from tournament.services.rounds import round_keep_refusal
from tournament.services.throttle import network_named, network_release


@event_creator_required
def event_new(request: HttpRequest) -> HttpResponse:
    form = EventCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_create(**form.service_kwargs(), user=request.user)
        except ServiceError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("%(name)s is ready.") % {"name": event.name})
            registered_messages(request, event.registered)
            return redirect("event-manage", event.slug)
    status = 400 if form.is_bound else 200  # a bound form here has errors
    return render(request, "tournament/manage/event_new.html", {"form": form}, status=status)


def registered_messages(request: HttpRequest, registered: Registered) -> None:
    """Who was reused: a name known from earlier events is that same player (their other
    events' games are theirs), which the organizer should see rather than guess."""
    if registered.known:
        messages.info(
            request,
            ngettext(
                "Known from earlier events, reused (not a new player): %(names)s.",
                "Known from earlier events, reused (not new players): %(names)s.",
                len(registered.known),
            )
            % {"names": _(", ").join(registered.known)},
        )
    if registered.already:
        messages.info(
            request,
            _("Registered for this event already, left as they were: %(names)s.")
            % {"names": _(", ").join(registered.already)},
        )


def dashboard_page(
    request: HttpRequest,
    event: Event,
    *,
    players_form: PlayersForm | None = None,
    seat_form: SeatRoundForm | None = None,
    tie_forms: dict[int, TieDecisionForm] | None = None,
    plan_form: PlanMakeForm | None = None,
    upload_form: PlanUploadForm | None = None,
    status: int = 200,
    live_tag: str = "",
) -> HttpResponse:
    """The dashboard (selectors/dashboard.event_dashboard) with its forms: fresh ones, or the
    one another screen sends back with its errors."""
    page = event_dashboard(event, can_organize=can_manage(request.user, event))
    # A stage with a tie to settle shows its form: the one sent back with its errors, or new.
    tie_forms = tie_forms or {}
    stages = [
        replace(row, tie_form=tie_forms.get(row.stage.pk) or TieDecisionForm(tied=row.tied))
        if row.tied or row.stage.pk in tie_forms
        else row
        for row in page.stages
    ]
    forms = {
        "players_form": players_form or PlayersForm(),
        "seat_form": seat_form
        or SeatRoundForm(
            initial={"round": page.next_round},
            seats=page.table_size,
            has_plan=page.plan is not None,
            has_round=page.next_round > 1,
            method=page.seat_method(round_keep_refusal),
        ),
        "plan_form": plan_form or PlanMakeForm(initial={"rounds": page.plan_rounds()}),
        "upload_form": upload_form or PlanUploadForm(),
    }
    context = {
        **vars(page),
        "page": page,  # the list of players kept by `page.players_key`
        **forms,
        "stages": stages,
        "table_entry_choices": TABLE_ENTRY_CHOICES,
        "table_mode_choices": TABLE_MODE_CHOICES,
        "live_tag": live_tag,  # the tables' version shown: live.js asks from it
    }
    return render(request, "tournament/manage/dashboard.html", context, status=status)


@referee_required
@vary_on_headers("X-Requested-With")
def event_manage(request: HttpRequest, event: Event) -> HttpResponse:
    if request.headers.get("X-Requested-With") == "fetch":
        # live.js asks every few seconds for the tables alone: 304 while the event's version
        # stands (no query beyond the event and the reader's rights, which the page reads too).
        tag = page_tag(request, "dashboard-tables", [event_stamp(event)])
        return answer_by_tag(request, tag, table_states_part, event, tag)
    return dashboard_page(
        request, event, live_tag=page_tag(request, "dashboard-tables", [event_stamp(event)])
    )


def table_states_part(request: HttpRequest, event: Event, tag: str) -> HttpResponse:
    """The dashboard's tables, as the page shows them (its live region)."""
    number, states = table_states(event)
    context = {"event": event, "state_round": number, "states": states, "live_tag": tag}
    context["phase"] = round_phase(event)
    context["can_organize"] = can_manage(request.user, event)  # the table on stream's buttons
    return render(request, "tournament/manage/_table_states.html", context)


@organizer_required
@require_POST
def network_release_view(request: HttpRequest, event: Event) -> HttpResponse:
    """Lift a network's backstop of wrong codes: phones there may type codes again; a phone
    over its own limit stays stopped."""
    address = network_named(request.POST.get("address", ""))
    if address is None:
        messages.error(request, _("That is not a network address; nothing was lifted."))
    elif network_release(event=event, user=request.user, address=address):
        messages.success(
            request,
            _("Codes, sign-ups and notifications from the network %(address)s are accepted again.")
            % {"address": address},
        )
    else:
        messages.info(
            request, _("The network %(address)s was not held back.") % {"address": address}
        )
    return redirect("event-manage", event.slug)
