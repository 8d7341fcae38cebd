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
    game = link.game
    event = game.round.event
    if game.finished:
        return _gone(request, "over", link)
    session_key = f"table-seat:{link.token}"
    seat = request.session.get(session_key)
    sheet = game_sheet(event, game)
    names = sheet.names
    context: dict[str, Any] = {"event": event, "game": game, "sheet": sheet, "link": link}
    context["may_enter"] = event.table_entry == "tables"
    if seat is not None and not 0 <= seat < len(names):
        seat = None
    context["seat"] = seat_label(seat, names[seat]) if seat is not None else ""
    context["seats"] = [(i, seat_label(i, n)) for i, n in enumerate(names)]
    context["waiting_by"] = waiting_by(game, names)
    context["clock"] = round_clock(game.round, game)
    status = 200
    hand_form = confirm_form = dispute_form = None
    action = request.POST.get("do", "") if request.method == "POST" else ""

    if action == "seat":
        picked = request.POST.get("seat", "")
        if picked.isdigit() and int(picked) < len(names):
            request.session[session_key] = int(picked)
        return redirect("table-page", link.token)
    if action in ("confirm", "dispute"):
        form_class = ConfirmForm if action == "confirm" else DisputeForm
        form = form_class(request.POST)
        form.seat_names = names
        if throttled("seat", link.token):
            form.add_error(None, _("Too many wrong codes at this table; wait a few minutes."))
        elif form.is_valid():
            try:
                if action == "confirm":
                    game_confirm(link=link, code=form.cleaned_data["code"])
                else:
                    reason = form.cleaned_data["reason"]
                    game_dispute(link=link, code=form.cleaned_data["code"], reason=reason)
            except ServiceError as exc:
                if exc.code == "table.wrong_code":
                    count_failure("seat", link.token)
                form.add_service_error(exc)
            else:
                return redirect("table-page", link.token)
        status = 400
        confirm_form, dispute_form = (form, None) if action == "confirm" else (None, form)
    elif action == "scores":
        if not context["may_enter"] or seat is None or game.confirmation:
            return redirect("table-page", link.token)
        scores_form = ScoresForm(request.POST, rules=event.rules, names=names, players=names)
        status = 400
        if scores_form.is_valid():
            data = scores_form.to_data(game.round.number, game.table)
            try:
                if "preview" in request.POST:
                    context["preview"] = scores_preview(event, data)
                    status = 200
                else:
                    game_correct(
                        game=game,
                        data=data,
                        expected_version=scores_form.cleaned_data["version"] or 0,
                        at=AtTable(game.table, seat),
                    )
                    return redirect("table-page", link.token)
            except ConflictError:
                game.refresh_from_db()
                scores_form = _rebased(
                    ScoresForm,
                    request.POST,
                    game.version,
                    rules=event.rules,
                    names=names,
                    players=names,
                )
                status = 409
            except ServiceError as exc:
                scores_form.add_service_error(exc)
        context["scores_form"] = scores_form
    elif action in ("hand", "undo"):
        if not context["may_enter"] or seat is None or game.confirmation:
            return redirect("table-page", link.token)
        at = AtTable(game.table, seat)
        kwargs = hand_form_kwargs(event, game, sheet)
        if action == "undo":
            try:
                version = int(request.POST.get("version", ""))
            except ValueError:
                version = -1
            try:
                game_hand_undo(game=game, expected_version=version, at=at)
            except ServiceError as exc:
                context["undo_error"] = error_text(exc, names)
                status = 409 if isinstance(exc, ConflictError) else 400
            else:
                return redirect("table-page", link.token)
        else:
            hand_form = HandForm(request.POST, **kwargs)
            if hand_form.is_valid():
                try:
                    game_hand_add(
                        game=game,
                        hand=hand_form.to_hand(),
                        expected_version=hand_form.cleaned_data["version"] or 0,
                        at=at,
                    )
                except ConflictError:
                    game.refresh_from_db()
                    hand_form = _rebased(HandForm, request.POST, game.version, **kwargs)
                    status = 409
                except ServiceError as exc:
                    hand_form.add_service_error(exc)
                    status = 400
                else:
                    return redirect("table-page", link.token)
            else:
                status = 400
    if status == 409:
        sheet = context["sheet"] = game_sheet(event, game)
    # A table with no hand yet enters what the event asks: hand by hand, or final scores.
    by_scores = event.table_mode == "scores" and not sheet.hands
    if by_scores and "scores_form" not in context and not game.confirmation:
        context["scores_form"] = ScoresForm(
            rules=event.rules, names=names, players=names, initial=scores_initial(game)
        )
    if not by_scores and hand_form is None and sheet.next is not None and not game.confirmation:
        hand_form = HandForm(
            **hand_form_kwargs(event, game, sheet), initial={"version": game.version}
        )
    context.update(
        form=hand_form,
        confirm_form=confirm_form or ConfirmForm(),
        dispute_form=dispute_form or DisputeForm(),
    )
    return render(request, "tournament/table.html", context, status=status)
