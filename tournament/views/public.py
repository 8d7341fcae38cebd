"""Pages anyone may read."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import uri_to_iri
from django.utils.html import escape
from django.utils.http import content_disposition_header
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods
from django.views.decorators.vary import vary_on_headers
from django_tables2 import RequestConfig

from scoring import ScoringError
from scoring.names import NAME_MAX, normalize_name
from scoring.ratings import NEW
from scoring.rules import Ruleset
from tournament.caching import event_stamp, shared
from tournament.charts import score_chart
from tournament.exports import FORMATS, STAT_LABELS, export_standings, export_statistics
from tournament.forms.events import CheckinForm
from tournament.html_tables import standings_table, statistics_table
from tournament.i18n import cut_tie_text, hand_label, round_heading, scale_text
from tournament.models import Event, Game, Player
from tournament.permissions import can_create_events, can_referee
from tournament.qr import qr_svg
from tournament.selectors.conditions import conditions_of, event_panels
from tournament.selectors.games import (
    game_detail,
    game_for_entry,
    hand_log,
    round_list,
)
from tournament.selectors.players import own_games_key, player_games
from tournament.selectors.ratings import rating_history
from tournament.selectors.series import series_list
from tournament.selectors.standings import (
    event_has_stage,
    event_list,
    fraction_rounds,
    published_placings,
    published_player_ids,
    published_standings,
    shared_progress,
)
from tournament.selectors.statistics import event_statistics, fitting_minimum, player_statistics
from tournament.selectors.tables import (
    RoundPhase,
    round_clock,
    round_phase,
    round_seating,
    seats_named,
    stage_in_play,
)
from tournament.selectors.teams import has_teams
from tournament.services.checkin import (
    checkin_code_right,
    checkin_code_seconds_left,
    checkin_code_shown,
    checkin_phone_player,
    checkin_self,
)
from tournament.services.errors import ServiceError
from tournament.services.throttle import Throttled, client_address, guess_take
from tournament.views.conditional import (
    GameVersion,
    PlayerEvents,
    by_event_version,
    by_game_version,
    by_player_events,
)
from tournament.views.query import (
    STANDINGS_PARAMETERS,
    StandingsQuery,
    known_query,
    standings_query,
)
from tournament.views.table import phone_id

REFRESH_SECONDS = 30
PER_PAGE = 100  # a phone scrolls 100 rows comfortably; a 1,000-player table is 10 pages


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournament/home.html",
        {
            "events": event_list(),
            "series": series_list(),
            "can_create": can_create_events(request.user),
        },
    )


def _standings_context(
    request: HttpRequest,
    event: Event,
    query: StandingsQuery,
    per_page: int | None = PER_PAGE,
    links: bool = True,
) -> dict[str, Any]:
    """Between two writes no server ranks: the page's summary (stage tabs, cut notes), its
    rounds and its rendered table are each made once per version of the event and shared
    (tournament/caching.py). Queries when one is missing: the standings (3) unless this
    process has them for the event's version; the rounds (1: those with results, the one in
    progress). `per_page` None: every row (the venue screen pages through them itself);
    `links` False: names as plain text (the projector: nobody clicks it)."""
    stamp = event_stamp(event)
    summary = standings_summary(event, query.stage)
    # The round columns, the live marker and, at a venue of whole points, the rounds with a
    # fraction of a point: once per version (every write that starts, ends or changes a game
    # moves it on), so the columns are chosen without reading every player's rounds and only
    # the rows shown are read.
    rounds, in_progress = shared_progress(event)

    def render_table() -> str:
        result = published_standings(event)
        whole = event.rules.whole_points
        fractions = (
            shared("standings-fractions", stamp, None, lambda: fraction_rounds(result))
            if whole
            else ()
        )
        table = standings_table(
            result,
            players_per_table=event.rules.players,
            whole=whole,
            stage=next((s for s in result.stages if s.stage.name == summary["tab"]), None)
            if summary["tab"]
            else None,
            in_progress=in_progress,
            sorted_by_user=bool(query.sort and query.sort != "rank"),
            player_ids=published_player_ids(event) if links else {},
            rounds=rounds,
            fractions=fractions,
        )
        paginate: Any = {"per_page": per_page} if per_page else False
        RequestConfig(request, paginate=paginate).configure(table)
        return table.as_html(request)

    # The rendered table (a hundred rows of twenty cells is most of a page's time), per event
    # version, language and checked query: between two results every phone gets the same
    # bytes. The table's own links are made from the request's query, which `known_query`
    # has left holding only what the key holds.
    key = (in_progress, get_language(), query.key, per_page, links)
    played = set(rounds) | ({in_progress} if in_progress else set())
    return {
        "cut_notes": summary["cut_notes"],
        "event": event,
        "table_html": shared("standings-table", stamp, key, render_table),
        "stages": summary["stages"],
        "tab": summary["tab"],
        "has_teams": summary["has_teams"],
        "in_progress": in_progress,
        "round_numbers": sorted(played),
        "live": not (summary["complete"] and in_progress is None),
        "refresh": REFRESH_SECONDS,
        "updated": event.updated_at,  # the last change (services/changes.py), not this render
        "query": query.encoded,
    }


def _conditions_context(event: Event) -> dict[str, Any]:
    """What each player needs (issue 35): the panels of the tables at their last hand in the
    deciding round, and — before its games — the gaps and each place's need."""
    return {**event_panels(event), "whole": event.rules.whole_points}


