"""A table's own page (CONTRACT §3): what its printed QR code opens, without an account.

A phone acts for a seat only once it has proved it — that seat's code, typed, or the seat's
own QR code on the slip cut from the round sheet — and holds one seat at a time. The table
then records its hands or its final scores as that seat; a finished game waits for a
different seat's code typed on a different phone (confirm, or dispute for the organizer).

Wrong guesses are counted per client (services/throttle.py): a valid table link opens
whatever anyone else has tried, and a phone is stopped only by its own wrong codes (or its
address's, many phones' worth)."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.db.models import Prefetch, prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournament.forms.base import ServiceForm
from tournament.forms.games import HandForm, ScoresForm, hand_form_initial
from tournament.i18n import error_text, seat_label
from tournament.models import Seat, TableLink
from tournament.selectors.conditions import game_conditions
from tournament.selectors.games import game_sheet
from tournament.selectors.tables import round_clock, table_link_by_code, table_link_by_token
from tournament.services.confirmation import AtTable
from tournament.services.errors import ConflictError, ServiceError
from tournament.services.games import game_correct
from tournament.services.hands import game_hand_undo
from tournament.services.tables import (
    game_confirm,
    game_dispute,
    normalize_code,
    table_seat_prove,
)
from tournament.services.throttle import WINDOW, Throttled, client_address, guess_take
from tournament.views.entry import (
    _rebased,
    entered_result,
    hand_conflict,
    hand_form_kwargs,
    hand_save,
    say_recorded,
    scores_initial,
    scores_preview,
    taken_back_text,
    waiting_by,
)

PHONE_KEY = "table-phone"  # a random id per phone: the entering phone cannot confirm
SEAT_KEY = "table-seat"  # [token, seat]: the one seat this phone has proved, at one table
# The token of the table whose result this phone has just confirmed: its next visit (the
# confirmation's redirect) says so; later ones answer as any closed link does.
CONFIRMED_KEY = "table-confirmed"
# /t/'s count of a phone that has no session: a cookie, not a session row per try.
CODE_PHONE_COOKIE = "table-code-phone"


def _code_field(label: Any) -> forms.CharField:
    return forms.CharField(
        label=label,
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )


class CodeForm(forms.Form):
    code = _code_field(gettext_lazy("Table code"))


class SeatForm(ServiceForm):
    code = _code_field(gettext_lazy("Your seat code"))


class DisputeForm(SeatForm):
    reason = forms.CharField(label=gettext_lazy("What is wrong"), max_length=300)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Shown under the confirm form, whose code field is id_code: ids of its own, so each
        # label names its own input.
        kwargs.setdefault("auto_id", "id_dispute_%s")
        super().__init__(*args, **kwargs)


def phone_id(request: HttpRequest) -> str:
    """This phone's random id, made on first need and kept in its session."""
    phone = request.session.get(PHONE_KEY)
    if not isinstance(phone, str) or len(phone) != 32:
        phone = request.session[PHONE_KEY] = secrets.token_hex(16)
    return phone


def _wait_text(stop: Throttled) -> str:
    return ngettext(
        "Too many wrong codes from this phone or network. Try again in %(n)d minute, "
        "or scan the QR code on your table's sheet.",
        "Too many wrong codes from this phone or network. Try again in %(n)d minutes, "
        "or scan the QR code on your table's sheet.",
        stop.minutes,
    ) % {"n": stop.minutes}


def _stopped(response: HttpResponse, stop: Throttled) -> HttpResponse:
    response["Retry-After"] = str(stop.seconds)
    return response


