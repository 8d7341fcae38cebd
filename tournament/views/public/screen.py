"""The venue: the room's screen (seating, then standings, its clock and the players' links) and
a player's phone finding their seat."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import uri_to_iri
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from scoring.names import NAME_MAX
from tournament.http_caching import by_event_version
from tournament.models import Event, SitOut
from tournament.permissions import can_referee
from tournament.qr import qr_svg
from tournament.selectors.checkin import (
    checkin_code_seconds_left,
    checkin_code_shown,
    checkin_screen_key_right,
)
from tournament.selectors.conditions import event_panels
from tournament.selectors.events import event_by_slug, first_stage_end
from tournament.selectors.players import entries_matching, sit_outs_matching
from tournament.selectors.published import event_over_now, published
from tournament.selectors.push import push_player_ids
from tournament.selectors.standings_page import (
    screen_body_kept,
    standings_page,
    standings_summary,
)
from tournament.selectors.tables import (
    FoundSeat,
    RoundPhase,
    SeatingWindow,
    round_ends_stage,
    round_phase,
    round_seating,
    round_seating_window,
    round_table_count,
    seats_named,
    stage_in_play,
)
from tournament.selectors.versions import event_running
from tournament.services.push import push_enabled
from tournament.views.public.push import push_context
from tournament.views.public.standings import (
    REFRESH_SECONDS,
    conditions_context,
    standings_context,
)
from tournament.views.query import (
    STANDINGS_PARAMETERS,
    StandingsQuery,
    known_query,
    standings_query,
)

# The most standings rows (or, while a round is seated, tables) one answer sends: a
# screenful at 32 px is about 20 rows or 15 tables at 1080 pixels high, and the page's
# first answer holds enough to measure how many fit (screen.js). 100 rows of 10,000
# players' standings are about 70 KB; 100 tables of their seating about 40.
WINDOW_MOST = 100
# The most rows of the before-the-last-game table the screen shows (the leaders' first):
# a one-stage field of 10,000 would list every player. The rest are on the standings page.
BEFORE_MOST = 100
WINDOW_FIRST_MOST = 10_000_000  # `?from=` past any field: read as its last rows


@require_GET
@known_query(*STANDINGS_PARAMETERS, "from", "rows", "key")
@vary_on_headers("X-Requested-With")  # the page and the table it fetches share an address
def standings_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The room's screen (a projector, 1920×1080): once a round is seated and until play starts,
    who sits where; then the standings, every column in type sized to the room (screen.js), a
    long list paging itself; the round's clock while it runs. Its body is fetched again every
    interval; a body drawn in another phase (a new round seated, play begun, every table
    done) makes the page reload, for its header and clock. The page is not tagged by the
    event's version: its clock counts from the server's time when it was drawn.

    A large field is sent a window of its rows, never the whole list: `?from=` (the first
    row, from 0) and `?rows=` (at most WINDOW_MOST); the page holds the first WINDOW_MOST and
    the screen asks for each page's rows as it turns. While a round is seated the window
    counts its tables (each a card: what screen.js pages). Without JavaScript the page shows
    a window and moves on to the next one at each refresh."""
    window = _screen_window(request)
    if window is None:
        return HttpResponseBadRequest(
            _("?from= is a row number from 0 and ?rows= a number from 1 to %(most)d")
            % {"most": WINDOW_MOST},
            content_type="text/plain; charset=utf-8",
        )
    if request.headers.get("X-Requested-With") == "fetch":
        return _screen_table(request, slug, window)
    event = event_by_slug(slug)
    if event is None:
        raise Http404
    phase = _room_phase(event)
    query = _screen_query(request, event, phase)
    # The body is fetched with the address's own query: the plain address keeps following
    # the stage in play, `?stage=` stays on every stage. The window is the screen's to ask.
    kept = request.GET.copy()
    for name in ("from", "rows", "key"):
        kept.pop(name, None)
    context = {
        "event": event,
        "phase": phase,
        "clock": phase.clock,
        "body": _screen_body(request, event, query, phase, window),
        "refresh": REFRESH_SECONDS,
        "query": kept.urlencode(),
        "overall_href": "?stage=",
        "links": _screen_links(request, event, phase),
        "playing": query.stage,  # the stage the heading names (決勝 · 第7回戦…)
    }
    if phase.phase == "seating":
        # A seated round's header shows no stage tabs and no round in progress: nothing is
        # ranked (the seating is a new version: 130 ms to rank 10,000 players again), and
        # every screen in the room reloads this page when a round is seated.
        tables = round_table_count(event, phase.number or 0)
        context.update(_next_window(kept, window, tables, tables=True))
    else:
        summary = standings_summary(event, query.stage)
        context.update(summary.context(), in_progress=published(event).progress.in_progress)
        context.update(_next_window(kept, window, summary.rows))
    response = render(request, "tournament/screen.html", context)
    response["Cache-Control"] = "no-cache"
    return response