def standings_summary(event: Event, tab: str) -> dict[str, Any]:
    """What a standings page says besides its table, from the ranking: the stage tabs (names;
    none for a single stage that advances nobody), the tab asked for if it is one, whether
    the event has teams (their tab), the cut notes of the stages shown, and whether the last
    stage is complete. Made once per version, tab and language, and shared (every page with
    the tabs: the standings, the venue screen, the team pages)."""
    return shared(
        "standings-summary",
        event_stamp(event),
        (tab, get_language()),
        lambda: _summary(event, tab),
    )


def _summary(event: Event, tab: str) -> dict[str, Any]:
    result = published_standings(event)
    staged = len(result.stages) > 1 or any(s.stage.advance for s in result.stages)
    stage = next((s for s in result.stages if s.stage.name == tab), None) if staged else None
    shown = [stage] if stage is not None else result.stages
    notes = [cut_tie_text(s, event.rules.whole_points) for s in shown]
    last = result.stages[-1] if result.stages else None
    return {
        "stages": [s.stage.name for s in result.stages] if staged else [],
        "tab": stage.stage.name if stage else "",
        "has_teams": has_teams(event),
        "cut_notes": [str(n) for n in notes if n],
        "complete": bool(last and last.complete and staged),
    }


@known_query(*STANDINGS_PARAMETERS)
@by_event_version
def event_detail(request: HttpRequest, event: Event) -> HttpResponse:
    """The standings page. Its content is rendered once per version, checked query and
    language (and apart for those who may manage the event: their link) and shared; the
    frame around it is drawn per request."""
    can_manage = can_referee(request.user, event)  # organizers and referees
    query = standings_query(request, event, PER_PAGE)

    def content() -> dict[str, Any]:
        context = {
            **_standings_context(request, event, query),
            **_conditions_context(event),
            "can_manage": can_manage,
        }
        html = render_to_string("tournament/_event_standings.html", context)
        return {"content": html, "live": context["live"]}

    parts = (query.key, get_language(), can_manage)
    shown = shared("standings-page", event_stamp(event), parts, content)
    return render(request, "tournament/event_detail.html", {"event": event, **shown})


@require_GET
@known_query(*STANDINGS_PARAMETERS)
@by_event_version
def standings_live(request: HttpRequest, event: Event) -> HttpResponse:
    """The standings table alone, for the page to refresh itself without reloading."""
    return _table_fragment(request, event, PER_PAGE)