@never_cache
@require_http_methods(["GET", "POST"])
def table_code(request: HttpRequest) -> HttpResponse:
    """/t/: type the 6-character code printed under the table's QR code."""
    form = CodeForm(request.POST or None)
    if not form.is_bound:
        return render(request, "tournament/table_code.html", {"form": form})
    if not form.is_valid():
        return render(request, "tournament/table_code.html", {"form": form}, status=400)
    phone, new_phone = _code_phone(request)
    try:
        guess = guess_take("code", phone=phone, address=client_address(request))
    except Throttled as stop:
        form.add_error("code", _wait_text(stop))
        page = render(request, "tournament/table_code.html", {"form": form}, status=429)
        response = _stopped(page, stop)
    else:
        link = table_link_by_code(normalize_code(form.cleaned_data["code"]))
        if link is not None:
            guess.right()
            return redirect("table-page", link.token)
        form.add_error("code", _("No open table has this code. Check the sheet on the table."))
        response = render(request, "tournament/table_code.html", {"form": form}, status=400)
    if new_phone:
        response.set_signed_cookie(
            CODE_PHONE_COOKIE,
            phone,
            salt=CODE_PHONE_COOKIE,
            max_age=WINDOW,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


def _code_phone(request: HttpRequest) -> tuple[str, bool]:
    """The id /t/ counts this phone's wrong codes under, and whether it is new (then sent as
    a cookie): the session's phone id when it has one, else the phone's own signed cookie —
    never a session made for a try, since a client sending no cookies left a session row per
    refused try (issue 44)."""
    phone = request.session.get(PHONE_KEY)
    if not (isinstance(phone, str) and len(phone) == 32):
        phone = request.get_signed_cookie(CODE_PHONE_COOKIE, None, salt=CODE_PHONE_COOKIE)
    if isinstance(phone, str) and len(phone) == 32:
        return phone, False
    return secrets.token_hex(16), True


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
        context["seats"] = link.game.seats.select_related("player").order_by("position")
        context["event"] = event = link.game.round.event
        context["to_top"] = event.rules.leftover_deposits == "top"
        if request.session.pop(CONFIRMED_KEY, None) == link.token:
            context["confirmed"], status = True, 200
    return render(request, "tournament/table_gone.html", context, status=status)


def _open_link(request: HttpRequest, token: str) -> TableLink | HttpResponse:
    """The live link of an open game, or the page saying why not. A link that does not exist
    counts as a guess from its address; a valid one opens whatever others guessed."""
    link = table_link_by_token(token)
    if link is None:
        try:
            guess_take("link", address=client_address(request))
        except Throttled as stop:
            page = render(
                request, "tournament/table_gone.html", {"message": _wait_text(stop)}, status=429
            )
            return _stopped(page, stop)
        return _gone(request, "unknown")
    if link.revoked_at is not None:
        return _gone(request, "revoked")
    if link.game.finished:
        return _gone(request, "over", link)
    return link


@never_cache  # what a phone may do here depends on its session: no cache keeps it
@require_http_methods(["GET", "POST"])
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    link = _open_link(request, token)
    if isinstance(link, HttpResponse):
        return link
    return TablePage(request, link).answer()


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
    """One table's page and the buttons on it (`do`: seat, hand, replace, undo, scores,
    confirm, dispute). A handler answers a redirect when its service wrote, else the status
    the page is shown with, its forms kept as typed in `context`."""

    def __init__(self, request: HttpRequest, link: TableLink) -> None:
        self.request, self.link = request, link
        self.game = link.game
        # Its seats with their players, once: the sheet's names and the entered result.
        prefetch_related_objects(
            [self.game],
            Prefetch("seats", Seat.objects.select_related("player").order_by("position")),
        )
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
        action = self.request.POST.get("do", "") if self.request.method == "POST" else ""
        handler = {
            "seat": self.pick_seat,
            "confirm": self.confirm,
            "dispute": self.confirm,
            "scores": self.scores,
            "hand": self.hand,
            "replace": self.hand,
            "undo": self.undo,
        }.get(action)
        status = 200
        if handler is not None:
            if action in ("scores", "hand", "replace", "undo") and not self.entering():
                return self.reload()
            outcome = handler(action)
            if isinstance(outcome, HttpResponse):
                return outcome
            status = outcome
        return self.render(status)

    def entering(self) -> bool:
        """Whether this phone may enter a result now (the event lets tables enter, the phone
        proved its seat, nothing waits for confirmation)."""
        return self.may_enter and self.seat is not None and not self.game.confirmation

    def reload(self) -> HttpResponse:
        return redirect("table-page", self.link.token)

    def _guess(self, form: forms.Form, *, slip: bool = False) -> Any:
        """This try's place in the phone's and the address's seat-code counts, or None with
        the wait said on `form`. A slip's QR code counts for its phone only: a network held
        back by other phones' guesses never stops a player scanning their own slip (its link
        holds the table's token, so only someone with the table's sheet can try one)."""
        address = None if slip else client_address(self.request)
        try:
            return guess_take("seat", phone=phone_id(self.request), address=address)
        except Throttled as stop:
            form.add_error("code", _wait_text(stop))
            self.stop = stop
            return None

    def prove(self, code: str, form: forms.Form, *, slip: bool = False) -> HttpResponse | int:
        """This phone holds the seat whose code this is (and no other seat, here or at
        another table)."""
        guess = self._guess(form, slip=slip)
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
            % {"seat": seat_label(seat, self.names[seat])},
        )
        return self.reload()

    def pick_seat(self, _action: str) -> HttpResponse | int:
        form = self.context["seat_form"] = SeatForm(self.request.POST)
        if not form.is_valid():
            return 400
        return self.prove(form.cleaned_data["code"], form)

    def confirm(self, action: str) -> HttpResponse | int:
        form = (SeatForm if action == "confirm" else DisputeForm)(self.request.POST)
        form.seat_names = self.names
        self.context[f"{action}_form"] = form
        if not form.is_valid():
            return 400
        guess = self._guess(form)
        if guess is None:
            return 429
        code = form.cleaned_data["code"]
        try:
            if action == "confirm":
                game_confirm(link=self.link, code=code, phone=phone_id(self.request))
                self.request.session[CONFIRMED_KEY] = self.link.token
            else:
                game_dispute(link=self.link, code=code, reason=form.cleaned_data["reason"])
        except ServiceError as exc:
            if exc.code != "table.wrong_code":
                guess.right()  # a right code, refused for another reason: not a guess
            form.add_service_error(exc)
            return 400
        guess.right()
        return self.reload()

    def scores(self, _action: str) -> HttpResponse | int:
        kwargs = {"rules": self.event.rules, "names": self.names, "players": self.names}
        form = self.context["scores_form"] = ScoresForm(self.request.POST, **kwargs)
        if not form.is_valid():
            return 400
        data = form.to_data(self.game.round.number, self.game.table)
        try:
            if "preview" in self.request.POST:
                self.context["preview"] = scores_preview(self.event, data)
                return 200
            game_correct(
                game=self.game,
                data=data,
                expected_version=form.cleaned_data["version"] or 0,
                at=self.at,
            )
        except ConflictError:
            self.game.refresh_from_db()
            self.context["scores_form"] = _rebased(
                ScoresForm, self.request.POST, self.game.version, **kwargs
            )
            return 409
        except ServiceError as exc:
            form.add_service_error(exc)
            return 400
        return self.reload()

    def hand(self, action: str) -> HttpResponse | int:
        """A hand recorded; or, from the conflict screen, the last hand replaced by this one."""
        kwargs = hand_form_kwargs(self.event, self.game, self.sheet)
        form = self.context["form"] = HandForm(self.request.POST, **kwargs)
        if not form.is_valid():
            return 400
        try:
            recorded = hand_save(
                game=self.game,
                form=form,
                sheet=self.sheet,
                replace=action == "replace",
                at=self.at,
            )
        except ConflictError:
            self.game.refresh_from_db()
            self.sheet = game_sheet(self.event, self.game)
            self.context["conflict"] = hand_conflict(self.request.POST, form, self.game, self.sheet)
            del self.context["form"]  # below the conflict: a fresh form for the next hand
            return 409
        except ServiceError as exc:
            form.add_service_error(exc)
            self.sheet = game_sheet(self.event, self.game)  # its flow was given up: again
            return 400
        say_recorded(self.request, recorded)
        return self.reload()

    def undo(self, _action: str) -> HttpResponse | int:
        try:
            version = int(self.request.POST.get("version", ""))
        except ValueError:
            version = -1  # as stale as an old version: the conflict says so
        try:
            taken_back = game_hand_undo(game=self.game, expected_version=version, at=self.at)
        except ServiceError as exc:
            self.context["undo_error"] = error_text(exc, self.names)
            return 409 if isinstance(exc, ConflictError) else 400
        messages.success(self.request, taken_back_text(taken_back, self.names))
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
            seat=seat_label(seat, names[seat]) if seat is not None else "",
            waiting_by=waiting_by(game, names),
            clock=round_clock(game.round, game),
            conditions=game_conditions(event, game, sheet.flow, names),
        )
        response = render(self.request, "tournament/table.html", context, status=status)
        return _stopped(response, self.stop) if self.stop is not None else response
