"""The read-only JSON API, `/api/v1/` (CONTRACT §4), built with django-ninja: typed answers,
an OpenAPI schema at `/api/v1/schema/` (docs at `/api/v1/docs/`). Reads only, through the same
selectors and export rows as the pages; anyone may read what the public pages show.

Errors are JSON `{"error": …, "field": …}`: 404 for an unknown event, game or player, 400 for a
bad parameter — never an HTML page. An answer about one event carries the ETag of the event's
version, made before the answer is (http_caching.py: 304 for one query); the others get
theirs from Django's ConditionalGetMiddleware. CORS for GET from django-cors-headers
(settings: CORS_URLS_REGEX)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.http import urlencode
from ninja import NinjaAPI, Schema
from ninja.decorators import decorate_view
from ninja.errors import HttpError, ValidationError

from tournament.exports.files import standings_file
from tournament.exports.formats import rows_data
from tournament.exports.ratings import RatingOut, ranked
from tournament.exports.series import iterate_series
from tournament.exports.statistics import (
    PlayerStatisticsOut,
    StatisticsOut,
    statistics_record,
)
from tournament.exports.teams import TeamOut, team_records
from tournament.http_caching import api_by_event_version
from tournament.models import Event, Game
from tournament.selectors.conditions import conditions_of
from tournament.selectors.events import event_by_slug, event_stages, series_by_slug
from tournament.selectors.games import deposits_lost, game_detail, game_for_entry, seat_score
from tournament.selectors.players import player_of, player_record
from tournament.selectors.ratings import pool_of, rating_board
from tournament.selectors.series import series_list, series_standings
from tournament.selectors.standings import event_has_stage, event_list
from tournament.selectors.statistics import event_statistics, player_statistics

PAGE_SIZE = 50


class ApiError(Exception):
    """A refusal the reader can act on: its status, what is wrong, the parameter it is in."""

    def __init__(self, status: int, error: str, field: str = "") -> None:
        super().__init__(error)
        self.status, self.error, self.field = status, error, field


api = NinjaAPI(
    title="Mahjong standings API",
    version="1",
    description="Read-only: events, standings, games with hands, statistics, players.",
    urls_namespace="api-v1",
    openapi_url="/schema/",
    docs_url="/docs/",
)


def error_response(status: int, error: str, field: str = "") -> JsonResponse:
    return JsonResponse({"error": error, "field": field}, status=status)


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return error_response(exc.status, exc.error, exc.field)


@api.exception_handler(ValidationError)
def _bad_parameter(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    first = exc.errors[0] if exc.errors else {}
    loc = [str(part) for part in first.get("loc", ()) if part not in ("query", "path")]
    return error_response(400, str(first.get("msg", "bad parameter")), ".".join(loc))


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return error_response(exc.status_code, str(exc))


# --- answers ------------------------------------------------------------------------------


class EventOut(Schema):
    slug: str
    name: str
    ruleset: str
    format: str
    players: int


class EventPage(Schema):
    results: list[EventOut]
    next: str | None


class RowsOut(Schema):
    """The body of the standings.json download: its columns a round or a place each (r1, r2,
    …, rank_1, …), so a row is a mapping (tournament/exports/standings.file_columns)."""

    event: str
    name: str
    standings: list[dict[str, Any]]


# A table's row (TeamOut, RatingOut, …) is typed from its columns (tournament/exports/).
class TeamsOut(Schema):
    results: list[TeamOut]


class SeatResultOut(Schema):
    seat: int
    rank: int | None
    score: int | None
    points: float | None
    chips: int
    breakdown: dict[str, Any]


class ResultOut(Schema):
    players: list[SeatResultOut]
    deposits_lost: int  # the deposits the settlement gives to nobody (the engine's)


class GameOut(Schema):
    id: int
    round: int
    table: int
    finished: bool
    seats: list[str]
    scores: list[int | None]
    hands: list[dict[str, Any]] | None = None  # as entered; None for a game kept as scores
    result: ResultOut


class ConditionsOut(Schema):
    game: int
    round: int
    table: int
    available: bool  # the game is at the last hand of its stage's deciding round
    stage: str | None = None
    target: int | None = None
    hand: dict[str, Any] | None = None
    scores: list[int] | None = None
    seats: list[dict[str, Any]]


class StatsOut(Schema):
    event: str
    players: list[PlayerStatisticsOut]


class PlayerEventOut(Schema):
    slug: str
    name: str
    rank: int | None
    status: str
    total: float | None
    games: int


class PlayerOut(Schema):
    id: int
    name: str
    events: list[PlayerEventOut]
    statistics: StatisticsOut


class RatingPage(Schema):
    results: list[RatingOut]
    next: str | None


class ErrorOut(Schema):
    error: str
    field: str


ERRORS: dict[int, Any] = {400: ErrorOut, 404: ErrorOut}


def event_or_404(slug: str) -> Event:
    """The event at `slug`, or the API's 404 naming the field (both API modules)."""
    event = event_by_slug(slug)
    if event is None:
        raise ApiError(404, f"no event {slug!r}", "slug")
    return event