def _table_fragment(request: HttpRequest, event: Event, per_page: int | None) -> HttpResponse:
    """The standings table alone (the page's refresh, the venue screen's): the same bytes for
    every reader of a version, query, language and page size."""
    query = standings_query(request, event, per_page)
    html = shared(
        "standings-fragment",
        event_stamp(event),
        (query.key, get_language(), per_page),
        lambda: render_to_string(
            "tournament/_standings.html", _standings_context(request, event, query, per_page)
        ),
    )
    response = HttpResponse(html)
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
@known_query(*STANDINGS_PARAMETERS)
@vary_on_headers("X-Requested-With")  # the page and the table it fetches share an address
def standings_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The room's screen (a projector, 1920×1080): once a round is seated and until play starts,
    who sits where; then the standings, every column in type sized to the room (screen.js), a
    long list paging itself; the round's clock while it runs. Its body is fetched again every
    interval; a body drawn in another phase (a new round seated, play begun, every table
    done) makes the page reload, for its header and clock. The page is not tagged by the
    event's version: its clock counts from the server's time when it was drawn."""
    if request.headers.get("X-Requested-With") == "fetch":
        return _screen_table(request, slug)
    event = get_object_or_404(Event, slug=slug)
    phase = round_phase(event)
    query = _screen_query(request, event, phase)
    context = {
        "event": event,
        "phase": phase,
        "clock": phase.clock,
        "body": _screen_body(request, event, query, phase),
        "refresh": REFRESH_SECONDS,
        # The body is fetched with the address's own query: the plain address keeps following
        # the stage in play, `?stage=` stays on every stage.
        "query": request.GET.urlencode(),
        "overall_href": "?stage=",
        "links": _screen_links(request, event, phase),
        "playing": query.stage,  # the stage the heading names (決勝 · 第7回戦…)
        "in_progress": shared_progress(event)[1],
        **standings_summary(event, query.stage),
    }
    response = render(request, "tournament/screen.html", context)
    response["Cache-Control"] = "no-cache"
    return response


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
    if event.checkin_required and phase.phase != "play" and _checking_in(event, phase):
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
        if kind == "checkin":
            # Drawn with the page, never in the cached body: the code changes every few
            # minutes, and the screen reloads itself when it does (screen.js, data-reload-in).
            link["code"] = checkin_code_shown(event)
            link["reload_in"] = checkin_code_seconds_left()
        links.append(link)
    return links


def _checking_in(event: Event, phase: RoundPhase) -> bool:
    """Whether players may still be checking in: while the first stage is played (a late
    arrival joins the qualifier); by the final nobody can, so the screen no longer asks."""
    last = event.stages.order_by("position").values_list("last_round", flat=True).first()
    return last is None or phase.number is None or phase.number <= last


def _screen_body(
    request: HttpRequest, event: Event, query: StandingsQuery, phase: RoundPhase
) -> str:
    """The screen's body for this version of the event: the seating, or the standings with
    names as plain text; marked with its phase. Shared by every screen of the version."""

    def render_body() -> str:
        context: dict[str, Any] = {"event": event, "phase": phase}
        if phase.phase == "seating":
            context["seating"] = round_seating(event, phase.number or 0)
        else:
            context.update(_standings_context(request, event, query, None, links=False))
        context.update(_conditions_context(event))
        return render_to_string("tournament/_screen_body.html", context)

    parts = (query.key, get_language(), phase.key)
    return shared("screen-body", event_stamp(event), parts, render_body)


FIND_MOST = 20  # seats a search shows: a name typed is a name or two, not the room


@require_GET
@known_query("name")
def find_seat(request: HttpRequest, slug: str) -> HttpResponse:
    """A player's phone: type part of your name, see your table and wind in the latest
    round, big. Public, as the seating on the room's screen is."""
    event = get_object_or_404(Event, slug=slug)
    typed = request.GET.get("name", "")[:NAME_MAX].strip()
    phase = round_phase(event)
    found = seats_named(round_seating(event, phase.number), typed) if phase.number else []
    return render(
        request,
        "tournament/find_seat.html",
        {
            "event": event,
            "phase": phase,
            "typed": typed,
            "found": found[:FIND_MOST],
            "more": len(found) > FIND_MOST,
        },
    )


@by_event_version
def _screen_table(request: HttpRequest, event: Event) -> HttpResponse:
    """The screen's body alone, fetched again every interval (every row: the screen pages
    through them itself); a screen holding the event's version gets 304."""
    phase = round_phase(event)
    query = _screen_query(request, event, phase)
    response = HttpResponse(_screen_body(request, event, query, phase))
    response["Cache-Control"] = "no-cache"
    return response


