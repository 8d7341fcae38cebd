"""The buttons of a table's page, one small view each, chosen by the `do` field the page posts.
The names are the ones the templates post and never change: phones at the tables have old
pages open. Each answers a redirect when its service wrote, else the status the page is shown
with, its forms kept as typed in `page.context`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib import messages
from django.http import HttpResponse

from tournament.forms.games import ScoresForm
from tournament.forms.hands import HandForm
from tournament.i18n import error_text
from tournament.selectors.games import game_sheet
from tournament.selectors.sheets import game_read_again
from tournament.services.errors import ConflictError, ServiceError
from tournament.services.games import game_correct
from tournament.services.hands import game_hand_enter, game_hand_undo
from tournament.services.tables import game_confirm, game_dispute
from tournament.views.entry_shared import (
    hand_conflict,
    hand_form_kwargs,
    hand_save,
    rebased,
    recorded_text,
    say_recorded,
    scores_preview,
    taken_back_text,
)
from tournament.views.hand_fix import fix_number, fix_save
from tournament.views.hand_fix import fix_open as hand_fix_open
from tournament.views.table.forms import DisputeForm, EntryForm, SeatForm
from tournament.views.table.phone import CONFIRMED_KEY, phone_id

if TYPE_CHECKING:
    from tournament.views.table.page import TablePage

Outcome = HttpResponse | int


def seat(page: TablePage) -> Outcome:
    """This phone proves its seat by the seat's code."""
    form = page.context["seat_form"] = SeatForm(page.request.POST)
    if not form.is_valid():
        return 400
    return page.prove(form.cleaned_data["code"], form)


def confirm(page: TablePage) -> Outcome:
    """Another seat's code confirms the result entered: it counts. A phone that proved its
    seat already sends no code (one tap): the seat it holds confirms, under the same rule."""
    if page.seat is None or "code" in page.request.POST:
        return _answer_entered(page, "confirm")
    try:
        game_confirm(link=page.link, seat=page.seat, phone=phone_id(page.request))
    except ServiceError as exc:
        page.context["confirm_error"] = error_text(exc, page.names)
        return 400
    page.request.session[CONFIRMED_KEY] = page.link.token
    return page.reload()


def dispute(page: TablePage) -> Outcome:
    """Another seat's code disputes the result entered: the organizer decides."""
    return _answer_entered(page, "dispute")


def _answer_entered(page: TablePage, action: str) -> Outcome:
    form = (SeatForm if action == "confirm" else DisputeForm)(page.request.POST)
    form.seat_names = page.names
    page.context[f"{action}_form"] = form
    if not form.is_valid():
        return 400
    guess = page.guess(form)
    if guess is None:
        return 429
    code = form.cleaned_data["code"]
    try:
        if action == "confirm":
            game_confirm(link=page.link, code=code, phone=phone_id(page.request))
            page.request.session[CONFIRMED_KEY] = page.link.token
        else:
            game_dispute(link=page.link, code=code, reason=form.cleaned_data["reason"])
    except ServiceError as exc:
        if exc.code != "table.wrong_code":
            guess.right()  # a right code, refused for another reason: not a guess
        form.add_service_error(exc)
        return 400
    guess.right()
    return page.reload()


def scores(page: TablePage) -> Outcome:
    """Final scores entered (or, with `preview`, shown as the engine settles them)."""
    request, event, game = page.request, page.event, page.game
    kwargs = {"rules": event.rules, "names": page.names, "players": page.names}
    form = page.context["scores_form"] = ScoresForm(request.POST, **kwargs)
    if not form.is_valid():
        return 400
    data = form.to_data(game.round.number, game.table)
    try:
        if "preview" in request.POST:
            page.context["preview"] = scores_preview(event, data)
            return 200
        game_correct(
            game=game,
            data=data,
            expected_version=form.cleaned_data["version"] or 0,
            at=page.at,
        )
    except ConflictError:
        game_read_again(game)
        page.context["scores_form"] = rebased(ScoresForm, request.POST, game.version, **kwargs)
        return 409
    except ServiceError as exc:
        form.add_service_error(exc)
        return 400
    return page.reload()


def hand(page: TablePage) -> Outcome:
    """A hand recorded."""
    return _hand(page, replace=False)


def replace(page: TablePage) -> Outcome:
    """From the conflict screen: the last hand replaced by this phone's."""
    return _hand(page, replace=True)


