"""`/events/<slug>/overlay/` (CONTRACT §9): a streamed table's score bar, for a streaming
program's browser source — drawn for 1920×1080 (readable at 1280×720) on a transparent
background, nothing to click, no cookie. The page is a frame: static/js/overlay.js draws the
table from its feed (tournament/api_live.py), asked every second with its ETag, so it follows a
saved hand within two seconds and goes on by itself after a dropped connection or a restart.
`?round=&table=` names the table (`/api/v1/events/<slug>/tables/<round>/<table>/live`);
without them it shows the table the organizer features on the dashboard
(`/api/v1/events/<slug>/featured/live`), switching when another is featured, with no reload.
`?lang=ja|en`; `?layout=bar` (the default) or `full`."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.knobs import WINDS
from tournament.http_caching import address_number
from tournament.i18n import ROUND_WINDS, SEAT_WINDS
from tournament.selectors.events import event_by_slug

LAYOUTS = ("bar", "full")


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
        "lead": _("leads by {points}"),
        "missing": _("No table is featured yet.") if featured else _("This table has no game yet."),
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
            "layout": layout if layout in LAYOUTS else "bar",
            "words": _words(featured=featured),
            "round_number": round_number,
            "table": table,
        }
        response = render(request, "tournament/overlay.html", context)
    response["Content-Language"] = language
    return response