def download(data: bytes, fmt: str, name: str) -> HttpResponse:
    """A file from the export pipeline, saved as `name.fmt`. An address in Japanese needs
    RFC 6266's filename*= to reach the download intact."""
    response = HttpResponse(data, content_type=FORMATS[fmt].content_type)
    response["Content-Disposition"] = content_disposition_header(True, f"{name}.{fmt}")
    return response


@require_GET
@known_query("stage")
@by_event_version
def standings_export(request: HttpRequest, event: Event, fmt: str) -> HttpResponse:
    """CONTRACT §2 files, from the same rows as the page (tournament.exports)."""
    stage = request.GET.get("stage", "")
    if stage and not event_has_stage(event, stage):
        raise Http404  # as the API: a stage the event does not have is no file
    data = shared(
        "standings-file",
        event_stamp(event),
        (fmt, stage, get_language()),  # XLSX says statuses in the reader's words
        lambda: export_standings(event, fmt, stage),
    )
    name = f"{event.slug}-{stage}-standings" if stage else f"{event.slug}-standings"
    return download(data, fmt, name)


MIN_HANDS_CHOICES = (0, 10, 20, 50, 100, 200)


@require_GET
@known_query("min", "sort")
@by_event_version
def event_statistics_page(request: HttpRequest, event: Event) -> HttpResponse:
    """Players' statistics from the hand records: a leaderboard per statistic, then every
    statistic in one sortable table; players below `?min=` hands are set aside."""
    rows = event_statistics(event)
    fitting = fitting_minimum([r.tally.hands for r in rows])
    try:
        least = int(request.GET.get("min", fitting))
    except ValueError:
        least = fitting
    least = max(0, min(least, 10_000))
    counted = [r for r in rows if r.tally.hands and r.tally.hands >= least]
    aside = [r for r in rows if not (r.tally.hands and r.tally.hands >= least)]
    table = statistics_table(counted)
    RequestConfig(request, paginate=False).configure(table)
    boards = []
    for name, lower_first in (
        ("win_rate", False),
        ("deal_in_rate", True),
        ("riichi_rate", False),
        ("average_win", False),
        ("dealer_wins", False),
    ):
        sign = 1 if lower_first else -1
        ranked = [r for r in counted if r.tally.value(name) is not None]
        ranked.sort(key=lambda r, n=name, k=sign: (k * r.tally.value(n), r.player))
        boards.append(
            {"name": name, "label": STAT_LABELS[name], "rows": ranked[:5], "rate": "rate" in name}
        )
    return render(
        request,
        "tournament/event_statistics.html",
        {
            "event": event,
            "table": table,
            "boards": boards,
            "aside": aside,
            "least": least,
            "fitting": fitting,
            "choices": sorted({*MIN_HANDS_CHOICES, least, fitting}),
        },
    )


@require_GET
@known_query()
@by_event_version
def statistics_export(request: HttpRequest, event: Event, fmt: str) -> HttpResponse:
    """The statistics as CSV, XLSX or JSON: the one export pipeline (tournament.exports)."""
    data = shared(
        "statistics-file",
        event_stamp(event),
        (fmt, get_language()),
        lambda: export_statistics(event, fmt),
    )
    return download(data, fmt, f"{event.slug}-statistics")


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every table of a round with seats, scores and points; tables still playing marked."""
    event = get_object_or_404(Event, slug=slug)
    rnd = get_object_or_404(round_list(event), number=number)
    numbers = list(event.rounds.order_by("number").values_list("number", flat=True))
    return render(
        request,
        "tournament/round_detail.html",
        {"event": event, "round": rnd, "numbers": numbers, "clock": round_clock(rnd)},
    )


SEATING_ORDERS = ("table", "name")


@require_GET
@known_query("order")
def round_seating_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's seating to print for the wall (one A4 for up to 16 tables): by table, each
    with its players by wind; or (`?order=name`) every player by name with their table and
    wind, for a room looking for its own name."""
    event = get_object_or_404(Event, slug=slug)
    order = request.GET.get("order") or "table"
    if order not in SEATING_ORDERS:
        raise Http404
    seating = round_seating(event, number)
    if not seating:
        raise Http404  # a round this event has not seated
    return render(
        request,
        "tournament/round_seating.html",
        {
            "event": event,
            "number": number,
            "order": order,
            "seating": seating,
            "by_name": seats_named(seating, "") if order == "name" else [],
        },
    )