def _screen_window(request: HttpRequest) -> tuple[int, int] | None:
    """The rows asked for, (first, count): `?from=` and `?rows=` as digits, each given once;
    more rows than WINDOW_MOST are WINDOW_MOST. None for anything else (400)."""
    asked = []
    for name, default in (("from", 0), ("rows", WINDOW_MOST)):
        values = request.GET.getlist(name)
        if len(values) > 1:
            return None
        if not values:
            asked.append(default)
            continue
        value = values[0]
        if not (value.isascii() and value.isdigit() and len(value) <= 9):
            return None
        asked.append(int(value))
    first, count = asked
    if count < 1:
        return None
    return min(first, WINDOW_FIRST_MOST), min(count, WINDOW_MOST)


def _next_window(
    kept: QueryDict, window: tuple[int, int], total: int, tables: bool = False
) -> dict[str, Any]:
    """For a field longer than a window: which rows (`tables`: a seated round's tables) the
    page holds, and the address of the next window (after the last, the first again) — the
    link a phone follows and the page a screen without JavaScript moves on to at its
    refresh."""
    first, count = window
    first = max(0, min(first, total - count))
    if first == 0 and count >= total:
        return {}
    after = first + count if first + count < total else 0
    following = kept.copy()
    following["from"] = str(after)
    return {
        "window": {
            "first": first + 1,
            "last": min(first + count, total),
            "total": total,
            "tables": tables,
        },
        "next_href": f"?{following.urlencode()}",
    }


def _screen_query(request: HttpRequest, event: Event, phase: RoundPhase) -> StandingsQuery:
    """The screen's query. Its plain address shows the stage being played (the final while the
    final is played: what the room watches); `?stage=` (empty) every stage, as a tab chose."""
    query = standings_query(request, event, None)
    if "stage" in request.GET:
        return query
    return replace(query, stage=stage_in_play(event, phase.number))


def _screen_links(request: HttpRequest, event: Event, phase: RoundPhase) -> list[dict[str, Any]]:
    """The addresses the room's screen gives the players, each as a QR code and as text a
    person can read and type (an IRI: /events/秋の大会/seat/, not %E7%A7%8B…): check in while
    check-in is open and play has not begun (with the code shown now); find your seat once a
    round is seated. The QR code holds the address as sent (ASCII), which every phone's camera
    opens."""
    routes = []
    checking_in = phase.phase not in ("play", "final") and _checking_in(event, phase)
    if event.checkin_required and checking_in:
        routes.append(("checkin", "event-checkin"))
    if phase.phase == "seating":
        routes.append(("seat", "find-seat"))
    links = []
    for kind, route in routes:
        uri = request.build_absolute_uri(reverse(route, args=[event.slug]))
        address = uri_to_iri(uri)
        # A line may break after a slash of the path, not inside the host or an event's name.
        parts = re.sub(r"(?<=[^/])/(?=[^/])", "/<wbr>", str(escape(address)))
        link = {
            "kind": kind,
            "address": address,
            "address_html": mark_safe(parts),
            "qr": qr_svg(uri, sized=False),
        }
        if kind == "checkin" and _shows_code(request, event):
            # Drawn with the page, never in the cached body: the code changes every few
            # minutes, and the screen reloads itself when it does (screen.js, data-reload-in).
            link["code"] = checkin_code_shown(event)
            link["reload_in"] = checkin_code_seconds_left()
        links.append(link)
    return links


SCREEN_KEY = "screen:{event}"  # the session's note of the private screen link it opened


def _shows_code(request: HttpRequest, event: Event) -> bool:
    """Whether this screen shows the check-in code: opened by the dashboard's private screen
    link (and kept in its session, so a tab or a column clicked on the projector keeps the
    code; a key renewed since no longer counts), or by the event's organizers or referees —
    never the public address (issue 63: a code read from anywhere checked the room in)."""
    kept = SCREEN_KEY.format(event=event.pk)
    key = request.GET.get("key") or request.session.get(kept, "")
    if checkin_screen_key_right(event, str(key)):
        if request.session.get(kept) != key:
            request.session[kept] = key
        return True
    return can_referee(request.user, event)


def _room_phase(event: Event) -> RoundPhase:
    """The latest round's phase (`round_phase`), or `final` once every stage is closed: the
    room is told the standings are final, not that the last round's tables have finished,
    and nobody is asked to check in (helper-48 saw both on a closed event's screen). A new
    phase: a screen showing the last round reloads when the event closes."""
    phase = round_phase(event)
    # Only a round with every table done can be the last (a stage closes once played): a
    # seated or playing round's screen asks nothing more.
    if phase.phase in ("done", "none") and event_over_now(event):
        return RoundPhase(phase.number, "final")
    return phase


def _checking_in(event: Event, phase: RoundPhase) -> bool:
    """Whether players may still be checking in: while the first stage is played (a late
    arrival joins the qualifier); by the final nobody can, so the screen no longer asks."""
    last = first_stage_end(event)
    return last is None or phase.number is None or phase.number <= last