# Pages of 50: a million of them is more events than any site holds, and keeps the offset a
# database is asked for within a bigint (10**20 was a 500 on both databases).
MAX_PAGE = 1_000_000


def _page(value: str) -> int:
    try:
        page = int(value)
    except ValueError:
        raise ApiError(400, f"{value[:20]!r} is not a page number", "page") from None
    if page < 1:
        raise ApiError(400, "pages start at 1", "page")
    if page > MAX_PAGE:
        raise ApiError(400, f"there are no pages after {MAX_PAGE}", "page")
    return page


# --- endpoints ----------------------------------------------------------------------------


class Page(TypedDict):
    results: list[Any]  # the endpoint's answers (EventOut, RatingOut, …)
    next: str | None


def _paginated(
    request: HttpRequest, rows: Any, page: str, route: str, answers: Callable[[list], list]
) -> Page:
    """One page of `rows` as `{"results": answers(the page's rows), "next": url|null}` (one
    query for the page)."""
    number = _page(page)
    start = (number - 1) * PAGE_SIZE
    found = list(rows[start : start + PAGE_SIZE + 1])
    next_url = None
    if len(found) > PAGE_SIZE:
        next_url = request.build_absolute_uri(f"{reverse(route)}?page={number + 1}")
    return Page(results=answers(found[:PAGE_SIZE]), next=next_url)


@api.get("/events/", response={200: EventPage, **ERRORS})
def events(request: HttpRequest, page: str = "1") -> Page:
    """Events, newest first, 50 a page."""
    return _paginated(
        request,
        event_list(),
        page,
        "api-v1:events",
        lambda found: [
            EventOut(
                slug=e.slug,
                name=e.name,
                ruleset=e.rules.slug,
                format=e.format,
                players=e.player_count,
            )
            for e in found
        ],
    )


@api.get("/events/{slug}/standings", response={200: RowsOut, **ERRORS})
@decorate_view(api_by_event_version)
def standings(request: HttpRequest, slug: str, stage: str = "") -> HttpResponse:
    """The body of the event's standings.json download (one stage's with `?stage=`): that
    download's own bytes, made once per version of the event and shared by every server and
    reader (exports/files.py) — at 10,000 players making them is hundreds of milliseconds,
    reading them a cache hit. Never paginated (README, "The API": one document)."""
    event = event_or_404(slug)
    if stage and not event_has_stage(event, stage):
        names = ", ".join(s.name for s in event_stages(event))
        raise ApiError(400, f"no stage {stage!r} (stages: {names or 'none'})", "stage")
    return HttpResponse(
        standings_file(event, "json", stage), content_type="application/json; charset=utf-8"
    )


@api.get("/events/{slug}/teams", response={200: TeamsOut, **ERRORS})
@decorate_view(api_by_event_version)
def teams(request: HttpRequest, slug: str) -> TeamsOut:
    """CONTRACT §4: the team standings by §2's rule (members as a list of names)."""
    return TeamsOut(results=team_records(event_or_404(slug)))


@api.get("/ratings/", response={200: RatingPage, **ERRORS})
def ratings(request: HttpRequest, series: str = "", page: str = "1") -> Page:
    """CONTRACT §4: the site's ratings (a series' own pool with `?series=`), best first, 50 a
    page: the rank (equal ratings share one, as on the leaderboard; a page after the first
    asks how many rate above it), openskill's Plackett–Luce mu and sigma, and the rating the
    site shows."""
    found = None
    if series:
        found = series_by_slug(series)
        if found is None:
            raise ApiError(404, f"no series {series!r}", "series")
    pool = pool_of(found, "ratings")
    offset = (_page(page) - 1) * PAGE_SIZE
    answer = _paginated(
        request,
        rating_board(pool),
        page,
        "api-v1:ratings",
        lambda rows: [r.answer() for r in ranked(rows, pool, offset=offset)],
    )
    if answer["next"] and series:
        answer["next"] += "&" + urlencode({"series": series})
    return answer


