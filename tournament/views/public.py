"""Pages anyone may read."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.http import content_disposition_header
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from scoring import ScoringError
from scoring.names import normalize_name
from scoring.rules import Ruleset
from tournament.caching import event_stamp, shared
from tournament.charts import score_chart
from tournament.exports import export_standings, export_statistics
from tournament.i18n import cut_tie_text
from tournament.models import Event, Game, Player
from tournament.permissions import can_create_events, can_referee
from tournament.selectors.games import game_detail, hand_log, round_list
from tournament.selectors.players import player_record
from tournament.selectors.series import series_list
from tournament.selectors.standings import (
    event_list,
    fraction_rounds,
    published_player_ids,
    published_standings,
    round_progress,
)
from tournament.selectors.statistics import event_statistics, player_statistics
from tournament.selectors.tables import round_clock
from tournament.tables import STAT_LABELS, standings_table, statistics_table
from tournament.views.conditional import by_event_version, by_game_version, by_player_events

EXPORTS = {
    "csv": "text/csv; charset=utf-8",
    "json": "application/json",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
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
    request: HttpRequest, event: Event, per_page: int | None = PER_PAGE
) -> dict[str, Any]:
    """Queries: the standings (3) unless this process has them for the event's version; the
    rounds (1: those with results, the one in progress) unless some server has them — none
    at all between two writes, whatever the size. `per_page` None: every row (the venue
    screen pages through them itself)."""
    result = published_standings(event)
    staged = len(result.stages) > 1 or any(s.stage.advance for s in result.stages)
    tab = request.GET.get("stage", "")
    stage = next((s for s in result.stages if s.stage.name == tab), None) if staged else None
    # The round columns, the live marker and, at a venue of whole points, the rounds with a
    # fraction of a point: once per version (every write that starts, ends or changes a game
    # moves it on), so the columns are chosen without reading every player's rounds and only
    # the rows shown are read.
    stamp = event_stamp(event)
    rounds, in_progress = shared("standings-rounds", stamp, None, lambda: round_progress(event))
    whole = event.rules.whole_points
    fractions = (
        shared("standings-fractions", stamp, None, lambda: fraction_rounds(result)) if whole else ()
    )

    def render_table() -> str:
        sort = request.GET.get("sort", "")
        table = standings_table(
            result,
            players_per_table=event.rules.players,
            whole=event.rules.whole_points,
            stage=stage,
            in_progress=in_progress,
            sorted_by_user=bool(sort and sort != "rank"),
            player_ids=published_player_ids(event),
            rounds=rounds,
            fractions=fractions,
        )
        paginate: Any = {"per_page": per_page} if per_page else False
        RequestConfig(request, paginate=paginate).configure(table)
        return table.as_html(request)

    # The rendered table (a hundred rows of twenty cells is most of a page's time), per event
    # version, language and query, shared by every app server (tournament/caching.py):
    # between two results every phone gets the same bytes.
    key = (in_progress, get_language(), request.GET.urlencode(), per_page)
    played = set(rounds) | ({in_progress} if in_progress else set())
    last = result.stages[-1] if result.stages else None
    finished = bool(last and last.complete and in_progress is None and staged)
    shown = [stage] if stage is not None else result.stages
    notes = [cut_tie_text(s, event.rules.whole_points) for s in shown]
    return {
        "cut_notes": [n for n in notes if n],
        "event": event,
        "table_html": shared("standings-table", stamp, key, render_table),
        "stages": result.stages if staged else [],
        "tab": stage.stage.name if stage else "",
        "in_progress": in_progress,
        "round_numbers": sorted(played),
        "live": not finished,
        "refresh": REFRESH_SECONDS,
        "updated": event.updated_at,  # the last change (services/audit.py), not this render
        "query": request.GET.urlencode(),
    }


@by_event_version
def event_detail(request: HttpRequest, event: Event) -> HttpResponse:
    context = _standings_context(request, event)
    context["can_manage"] = can_referee(request.user, event)  # organizers and referees
    return render(request, "tournament/event_detail.html", context)


@require_GET
@by_event_version
def standings_live(request: HttpRequest, event: Event) -> HttpResponse:
    """The standings table alone, for the page to refresh itself without reloading."""
    response = render(request, "tournament/_standings.html", _standings_context(request, event))
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def standings_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings for a venue's projector (1920×1080): every column in large type, stage
    tabs, the cut; a long list pages itself, and the table refreshes in place (screen.js)."""
    event = get_object_or_404(Event, slug=slug)
    context = _standings_context(request, event, per_page=None)
    fetched = request.headers.get("X-Requested-With") == "fetch"
    template = "tournament/_standings.html" if fetched else "tournament/screen.html"
    if not fetched:  # the latest round's clock, when one runs (the page reloads per round)
        latest = event.rounds.order_by("-number").first()
        context["clock"] = round_clock(latest) if latest is not None else None
    response = render(request, template, context)
    response["Cache-Control"] = "no-cache"
    return response