def _screen_body(
    request: HttpRequest,
    event: Event,
    query: StandingsQuery,
    phase: RoundPhase,
    window: tuple[int, int],
) -> str:
    """The screen's body: the seating's `window` of tables, or the standings' `window` of
    rows with names as plain text (marked with which rows or tables they are of how many);
    the before-the-last-game table's first BEFORE_MOST rows; marked with its phase. Kept
    whole by `_screen_body.html` per version, query, window, language and phase: the seating
    is read (`seating`, called by the template) and the table rendered only when it does not
    hold it."""
    # The panels (and the seating, and the standings' table) are read only when the
    # template's cache does not hold the body: a one-stage field's before-the-last-game
    # panel holds every player, and the shared cache hands it over whole.
    panels = cache(lambda: _screen_panels(event, phase))
    context: dict[str, Any] = {
        "event": event,
        "phase": phase,
        "whole": event.rules.whole_points,
        "table_conditions": lambda: panels()["table_conditions"],
        "before": lambda: panels()["before"],
        "before_more": lambda: panels()["before_more"],
        "body_kept": screen_body_kept(event, query.key, window, phase.key),
    }
    if phase.phase == "seating":

        @cache
        def seated() -> SeatingWindow:
            return round_seating_window(event, phase.number or 0, *window)

        context["seating"] = lambda: seated().tables
        context["window_rows"] = lambda: (seated().first, seated().total)
    else:
        page = standings_page(event, query.stage)
        context.update(standings_context(request, page, query, None, links=False, window=window))
    return render_to_string("tournament/_screen_body.html", context)


def _screen_panels(event: Event, phase: RoundPhase) -> dict[str, Any]:
    """What each player needs (`conditions_context`), the before-the-last-game table cut to
    its first BEFORE_MOST rows (the leaders first) and how many more the standings page
    holds (`before_more`)."""
    if phase.phase == "seating" and not round_ends_stage(event, phase.number or 0):
        # No panel before a stage's last round: asked first (one query) rather than found
        # by ranking the field anew after the seating's write (130 ms at 10,000 players).
        return {"table_conditions": [], "before": None, "before_more": 0}
    panels = conditions_context(event, event_panels(event))
    before = panels["before"]
    panels["before_more"] = 0
    if before and len(before["rows"]) > BEFORE_MOST:
        panels["before"] = {**before, "rows": before["rows"][:BEFORE_MOST]}
        panels["before_more"] = len(before["rows"]) - BEFORE_MOST
    return panels


@by_event_version
def _screen_table(request: HttpRequest, event: Event, window: tuple[int, int]) -> HttpResponse:
    """The screen's body alone, fetched again every interval and as its pages turn (a window
    of the rows, tagged by the version and the address's query, which holds the window); a
    screen holding the event's version gets 304."""
    phase = _room_phase(event)
    query = _screen_query(request, event, phase)
    response = HttpResponse(_screen_body(request, event, query, phase, window))
    response["Cache-Control"] = "no-cache"
    return response


FIND_MOST = 20  # seats a search shows: a name typed is a name or two, not the room


@require_GET
@known_query("name")
def find_seat(request: HttpRequest, slug: str) -> HttpResponse:
    """A player's phone: type part of your name, see your table and wind in the latest
    round, big — or that you sit it out. Before round 1 is seated, your name alone: "Notify
    me" there is how the first round's seating reaches you (issue 49). Public, as the
    seating on the room's screen is."""
    event = event_by_slug(slug)
    if event is None:
        raise Http404
    typed = request.GET.get("name", "")[:NAME_MAX].strip()
    phase = round_phase(event)
    found: list[FoundSeat] = []
    sitting_out: list[tuple[str, int, str, Any]] = []
    waiting: list[tuple[str, int]] = []
    if phase.number:
        found = seats_named(round_seating(event, phase.number), typed)
        reasons = dict(SitOut.REASONS)
        out = sit_outs_matching(event, phase.number, typed) if typed else []
        sitting_out = [(name, pk, why, reasons.get(why, why)) for name, pk, why in out]
    elif typed:
        waiting = entries_matching(event, typed, FIND_MOST)
    # "Notify me" beside each player found, while the site sends notifications and the event
    # is still played (issue 49; the player page's rule): after it, nothing is left to tell.
    over = phase.number is not None and event_over_now(event)
    running = event_running(over=over, held_on=event.held_on)
    push = push_context() if typed and running and (found or sitting_out or waiting) else None
    ids = push_player_ids(event, [s.name for s in found[:FIND_MOST]]) if push and found else {}
    return render(
        request,
        "tournament/find_seat.html",
        {
            "event": event,
            "phase": phase,
            "typed": typed,
            "found": [(seat, ids.get(seat.name)) for seat in found[:FIND_MOST]],
            "sitting_out": sitting_out[:FIND_MOST],
            "waiting": waiting[:FIND_MOST],
            "more": len(found) > FIND_MOST or len(waiting) > FIND_MOST,
            "push": push,
            "notifying": push_enabled(),  # what the page says before any name is typed
            "over": over,
        },
    )
