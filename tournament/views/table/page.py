"""/t/<token>/: a table's page as one phone sees it, and /t/<token>/seat/<code>/, a seat's slip.
What each of its buttons does is in actions.py."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournament.forms.games import ScoresForm
from tournament.forms.hands import HandForm, hand_form_initial
from tournament.http_caching import answer_by_tag, page_tag
from tournament.i18n import error_text, seat_marked
from tournament.models import TableLink
from tournament.selectors.conditions import game_conditions
from tournament.selectors.games import game_sheet
from tournament.selectors.sheets import entry_saved, load_seats, seats_in_order
from tournament.selectors.tables import round_clock, table_link_by_token, table_moves
from tournament.services.confirmation import AtTable
from tournament.services.errors import ServiceError
from tournament.services.tables import table_seat_prove
from tournament.services.throttle import Throttled, client_network, guess_take
from tournament.views.entry_shared import (
    entered_result,
    hand_form_kwargs,
    scores_initial,
    waiting_by,
)
from tournament.views.errors import stopped
from tournament.views.table.actions import ACTIONS
from tournament.views.table.forms import DisputeForm, EntryForm, SeatForm
from tournament.views.table.phone import (
    CONFIRMED_KEY,
    PHONE_KEY,
    SEAT_KEY,
    phone_id,
    wait_text,
)

# A link that opens nothing says why, never another table's game.
GONE = {
    "unknown": (
        gettext_lazy("This table link does not exist. Check the code on the table's sheet."),
        404,
    ),
    "revoked": (
        gettext_lazy("This table link was replaced by the organizer; scan the new sheet."),
        410,
    ),
    "over": (gettext_lazy("This table's game is over; its result is in the standings."), 410),
}


def _gone(request: HttpRequest, why: str, link: TableLink | None = None) -> HttpResponse:
    message, status = GONE[why]
    context: dict[str, Any] = {"message": message, "link": link}
    if why == "over" and link is not None:
        # The result, final: what the phone that just confirmed it reads (with a 200 once,
        # its own confirmation said), and anyone opening the closed link later.
        context["seats"] = seats_in_order(link.game)
        context["event"] = event = link.game.round.event
        context["to_top"] = event.rules.leftover_deposits == "top"
        # The phone that confirmed, or any phone that held a seat here (the one that entered
        # it, reloading or refreshed by its poll): "confirmed", with the points.
        held = request.session.get(SEAT_KEY)
        seated_here = isinstance(held, list) and held[:1] == [link.token]
        if request.session.pop(CONFIRMED_KEY, None) == link.token or seated_here:
            context["confirmed"], status = True, 200
    return render(request, "tournament/table_gone.html", context, status=status)


def _open_link(request: HttpRequest, token: str) -> TableLink | HttpResponse:
    """The live link of an open game, or the page saying why not. A link that does not exist
    counts as a guess from its address; a valid one opens whatever others guessed."""
    link = table_link_by_token(token)
    if link is None:
        try:
            guess_take("link", address=client_network(request))
        except Throttled as stop:
            page = render(
                request, "tournament/table_gone.html", {"message": wait_text(stop)}, status=429
            )
            return stopped(page, stop)
        return _gone(request, "unknown")
    if link.revoked_at is not None:
        return _gone(request, "revoked")
    if link.game.finished:
        if request.method == "POST" and _saved_before(request, link):
            # A phone's outbox sending a hand of this game late (CONTRACT §3): it was saved,
            # so it is answered as a saved copy is — the table's page, which says it is over.
            return redirect("table-page", token=link.token)
        return _gone(request, "over", link)
    return link


def _saved_before(request: HttpRequest, link: TableLink) -> bool:
    """Whether this POST is a copy of a hand entry the game holds or held."""
    entry = EntryForm(request.POST)
    entry_id = entry.cleaned_data["entry_id"] if entry.is_valid() else None
    return entry_id is not None and entry_saved(link.game, entry_id)


@never_cache  # what a phone may do here depends on its session: no cache keeps it
@require_http_methods(["GET", "POST"])
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    link = _open_link(request, token)
    if isinstance(link, HttpResponse):
        return link
    if request.method == "GET":
        # Polled by live.js every few seconds: a phone holding this version of the game, for
        # this seat, gets 304 from the link's one query and its session — no sheet is built.
        tag = _live_tag(request, link)
        return answer_by_tag(request, tag, lambda request: _tagged(TablePage(request, link), tag))
    return TablePage(request, link).answer()


def _tagged(page: TablePage, tag: str) -> HttpResponse:
    page.context["live_tag"] = tag  # live.js's first poll sends it: 304 unless it moved
    return page.answer()


def _live_tag(request: HttpRequest, link: TableLink) -> str:
    """What the page shows that can change while it is open: what moves for every phone at
    the table (selectors/tables.py TABLE_MOVES), and this phone's seat and whether it entered
    the waiting result. Not in it: another table's result, which moves the deciding round's
    conditions only (shown again with the table's next hand)."""
    game = link.game
    entered_here = bool(game.submitted_phone) and (
        request.session.get(PHONE_KEY) == game.submitted_phone
    )
    stamps = [link.pk, game.pk, table_moves(link), request.session.get(SEAT_KEY), entered_here]
    return page_tag(request, "table", stamps)


@never_cache
@require_http_methods(["GET"])
def table_seat(request: HttpRequest, token: str, code: str) -> HttpResponse:
    """/t/<token>/seat/<code>/: a seat's own QR code, on the slip cut from the round sheet —
    the phone that scans it holds that seat, then sees its table."""
    link = _open_link(request, token)
    if isinstance(link, HttpResponse):
        return link
    page = TablePage(request, link)
    form = page.context["seat_form"] = SeatForm({"code": code})
    outcome = page.prove(code, form, slip=True) if form.is_valid() else 400
    return outcome if isinstance(outcome, HttpResponse) else page.render(outcome)


class TablePage:
    """One table's page for one phone: the game, its sheet, the seat this phone holds, and the
    forms shown (`context`, kept as typed when a button's form is refused). A button posted
    (`do`) is answered by its own view in actions.py."""

    def __init__(self, request: HttpRequest, link: TableLink) -> None:
        self.request, self.link = request, link
        self.game = link.game
        # Its seats with their players, once: the sheet's names and the entered result.
        load_seats(self.game)
        self.event = self.game.round.event
        self.sheet = game_sheet(self.event, self.game)
        self.names = self.sheet.names
        held = request.session.get(SEAT_KEY)
        seat = (
            held[1] if isinstance(held, list) and len(held) == 2 and held[0] == link.token else None
        )
        self.seat: int | None = (
            seat if isinstance(seat, int) and 0 <= seat < len(self.names) else None
        )
        self.may_enter = self.event.table_entry == "tables"
        self.context: dict[str, Any] = {}
        self.stop: Throttled | None = None  # this phone's guesses refused: the answer says when

    @property
    def at(self) -> AtTable:
        return AtTable(self.game.table, self.seat, phone_id(self.request))

    def answer(self) -> HttpResponse:
        """The page, or what its posted button (`do`) answers: a redirect when its service
        wrote, else the page with the status the button gave. A button that enters a result
        on a phone that may not enter now (no seat proved, a result waiting) reloads."""
        posted = self.request.POST.get("do", "") if self.request.method == "POST" else ""
        button = ACTIONS.get(posted)
        if button is None:
            return self.render(200)
        view = button.view
        if button.enters and not self.entering():
            if button.not_now is None:
                return self.reload()
            view = button.not_now
        outcome = view(self)
        return outcome if isinstance(outcome, HttpResponse) else self.render(outcome)

    def entering(self) -> bool:
        """Whether this phone may enter a result now (the event lets tables enter, the phone
        proved its seat, nothing waits for confirmation)."""
        return self.may_enter and self.seat is not None and not self.game.confirmation

    def reload(self) -> HttpResponse:
        return redirect("table-page", self.link.token)

    def guess(self, form: forms.Form, *, slip: bool = False) -> Any:
        """This try's place in the phone's and the address's seat-code counts, or None with
        the wait said on `form`. A slip's QR code counts for its phone only: a network held
        back by other phones' guesses never stops a player scanning their own slip (its link
        holds the table's token, so only someone with the table's sheet can try one)."""
        address = None if slip else client_network(self.request)
        try:
            return guess_take("seat", phone=phone_id(self.request), address=address)
        except Throttled as stop:
            form.add_error("code", wait_text(stop))
            self.stop = stop
            return None

    def prove(self, code: str, form: forms.Form, *, slip: bool = False) -> HttpResponse | int:
        """This phone holds the seat whose code this is (and no other seat, here or at
        another table)."""
        guess = self.guess(form, slip=slip)
        if guess is None:
            return 429
        try:
            seat = table_seat_prove(link=self.link, code=code)
        except ServiceError as exc:
            form.add_error("code", error_text(exc, self.names))
            return 400
        guess.right()
        self.request.session[SEAT_KEY] = [self.link.token, seat]
        messages.success(
            self.request,
            _("This phone is %(seat)s at this table.")
            % {"seat": seat_marked(seat, self.names[seat])},
        )
        return self.reload()

    def render(self, status: int) -> HttpResponse:
        game, event, names = self.game, self.event, self.names
        sheet, context = self.sheet, self.context
        # A table with no hand yet enters what the event asks: hand by hand, or final scores.
        by_scores = event.table_mode == "scores" and not sheet.hands
        if not game.confirmation and by_scores:
            context.setdefault(
                "scores_form",
                ScoresForm(
                    rules=event.rules, names=names, players=names, initial=scores_initial(game)
                ),
            )
        if not game.confirmation and not by_scores and sheet.next is not None:
            context.setdefault(
                "form",
                HandForm(
                    **hand_form_kwargs(event, game, sheet),
                    initial=hand_form_initial(game.version, len(sheet.hands)),
                ),
            )
        context.setdefault("seat_form", SeatForm())
        context.setdefault("confirm_form", SeatForm())
        context.setdefault("dispute_form", DisputeForm())
        seat = self.seat
        phone = self.request.session.get(PHONE_KEY)
        context.update(
            entered=entered_result(event, game),
            # The phone that entered the result waits: the form it could send is refused.
            entered_here=game.confirmation == "waiting"
            and bool(game.submitted_phone)
            and phone == game.submitted_phone,
            event=event,
            game=game,
            sheet=sheet,
            link=self.link,
            may_enter=self.may_enter,
            seat=seat_marked(seat, names[seat]) if seat is not None else "",
            waiting_by=waiting_by(game, names),
            clock=round_clock(game.round, game),
            conditions=game_conditions(event, game, sheet.flow, names),
        )
        # The page as a GET shows it follows the game (live.js); a button's answer (a conflict,
        # a refused form) stays as it is until the person acts.
        context["live"] = self.request.method == "GET"
        if context["live"] and settings.STREAMS:
            # Where the site streams, the table's stream says when it moves, from the state
            # this page shows (tournament/streams.py); the page then asks as its poll does.
            stream = reverse("table-stream", args=[self.link.token])
            context["stream"] = f"{stream}?since={table_moves(self.link)}"
        response = render(self.request, "tournament/table.html", context, status=status)
        return stopped(response, self.stop) if self.stop is not None else response