@known_query()
@by_game_version
def game_detail_page(request: HttpRequest, found: GameVersion) -> HttpResponse:
    """One table: results with the breakdown; for hand-by-hand games the log and a chart.
    Made once per version of the game (one query for the readers after the first): what
    it shows is the game's own, its players' names and the event's name and rules — a
    result at another table leaves it as it was, unlike the event's stamp."""
    seated = found.names

    def sheet() -> tuple[str, str, dict[str, Any]]:
        event = get_object_or_404(Event.objects.select_related("venue"), pk=found.event_id)
        try:
            game = game_detail(event, found.game_id)
        except Game.DoesNotExist:  # deleted since the tag was read
            raise Http404 from None
        seats = list(game.seats.all())
        hands = list(game.hands.all())
        chart = None
        if hands:
            chart = score_chart(
                seated,
                event.rules.start,
                [h.scores for h in hands],
                [hand_label(h.label) for h in hands],
            )
        table = _("Round %(r)s · table %(t)s") % {"r": game.round.number, "t": game.table}
        context = {
            "event": event,
            "game": game,
            "seats": seats,
            "names": seated,
            "log": hand_log(hands),
            "chart": chart,
            "whole": event.rules.whole_points,
            "prizes": _prize_columns(event.rules),
        }
        return f"{table} · {event.name}", "tournament/_game_sheet.html", context

    shown = (seated, found.event_name)  # a game never changes event; its rules never change
    page = shared("game-sheet", found.stamp, (*shown, get_language()), lambda: _sheet_body(sheet))
    # At the deciding round's last hand, what each player needs: it moves with the other
    # tables' results too, so it is made per version of the event (the page's tag).
    needs = ""
    if page.get("in_play"):
        needs = shared(
            "game-conditions",
            found.event_stamp,
            (found.game_id, get_language()),
            lambda: _sheet_conditions(found),
        )
    return render(request, "shared_page.html", {**page, "after": needs})


