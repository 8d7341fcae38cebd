"""A table's own page (CONTRACT §3): what its printed QR code opens, without an account. The
phone says which seat it is once; the table records its hands; a finished game waits for a
different seat's code (confirm, or dispute for the organizer to settle)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from tournament.forms.base import ServiceForm
from tournament.forms.games import HandForm, ScoresForm
from tournament.i18n import error_text, seat_label
from tournament.models import TableLink
from tournament.selectors.games import game_sheet
from tournament.selectors.tables import round_clock, table_link_by_code, table_link_by_token
from tournament.services.errors import ConflictError, ServiceError
from tournament.services.games import AtTable, game_correct, game_hand_add, game_hand_undo
from tournament.services.tables import game_confirm, game_dispute, normalize_code
from tournament.services.throttle import count_failure, throttled
from tournament.views.entry import (
    _rebased,
    hand_form_kwargs,
    scores_initial,
    scores_preview,
    waiting_by,
)


class CodeForm(forms.Form):
    code = forms.CharField(label=_("Table code"), max_length=20)


class ConfirmForm(ServiceForm):
    code = forms.CharField(
        label=_("Your seat code"),
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )


class DisputeForm(ConfirmForm):
    reason = forms.CharField(label=_("What is wrong"), max_length=300)


def _address(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR") or "?"


@require_http_methods(["GET", "POST"])
def table_code(request: HttpRequest) -> HttpResponse:
    """/t/: type the 6-character code printed under the table's QR code."""
    form = CodeForm(request.POST or None)
    status = 200
    if form.is_bound and form.is_valid():
        if throttled("code", _address(request)):
            form.add_error("code", _("Too many wrong codes from here; wait a few minutes."))
            status = 429
        else:
            link = table_link_by_code(normalize_code(form.cleaned_data["code"]))
            if link is not None:
                return redirect("table-page", link.token)
            count_failure("code", _address(request))
            form.add_error("code", _("No open table has this code. Check the sheet on the table."))
            status = 400
    elif form.is_bound:
        status = 400
    return render(request, "tournament/table_code.html", {"form": form}, status=status)


# A link that opens nothing says why, never another table's game.
GONE = {
    "unknown": (_("This table link does not exist. Check the code on the table's sheet."), 404),
    "revoked": (_("This table link was replaced by the organizer; scan the new sheet."), 410),
    "over": (_("This table's game is over; its result is in the standings."), 410),
    "throttled": (_("Too many wrong codes from here; wait a few minutes."), 429),
}


def _gone(request: HttpRequest, why: str, link: TableLink | None = None) -> HttpResponse:
    message, status = GONE[why]
    context = {"message": message, "link": link}
    return render(request, "tournament/table_gone.html", context, status=status)


@require_http_methods(["GET", "POST"])
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    if throttled("code", _address(request)):
        return _gone(request, "throttled")
    link = table_link_by_token(token)
    if link is None:
        count_failure("code", _address(request))  # guessing links counts like guessing codes
        return _gone(request, "unknown")
    if link.revoked_at is not None:
        return _gone(request, "revoked")
    if link.game.finished:
        return _gone(request, "over", link)
    return TablePage(request, link).answer()


