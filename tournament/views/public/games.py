"""One table's game sheet: results, the hand log, a chart, what each player needs."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.rules import Ruleset
from tournament.charts import score_chart
from tournament.http_caching import (
    GameVersion,
    by_game_version,
)
from tournament.i18n import hand_label
from tournament.models import Game
from tournament.permissions import can_referee
from tournament.selectors.conditions import conditions_of
from tournament.selectors.events import event_by_id
from tournament.selectors.games import (
    game_detail,
    game_for_entry,
    hand_log,
)
from tournament.views.query import known_query


@known_query()
@by_game_version
def game_detail_page(request: HttpRequest, found: GameVersion) -> HttpResponse:
    """One table: results with the breakdown; for hand-by-hand games the log and a chart.
    The sheet is kept by its template (game_page.html) per version of the game, its players'
    names and the event's name (one query for the readers after the first: the tag's) — a
    result at another table leaves it as it was, unlike the event's stamp. The frame around
    it is drawn per request, or the whole page kept by its tag (http_caching.py `whole_page`)."""
    table = _("Round %(r)s · table %(t)s") % {"r": found.round, "t": found.table}
    context = {
        "title": f"{table} · {found.event_name}",
        "game": found,  # the sheet kept by `game.sheet_key`, the conditions by its event's
        "sheet": lambda: _sheet(found),  # made only when the template does not hold it
        # At the deciding round's last hand (`game.in_play`), what each player needs.
        "conditions": lambda: _sheet_conditions(found),
    }
    context["manage"] = _manage_links(request, found)
    return render(request, "tournament/game_page.html", context)


def _manage_links(request: HttpRequest, found: GameVersion) -> dict[str, str] | None:
    """For the event's organizers and referees, the game's own pages on their side (issue 66:
    a game sheet showed them none): its hands and its final scores. Nobody signed in: no
    query (the page is kept whole for them)."""
    if not request.user.is_authenticated:
        return None
    event = event_by_id(found.event_id)
    if event is None or not can_referee(request.user, event):
        return None
    args = [event.slug, found.game_id]
    return {"hands": reverse("game-hands", args=args), "scores": reverse("game-scores", args=args)}


def _sheet(found: GameVersion) -> str:
    """The sheet's content, the same for every reader of the game's version (no request in
    it: the frame around it — header, language and sign-out forms — is drawn per request or
    kept whole with the reader's own token: http_caching.py `whole_page`)."""
    event = event_by_id(found.event_id, venue=True)
    if event is None:
        raise Http404
    try:
        game = game_detail(event, found.game_id)
    except Game.DoesNotExist:  # deleted since the tag was read
        raise Http404 from None
    seats = list(game.seats.all())
    hands = list(game.hands.all())
    chart = None
    if hands:
        chart = score_chart(
            found.names,
            event.rules.start,
            [h.scores for h in hands],
            [hand_label(h.label) for h in hands],
        )
    context = {
        "event": event,
        "game": game,
        "seats": seats,
        "names": found.names,
        "log": hand_log(hands),
        "chart": chart,
        "whole": event.rules.whole_points,
        "prizes": _prize_columns(event.rules),
    }
    return render_to_string("tournament/_game_sheet.html", context)


def _sheet_conditions(found: GameVersion) -> str:
    """The sheet's conditions panel (empty unless the game is at the deciding last hand)."""
    event = event_by_id(found.event_id)
    if event is None:  # deleted since the tag was read
        return ""
    try:
        game = game_for_entry(event, found.game_id)
    except Game.DoesNotExist:
        return ""
    answer = conditions_of(event, game)
    if answer is None:
        return ""
    return render_to_string("tournament/_conditions.html", {"answer": answer})


def _prize_columns(rules: Ruleset) -> dict[str, bool]:
    """The prize columns a game sheet shows: only what the venue can pay (no all-zero column)
    — in points (bust prize, yakuman chips) or, where prizes are paid in chips, one column."""
    parts = rules.prize_parts
    in_points = not rules.prizes_in_chips
    return {
        "bust": in_points and "bust" in parts,
        "shugi": in_points and "shugi" in parts,
        "chips": rules.prizes_in_chips and bool(parts),
    }
