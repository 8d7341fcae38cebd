"""Result entry for one table by the organizer or a referee: final scores (with a preview), or
hand by hand; corrections, approval of a table's result, a table removed or added by hand.
Every save carries the version the organizer loaded; a save made meanwhile by someone else is
a conflict shown with what they typed kept in the form, never a silent overwrite."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournament.forms.games import ScoresForm, VersionForm
from tournament.forms.hands import HandForm, hand_form_initial
from tournament.i18n import error_text, seat_label
from tournament.models import Event, Game, Seat
from tournament.permissions import organizer_required, referee_required
from tournament.selectors.games import Sheet, game_for_entry, game_sheet, game_was_removed
from tournament.selectors.players import player_suggestions, players_named
from tournament.selectors.rounds import game_exists
from tournament.selectors.sheets import hands_recorded
from tournament.selectors.tables import round_clock
from tournament.services.errors import ConflictError, ServiceError
from tournament.services.game_data import (
    game_has_result,
    game_to_data,
)
from tournament.services.games import game_correct, game_record, game_remove
from tournament.services.hands import game_hand_undo
from tournament.services.tables import game_approve
from tournament.views.entry_shared import (
    bust_lines,
    entered_result,
    hand_conflict,
    hand_form_kwargs,
    hand_save,
    rebased,
    say_recorded,
    scores_initial,
    scores_preview,
    taken_back_text,
    waiting_by,
)
from tournament.views.hand_fix import hand_fix_page


def _game(event: Event, game_id: int, live_scores: bool = False) -> Game:
    try:
        return game_for_entry(event, game_id, live_scores)
    except Game.DoesNotExist:
        raise Http404 from None


STALE_APPROVAL = gettext_lazy(
    "The result changed since you opened this page (disputed or corrected meanwhile); "
    "nothing was approved. Check it below and approve again."
)


def _saved(request: HttpRequest, event: Event, data: dict[str, Any]) -> HttpResponse:
    messages.success(
        request, _("Round %(r)d table %(t)d is saved.") % {"r": data["round"], "t": data["table"]}
    )
    return redirect("round-sheet", event.slug, data["round"])


def _scores_page(
    request: HttpRequest, event: Event, game: Game | None, form: ScoresForm, **extra: Any
) -> HttpResponse:
    status = 409 if extra.get("conflict") else 400 if form.is_bound and form.errors else 200
    if game is not None and game.confirmation:
        # A table's result waiting or disputed: shown, to approve as entered or correct.
        extra.setdefault("entered", entered_result(event, game))
        extra.setdefault("waiting_by", waiting_by(game, [s.player.name for s in game.seats.all()]))
    return render(
        request,
        "tournament/manage/game_scores.html",
        {"event": event, "game": game, "form": form, **extra},
        status=status,
    )


@referee_required
def game_scores(request: HttpRequest, event: Event, game_id: int) -> HttpResponse:
    game = _game(event, game_id)
    names = [s.player.name for s in game.seats.all()]
    kwargs = {
        "rules": event.rules,
        "names": names,
        "players": player_suggestions(event, seated=names),
        "lookup": partial(players_named, event),
        # Saving replaces a game's hands: the form says how many and asks (one query, for a
        # game kept hand by hand only).
        "hands": hands_recorded(game),
    }
    if request.method != "POST":
        return _scores_page(
            request, event, game, ScoresForm(initial=scores_initial(game), **kwargs)
        )
    form = ScoresForm(request.POST, **kwargs)
    if not form.is_valid():
        return _scores_page(request, event, game, form)
    data = form.to_data(game.round.number, game.table)
    try:
        if "preview" in request.POST:
            return _scores_page(request, event, game, form, preview=scores_preview(event, data))
        game_correct(
            game=game,
            data=data,
            expected_version=form.cleaned_data["version"] or 0,
            user=request.user,
            replace_hands=form.cleaned_data.get("replace_hands", False),
        )
    except ConflictError:
        current = _game(event, game_id)
        form = rebased(ScoresForm, request.POST, current.version, **kwargs)
        saved = None
        if game_has_result(current):
            was = game_to_data(current)
            saved = list(
                zip(
                    was["seats"],
                    was.get("scores") or [None] * len(was["seats"]),
                    strict=True,
                )
            )
        return _scores_page(request, event, game, form, conflict=True, saved=saved)
    except ServiceError as exc:
        form.add_service_error(exc)
        return _scores_page(request, event, game, form)
    return _saved(request, event, data)


@referee_required
def game_new(request: HttpRequest, event: Event) -> HttpResponse:
    """A table that was not seated here (a club night, a late table): players chosen in the form."""
    n = event.rules.players
    kwargs = {
        "rules": event.rules,
        "names": [""] * n,
        "players": player_suggestions(event),
        "lookup": partial(players_named, event),
        "new": True,
    }
    if request.method != "POST":
        initial = {"round": request.GET.get("round") or 1, "table": request.GET.get("table") or 1}
        return _scores_page(request, event, None, ScoresForm(initial=initial, **kwargs))
    form = ScoresForm(request.POST, **kwargs)
    if not form.is_valid():
        return _scores_page(request, event, None, form)
    data = form.to_data(0, 0)
    try:
        if "preview" in request.POST:
            return _scores_page(request, event, None, form, preview=scores_preview(event, data))
        game_record(event=event, data=data, user=request.user)
    except ServiceError as exc:
        form.add_service_error(exc)
        return _scores_page(request, event, None, form)
    return _saved(request, event, data)


def _hands_page(
    request: HttpRequest,
    event: Event,
    game: Game,
    form: HandForm | None,
    sheet: Sheet | None = None,
    **extra: Any,
) -> HttpResponse:
    sheet = sheet or game_sheet(event, game)
    status = 409 if extra.get("conflict") else 400 if form is not None and form.errors else 200
    clock = round_clock(game.round, game)
    if form is None and sheet.next is not None:
        initial = hand_form_initial(game.version, len(sheet.hands))
        form = HandForm(**hand_form_kwargs(event, game, sheet), initial=initial)
    return render(
        request,
        "tournament/manage/game_hands.html",
        {
            "event": event,
            "game": game,
            "sheet": sheet,
            "form": form,
            # Final scores, final or waiting: no hand to enter; the scores page has them.
            "by_scores": game.mode == "scores" and (game.finished or bool(game.confirmation)),
            "final": _final(game, sheet) if game.finished else None,
            "entered": entered_result(event, game) if game.mode == "scores" else None,
            "waiting_by": waiting_by(game, sheet.names),
            "clock": clock,
            **extra,
        },
        status=status,
    )


@dataclass(frozen=True)
class FinalResult:
    """A finished game's result, said once."""

    seats: list[tuple[str, Seat]]  # each seat's wind and player, and its score, rank and points
    busts: list[str]  # as entered, or as the hands made them


