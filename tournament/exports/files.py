"""An event's downloads as bytes, made once per version of the event, file and language and
shared by every server: a full standings file at 10,000 players takes hundreds of milliseconds
to make, so it is not made per request (docs/performance.md, "Issue 45"). A phone holding the
version gets 304 before any of this runs (http_caching/conditional.py).

Here, not in selectors/: a file is made from the selectors' records by this package, and the
arrows run one way (views → exports → selectors), so the read cache is asked for a file by
the package that writes it."""

from __future__ import annotations

from django.utils.translation import get_language

from tournament.exports.standings import export_standings
from tournament.exports.statistics import export_statistics
from tournament.exports.teams import export_teams
from tournament.models import Event
from tournament.selectors.cache import event_stamp, shared


def standings_file(event: Event, fmt: str, stage: str = "") -> bytes:
    """CONTRACT §2's standings file (one stage's with `stage`). XLSX says statuses in the
    reader's words, so its language is part of what is kept; CSV and JSON hold codes, the
    same bytes in every language — kept once, for the download and the API's standings
    (whose body the JSON is) alike."""
    parts = (fmt, stage, get_language() if fmt == "xlsx" else "")
    return shared(
        "standings-file", event_stamp(event), parts, lambda: export_standings(event, fmt, stage)
    )


def statistics_file(event: Event, fmt: str) -> bytes:
    """Every player's statistics from the hand records."""
    parts = (fmt, get_language())
    return shared(
        "statistics-file", event_stamp(event), parts, lambda: export_statistics(event, fmt)
    )


def teams_file(event: Event, fmt: str) -> bytes:
    """The team standings (CONTRACT §2 columns)."""
    parts = (fmt, get_language())
    return shared("teams-file", event_stamp(event), parts, lambda: export_teams(event, fmt))
