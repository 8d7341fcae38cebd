"""Organizer screens for an event: create it, players, rounds and seating, stages, the log.
Thin: forms collect, services write, selectors read; rights are checked by the decorators."""

from __future__ import annotations

import ipaddress
import json
import secrets
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament.auditlog import action_label, author, entry_sentence
from tournament.forms.events import (
    EventCreateForm,
    PenaltyForm,
    PlanMakeForm,
    PlanUploadForm,
    PlayersForm,
    SeatRoundForm,
    TenhouImportForm,
    TieDecisionForm,
)
from tournament.i18n import error_text, stage_label, team_rule_text
from tournament.models import Entry, Event, Game, Penalty, Round, SeatingPlan, Stage
from tournament.models.events import TABLE_ENTRY_CHOICES, TABLE_MODE_CHOICES
from tournament.permissions import (
    can_manage,
    event_creator_required,
    organizer_required,
    referee_required,
)
from tournament.qr import qr_svg
from tournament.selectors.games import audit_list, round_list, round_was_taken_back
from tournament.selectors.plans import (
    plan_csv,
    plan_of,
    plan_rounds_default,
    plan_summary,
    seat_method_default,
)
from tournament.selectors.players import event_player_names
from tournament.selectors.standings import event_standings, stage_result
from tournament.selectors.tables import (
    live_links,
    round_clock,
    round_phase,
    seating_report,
    table_states,
)
from tournament.selectors.teams import event_teams
from tournament.services.checkin import (
    checkin_code_shown,
    checkin_mark,
    checkin_require,
    withdraw_absent,
)
from tournament.services.clock import (
    event_round_minutes_set,
    game_extra_minutes,
    round_clock_start,
)
from tournament.services.errors import ServiceError
from tournament.services.events import (
    Registered,
    entry_withdraw,
    event_create,
    event_register_players,
    event_table_entry_set,
)
from tournament.services.penalties import penalty_cancel, penalty_give
from tournament.services.plans import PLAN_MAX_BYTES, plan_make, plan_remove, plan_upload
from tournament.services.rounds import (
    RoundSeatedError,
    round_keep_refusal,
    round_seat,
    round_unseat,
    round_unseat_refusal,
    table_size,
)
from tournament.services.seat_fix import seats_swap
from tournament.services.stages import stage_close, stage_decide, stage_reopen
from tournament.services.tables import table_link_renew
from tournament.services.tenhou import tenhou_import
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
            _registered_messages(request, event.registered)
            return redirect("event-manage", event.slug)
    status = 400 if form.is_bound else 200  # a bound form here has errors
    return render(request, "tournament/manage/event_new.html", {"form": form}, status=status)


def _registered_messages(request: HttpRequest, registered: Registered) -> None:
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