def _final(game: Game, sheet: Sheet) -> FinalResult:
    """A finished game's result, said once: each seat's score, rank and points; the busts
    (as entered, or as the hands made them)."""
    names = sheet.names
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    busts = game.busts or [b.to_json() for b in sheet.flow.busts]
    return FinalResult(
        seats=[(seat_label(s.position, names[s.position]), s) for s in seats],
        busts=bust_lines(busts, names),
    )


@referee_required
def game_hands(request: HttpRequest, event: Event, game_id: int) -> HttpResponse:
    game = _game(event, game_id)
    if "fix" in request.GET or "fix" in request.POST:  # a past hand corrected (hand_fix.py)
        return hand_fix_page(request, event, game, game_sheet(event, game))
    if request.method != "POST":
        return _hands_page(request, event, game, None)
    sheet = game_sheet(event, game)
    kwargs = hand_form_kwargs(event, game, sheet)
    form = HandForm(request.POST, **kwargs)
    if not form.is_valid():
        return _hands_page(request, event, game, form, sheet)
    try:
        recorded = hand_save(
            game=game, form=form, sheet=sheet, replace="replace" in request.POST, user=request.user
        )
    except ConflictError:
        current = _game(event, game_id)
        sheet = game_sheet(event, current)
        conflict = hand_conflict(request.POST, form, current, sheet)
        return _hands_page(request, event, current, None, sheet, conflict=conflict)
    except ServiceError as exc:  # nothing was written; the sheet's flow was given up: again
        form.add_service_error(exc)
        return _hands_page(request, event, game, form)
    say_recorded(request, recorded)
    return redirect("game-hands", event.slug, game.pk)


