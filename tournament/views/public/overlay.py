"""`/events/<slug>/overlay/` (CONTRACT §9): a streamed table's score bar, for a streaming
program's browser source — drawn for 1920×1080 (readable at 1280×720) on a transparent
background, nothing to click, no cookie. The page is a frame: static/js/overlay.js draws the
table from its feed (tournament/api_live.py), asked every second with its ETag, so it follows a
saved hand within two seconds and goes on by itself after a dropped connection or a restart.
`?round=&table=` names the table (`/api/v1/events/<slug>/tables/<round>/<table>/live`);
without them it shows the table the organizer features on the dashboard
(`/api/v1/events/<slug>/featured/live`), switching when another is featured, with no reload.
`?lang=ja|en`; `?layout=bar` (the default) or `full` (the event's standings beside it, from
its API); `?gap=top` (the default: each seat's way to the top) or `above` (to the seat above)."""

from __future__ import annotations

import re

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.knobs import WINDS
from tournament.http_caching import address_number
from tournament.i18n import LIMIT_NAMES, NEED_WORDS, ORDINALS, ROUND_WINDS, SEAT_WINDS
from tournament.selectors.events import event_by_slug

LAYOUTS = ("bar", "full")
GAPS = ("top", "above")


def _slots(text: str) -> str:
    """A translated message's %(name)s or %(name)d as overlay.js fills them: {name}."""
    return re.sub(r"%\((\w+)\)[sd]", r"{\1}", text)


def _words(*, featured: bool) -> dict[str, object]:
    """What overlay.js writes, in the page's language (`featured`: the feed is the table on
    stream's, whose 404 says that none is featured)."""
    return {
        "winds": {wind: str(SEAT_WINDS[i]) for i, wind in enumerate(WINDS)},  # 東 / East
        "seat_winds": {wind: str(ROUND_WINDS[wind]) for wind in WINDS},  # 東 / E
        # A hand about to be played: 「東2局 1本場」 / "East 2, 1 honba".
        "hand": _("{wind} {hand}, {honba} honba"),
        "sticks": _("Riichi sticks"),
        "dealer": _("Dealer"),
        "riichi": _("Riichi"),
        "corrected": _("Corrected:"),  # a hand said again after its correction
        "ron": _("{winner} ron {points} from {from}"),
        "tsumo": _("{winner} tsumo {points}"),
        "draw": _("Draw"),
        "tenpai": _("Tenpai: {seats}"),
        "list": _(", "),  # between names: 「青木、Alice」
        "noten": _("Nobody tenpai"),
        "nagashi": _("Nagashi mangan: {seats}"),
        "abort": _("Aborted hand"),
        "chombo": _("Chombo: {seat}"),
        "waiting": _("Result waiting for a second seat"),
        "disputed": _("Result disputed: the organizer decides"),
        "over": _("Game over"),
        "final": _("Final result"),  # confirmed: it counts
        "to_top": _("{points} to the top"),
        "to_above": _("{points} to {place}"),  # ?gap=above: 「2位まで 3,900」
        "places": {str(k): str(v) for k, v in ORDINALS.items()},
        "lead": _("leads by {points}"),
        # What each seat needs (CONTRACT §6), in the table sheet's words (_conditions.html).
        "needs_win": _("What each player needs to win"),
        "needs_top": _slots(_("What each player needs for the top %(k)s")),
        "needs_note": _(
            "if the game ends with this hand, without riichi; a tie on total is not enough"
        ),
        "now": _slots(_("now #%(n)s")),
        "tsumo_way": _("Tsumo"),
        "ron_from": _slots(_("from %(seat)s")),
        "need_words": {k: str(v) for k, v in NEED_WORDS.items()},
        "limits": {k: str(v) for k, v in LIMIT_NAMES.items()},
        "han_fu": _slots(_("%(han)s han %(fu)s fu")),
        "han": _slots(_("%(han)s han")),
        "yakuman": _("yakuman"),
        "yakuman_n": _slots(_("%(n)s× yakuman")),
        "double_yakuman": _("double yakuman"),
        "yaku": _slots(_("%(n)d yaku")),
        # Before the last game (_before_last.html's words).
        "before": _("Before the last game"),
        "before_win": _("Points behind the lead, and what each place at the table needs to win."),
        "before_cut": _slots(
            _(
                "Points behind the lead and from the cut (top %(k)s go on), and what each "
                "place at the table needs."
            )
        ),
        "before_note": _("The others at the table finishing as best suits the player."),
        "total": _("Total"),
        "to_lead": _("To the lead"),
        "to_cut": _("To the cut"),
        "place_any": _("any score"),
        "place_none": _("cannot"),
        "place_score": _slots(_("%(score)s or more")),
        "missing": _("No table is on stream.") if featured else _("This table has no game yet."),
    }


@require_GET
def event_overlay(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_by_slug(slug)
    if event is None:
        raise Http404
    # `?lang=`, else the reader's (the browser's) as the middleware chose it among the site's.
    language = request.GET.get("lang", "")
    if language not in dict(settings.LANGUAGES):
        language = translation.get_language()
    layout = request.GET.get("layout", "bar")
    layout = layout if layout in LAYOUTS else "bar"
    gap = request.GET.get("gap", "top")
    round_number, table = (
        address_number(request.GET.get("round")),
        address_number(request.GET.get("table")),
    )
    featured = round_number is None or table is None
    if featured:  # the table on stream, whichever the organizer features
        feed = reverse("api-v1:featured_live_answer", kwargs={"slug": event.slug})
    else:
        feed = reverse(
            "api-v1:table_live_answer",
            kwargs={"slug": event.slug, "round_number": round_number, "table": table},
        )
    with translation.override(language):
        context = {
            "event": event,
            "feed": feed,
            "language": language,
            "layout": layout,
            "gap": gap if gap in GAPS else "top",
            # ?layout=full: the standings beside the bar, from the API's document.
            "standings": reverse("api-v1:standings", kwargs={"slug": event.slug})
            if layout == "full"
            else "",
            "words": _words(featured=featured),
            "round_number": round_number,
            "table": table,
        }
        response = render(request, "tournament/overlay.html", context)
    response["Content-Language"] = language
    return response
