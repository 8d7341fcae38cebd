"""The organizer's dashboard of an event (players, rounds, tables, stages, plan, teams), and
making an event. The forms of the other manage/ screens come back here with their errors."""

from __future__ import annotations

import ipaddress

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournament.forms.events import (
    EventCreateForm,
    PlanMakeForm,
    PlanUploadForm,
    PlayersForm,
    SeatRoundForm,
    TieDecisionForm,
)
from tournament.i18n import team_rule_text
from tournament.models import Event, Stage
from tournament.models.events import TABLE_ENTRY_CHOICES, TABLE_MODE_CHOICES
from tournament.permissions import (
    can_manage,
    event_creator_required,
    organizer_required,
    referee_required,
)
from tournament.selectors.games import round_list
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
from tournament.selectors.teams import event_teams
from tournament.services.checkin import checkin_code_shown
from tournament.services.errors import ServiceError
from tournament.services.events import (
    Registered,
    event_create,
)
from tournament.services.rounds import (
    round_keep_refusal,
    table_size,
)
from tournament.services.throttle import network_release, networks_held


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
) -> HttpResponse:
    table = event_standings(event)
    plan = plan_summary(event)
    stages = list(event.stages.order_by("position"))
    results = {r.stage.name: r for r in table.stages}  # a stage after an open tie has none
    state_round, states = table_states(event)
    # A league has no last round, so the engine never calls it complete: its shared places
    # are settled once its tables are done (before a game, everyone shares every place).
    played_out = state_round is not None and all(s.state == "done" for s in states)
    rounds = list(round_list(event))
    latest = max((r.number for r in rounds), default=0)
    stage_rows = []
    for stage, played in zip(stages, _played_rounds(stages), strict=True):
        result = results.get(stage.name)
        # A tie is asked about only once the engine says the stage is complete and names one
        # to settle: a new event's players all share 0 across the cut, and each result
        # moves them (issue 43: a 16-way tie panel before any game).
        done = result is not None and (
            result.complete if stage.last_round is not None else played_out
        )
        tied = [str(p) for p in result.to_settle] if done and result is not None else []
        form = (tie_forms or {}).get(stage.pk) or (TieDecisionForm(tied=tied) if tied else None)
        stage_rows.append(
            {
                "stage": stage,
                "result": result,
                "tie_form": form,
                "tied": tied,
                "played": played,
                "done": done,
                # Its own rounds have begun (a Baba final ranks on 1–8 but begins at 7).
                "begun": latest >= (played[0] or 1),
            }
        )
    # As registered (the pasted list), stand-ins last.
    entries = list(event.entries.select_related("player").order_by("substitute", "pk"))
    in_play = [e for e in entries if not e.withdrawn and not e.substitute]
    next_round = max((r.number for r in rounds), default=0) + 1
    plan_rounds = plan["rounds"] if plan else 0
    # After a cut the next round seats those through it, not everyone registered.
    cut = next(
        (
            row
            for row in reversed(stage_rows)
            if row["stage"].advance
            and row["stage"].last_round is not None
            and row["stage"].last_round < next_round
            and row["result"] is not None
        ),
        None,
    )
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
            "table_size": table_size(event),
            "rounds": rounds,
            "state_round": state_round,
            "states": states,
            "phase": round_phase(event),
            "seating": seating_report(event),
            # Networks whose backstop of wrong codes is full (one query): codes typed there
            # wait until the organizer lifts it or it ends (services/throttle.py).
            "networks_held": networks_held(),
            "table_entry_choices": TABLE_ENTRY_CHOICES,
            "table_mode_choices": TABLE_MODE_CHOICES,
            # A referee sees the tables and rounds; settings, seating, stages and players are
            # the organizers' (tournament/permissions.py).
            "can_organize": can_manage(request.user, event),
            "stages": stage_rows,
            "players_form": players_form or PlayersForm(),
            "next_round": next_round,
            "through": len(cut["result"].advancing) if cut else None,
            "cut_stage": cut["stage"] if cut else None,
            "seat_form": seat_form
            or SeatRoundForm(
                initial={"round": next_round},
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
        },
        status=status,
    )


def _played_rounds(stages: list[Stage]) -> list[tuple[int | None, int | None]]:
    """The rounds each stage is played in, as its heading shows them: from the round after the
    stage before it ends (a Baba final ranks on rounds 1–8 but is played in 7–8); None for
    a league's open ends."""
    out = []
    before: int | None = None
    for stage in stages:
        first = stage.first_round
        if before is not None and (first is None or first <= before):
            first = before + 1
        out.append((first, stage.last_round))
        before = stage.last_round
    return out


@referee_required
def event_manage(request: HttpRequest, event: Event) -> HttpResponse:
    return dashboard_page(request, event)


@organizer_required
@require_POST
def network_release_view(request: HttpRequest, event: Event) -> HttpResponse:
    """Lift a network's backstop of wrong codes: phones there may type codes again; a phone
    over its own limit stays stopped."""
    try:
        address = str(ipaddress.ip_address(request.POST.get("address", "").strip()))
    except ValueError:
        address = None
    if address is None:
        messages.error(request, _("That is not a network address; nothing was lifted."))
    elif network_release(event=event, user=request.user, address=address):
        messages.success(
            request,
            _("Codes typed on the network %(address)s are accepted again.") % {"address": address},
        )
    else:
        messages.info(
            request, _("The network %(address)s was not held back.") % {"address": address}
        )
    return redirect("event-manage", event.slug)
