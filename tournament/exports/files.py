"""Every download's bytes, made one way: a function per file, each kept (`_kept`) by that
file's one stamp (selectors/downloads.py) and shared by every server. A full standings file
at 10,000 players takes hundreds of milliseconds to make, so no file is made per request
(docs/performance.md, "Issue 45"); nothing is cleared, a write moves the stamp. A phone
holding the version gets 304 before any of this runs (http_caching.py).

Here, not in selectors/: a file is made from the selectors' records by this package, and the
arrows run one way (views → exports → selectors), so the read cache is asked for a file by
the package that writes it. Views call these and `download(...)`, and build no key."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TypeVar

from django.utils.translation import get_language

from tournament.exports.ema import export_ema
from tournament.exports.entrants import export_entrants
from tournament.exports.plans import export_plan
from tournament.exports.ratings import export_ratings
from tournament.exports.series import export_series
from tournament.exports.standings import export_standings
from tournament.exports.statistics import export_statistics
from tournament.exports.teams import export_teams
from tournament.models import Event, Series
from tournament.selectors import downloads as stamps
from tournament.selectors.cache import remember, remembered, shared
from tournament.selectors.plans import plan_of
from tournament.selectors.ratings import Pool
from tournament.selectors.series import series_standings

T = TypeVar("T")


def _kept(kind: str, stamp: str, parts: tuple, make: Callable[[], T]) -> T:
    """The one keeper: `make()` once per file kind, stamp and parts across every server."""
    return shared(kind, stamp, parts, make)


def _words(fmt: str) -> str:
    """The reader's language where a file holds words — the XLSX's headings, statuses and
    sheet title; CSV and JSON hold keys and codes, the same bytes in every language, so they
    are kept once for all readers (tests/tournament/test_files_kept.py holds this)."""
    return get_language() if fmt == "xlsx" else ""


# The whole standings' files a reader polls (the download, the API's body) are made by the
# queue after each result, ahead of their next reader (tournament/publish.py) — while a reader
# asks for them: one who finds a file not made yet marks it wanted for WANTED_SECONDS. A file
# nobody reads is not made after every result (at 10,000 players the CSV and the JSON took the
# worker 0.8 s a result, a core's worth on `make load`'s result-a-second writer, and the
# readers missed their target: docs/performance.md); the first reader after a quiet spell makes
# it on its own request, as before the queue made any.
WANTED_SECONDS = 15 * 60


def _standings_kept(event: Event, fmt: str, stage: str, make: Callable[[], bytes]) -> bytes:
    return _kept("standings-file", stamps.standings_stamp(event), (fmt, stage, _words(fmt)), make)


def standings_file(event: Event, fmt: str, stage: str = "") -> bytes:
    """CONTRACT §2's standings file (one stage's with `stage`): the download and the API's
    standings (whose body the JSON is) alike. Kept by the rows: a hand leaves it. A reader
    who has to make the whole standings' file marks it wanted (`standings_file_ahead`)."""

    def make() -> bytes:
        if not stage:
            remember("standings-file-wanted", (event.pk, fmt), WANTED_SECONDS)
        return export_standings(event, fmt, stage)

    return _standings_kept(event, fmt, stage, make)


def standings_file_ahead(event: Event, fmt: str) -> bool:
    """The queue's, after a result: the whole standings' file made for its next reader if a
    reader wanted it lately; whether it was."""
    if not remembered("standings-file-wanted", (event.pk, fmt)):
        return False
    _standings_kept(event, fmt, "", partial(export_standings, event, fmt, ""))
    return True


def statistics_file(event: Event, fmt: str) -> bytes:
    """Every player's statistics from the hand records."""
    make = partial(export_statistics, event, fmt)
    return _kept("statistics-file", stamps.statistics_stamp(event), (fmt, _words(fmt)), make)


def teams_file(event: Event, fmt: str) -> bytes:
    """The team standings (CONTRACT §2 columns)."""
    make = partial(export_teams, event, fmt)
    return _kept("teams-file", stamps.teams_stamp(event), (fmt, _words(fmt)), make)


def ema_file(event: Event, fmt: str) -> bytes:
    """The results the EMA asks for (exports/ema.py), the organizers' to send."""
    make = partial(export_ema, event, fmt)
    return _kept("ema-file", stamps.ema_stamp(event), (fmt, _words(fmt)), make)


def entrants_file(event: Event, fmt: str) -> bytes:
    """The entrants with their e-mails (exports/entrants.py), the organizers' to keep: kept
    in the server's own cache only, asked for behind the organizers' check (the answer is
    `no-store`, as every organizer page)."""
    make = partial(export_entrants, event, fmt)
    return _kept("entrants-file", stamps.entrants_stamp(event), (fmt, _words(fmt)), make)


def plan_file(event: Event, fmt: str) -> bytes | None:
    """The whole-day seating plan as `fmt` (one of PLAN_FORMATS, neither holding words);
    None while the event keeps no plan."""

    def make() -> bytes | None:
        plan = plan_of(event)
        return export_plan(event, plan, fmt) if plan is not None else None

    return _kept("plan-file", stamps.plan_stamp(event), (fmt,), make)


def series_file(series: Series, fmt: str) -> bytes:
    """A season's standings file."""

    def make() -> bytes:
        return export_series(series_standings(series), fmt)

    return _kept("series-file", stamps.series_stamp(series), (fmt, _words(fmt)), make)


def ratings_file(pool: Pool, fmt: str, least: int = 0) -> bytes:
    """A pool's leaderboard of players with `least` games or more. The JSON names the pool,
    and the site's pool is named in the reader's words."""
    name = pool.name if fmt == "json" else ""
    make = partial(export_ratings, pool, fmt, least)
    return _kept("ratings-file", stamps.ratings_stamp(pool), (fmt, least, name, _words(fmt)), make)