def download(data: bytes, fmt: str, name: str) -> HttpResponse:
    """A file from the export pipeline, saved as `name.fmt`. An address in Japanese needs
    RFC 6266's filename*= to reach the download intact."""
    response = HttpResponse(data, content_type=EXPORTS[fmt])
    response["Content-Disposition"] = content_disposition_header(True, f"{name}.{fmt}")
    return response


@require_GET
@by_event_version
def standings_export(request: HttpRequest, event: Event, fmt: str) -> HttpResponse:
    """CONTRACT §2 files, from the same rows as the page (tournament.exports)."""
    if fmt not in EXPORTS:
        raise Http404
    stage = request.GET.get("stage", "")
    data = shared(
        "standings-file",
        event_stamp(event),
        (fmt, stage, get_language()),  # XLSX says statuses in the reader's words
        lambda: export_standings(event, fmt, stage),
    )
    name = f"{event.slug}-{stage}-standings" if stage else f"{event.slug}-standings"
    return download(data, fmt, name)


MIN_HANDS = 20  # statistics over fewer hands say little: such players are listed apart
MIN_HANDS_CHOICES = (0, 10, 20, 50, 100, 200)


@require_GET
@by_event_version
def event_statistics_page(request: HttpRequest, event: Event) -> HttpResponse:
    """Players' statistics from the hand records: a leaderboard per statistic, then every
    statistic in one sortable table; players below `?min=` hands are set aside."""
    try:
        least = int(request.GET.get("min", MIN_HANDS))
    except ValueError:
        least = MIN_HANDS
    least = max(0, min(least, 10_000))
    rows = event_statistics(event)
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
            "choices": sorted({*MIN_HANDS_CHOICES, least}),
            "formats": EXPORTS,
        },
    )


@require_GET
@by_event_version
def statistics_export(request: HttpRequest, event: Event, fmt: str) -> HttpResponse:
    """The statistics as CSV, XLSX or JSON: the one export pipeline (tournament.exports)."""
    if fmt not in EXPORTS:
        raise Http404
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


def shared_page(
    request: HttpRequest,
    kind: str,
    stamp: str,
    parts: Any,
    make: Callable[[], tuple[str, str, dict[str, Any]]],
) -> HttpResponse:
    """A page whose title and content are the same for every reader of this version: `make()`
    gives (title, content template, its context), rendered once per version, `parts` and
    language and shared by every server (tournament/caching.py); the frame around it —
    header, language and sign-out forms with their CSRF tokens — is drawn per request."""

    body = shared(kind, stamp, (*parts, get_language()), lambda: _page_body(make))
    return render(request, "shared_page.html", body)


def _page_body(make: Callable[[], tuple[str, str, dict[str, Any]]]) -> dict[str, str]:
    """The title and rendered content `shared_page.html` frames (no request: nothing in it
    is a reader's own)."""
    title, template, context = make()
    return {"title": title, "content": render_to_string(template, context)}


@by_game_version
def game_detail_page(request: HttpRequest, found: Game) -> HttpResponse:
    """One table: results with the breakdown; for hand-by-hand games the log and a chart.
    Made once per version of the game (two queries for the readers after the first): what
    it shows is the game's own, its players' names and the event's name and rules — a
    result at another table leaves it as it was, unlike the event's stamp."""
    event = found.round.event
    seated = list(found.seats.order_by("position").values_list("player__name", flat=True))

    def sheet() -> tuple[str, str, dict[str, Any]]:
        game = game_detail(event, found.pk)
        seats = list(game.seats.all())
        hands = list(game.hands.all())
        chart = None
        if hands:
            chart = score_chart(
                seated, event.rules.start, [h.scores for h in hands], [h.label for h in hands]
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

    stamp = f"{found.pk}.{found.created_at.timestamp():.6f}.{found.version}"
    shown = (seated, event.slug, event.name, event.ruleset_snapshot)
    return shared_page(request, "game-sheet", stamp, shown, sheet)


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


@by_player_events
def player_detail(request: HttpRequest, player_id: int, stamps: list[str]) -> HttpResponse:
    """A player's games in every event: totals, rank distribution, top rate, cumulative chart.
    Made once until one of their events moves on (`stamps`, from by_player_events)."""

    def page() -> tuple[str, str, dict[str, Any]]:
        player = get_object_or_404(Player, pk=player_id)
        records = player_record(player)
        sections = []
        for record in records:
            points = record.cumulative()
            chart = score_chart(
                [player.name], 0, [[total] for _n, total in points], [f"R{n}" for n, _t in points]
            )
            sections.append({"record": record, "chart": chart})
        per_event, overall = player_statistics(player)
        for section in sections:
            section["stats"] = per_event.get(section["record"].event.pk)
        totals = {
            "stats": overall,
            "games": sum(r.games for r in records),
            "events": len(records),
            "total": sum((r.total for r in records), Decimal(0)),
        }
        context = {"player": player, "sections": sections, "totals": totals}
        return player.name, "tournament/_player_page.html", context

    if not stamps:  # in no event: nothing to key it by, and little to show
        return render(request, "shared_page.html", _page_body(page))
    name, *events = stamps  # a name may hold any character: it goes in the hashed parts
    return shared_page(request, "player-page", "|".join(events), (player_id, name), page)
