"""`GET /api/v1/events/<slug>/tables/<round>/<table>/live` (CONTRACT §9): one table as a stream
shows it, for broadcasters' own graphics — the data the overlay draws; and
`GET /api/v1/events/<slug>/featured/live`, the same for the table the organizer put on stream,
whichever it is. Its own module, as the API's is full; imported by urls.py so the endpoints are
on `api` before its URLs are made."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Schema
from ninja.decorators import decorate_view

from tournament.api import ERRORS, ApiError, api, event_or_404
from tournament.http_caching import api_by_featured_version, api_by_table_version
from tournament.selectors.table_live import featured_game, table_game, table_live


class LiveSeatOut(Schema):
    seat: int
    wind: str | None  # E, S, W, N in the hand about to be played (the dealer E); None: over
    player: str
    score: int
    riichi: bool  # put a stick in the last hand entered


class TableLiveOut(Schema):
    round: int
    table: int
    label: str | None  # the hand about to be played ("E3-1"); None once the game is over
    honba: int | None
    riichi_sticks: int
    dealer: int | None
    seats: list[LiveSeatOut]
    last: dict[str, Any] | None  # the last hand entered, as `python -m scoring game` gives it
    finished: bool
    confirmed: bool
    confirmation: str  # "" | "waiting" | "disputed"
    round_wind: str | None
    # CONTRACT §6 at the table: what each seat needs in the last hand of a stage's deciding
    # round (`seats`: seat, player, now, tsumo, ron by discarder's seat), and before that
    # round's game begins what each place would need (`rows`); else null.
    conditions: dict[str, Any] | None
    before: dict[str, Any] | None


LIVE = "/events/{slug}/tables/{round_number}/{table}/live"


@api.get(LIVE, response={200: TableLiveOut, **ERRORS})
@decorate_view(api_by_table_version)
def table_live_answer(
    request: HttpRequest, slug: str, round_number: int, table: int
) -> dict[str, Any]:
    """CONTRACT §9: the table's hand about to be played, sticks, seats (wind, player, score,
    riichi), the last hand entered, whether the game is over and its result counts. With the
    game's ETag: a repeat with If-None-Match gets 304 until the table moves."""
    event = event_or_404(slug)
    game = table_game(event, round_number, table)
    if game is None:
        raise ApiError(404, f"no table {table} in round {round_number} of {slug!r}", "table")
    return table_live(event, game)


FEATURED = "/events/{slug}/featured/live"


@api.get(FEATURED, response={200: TableLiveOut, **ERRORS})
@decorate_view(api_by_featured_version)
def featured_live_answer(request: HttpRequest, slug: str) -> dict[str, Any]:
    """CONTRACT §9: the table on stream — the one the organizer features on the dashboard —
    as its own feed gives it (the same fields; `round` and `table` say which it is). Its
    ETag moves when that table moves or another is featured; 404 while none is."""
    event = event_or_404(slug)
    game = featured_game(event)
    if game is None:
        raise ApiError(404, f"no table of {slug!r} is featured", "table")
    return table_live(event, game)