class TablePage:
    """One table's page and the buttons on it (`do`: seat, hand, undo, scores, confirm,
    dispute). A handler answers a redirect when its service wrote, else the status the page
    is shown with, its forms kept as typed in `context`."""

    def __init__(self, request: HttpRequest, link: TableLink) -> None:
        self.request, self.link = request, link
        self.game = link.game
        self.event = self.game.round.event
        self.sheet = game_sheet(self.event, self.game)
        self.names = self.sheet.names
        self.session_key = f"table-seat:{link.token}"
        seat = request.session.get(self.session_key)
        self.seat: int | None = seat if seat is not None and 0 <= seat < len(self.names) else None
        self.may_enter = self.event.table_entry == "tables"
        self.context: dict[str, Any] = {}

    def answer(self) -> HttpResponse:
        action = self.request.POST.get("do", "") if self.request.method == "POST" else ""
        handler = {
            "seat": self.pick_seat,
            "confirm": self.confirm,
            "dispute": self.confirm,
            "scores": self.scores,
            "hand": self.hand,
            "undo": self.undo,
        }.get(action)
        status = 200
        if handler is not None:
            if action in ("scores", "hand", "undo") and not self.entering():
                return self.reload()
            outcome = handler(action)
            if isinstance(outcome, HttpResponse):
                return outcome
            status = outcome
        return self.render(status)

    def entering(self) -> bool:
        """Whether this phone may enter a result now (the event lets tables enter, the phone
        said its seat, nothing waits for confirmation)."""
        return self.may_enter and self.seat is not None and not self.game.confirmation

    def reload(self) -> HttpResponse:
        return redirect("table-page", self.link.token)

    def pick_seat(self, _action: str) -> HttpResponse:
        picked = self.request.POST.get("seat", "")
        if picked.isdigit() and int(picked) < len(self.names):
            self.request.session[self.session_key] = int(picked)
        return self.reload()

    def confirm(self, action: str) -> HttpResponse | int:
        form = (ConfirmForm if action == "confirm" else DisputeForm)(self.request.POST)
        form.seat_names = self.names
        self.context[f"{action}_form"] = form
        if throttled("seat", self.link.token):
            form.add_error(None, _("Too many wrong codes at this table; wait a few minutes."))
            return 400
        if not form.is_valid():
            return 400
        code = form.cleaned_data["code"]
        try:
            if action == "confirm":
                game_confirm(link=self.link, code=code)
            else:
                game_dispute(link=self.link, code=code, reason=form.cleaned_data["reason"])
        except ServiceError as exc:
            if exc.code == "table.wrong_code":
                count_failure("seat", self.link.token)
            form.add_service_error(exc)
            return 400
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
                at=AtTable(self.game.table, self.seat),
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

    def hand(self, _action: str) -> HttpResponse | int:
        kwargs = hand_form_kwargs(self.event, self.game, self.sheet)
        form = self.context["form"] = HandForm(self.request.POST, **kwargs)
        if not form.is_valid():
            return 400
        try:
            game_hand_add(
                game=self.game,
                hand=form.to_hand(),
                expected_version=form.cleaned_data["version"] or 0,
                at=AtTable(self.game.table, self.seat),
                played=self.sheet.flow,  # replayed for the page: the engine goes on from it
            )
        except ConflictError:
            self.game.refresh_from_db()
            self.context["form"] = _rebased(
                HandForm, self.request.POST, self.game.version, **kwargs
            )
            return 409
        except ServiceError as exc:
            form.add_service_error(exc)
            self.sheet = game_sheet(self.event, self.game)  # its flow was given up: again
            return 400
        return self.reload()

    def undo(self, _action: str) -> HttpResponse | int:
        try:
            version = int(self.request.POST.get("version", ""))
        except ValueError:
            version = -1  # as stale as an old version: the conflict says so
        try:
            game_hand_undo(
                game=self.game, expected_version=version, at=AtTable(self.game.table, self.seat)
            )
        except ServiceError as exc:
            self.context["undo_error"] = error_text(exc, self.names)
            return 409 if isinstance(exc, ConflictError) else 400
        return self.reload()

    def render(self, status: int) -> HttpResponse:
        game, event, names = self.game, self.event, self.names
        if status == 409:  # saved meanwhile by another phone: show what it saved
            self.sheet = game_sheet(event, game)
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
                HandForm(**hand_form_kwargs(event, game, sheet), initial={"version": game.version}),
            )
        context.setdefault("confirm_form", ConfirmForm())
        context.setdefault("dispute_form", DisputeForm())
        seat = self.seat
        context.update(
            event=event,
            game=game,
            sheet=sheet,
            link=self.link,
            may_enter=self.may_enter,
            seat=seat_label(seat, names[seat]) if seat is not None else "",
            seats=[(i, seat_label(i, n)) for i, n in enumerate(names)],
            waiting_by=waiting_by(game, names),
            clock=round_clock(game.round, game),
        )
        return render(self.request, "tournament/table.html", context, status=status)