def _dashboard(
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
    return _dashboard(request, event)


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
            _registered_messages(request, registered)
            return redirect("event-manage", event.slug)
    return _dashboard(request, event, players_form=form, status=400)


@organizer_required
@require_http_methods(["GET", "POST"])
def player_withdraw(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    """GET asks first (a withdrawal from a phone is one stray tap away); POST withdraws, or
    with `withdrawn=0` reinstates."""
    entry = get_object_or_404(
        Entry.objects.select_related("player", "event"), pk=entry_id, event=event
    )
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
@require_POST
def round_new(request: HttpRequest, event: Event) -> HttpResponse:
    form = SeatRoundForm(request.POST, has_plan=SeatingPlan.objects.filter(event=event).exists())
    if form.is_valid():
        try:
            rnd = round_seat(
                event=event,
                method=form.cleaned_data["method"],
                shortfall=form.cleaned_data["shortfall"],
                number=form.cleaned_data["round"],
                user=request.user,
                while_unfinished=form.cleaned_data["while_unfinished"],
            )
        except RoundSeatedError as exc:  # a second tap, a retry, the back button
            messages.warning(
                request,
                format_html(
                    '{} {} <a href="{}">{}</a>',
                    error_text(exc),
                    _("Nothing was seated again."),
                    reverse("round-sheet", args=[event.slug, exc.number]),
                    _("Open round %(n)d") % {"n": exc.number},
                ),
            )
            return redirect("event-manage", event.slug)
        except ServiceError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("Round %(n)d is seated.") % {"n": rnd.number})
            return redirect("round-sheet", event.slug, rnd.number)
    return _dashboard(request, event, seat_form=form, status=400)


@referee_required
def round_sheet(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """The round's tables to print: seats, results, and for an open table its link as a QR
    code with the 6-character code (CONTRACT §3) — the table's page, which acts for no seat —
    and a slip per seat to cut off and hand to its player: that seat's code and its own QR."""
    rnd = get_object_or_404(round_list(event), number=number)
    links = live_links(rnd)
    tables = []
    for game in rnd.games.all():
        link = None if game.finished else links.get(game.pk)
        qr = url = ""
        slips = []
        if link is not None:
            url = request.build_absolute_uri(reverse("table-page", args=[link.token]))
            qr = qr_svg(url, scale=3)
            codes = link.seat_codes
            for seat in game.seats.all():
                if seat.position < len(codes):
                    code = codes[seat.position]
                    seat_url = reverse("table-seat", args=[link.token, code])
                    slips.append(
                        {
                            "seat": seat,
                            "code": code,
                            "qr": qr_svg(request.build_absolute_uri(seat_url), scale=2),
                        }
                    )
        tables.append({"game": game, "link": link, "url": url, "qr": qr, "slips": slips})
    return render(
        request,
        "tournament/manage/round_sheet.html",
        {
            "event": event,
            "round": rnd,
            "tables": tables,
            # Slips to print while any table is open, not only while table 1 is.
            "has_slips": any(t["slips"] for t in tables),
            "clock": round_clock(rnd),
            "seating": seating_report(event, up_to=number),
            # "Fix a wrong seat": every seat of the round's open tables, and their versions.
            "open_seats": [
                (f"{game.pk}:{seat.position}", game.table, seat.position, seat.player.name)
                for game in rnd.games.all()
                if not game.finished and not game.confirmation
                for seat in game.seats.all()
            ],
            "open_games": [g for g in rnd.games.all() if not g.finished and not g.confirmation],
        },
    )


@organizer_required
@require_http_methods(["GET", "POST"])
def round_tenhou(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Tenhou game logs into a round: every log checked by the engine, all recorded or none."""
    form = TenhouImportForm(request.POST or None, request.FILES or None, initial={"round": number})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                games = tenhou_import(
                    event=event,
                    round_number=form.cleaned_data["round"],
                    files=form.log_files(),
                    user=request.user,
                )
            except ServiceError as exc:
                form.add_service_error(exc)
            else:
                n = len(games)
                messages.success(
                    request,
                    ngettext(
                        "%(n)d game recorded from its Tenhou log.",
                        "%(n)d games recorded from their Tenhou logs.",
                        n,
                    )
                    % {"n": n},
                )
                return redirect("round-sheet", event.slug, form.cleaned_data["round"])
        status = 400
    return render(
        request,
        "tournament/manage/round_tenhou.html",
        {"event": event, "form": form, "number": number},
        status=status,
    )


def _act(request: HttpRequest, call: Callable[[], Any], done: str = "") -> None:
    """Run one service for a button; say what happened (or why not) on the next page."""
    try:
        call()
    except ServiceError as exc:
        messages.error(request, error_text(exc))
    else:
        if done:
            messages.success(request, done)


@referee_required
@require_POST
def round_clock_view(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Start the round's clock (again: from now)."""
    rnd = get_object_or_404(Round.objects.select_related("event"), event=event, number=number)
    _act(request, lambda: round_clock_start(rnd=rnd, user=request.user))
    return redirect("round-sheet", event.slug, number)


@referee_required
@require_POST
def game_extra_view(request: HttpRequest, event: Event, game_id: int) -> HttpResponse:
    """Extra minutes for one table."""
    game = get_object_or_404(
        Game.objects.select_related("round__event"), pk=game_id, round__event=event
    )
    minutes = request.POST.get("minutes")
    _act(request, lambda: game_extra_minutes(game=game, minutes=minutes, user=request.user))
    return redirect("round-sheet", event.slug, game.round.number)


@organizer_required
@require_POST
def round_minutes_set(request: HttpRequest, event: Event) -> HttpResponse:
    minutes = request.POST.get("round_minutes")
    _act(
        request,
        lambda: event_round_minutes_set(event=event, minutes=minutes, user=request.user),
        _("Saved."),
    )
    return redirect("event-manage", event.slug)


@organizer_required
@require_POST
def table_entry_set(request: HttpRequest, event: Event) -> HttpResponse:
    _act(
        request,
        lambda: event_table_entry_set(
            event=event,
            table_entry=request.POST.get("table_entry", ""),
            table_mode=request.POST.get("table_mode") or None,
            user=request.user,
        ),
        _("Saved."),
    )
    return redirect("event-manage", event.slug)


@referee_required
@require_POST
def table_link_new(request: HttpRequest, event: Event, game_id: int) -> HttpResponse:
    """Revoke a table's link (a lost or shared sheet) and print a new one."""
    game = get_object_or_404(Game.objects.select_related("round"), pk=game_id, round__event=event)
    _act(
        request,
        lambda: table_link_renew(game=game, user=request.user),
        _("Table %(t)d has a new link; the old one no longer opens.") % {"t": game.table},
    )
    return redirect("round-sheet", event.slug, game.round.number)


@referee_required
def table_states_live(request: HttpRequest, event: Event) -> HttpResponse:
    """The tables' states alone, for the dashboard to refresh itself (live.js)."""
    number, states = table_states(event)
    response = render(
        request,
        "tournament/manage/_table_states.html",
        {"event": event, "state_round": number, "states": states, "phase": round_phase(event)},
    )
    response["Cache-Control"] = "no-cache"
    return response


@organizer_required
@require_http_methods(["GET", "POST"])
def round_remove(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Take back a round's seating. Asked first (GET, or a POST without `confirmed`): its
    printed slips and table codes stop working, which one tap must not do unawares — a page,
    not a script's dialog (the CSP allows no inline script, and it works without script)."""
    rnd = Round.objects.filter(event=event, number=number).select_related("event").first()
    if rnd is None:
        if not round_was_taken_back(event, number):
            raise Http404  # a round this event never had
        # Taken back by a first tap whose answer was not seen: the same outcome, said again.
        messages.info(request, _("The seating of round %(n)d is taken back.") % {"n": number})
        return redirect("event-manage", event.slug)
    if request.method == "GET" or request.POST.get("confirmed") != "1":
        refusal = round_unseat_refusal(rnd)
        context = {
            "event": event,
            "round": rnd,
            "tables": rnd.games.count(),
            "refusal": error_text(refusal) if refusal is not None else "",
        }
        return render(request, "tournament/manage/round_unseat.html", context)
    try:
        round_unseat(rnd=rnd, user=request.user)
    except ServiceError as exc:
        messages.error(request, error_text(exc))
        return redirect("round-sheet", event.slug, number)
    messages.success(request, _("The seating of round %(n)d is taken back.") % {"n": number})
    return redirect("event-manage", event.slug)


@organizer_required
@require_POST
def stage_action(request: HttpRequest, event: Event, position: int, action: str) -> HttpResponse:
    stage = get_object_or_404(Stage, event=event, position=position)
    try:
        if action == "decide":
            result = stage_result(event, stage.name)
            if result is None:
                raise ServiceError("stage.no_ranking", "decision")
            form = TieDecisionForm(request.POST, tied=[str(p) for p in result.to_settle])
            if not form.is_valid():
                return _dashboard(request, event, tie_forms={stage.pk: form}, status=400)
            stage_decide(
                event=event, stage=stage, order=form.cleaned_data["order"], user=request.user
            )
            messages.success(request, _("The tie is settled."))
        elif action == "close":
            stage_close(event=event, stage=stage, user=request.user)
            said = _("The %(stage)s is closed.")  # 予選を締め切りました, never "qualifier"
            messages.success(request, said % {"stage": stage_label(stage.name)})
        else:
            stage_reopen(event=event, stage=stage, user=request.user)
            said = _("The %(stage)s is open again.")
            messages.success(request, said % {"stage": stage_label(stage.name)})
    except ServiceError as exc:
        messages.error(request, error_text(exc))
    return redirect("event-manage", event.slug)


@referee_required
def audit_log(request: HttpRequest, event: Event) -> HttpResponse:
    rows = [
        {
            "entry": e,
            "action": action_label(e.action),
            "sentence": entry_sentence(e),
            "author": author(e),
        }
        for e in audit_list(event)
    ]
    return render(request, "tournament/manage/audit.html", {"event": event, "rows": rows})


@referee_required
def penalties(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's penalty report: every penalty given (cancelled ones kept, marked), and the
    form to give one."""
    players = event_player_names(event)
    form = PenaltyForm(request.POST or None, players=players)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                penalty_give(
                    event=event,
                    player=form.cleaned_data["player"],
                    points=form.cleaned_data["points"],
                    reason=form.cleaned_data["reason"],
                    round_number=form.cleaned_data["round_number"],
                    user=request.user,
                )
            except ServiceError as exc:
                form.add_service_error(exc)
            else:
                given = (
                    _("The penalty is given; the standings count it.")
                    if form.cleaned_data["points"] < 0
                    else _("The bonus is given; the standings count it.")
                )
                messages.success(request, given)
                return redirect("penalties", event.slug)
        status = 400
    rows = event.penalties.select_related("player", "created_by", "cancelled_by")
    return render(
        request,
        "tournament/manage/penalties.html",
        {"event": event, "form": form, "penalties": rows},
        status=status,
    )


@referee_required
@require_POST
def penalty_cancel_view(request: HttpRequest, event: Event, penalty_id: int) -> HttpResponse:
    penalty = get_object_or_404(
        Penalty.objects.select_related("player"), pk=penalty_id, event=event
    )
    _act(
        request,
        lambda: penalty_cancel(penalty=penalty, user=request.user),
        _("The penalty is cancelled; it no longer counts."),
    )
    return redirect("penalties", event.slug)


# --- the whole-day seating plan (services/plans.py) -------------------------------------------


@organizer_required
@require_POST
def plan_make_view(request: HttpRequest, event: Event) -> HttpResponse:
    form = PlanMakeForm(request.POST)
    if form.is_valid():
        seed = form.cleaned_data["seed"]
        if seed is None:
            seed = secrets.randbelow(2**31)
        try:
            plan_make(event=event, rounds=form.cleaned_data["rounds"], seed=seed, user=request.user)
        except ServiceError as exc:
            form.add_service_error(exc)
        else:
            messages.success(
                request, _("The seating plan is made (seed %(seed)d).") % {"seed": seed}
            )
            return redirect(reverse("event-manage", args=[event.slug]) + "#plan-h")
    return _dashboard(request, event, plan_form=form, status=400)


@organizer_required
@require_POST
def plan_upload_view(request: HttpRequest, event: Event) -> HttpResponse:
    form = PlanUploadForm(request.POST, request.FILES)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            plan_upload(
                event=event,
                content=upload.read(PLAN_MAX_BYTES + 1),
                name=upload.name,
                user=request.user,
            )
        except ServiceError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("The seating plan is uploaded and checked."))
            return redirect(reverse("event-manage", args=[event.slug]) + "#plan-h")
    return _dashboard(request, event, upload_form=form, status=400)


@organizer_required
@require_POST
def plan_remove_view(request: HttpRequest, event: Event) -> HttpResponse:
    plan_remove(event=event, user=request.user)
    messages.success(request, _("The seating plan is removed."))
    return redirect("event-manage", event.slug)


@referee_required
@require_GET
def plan_download(request: HttpRequest, event: Event, fmt: str) -> HttpResponse:
    """The plan as CSV (rows services/plans reads back) or JSON (CONTRACT §5's document)."""
    plan = plan_of(event)
    if plan is None or fmt not in ("csv", "json"):
        raise Http404
    if fmt == "json":
        body = json.dumps(plan.to_json(), ensure_ascii=False, indent=1).encode()
        content_type = "application/json"
    else:
        body = plan_csv(plan).encode()
        content_type = "text/csv; charset=utf-8"
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(
        True, f"{event.slug}-seating-plan.{fmt}"
    )
    return response


# --- check-in (services/checkin.py) -----------------------------------------------------------


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
    entry = get_object_or_404(
        Entry.objects.select_related("player", "event"), pk=entry_id, event=event
    )
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


# --- fixing a wrong seat (services/seat_fix.py) -----------------------------------------------


def _seat_choice(value: str, games: dict[int, Game]) -> tuple[Game, int] | None:
    """ "<game id>:<seat>" of this round's open games, or None."""
    game_id, _sep, position = value.partition(":")
    if not (game_id.isdigit() and position.isdigit()) or int(game_id) not in games:
        return None
    return games[int(game_id)], int(position)


@organizer_required
@require_POST
def seats_swap_view(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    rnd = get_object_or_404(Round, event=event, number=number)
    games = {g.pk: g for g in rnd.games.all()}
    a = _seat_choice(request.POST.get("a", ""), games)
    b = _seat_choice(request.POST.get("b", ""), games)
    versions = {}
    for game_id in games:
        raw = request.POST.get(f"v{game_id}", "")
        if raw.isdigit():
            versions[game_id] = int(raw)
    if a is None or b is None:
        messages.error(request, error_text(ServiceError("swap.unknown", "seat")))
        return redirect("round-sheet", event.slug, number)
    try:
        seats_swap(
            game_a=a[0],
            position_a=a[1],
            game_b=b[0],
            position_b=b[1],
            versions=versions,
            user=request.user,
        )
    except ServiceError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, _("The two seats are swapped; every hand is kept."))
    return redirect("round-sheet", event.slug, number)