def _sheet_body(make: Callable[[], tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    """A sheet's title and content, the same for every reader of the game's version (no
    request in it: the frame around them — header, language and sign-out forms — is drawn per
    request), and whether the game may still reach its last hand."""
    title, template, context = make()
    game = context["game"]
    return {
        "title": title,
        "content": render_to_string(template, context),
        "in_play": not game.finished and game.mode == "hands",  # may reach its last hand
    }


def _sheet_conditions(found: GameVersion) -> str:
    """The sheet's conditions panel (empty unless the game is at the deciding last hand)."""
    event = Event.objects.get(pk=found.event_id)
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


def player_by_name(request: HttpRequest, name: str) -> HttpResponse:
    """An address made from a name before players had ids: on to the player's page."""
    try:
        name = normalize_name(name)
    except ScoringError:
        raise Http404 from None
    player = get_object_or_404(Player, name=name)
    return redirect("player-detail", player.pk, permanent=True)


@known_query()
@by_player_events
def player_detail(
    request: HttpRequest, player_id: int, entered: PlayerEvents | None
) -> HttpResponse:
    """A player's games in every event: totals, rank distribution, top rate, cumulative chart,
    and where they stand in each event. What comes from their own games is made once until
    one of them changes (a result at another table leaves it as it was); where they stand,
    which any result may move, comes from the placings made once per version of the event
    for every player (selectors/standings.py) — no ranking here."""
    if entered is None:  # in no event: little to show, nothing to key it by
        player = get_object_or_404(Player, pk=player_id)
        page = _player_body(player)
        return render(request, "tournament/player_page.html", {"page": page, "sections": []})
    events = entered.events
    player = Player(pk=player_id, name=entered.name)

    def context() -> dict[str, Any]:
        # Keyed by their own games and their events' names, not the events' versions.
        shown = [(pk, name, slug) for pk, (_stamp, name, slug) in events.items()]
        page = shared(
            "player-page",
            str(player_id),
            (entered.name, own_games_key(player_id), shown, get_language()),
            lambda: _player_body(player),
        )
        # A section per event with a finished game of theirs (a seat needs an entry).
        shown_sections = [s for s in page["sections"] if s["event_id"] in events]
        placings = published_placings(
            [(s["event_id"], events[s["event_id"]][0]) for s in shown_sections], player.name
        )
        sections = []
        for section in shown_sections:
            _stamp, name, slug = events[section["event_id"]]
            placing = placings.get(section["event_id"])
            sections.append({**section, "name": name, "slug": slug, "placing": placing})
        return {"page": page, "sections": sections, "rating": _rating_section(player_id)}

    return render(request, "tournament/player_page.html", context())


def _rating_section(player_id: int) -> dict[str, Any] | None:
    """The player's site rating, its scale and its history after each game as a chart (one
    query: their steps). Read per request: a correction in an earlier event replays ratings
    in later ones (the page's tag holds the player's newest step, views/conditional.py)."""
    history = rating_history(player_id)
    if not history:
        return None
    chart = score_chart(
        [_("Rating")],
        NEW.rating,
        [[point.rating] for point in history],
        [str(k) for k in range(1, len(history) + 1)],
    )
    return {"now": history[-1].rating, "games": len(history), "chart": chart, "scale": scale_text()}


def _player_body(player: Player) -> dict[str, Any]:
    """What a player's page shows from their own games, rendered: the title, the top, and
    per event the figures and the rest of the section (player_page.html puts the rest)."""
    records = player_games(player)
    per_event, overall = player_statistics(player)
    sections = []
    for record in records:
        points = record.cumulative()
        chart = score_chart(
            [player.name],
            0,
            [[total] for _n, total in points],
            [round_heading(n) for n, _t in points],
        )
        context = {"record": record, "chart": chart, "stats": per_event.get(record.event.pk)}
        sections.append(
            {
                "event_id": record.event.pk,
                "total": record.total,
                "figures": render_to_string("tournament/_player_figures.html", context),
                "html": render_to_string("tournament/_player_section.html", context),
            }
        )
    totals = {
        "stats": overall,
        "games": sum(r.games for r in records),
        "events": len(records),
    }
    intro = render_to_string("tournament/_player_intro.html", {"player": player, "totals": totals})
    return {"title": player.name, "intro": intro, "sections": sections}


CHECKIN_KEY = "checkin:{event}"  # the session's note of the player this phone checked in


@never_cache
@require_http_methods(["GET", "POST"])
def event_checkin(request: HttpRequest, slug: str) -> HttpResponse:
    """A player checks in at the venue: name and the code shown there (it changes every few
    minutes). Wrong codes count per phone and per address (services/throttle.py); a right one
    gives its try back. A phone checks in one player, its own: once it has, it says whom and
    refuses another name until the organizer undoes that check-in."""
    event = get_object_or_404(Event, slug=slug)
    held = checkin_phone_player(event, request.session.get(CHECKIN_KEY.format(event=event.pk)))
    form = CheckinForm(request.POST or None)
    status = 200
    if form.is_bound:
        status = 400
        if form.is_valid():
            status = _checkin_try(request, event, form)
            if status == 302:
                return redirect("event-checkin", event.slug)
    context = {"event": event, "form": form, "held": held}
    return render(request, "tournament/checkin.html", context, status=status)


def _checkin_try(request: HttpRequest, event: Event, form: CheckinForm) -> int:
    try:
        guess = guess_take("checkin", phone=phone_id(request), address=client_address(request))
    except Throttled as stop:
        minutes = max(1, -(-stop.seconds // 60))
        form.add_error(
            "code",
            ngettext(
                "Too many wrong codes from this phone or network. Try again in %(n)d minute, "
                "or ask the organizer to tick you present.",
                "Too many wrong codes from this phone or network. Try again in %(n)d minutes, "
                "or ask the organizer to tick you present.",
                minutes,
            )
            % {"n": minutes},
        )
        return 429
    if not checkin_code_right(event, form.cleaned_data["code"]):
        form.add_service_error(ServiceError("checkin.code_wrong", "code"))
        return 400
    guess.right()
    key = CHECKIN_KEY.format(event=event.pk)
    try:
        entry = checkin_self(
            event=event, name=form.cleaned_data["name"], phone_player=request.session.get(key)
        )
    except ServiceError as exc:
        form.add_service_error(exc)
        return 400
    request.session[key] = entry.pk
    messages.success(
        request, _("%(name)s is checked in. Wait for the seating.") % {"name": entry.player.name}
    )
    return 302