@api.get("/events/{slug}/games/{game_id}", response={200: GameOut, **ERRORS})
@decorate_view(api_by_event_version)
def game(request: HttpRequest, slug: str, game_id: int) -> GameOut:
    """One table: its seats (seat 0 the first dealer), scores, hands as entered, and the
    result as `settle` gives it (stored, not recomputed)."""
    event = event_or_404(slug)
    try:
        found = game_detail(event, game_id)
    except Game.DoesNotExist:
        raise ApiError(404, f"no game {game_id} in {slug!r}", "game_id") from None
    seats = list(found.seats.all())
    players = [
        SeatResultOut(
            seat=s.position,
            rank=s.rank,
            score=s.result_score,
            points=None if s.points is None else float(s.points),
            chips=s.chips,
            breakdown=s.breakdown,
        )
        for s in seats
    ]
    return GameOut(
        id=found.pk,
        round=found.round.number,
        table=found.table,
        finished=found.finished,
        seats=[s.player.name for s in seats],
        scores=[seat_score(s, found) for s in seats],  # running scores while in play
        hands=[h.data for h in found.hands.all()] if found.mode == "hands" else None,
        result=ResultOut(players=players, deposits_lost=deposits_lost(event, found)),
    )


@api.get("/events/{slug}/games/{game_id}/conditions", response={200: ConditionsOut, **ERRORS})
@decorate_view(api_by_event_version)
def game_conditions_answer(request: HttpRequest, slug: str, game_id: int) -> ConditionsOut:
    """CONTRACT §6 for one table, live: at the last hand of its stage's deciding round, what
    each seat needs (`seats` as `python -m scoring conditions` answers); before or after it,
    `available` false and no seats."""
    event = event_or_404(slug)
    try:
        found = game_for_entry(event, game_id)
    except Game.DoesNotExist:
        raise ApiError(404, f"no game {game_id} in {slug!r}", "game_id") from None
    where = {"game": found.pk, "round": found.round.number, "table": found.table}
    answer = conditions_of(event, found)
    if answer is None:
        return ConditionsOut(**where, available=False, seats=[])
    return ConditionsOut(
        **where,
        available=True,
        stage=answer["stage"],
        target=answer["target"],
        hand=answer["hand"],
        scores=answer["scores"],
        seats=answer["seats"],
    )


@api.get("/events/{slug}/stats", response={200: StatsOut, **ERRORS})
@decorate_view(api_by_event_version)
def stats(request: HttpRequest, slug: str) -> StatsOut:
    """Every player's statistics in the event (CONTRACT §4 "Statistics")."""
    event = event_or_404(slug)
    return StatsOut(
        event=event.slug, players=[statistics_record(r) for r in event_statistics(event)]
    )


@api.get("/players/{player_id}", response={200: PlayerOut, **ERRORS})
def player(request: HttpRequest, player_id: int) -> PlayerOut:
    """The player, their events with final rank and status, statistics over every event."""
    found = player_of(player_id)
    if found is None:
        raise ApiError(404, f"no player {player_id}", "player_id")
    records = player_record(found)
    _per_event, overall = player_statistics(found)
    events = [
        PlayerEventOut(
            slug=r.event.slug,
            name=r.event.name,
            rank=r.standing.rank if r.standing else None,
            status=(r.standing.status or "") if r.standing else "",
            total=float(r.standing.total) if r.standing else None,
            games=r.games,
        )
        for r in records
    ]
    return PlayerOut(id=found.pk, name=found.name, events=events, statistics=overall.to_json())


class SeriesOut(Schema):
    slug: str
    name: str
    rule: str
    best_of: int | None
    min_games: int


class SeriesPage(Schema):
    results: list[SeriesOut]
    next: str | None


class SeriesStandingsOut(Schema):
    series: str
    name: str
    events: list[str]
    standings: list[dict[str, Any]]


@api.get("/series/", response={200: SeriesPage, **ERRORS})
def series(request: HttpRequest, page: str = "1") -> Page:
    """Seasons (series of events), newest first, 50 a page."""
    return _paginated(
        request,
        series_list(),
        page,
        "api-v1:series",
        lambda found: [
            SeriesOut(
                slug=s.slug, name=s.name, rule=s.rule, best_of=s.best_of, min_games=s.min_games
            )
            for s in found
        ],
    )


@api.get("/series/{slug}/standings", response={200: SeriesStandingsOut, **ERRORS})
def series_standings_answer(request: HttpRequest, slug: str) -> SeriesStandingsOut:
    """A season's standings: the body of its standings.json (`e1`, `e2`, … its events)."""
    found = series_by_slug(slug)
    if found is None:
        raise ApiError(404, f"no series {slug!r}", "slug")
    result = series_standings(found)
    data = rows_data(iterate_series(result), found)
    events = [e.slug for e in result.events]
    return SeriesStandingsOut(
        series=found.slug, name=found.name, events=events, standings=data["standings"]
    )


def not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Any other address under /api/: JSON, never the site's HTML 404 page."""
    return error_response(404, f"no such address {request.path!r}", "path")
