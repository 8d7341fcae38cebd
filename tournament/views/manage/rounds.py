"""A round's life on the organizer's side: seated, its sheet printed, its clock, Tenhou logs
imported, a wrong seat swapped, its seating taken back."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from tournament.forms.events import (
    SeatRoundForm,
    TenhouImportForm,
)
from tournament.http_caching import answer_by_tag, page_tag
from tournament.i18n import error_text
from tournament.models import Event, Game
from tournament.permissions import (
    organizer_required,
    referee_required,
)
from tournament.qr import qr_svg
from tournament.selectors.cache import event_stamp
from tournament.selectors.events import event_has_plan
from tournament.selectors.games import round_listed, round_was_taken_back
from tournament.selectors.rounds import (
    event_game,
    round_games,
    round_of,
    round_table_count,
    table_size,
)
from tournament.selectors.tables import (
    live_links,
    round_clock,
    seating_shown,
)
from tournament.services.clock import (
    event_round_minutes_set,
    game_extra_minutes,
    round_clock_start,
)
from tournament.services.errors import ServiceError
from tournament.services.rounds import (
    RoundSeatedError,
    round_seat,
    round_unseat,
    round_unseat_refusal,
)
from tournament.services.seat_fix import seats_swap
from tournament.services.tenhou import tenhou_import
from tournament.views.manage.buttons import act
from tournament.views.manage.dashboard import dashboard_page


@organizer_required
@require_POST
def round_new(request: HttpRequest, event: Event) -> HttpResponse:
    form = SeatRoundForm(request.POST, has_plan=event_has_plan(event), seats=table_size(event))
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
    return dashboard_page(request, event, seat_form=form, status=400)


@referee_required
@vary_on_headers("X-Requested-With")  # live.js's sheet comes without its QR codes
def round_sheet(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """The round's tables to print: seats, results, and for an open table its link as a QR
    code with the 6-character code (CONTRACT §3) — the table's page, which acts for no seat —
    and a slip per seat to cut off and hand to its player: that seat's code and its own QR.
    live.js asks for it again every few seconds (the same page: it takes its tables): 304
    while the event's version stands, from the event the rights check read."""
    # Asked by live.js, the sheet comes without its QR codes (most of its bytes and its time):
    # the parts it swaps hold none, and a link never changes while its table plays.
    light = request.headers.get("X-Requested-With") == "fetch"
    tag = page_tag(request, "round-sheet", [event_stamp(event)])
    return answer_by_tag(request, tag, _round_sheet, event, number, tag, light)


def _round_sheet(
    request: HttpRequest, event: Event, number: int, tag: str, light: bool
) -> HttpResponse:
    rnd = round_listed(event, number)
    if rnd is None:
        raise Http404
    links = live_links(rnd)
    tables = []
    for game in rnd.games.all():
        link = None if game.finished else links.get(game.pk)
        qr = url = ""
        slips = []
        if link is not None and not light:
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
            "seating": seating_shown(event, up_to=number),
            # "Fix a wrong seat": every seat of the round's open tables, and their versions.
            "open_seats": [
                (f"{game.pk}:{seat.position}", game.table, seat.position, seat.player.name)
                for game in rnd.games.all()
                if not game.finished and not game.confirmation
                for seat in game.seats.all()
            ],
            "open_games": [g for g in rnd.games.all() if not g.finished and not g.confirmation],
            "live_tag": tag,
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


@referee_required
@require_POST
def round_clock_view(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Start the round's clock (again: from now)."""
    rnd = round_of(event, number)
    if rnd is None:
        raise Http404
    act(request, lambda: round_clock_start(rnd=rnd, user=request.user))
    return redirect("round-sheet", event.slug, number)


@referee_required
@require_POST
def game_extra_view(request: HttpRequest, event: Event, game_id: int) -> HttpResponse:
    """Extra minutes for one table."""
    game = event_game(event, game_id)
    if game is None:
        raise Http404
    minutes = request.POST.get("minutes")
    act(request, lambda: game_extra_minutes(game=game, minutes=minutes, user=request.user))
    return redirect("round-sheet", event.slug, game.round.number)


@organizer_required
@require_POST
def round_minutes_set(request: HttpRequest, event: Event) -> HttpResponse:
    minutes = request.POST.get("round_minutes")
    act(
        request,
        lambda: event_round_minutes_set(event=event, minutes=minutes, user=request.user),
        _("Saved."),
    )
    return redirect("event-manage", event.slug)


@organizer_required
@require_http_methods(["GET", "POST"])
def round_remove(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Take back a round's seating. Asked first (GET, or a POST without `confirmed`): its
    printed slips and table codes stop working, which one tap must not do unawares — a page,
    not a script's dialog (the CSP allows no inline script, and it works without script)."""
    rnd = round_of(event, number)
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
            "tables": round_table_count(rnd),
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


def _seat_choice(value: str, games: dict[int, Game]) -> tuple[Game, int] | None:
    """ "<game id>:<seat>" of this round's open games, or None."""
    game_id, _sep, position = value.partition(":")
    if not (game_id.isdigit() and position.isdigit()) or int(game_id) not in games:
        return None
    return games[int(game_id)], int(position)


@organizer_required
@require_POST
def seats_swap_view(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    rnd = round_of(event, number)
    if rnd is None:
        raise Http404
    games = {g.pk: g for g in round_games(rnd)}
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
