"""The organizer's dashboard of an event (players, rounds, tables, stages, plan, teams), and
making an event. The forms of the other manage/ screens come back here with their errors."""

from __future__ import annotations

from datetime import datetime

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
from tournament.i18n import team_rule_text
from tournament.models import Event
from tournament.models.events import TABLE_ENTRY_CHOICES, TABLE_MODE_CHOICES
from tournament.outages import task_queue_seen
from tournament.permissions import (
    can_manage,
    event_creator_required,
    organizer_required,
    referee_required,
)
from tournament.selectors.cache import event_stamp
from tournament.selectors.dashboard import cut_before, stage_rows
from tournament.selectors.events import event_stages, players_key, registered_entries
from tournament.selectors.games import round_tables
from tournament.selectors.plans import (
    plan_rounds_default,
    plan_summary,
    seat_method_default,
)
from tournament.selectors.standings import event_standings
from tournament.selectors.tables import (
    round_phase,
    seating_report,
    table_states,
)
from tournament.selectors.tasks import task_queue_stalled_since
from tournament.selectors.teams import event_teams
from tournament.services.checkin import checkin_code_shown, checkin_screen_key
from tournament.services.errors import ServiceError
from tournament.services.events import (
    Registered,
    event_create,
)
from tournament.services.rounds import (
    round_keep_refusal,
    table_size,
)
from tournament.services.throttle import network_named, network_release, networks_held
from tournament.views.conditional import answer_by_tag, page_tag

# The limit a held network reached, as the dashboard names it, by the kind of its count
# (services/throttle.LIMITS); every other kind is a code or link typed wrong.
NETWORK_LIMITS = {"signup": "signups", "push": "notifications"}


def networks_limited() -> list[tuple[str, str, int]]:
    """(address, limit reached — "codes", "signups" or "notifications" —, minutes left) for
    each held network and limit: the sign-up cap reached by a venue's crowd is not called
    wrong codes (issue 63)."""
    held: dict[tuple[str, str], int] = {}
    for address, kind, minutes in networks_held():
        limit = NETWORK_LIMITS.get(kind, "codes")
        held[address, limit] = max(minutes, held.get((address, limit), 0))
    return [(address, limit, minutes) for (address, limit), minutes in held.items()]


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
    standings = event_standings(event)
    plan = plan_summary(event)
    stages = event_stages(event)
    state_round, states = table_states(event)
    rounds = list(round_tables(event))
    latest = max((r.number for r in rounds), default=0)
    played_out = state_round is not None and all(s.state == "done" for s in states)
    # Every game not finished is among the states (an earlier round's open table too).
    unfinished = [(s.game.round.number, s.game.table) for s in states if not s.game.finished]
    rows = stage_rows(standings, stages, latest, played_out, {r.number for r in rounds}, unfinished)
    for row in rows:
        row.tie_form = (tie_forms or {}).get(row.stage.pk) or (
            TieDecisionForm(tied=row.tied) if row.tied else None
        )
    # As registered (the pasted list), stand-ins last.
    entries = registered_entries(event)
    can_organize = can_manage(request.user, event)
    in_play = [e for e in entries if not e.withdrawn and not e.substitute]
    next_round = latest + 1
    plan_rounds = plan["rounds"] if plan else 0
    cut = cut_before(rows, next_round)
    return render(
        request,
        "tournament/manage/dashboard.html",
        {
            "event": event,
            "entries": entries,
            "active": (active := sum(1 for e in in_play)),
            "present": (present := sum(1 for e in in_play if e.present)),
            "absent_count": active - present,
            "checkin_code": checkin_code_shown(event),  # changes every few minutes
            "screen_key": checkin_screen_key(event),  # the projector's private link
            "table_size": table_size(event),
            "rounds": rounds,
            "state_round": state_round,
            "states": states,
            "phase": round_phase(event),
            "seating": seating_report(event),
            # Networks whose backstop is full (one query), naming the limit reached: codes or
            # sign-ups from there wait until the organizer lifts it or it ends.
            "networks_held": networks_limited(),
            # A task queue that stopped moving (no worker): said here, and logged (one query).
            "queue_stalled": queue_stalled(),
            "table_entry_choices": TABLE_ENTRY_CHOICES,
            "table_mode_choices": TABLE_MODE_CHOICES,
            # A referee sees the tables and rounds; settings, seating, stages and players are
            # the organizers' (tournament/permissions.py).
            "can_organize": can_organize,
            "players_key": players_key(event, entries, can_organize),
            "stages": rows,
            "players_form": players_form or PlayersForm(),
            "next_round": next_round,
            "through": len(cut.result.advancing) if cut and cut.result else None,
            "cut_stage": cut.stage if cut else None,
            "seat_form": seat_form
            or SeatRoundForm(
                initial={"round": next_round},
                seats=table_size(event),
                has_plan=plan is not None,
                has_round=next_round > 1,
                method=seat_method_default(
                    next_round,
                    plan_rounds,
                    stages,
                    # Asked after a cut only (a final): before it, the method never keeps.
                    keeps=cut is not None and round_keep_refusal(event, next_round) is None,
                ),
            ),
            "plan": plan,
            "teams": event_teams(event),
            "team_rule": team_rule_text(event.team_rule, event.team_best),
            "plan_form": plan_form or PlanMakeForm(initial={"rounds": plan_rounds_default(stages)}),
            "upload_form": upload_form or PlanUploadForm(),
            "live_tag": live_tag,  # the tables' version shown: live.js asks from it
        },
        status=status,
    )


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
    return render(request, "tournament/manage/_table_states.html", context)


def queue_stalled() -> datetime | None:
    stalled = task_queue_stalled_since()
    task_queue_seen(stalled)
    return stalled


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
