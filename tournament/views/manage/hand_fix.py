"""The organizer's correction of a past hand (issue 47), on the hand-by-hand sheet:
/games/<id>/hands/?fix=N opens hand N as entered; saving it replaces the hand and replays the
ones after it (services/hand_fix.py). Hands the correction would remove are named first, and
go only when the organizer sends it again confirming them."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.forms.hands import HandForm, hand_form_fill
from tournament.i18n import hand_label
from tournament.models import Event, Game
from tournament.selectors.games import Sheet, game_sheet
from tournament.services.errors import ConflictError, ServiceError
from tournament.services.hand_fix import HandFixed, HandsWouldGo, game_hand_fix
from tournament.views.entry_shared import hand_form_kwargs


def fix_number(request: HttpRequest, sheet: Sheet) -> int | None:
    """The hand the correction is for (`fix`, in the address or the post), or None when it
    names no hand of this game — the page then opens as usual, never a server error."""
    raw = request.POST.get("fix") or request.GET.get("fix") or ""
    try:
        number = int(raw)
    except ValueError:
        return None
    return number if 1 <= number <= len(sheet.hands) else None


def hand_fix_page(request: HttpRequest, event: Event, game: Game, sheet: Sheet) -> HttpResponse:
    """GET: hand N in its form, as entered. POST: the correction saved, or the hands it would
    remove named (a confirm step), or the form again with what was wrong."""
    number = fix_number(request, sheet)
    if number is None:
        return redirect("game-hands", event.slug, game.pk)
    stored = sheet.hands[number - 1]
    kwargs = hand_form_kwargs(event, game, sheet)
    # A past hand may have stopped the game, or ended it as time ran out: its form offers
    # what it held (the engine decides whether the corrected hand may).
    kwargs["can_stop"] = event.rules.table_marks_stop
    if stored.data.get("time_up"):
        kwargs["time_up"] = kwargs["clock_running"] = True
    if request.method != "POST":
        form = HandForm(initial=hand_form_fill(stored.data, game.version, number), **kwargs)
        return _page(request, event, game, sheet, number, form)
    form = HandForm(request.POST, **kwargs)
    if not form.is_valid():
        return _page(request, event, game, sheet, number, form, status=400)
    dropping = _dropping(request)
    try:
        fixed = game_hand_fix(
            game=game,
            number=number,
            hand=form.to_hand(),
            expected_version=form.cleaned_data["version"] or 0,
            dropping=dropping,
            user=request.user,
        )
    except HandsWouldGo as ask:
        going = [(h.number, hand_label(h.label)) for h in ask.hands]
        page = _page(request, event, game, sheet, number, form, going=going, new=form.to_hand())
        page.status_code = 409
        return page
    except ConflictError:
        messages.error(
            request,
            _(
                "This game changed since you opened the correction; nothing was saved. "
                "Here it is as it stands now."
            ),
        )
        return redirect("game-hands", event.slug, game.pk)
    except ServiceError as exc:
        form.add_service_error(exc)
        return _page(request, event, game, game_sheet(event, game), number, form, status=400)
    messages.success(request, fixed_text(fixed))
    return redirect("game-hands", event.slug, game.pk)


def _dropping(request: HttpRequest) -> list[int] | None:
    """The later hands the organizer confirmed may go (the confirm step's list)."""
    raw = request.POST.getlist("dropping")
    numbers = [int(n) for n in raw if n.isdecimal() and len(n) < 6]
    return numbers or None


def fixed_text(fixed: HandFixed) -> str:
    """What the correction did, said on the sheet it returns to."""
    said = [_("Hand %(n)d replaced.") % {"n": fixed.number}]
    if fixed.replayed:
        said.append(
            ngettext("Hand %(list)s replayed.", "Hands %(list)s replayed.", len(fixed.replayed))
            % {"list": span(fixed.replayed)}
        )
    if fixed.removed:
        said.append(
            ngettext("Hand %(list)s removed.", "Hands %(list)s removed.", len(fixed.removed))
            % {"list": span(fixed.removed)}
        )
    text = said[0]
    for more in said[1:]:  # a space between sentences in English, none in Japanese
        text = _("%(first)s %(then)s") % {"first": text, "then": more}
    return text


def span(numbers: list[int]) -> str:
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


def _page(
    request: HttpRequest,
    event: Event,
    game: Game,
    sheet: Sheet,
    number: int,
    form: HandForm,
    *,
    going: list[tuple[int, str]] | None = None,
    new: Any = None,
    status: int = 200,
) -> HttpResponse:
    context: dict[str, Any] = {
        "event": event,
        "game": game,
        "sheet": sheet,
        "form": form,
        "number": number,
        "hand": sheet.hands[number - 1],
        "going": going,
        "new": new,  # the correction asked about, said above the hands it removes
        "posted": _posted(request) if going else [],
    }
    return render(request, "tournament/manage/game_hand_fix.html", context, status=status)


def _posted(request: HttpRequest) -> list[tuple[str, str]]:
    """The correction as posted, sent again by the confirm step with the hands it removes."""
    skip = {"csrfmiddlewaretoken", "dropping"}
    return [(k, v) for k in request.POST if k not in skip for v in request.POST.getlist(k)]