def _hand(page: TablePage, *, replace: bool) -> Outcome:
    kwargs = hand_form_kwargs(page.event, page.game, page.sheet)
    form = page.context["form"] = HandForm(page.request.POST, **kwargs)
    entry = EntryForm(page.request.POST)
    if not entry.is_valid():
        for error in entry.errors.values():
            form.add_error(None, error)
    if not form.is_valid():
        return 400
    entry_id = entry.cleaned_data["entry_id"]
    try:
        if entry_id is not None and not replace:
            # A phone's own entry (CONTRACT §3): its number, not its version, says if it is
            # stale — an offline outbox's hands all carry the version seen before the drop.
            played = page.sheet.flow
            if game_hand_enter(
                game=page.game,
                hand=form.to_hand(),
                entry_id=entry_id,
                number=entry.cleaned_data["number"],
                at=page.at,
                played=played,
            ):
                say_recorded(page.request, recorded_text(page.game, page.names))
            return page.reload()  # written now or before: saved, answered the same
        recorded = hand_save(
            game=page.game,
            form=form,
            sheet=page.sheet,
            replace=replace,
            at=page.at,
            entry_id=entry_id,
        )
    except ConflictError:
        return _hand_conflict(page, form)
    except ServiceError as exc:
        form.add_service_error(exc)
        page.sheet = game_sheet(page.event, page.game)  # its flow was given up: again
        return 400
    say_recorded(page.request, recorded)
    return page.reload()


def _hand_conflict(page: TablePage, form: HandForm) -> Outcome:
    """The conflict screen for a hand refused: the table as it is now, theirs and mine."""
    game_read_again(page.game)
    page.sheet = game_sheet(page.event, page.game)
    page.context["conflict"] = hand_conflict(page.request.POST, form, page.game, page.sheet)
    page.context.pop("form", None)  # below the conflict: a fresh form for the next hand
    return 409


def hand_not_now(page: TablePage) -> Outcome:
    """A hand posted while this phone may not enter. An old page's hand reloads, as any such
    button does; a phone's own entry (an outbox sending late) is answered so it is neither
    lost nor written: saved if it was, a conflict if the result was entered meanwhile (the
    game ended without it), 403 if this phone no longer holds a seat (it keeps the hand and
    sends it once its seat is proved again)."""
    entry = EntryForm(page.request.POST)
    entry_id = entry.cleaned_data["entry_id"] if entry.is_valid() else None
    if entry_id is None:
        return page.reload()
    if any(h.entry_id == entry_id for h in page.sheet.hands):
        return page.reload()
    if not (page.may_enter and page.seat is not None):
        return 403
    form = page.context["form"] = HandForm(
        page.request.POST, **hand_form_kwargs(page.event, page.game, page.sheet)
    )
    if not form.is_valid():
        del page.context["form"]  # no form is offered while a result waits
        return 400
    return _hand_conflict(page, form)


def undo(page: TablePage) -> Outcome:
    """The last hand taken back."""
    try:
        version = int(page.request.POST.get("version", ""))
    except ValueError:
        version = -1  # as stale as an old version: the conflict says so
    try:
        taken_back = game_hand_undo(game=page.game, expected_version=version, at=page.at)
    except ServiceError as exc:
        page.context["undo_error"] = error_text(exc, page.names)
        return 409 if isinstance(exc, ConflictError) else 400
    messages.success(page.request, taken_back_text(taken_back, page.names))
    return page.reload()


def fix_open(page: TablePage) -> Outcome:
    """The hand log's "Correct": hand N's form, as entered (views/hand_fix.py)."""
    number = fix_number(page.request, page.sheet)
    if number is None:
        return page.reload()
    fix = hand_fix_open(page.request, page.event, page.game, page.sheet, number)
    page.context["fix"] = fix.context(page.request)
    return 200


def fix(page: TablePage) -> Outcome:
    """A past hand corrected by this phone's seat, the later ones replayed. A correction that
    ends the game waits for another seat to confirm it, as any result a table enters; one
    that removes hands asks first."""
    number = fix_number(page.request, page.sheet)
    if number is None:
        return page.reload()
    fixed = hand_fix_open(page.request, page.event, page.game, page.sheet, number)
    if fixed.form.is_valid():
        fixed = fix_save(page.request, page.game, fixed, at=page.at)
        if fixed.fixed is not None or fixed.stale:
            return page.reload()
        page.sheet = game_sheet(page.event, page.game)  # its flow was given up: again
    page.context["fix"] = fixed.context(page.request)
    return 409 if fixed.going else 400


@dataclass(frozen=True)
class Button:
    view: Callable[[TablePage], Outcome]
    # It enters a result: only a phone that may enter now (TablePage.entering) gets it run.
    enters: bool
    # What answers it on a phone that may not enter now (None: the page, reloaded).
    not_now: Callable[[TablePage], Outcome] | None = None


# Every `do` a table's page posts, and the view that answers it.
ACTIONS: dict[str, Button] = {
    "seat": Button(seat, enters=False),
    "confirm": Button(confirm, enters=False),
    "dispute": Button(dispute, enters=False),
    "scores": Button(scores, enters=True),
    "hand": Button(hand, enters=True, not_now=hand_not_now),
    "replace": Button(replace, enters=True),
    "undo": Button(undo, enters=True),
    "fix_open": Button(fix_open, enters=True),
    "fix": Button(fix, enters=True),
}