@referee_required
@require_POST
def game_undo(request: HttpRequest, event: Event, game_id: int) -> HttpResponse:
    game = _game(event, game_id)
    try:
        form = VersionForm(request.POST)
        # A version that is not a number is as stale as an old one: the conflict reply says so.
        expected = form.cleaned_data["version"] if form.is_valid() else None
        taken_back = game_hand_undo(
            game=game, expected_version=-1 if expected is None else expected, user=request.user
        )
    except ServiceError as exc:  # a conflict too: the sheet reloads with the other phone's hand
        messages.error(request, error_text(exc))
    else:
        names = [s.player.name for s in game.seats.all()]
        messages.success(request, taken_back_text(taken_back, names))
    return redirect("game-hands", event.slug, game.pk)


@referee_required
@require_POST
def game_approve_view(request: HttpRequest, event: Event, game_id: int) -> HttpResponse:
    """The organizer approves a result a table entered (waiting, or disputed and kept), as
    the page showed it: the form carries the game's version, and a result disputed or
    changed since is refused with the page shown again. Final scores go back to the round
    sheet, as a save does; a hand-by-hand game to its score sheet."""
    game = _game(event, game_id)
    back = ("game-scores" if game.mode == "scores" else "game-hands", event.slug, game.pk)
    where = {"r": game.round.number, "t": game.table}
    form = VersionForm(request.POST)
    # A version that is not a number is as stale as an old one: refused, the page shown again.
    expected = form.cleaned_data["version"] if form.is_valid() else None
    try:
        game_approve(
            game=game, user=request.user, expected_version=-1 if expected is None else expected
        )
    except ConflictError:
        messages.error(request, STALE_APPROVAL)
        return redirect(*back)
    except ServiceError as exc:
        if exc.code == "table.not_waiting" and game.finished:
            # Approved by a first tap whose answer was not seen, or settled meanwhile.
            messages.info(request, _("Round %(r)d table %(t)d's result is final already.") % where)
        else:
            messages.error(request, error_text(exc))
        return redirect(*back)
    messages.success(request, _("Round %(r)d table %(t)d is approved.") % where)
    if game.mode == "scores":
        return redirect("round-sheet", event.slug, game.round.number)
    return redirect(*back)


@organizer_required
def game_delete(request: HttpRequest, event: Event, game_id: int) -> HttpResponse:
    if request.method == "POST" and not game_exists(game_id):
        if not game_was_removed(event, game_id):
            raise Http404  # an id this event never had
        # Deleted by a first tap whose answer was not seen: the same outcome, said again.
        messages.info(request, _("That table is deleted."))
        return redirect("event-manage", event.slug)
    game = _game(event, game_id, live_scores=request.method != "POST")
    if request.method == "POST":
        number = game.round.number
        try:
            game_remove(game=game, user=request.user)
        except ServiceError as exc:
            messages.error(request, error_text(exc))
            return redirect("round-sheet", event.slug, number)
        messages.success(
            request, _("Round %(r)d table %(t)d is deleted.") % {"r": number, "t": game.table}
        )
        return redirect("event-manage", event.slug)
    return render(request, "tournament/manage/game_delete.html", {"event": event, "game": game})
