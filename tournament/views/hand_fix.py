"""A past hand corrected (issue 47), on the organizer's hand-by-hand sheet and a table's page:
/games/<id>/hands/?fix=N (a table: its hand log's "Correct", views/table/actions.py) opens hand
N as entered; saving it replaces the hand and replays the ones after it (services/hand_fix.py).
Hands the correction would remove are named first, and go only when it is sent again
confirming them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.forms.hands import HandForm, hand_form_fill
from tournament.i18n import hand_label
from tournament.models import Event, Game, Hand
from tournament.selectors.games import Sheet, game_sheet
from tournament.services.confirmation import AtTable
from tournament.services.errors import ConflictError, ServiceError
from tournament.services.hand_fix import HandFixed, HandsWouldGo, game_hand_fix, span
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


@dataclass
class Fix:
    """A correction on its way: the hand, its form, and what saving it answered — `fixed`
    (saved), `going` (the hands it would remove: ask), `stale` (the game moved on), or none of
    them (the form holds what was wrong)."""

    number: int
    hand: Hand
    form: HandForm
    fixed: HandFixed | None = None
    going: list[tuple[int, str]] = field(default_factory=list)
    stale: bool = False

    def context(self, request: HttpRequest) -> dict[str, Any]:
        """What templates/tournament/manage/_hand_fix.html shows."""
        going = self.going
        return {
            "number": self.number,
            "hand": self.hand,
            "form": self.form,
            "going": going,
            # The correction asked about, said above the hands it removes; and sent again.
            "new": self.form.to_hand() if going else None,
            "posted": _posted(request) if going else [],
        }


def fix_open(request: HttpRequest, event: Event, game: Game, sheet: Sheet, number: int) -> Fix:
    """Hand `number`'s correction form: as entered, or as posted (`fix` in the post)."""
    stored = sheet.hands[number - 1]
    kwargs = hand_form_kwargs(event, game, sheet)
    # A past hand may have stopped the game, or ended it as time ran out: its form offers
    # what it held (the engine decides whether the corrected hand may).
    kwargs["can_stop"] = event.rules.table_marks_stop
    if stored.data.get("time_up"):
        kwargs["time_up"] = kwargs["clock_running"] = True
    if request.method == "POST" and "version" in request.POST:
        return Fix(number, stored, HandForm(request.POST, **kwargs))
    initial = hand_form_fill(stored.data, game.version, number)
    return Fix(number, stored, HandForm(initial=initial, **kwargs))


def fix_save(
    request: HttpRequest, game: Game, fix: Fix, *, user: Any = None, at: AtTable | None = None
) -> Fix:
    """Save a posted correction (`fix.form` bound and valid): see `Fix` for the answers. A
    correction saved or stale is said as a message on the page the caller redirects to."""
    form = fix.form
    try:
        fix.fixed = game_hand_fix(
            game=game,
            number=fix.number,
            hand=form.to_hand(),
            expected_version=form.cleaned_data["version"] or 0,
            dropping=_dropping(request),
            user=user,
            at=at,
        )
    except HandsWouldGo as ask:
        fix.going = [(h.number, hand_label(h.label)) for h in ask.hands]
    except ConflictError:
        fix.stale = True
        messages.error(
            request,
            _(
                "This game changed since you opened the correction; nothing was saved. "
                "Here it is as it stands now."
            ),
        )
    except ServiceError as exc:
        form.add_service_error(exc)
    else:
        messages.success(request, fixed_text(fix.fixed))
    return fix


def hand_fix_page(request: HttpRequest, event: Event, game: Game, sheet: Sheet) -> HttpResponse:
    """GET: hand N in its form, as entered. POST: the correction saved, or the hands it would
    remove named (a confirm step), or the form again with what was wrong."""
    number = fix_number(request, sheet)
    if number is None:
        return redirect("game-hands", event.slug, game.pk)
    fix = fix_open(request, event, game, sheet, number)
    if request.method != "POST":
        return _page(request, event, game, sheet, fix)
    if not fix.form.is_valid():
        return _page(request, event, game, sheet, fix, status=400)
    fix = fix_save(request, game, fix, user=request.user)
    if fix.fixed is not None or fix.stale:
        return redirect("game-hands", event.slug, game.pk)
    if fix.going:
        return _page(request, event, game, sheet, fix, status=409)
    # Refused: the sheet's flow was given up to the engine, so it is read again.
    return _page(request, event, game, game_sheet(event, game), fix, status=400)


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


def _page(
    request: HttpRequest, event: Event, game: Game, sheet: Sheet, fix: Fix, *, status: int = 200
) -> HttpResponse:
    context = {"event": event, "game": game, "sheet": sheet, **fix.context(request)}
    return render(request, "tournament/manage/game_hand_fix.html", context, status=status)


def _posted(request: HttpRequest) -> list[tuple[str, str]]:
    """The correction as posted, sent again by the confirm step with the hands it removes."""
    skip = {"csrfmiddlewaretoken", "dropping"}
    return [(k, v) for k in request.POST if k not in skip for v in request.POST.getlist(k)]
